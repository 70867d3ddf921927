"""Token economics of a whole bank run: segmented (studybot) versus one long chat.

Prints the figures of ``studybot plan`` for Q1–200 of the shipped bank
under the openai, exact and deepseek cache rules, with money at an example
price, and checks the targets of issues #6 and #13:

- single / segmented prompt tokens ≥ 12×
- segmented uncached prompt tokens ≤ 1.2 × floor (openai rule)
- single uncached prompt tokens ≥ floor (the floor is a floor)
- every request after the first hits at least the whole system prefix
- segmented peak context ≤ 6,000 tokens

Time and memory at 200 / 2,000 / 20,000 questions: ``bench/plan_scale.py``.

    python bench/token_economics.py
    python bench/token_economics.py --bank ./my-bank --from 1 --to 120
"""

from __future__ import annotations

import argparse

from studybot import bank
from studybot.channel import config
from studybot.costs import prices, tokens
from studybot.study import projection, prompt

TARGET_PROMPT_RATIO = 12.0
TARGET_FLOOR_RATIO = 1.2
TARGET_PEAK = 6000
RULES = ("openai", "exact", "deepseek")
# An example price per million tokens (input, cached input, output), for the money lines.
EXAMPLE = prices.Price("example", input=2.0, cached_input=0.2, output=8.0, currency="CNY")


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
        rule: projection.project(
            loaded,
            args.first,
            args.last,
            settings,
            answer_tokens=args.answer_tokens,
            rule=rule,
            price=EXAMPLE,
        )
        for rule in RULES
    }
    simple = results["openai"]
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
            f"single uncached = {single.uncached_prompt_tokens / p.floor:.3f} × floor · "
            f"break point Q{p.break_point} ({p.window:,}), Q{p.break_point_8k} (8K)"
        )
        a, b = seg.cost(EXAMPLE), single.cost(EXAMPLE)
        d, s = p.prefixes.designed.cost(EXAMPLE), p.prefixes.short.cost(EXAMPLE)
        print(
            f"money at {EXAMPLE.input}/{EXAMPLE.cached_input}/{EXAMPLE.output} {EXAMPLE.currency} "
            f"per M: segmented {a.text()} · single {b.text()} ({b.total / a.total:.1f}×) · "
            f"designed prefix {d.text()} vs short {s.text()}"
        )
        if p.trap:
            print(
                f"prefix trap: {p.trap.requests} requests miss, {p.trap.tokens:,} tokens; "
                f"system prefix {p.trap.system_tokens} tokens < {p.trap.min_tokens}"
            )

    seg, single = simple.segmented, simple.single
    system = len(tokens.message_ids("system", prompt.system_prefix(loaded)))
    hits = [r.prompt_tokens - r.uncached_prompt_tokens for r in seg.requests]
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
            "single uncached ≥ floor",
            single.uncached_prompt_tokens / simple.floor,
            single.uncached_prompt_tokens >= simple.floor,
        ),
        (
            "every later request hits the whole prefix",
            min(hits[1:], default=0),
            min(hits[1:], default=0) >= system,
        ),
        (
            "segmented peak context ≤ 6,000",
            seg.peak_context_tokens,
            seg.peak_context_tokens <= TARGET_PEAK,
        ),
    )
    print("\ntargets (openai rule):")
    for label, value, met in checks:
        print(f"  {'met ' if met else 'MISS'}  {label:<42} {value:,.2f}")


if __name__ == "__main__":
    main()
