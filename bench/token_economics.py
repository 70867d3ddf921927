"""Token economics of a whole bank run: segmented (studybot) versus one long chat.

Prints the figures of ``studybot plan`` for Q1–200 of the shipped bank
under both cache rules, and checks the three targets of issue #6:

- single / segmented prompt tokens ≥ 12×
- segmented uncached prompt tokens ≤ 1.2 × floor (simple rule)
- segmented peak context ≤ 6,000 tokens

    python bench/token_economics.py
    python bench/token_economics.py --bank ./my-bank --from 1 --to 120
"""

from __future__ import annotations

import argparse

from studybot import bank, config, whatif

TARGET_PROMPT_RATIO = 12.0
TARGET_FLOOR_RATIO = 1.2
TARGET_PEAK = 6000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bank", default=None, help="bank folder or name (default: shipped)")
    parser.add_argument("--from", dest="first", type=int, default=1)
    parser.add_argument("--to", dest="last", type=int, default=200)
    parser.add_argument("--answer-tokens", type=int, default=None)
    args = parser.parse_args()

    loaded = bank.load(args.bank)
    settings = config.load({"answer_tokens": args.answer_tokens})
    results = {
        rule: whatif.project(
            loaded, args.first, args.last, settings, answer_tokens=args.answer_tokens, rule=rule
        )
        for rule in whatif.RULES
    }
    simple = results["simple"]
    print(
        f"Q{args.first}–{args.last} of {loaded.title}: {simple.segments} segments, "
        f"window {simple.window:,}, KV preset {simple.kv_model}"
    )
    for rule, p in results.items():
        seg, single = p.segmented, p.single
        print(f"\ncache rule: {rule}")
        print(f"{'':<26}{'segmented':>12}{'single':>14}")
        for label, a, b in (
            ("requests", len(seg.requests), len(single.requests)),
            ("prompt tokens", seg.prompt_tokens, single.prompt_tokens),
            ("uncached prompt tokens", seg.uncached_prompt_tokens, single.uncached_prompt_tokens),
            ("completion tokens", seg.completion_tokens, single.completion_tokens),
            ("peak context n", seg.peak_context_tokens, single.peak_context_tokens),
            ("peak KV bytes", seg.peak_kv_bytes or 0, single.peak_kv_bytes or 0),
        ):
            print(f"{label:<26}{a:>12,}{b:>14,}")
        print(
            f"{'prefill ÷ decode':<26}{seg.prefill_decode_ratio:>12.2f}"
            f"{single.prefill_decode_ratio:>14.2f}"
        )
        print(
            f"floor {p.floor:,} · segmented uncached = "
            f"{seg.uncached_prompt_tokens / p.floor:.3f} × floor · "
            f"break point Q{p.break_point} ({p.window:,}), Q{p.break_point_8k} (8K)"
        )
        if p.trap:
            print(
                f"prefix trap: {p.trap.requests} requests miss, {p.trap.tokens:,} tokens; "
                f"system prefix {p.trap.system_tokens} tokens < {p.trap.min_tokens}"
            )

    seg, single = simple.segmented, simple.single
    checks = (
        (
            "single / segmented prompt tokens ≥ 12×",
            single.prompt_tokens / seg.prompt_tokens,
            single.prompt_tokens / seg.prompt_tokens >= TARGET_PROMPT_RATIO,
        ),
        (
            "segmented uncached ≤ 1.2 × floor",
            seg.uncached_prompt_tokens / simple.floor,
            seg.uncached_prompt_tokens <= TARGET_FLOOR_RATIO * simple.floor,
        ),
        (
            "segmented peak context ≤ 6,000",
            seg.peak_context_tokens,
            seg.peak_context_tokens <= TARGET_PEAK,
        ),
    )
    print("\ntargets (simple rule):")
    for label, value, met in checks:
        print(f"  {'met ' if met else 'MISS'}  {label:<42} {value:,.2f}")


if __name__ == "__main__":
    main()
