"""One short GPU check of the KV estimator: allocator delta vs analytic, attention growth.

On a CUDA machine: allocates the KV cache of a few presets and contexts and
compares torch.cuda.memory_allocated()'s delta with the analytic bytes,
then times one layer's attention (all query heads, bf16) from 1K to 16K
tokens, naive and fused, with the growth per doubling. Prints a compact
table and one JSON line; finishes well within two minutes.

Without CUDA it says so and runs the same checks on the CPU at small sizes,
so the script can be tried anywhere.

    python bench/kv_gpu.py
"""

from __future__ import annotations

import json
import platform
import sys
import time
from pathlib import Path

try:
    import studybot.costs.kv.measure  # noqa: F401
except ImportError:  # a bare checkout: import the package from the repository
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    for module in [m for m in sys.modules if m.split(".")[0] == "studybot"]:
        del sys.modules[module]

from studybot.costs.kv import measure, shapes
from studybot.costs.kv.estimate import token_label
from studybot.errors import StudybotError

DEADLINE_S = 90  # stop timing new lengths after this; the whole run stays under 2 minutes
GPU = {
    "kv": [
        ("llama-3.1-8b", 8192),
        ("llama-3.1-8b", 32768),
        ("qwen2.5-7b", 32768),
        ("llama-3.1-70b", 32768),
        ("deepseek-v3", 32768),
    ],
    "timed": ["llama-3.1-8b", "deepseek-v3"],
    "lengths": [1024, 2048, 4096, 8192, 16384],
}
CPU = {
    "kv": [("llama-3.1-8b", 1024), ("llama-3.1-8b", 4096), ("deepseek-v3", 4096)],
    "timed": ["llama-3.1-8b"],
    "lengths": [1024, 2048, 4096],
}


def gib(value: int | None) -> str:
    return "-" if value is None else f"{value / (1 << 30):.3f} GiB"


def growth(after: float | None, before: float | None) -> str:
    return f"{after / before:.2f}×" if after and before else ""


def main() -> int:
    started = time.perf_counter()
    try:
        torch = measure.require_torch()
    except StudybotError as exc:
        print(f"{exc.message}: {exc.hint}")
        return 2
    device = "cuda" if torch.cuda.is_available() else "cpu"
    plan = GPU if device == "cuda" else CPU
    name = torch.cuda.get_device_name(0) if device == "cuda" else platform.processor() or "cpu"
    print(f"torch {torch.__version__} · {device} · {name}")
    if device == "cpu":
        print(
            "NOTE: no CUDA device; running the CPU fallback at small sizes (storage bytes, 1 head timed)"
        )
    result: dict = {
        "device": device,
        "device_name": name,
        "torch": torch.__version__,
        "kv": [],
        "attention": {},
    }

    held = "allocator delta" if device == "cuda" else "storage bytes"
    print(f"\nKV cache: {held} vs analytic")
    print(f"{'model':<16} {'n':>5} {'analytic':>12} {'measured':>12} {'layers':>7} {'equal':>6}")
    for model, tokens in plan["kv"]:
        kv = measure.measure_kv(shapes.preset(model), tokens, device)
        equal = kv.measured_bytes == kv.analytic_bytes
        print(
            f"{model:<16} {token_label(tokens):>5} {gib(kv.analytic_bytes):>12} "
            f"{gib(kv.measured_bytes):>12} {kv.measured_layers:>3}/{kv.layers:<3} "
            f"{'yes' if equal else 'NO':>6}"
        )
        result["kv"].append(
            {
                "model": model,
                "tokens": tokens,
                "analytic_bytes": kv.analytic_bytes,
                "measured_bytes": kv.measured_bytes,
                "measured_layers": kv.measured_layers,
                "free_bytes": kv.free_bytes,
            }
        )

    for model in plan["timed"]:
        shape = shapes.preset(model)
        heads = measure.heads_timed(shape, device)
        print(
            f"\nAttention, one layer of {model} ({measure.timing_dtype(shape, device)}, "
            f"{heads} of {shape.heads} heads timed), ms and growth per doubling"
        )
        print(f"{'n':>5} {'naive':>10} {'×':>6} {'sdpa':>10} {'×':>6}")
        rows, before = [], None
        for tokens in plan["lengths"]:
            if time.perf_counter() - started > DEADLINE_S:
                print(f"{token_label(tokens):>5} skipped: past the {DEADLINE_S} s deadline")
                continue
            timing = measure.time_attention(shape, tokens, device)
            print(
                f"{token_label(tokens):>5} {_ms(timing.naive_ms):>10} "
                f"{growth(timing.naive_ms, before and before.naive_ms):>6} "
                f"{_ms(timing.sdpa_ms):>10} {growth(timing.sdpa_ms, before and before.sdpa_ms):>6}"
            )
            rows.append({"tokens": tokens, "naive_ms": timing.naive_ms, "sdpa_ms": timing.sdpa_ms})
            before = timing
        result["attention"][model] = rows

    result["wall_s"] = round(time.perf_counter() - started, 1)
    print(f"\nwall {result['wall_s']} s")
    print("RESULT " + json.dumps(result))
    return 0


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


if __name__ == "__main__":
    sys.exit(main())
