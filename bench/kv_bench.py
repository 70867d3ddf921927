"""KV bytes torch really holds, and attention time per doubling, from 1K to 8K tokens.

For each length: the analytic KV cache of the model, the bytes torch holds
after allocating it (storage size on CPU, allocator delta on CUDA), and the
time of one layer's attention, naive (n×n scores materialised) and fused
(scaled_dot_product_attention), with the growth from the previous length.
An n² cost approaches 4× per doubling once it outweighs fixed overheads.

    python bench/kv_bench.py                          # llama-3.1-8b on the CPU
    python bench/kv_bench.py --model deepseek-v3 --to 16k --device cuda
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

try:
    import studybot.costs.kv.measure  # noqa: F401
except ImportError:  # a bare checkout: import the package from the repository
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    for module in [m for m in sys.modules if m.split(".")[0] == "studybot"]:
        del sys.modules[module]

from studybot.cli.common import human_bytes
from studybot.costs.kv import measure, shapes
from studybot.costs.kv.estimate import parse_tokens, token_label
from studybot.errors import StudybotError


def lengths(first: int, last: int) -> list[int]:
    out = [first]
    while out[-1] * 2 <= last:
        out.append(out[-1] * 2)
    return out


def ratio(after: float | None, before: float | None) -> str:
    return f"{after / before:.2f}×" if after and before else ""


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="llama-3.1-8b")
    parser.add_argument("--from", dest="first", default="1k")
    parser.add_argument("--to", dest="last", default="8k")
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    args = parser.parse_args()
    try:
        shape = shapes.preset(args.model)
        device = measure.check_device(args.device)
        sizes = lengths(parse_tokens(args.first), parse_tokens(args.last))
    except StudybotError as exc:
        sys.exit(f"{exc.message} ({exc.hint})" if exc.hint else exc.message)

    heads = measure.heads_timed(shape, device)
    print(f"{shape.name} · {shape.describe()} · {shape.bytes_per_token} B/token")
    print(
        f"attention: one layer, {measure.timing_dtype(shape, device)} on {device}, "
        f"{heads} of {shape.heads} query heads timed, scaled to the layer; "
        f"fastest of {measure.REPEATS} runs after a warm-up"
    )
    header = ("n", "analytic KV", "measured KV", "equal", "naive ms", "×", "sdpa ms", "×")
    print("{:>6} {:>12} {:>12} {:>6} {:>10} {:>6} {:>10} {:>6}".format(*header))
    before = None
    for n in sizes:
        kv = measure.measure_kv(shape, n, device)
        timing = measure.time_attention(shape, n, device)
        measured = human_bytes(kv.measured_bytes)
        if kv.scaled:
            measured += f" ({kv.measured_layers}L)"
        print(
            "{:>6} {:>12} {:>12} {:>6} {:>10} {:>6} {:>10} {:>6}".format(
                token_label(n),
                human_bytes(kv.analytic_bytes),
                measured,
                "yes" if kv.measured_bytes == kv.analytic_bytes else "NO",
                ms(timing.naive_ms),
                ratio(timing.naive_ms, before and before.naive_ms),
                ms(timing.sdpa_ms),
                ratio(timing.sdpa_ms, before and before.sdpa_ms),
            )
        )
        before = timing


if __name__ == "__main__":
    main()
