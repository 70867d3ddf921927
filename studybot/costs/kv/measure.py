"""Measuring what the estimator states, with PyTorch: KV bytes held, attention time.

The KV cache of each context is really allocated (one K and one V tensor
per layer, or one latent for MLA, in the cache's dtype) and the bytes torch
holds are read back: the storage size on CPU, the allocator's delta on
CUDA. Nothing is allocated before the free memory is checked; when all
layers would not fit in a safe share of it, a subset of layers is measured
and scaled, and the result says so.

Attention is timed on one layer: a naive matmul-softmax that materialises
the n×n scores, and torch's scaled_dot_product_attention, at doubling
lengths, so the growth per doubling (towards 4× for an n² cost) is seen.
On CPU one query head is timed and the figure scaled to the layer's heads,
which keeps ``--measure`` to seconds on a laptop.

torch is optional (the ``kv`` extra) and is imported only here.
"""

from __future__ import annotations

import math
import os
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from studybot.costs.kv.estimate import kv_bytes, token_label
from studybot.costs.kv.shapes import KVShape
from studybot.errors import BadInput

INSTALL = "pip install 'studybot[kv]'  (it pins torch==2.13.0)"
SAFE_FRACTION = 0.5  # never allocate more than this share of the memory free right now
UNKNOWN_FREE = 1 << 30  # bytes assumed free when the machine does not say
REPEATS = 3  # timed runs per length after one warm-up; the fastest counts
SWEEPS = {"cpu": (1024, 2048, 4096), "cuda": (1024, 2048, 4096, 8192, 16384)}
# Longest context whose attention is timed directly; longer ones are projected by n².
TIMING_LIMITS = {"cpu": 8192, "cuda": 65536}
TORCH_DTYPES = {
    "fp32": "float32",
    "bf16": "bfloat16",
    "fp16": "float16",
    "fp8": "float8_e4m3fn",
    "int8": "int8",
}


@dataclass(frozen=True)
class KVMeasurement:
    tokens: int
    analytic_bytes: int
    measured_bytes: int | None  # all layers; scaled up when fewer were allocated
    measured_layers: int  # layers really allocated (0: not even one fitted)
    layers: int
    free_bytes: int  # memory available just before allocating

    @property
    def scaled(self) -> bool:
        return 0 < self.measured_layers < self.layers


@dataclass(frozen=True)
class AttentionTiming:
    tokens: int
    naive_ms: float | None  # one layer, n×n scores materialised; None: they would not fit
    sdpa_ms: float | None  # one layer, scaled_dot_product_attention; None: would not fit


@dataclass(frozen=True)
class ContextAttention:
    tokens: int
    sdpa_ms: float | None  # one layer at this context
    source: str  # "measured", or "projected from 8K" (by n²)


@dataclass(frozen=True)
class Measurement:
    device: str
    timing_dtype: str  # element type the attention was timed in
    heads_timed: int  # query heads really run; times are scaled to all heads × batch
    kv: tuple[KVMeasurement, ...]  # one per context, in order
    attention: tuple[ContextAttention, ...]  # one per context, in order
    sweep: tuple[AttentionTiming, ...]  # doubling lengths

    def growth(self, kind: str) -> list[float | None]:
        """Time at 2n over time at n, for each doubling of the sweep ("naive" or "sdpa")."""
        times = [getattr(row, f"{kind}_ms") for row in self.sweep]
        return [
            after / before if before and after else None
            for before, after in zip(times, times[1:], strict=False)
        ]


def require_torch():
    """The torch module, or BadInput naming the install command."""
    try:
        with warnings.catch_warnings():
            # A CPU build without numpy warns on import; nothing here needs numpy.
            warnings.filterwarnings("ignore", message="Failed to initialize NumPy")
            import torch
    except ImportError:
        raise BadInput("--measure needs PyTorch, which is not installed", hint=INSTALL) from None
    return torch


def check_device(device: str) -> str:
    torch = require_torch()
    if device not in SWEEPS:
        raise BadInput(f"unknown device {device!r}", hint="use --device cpu or --device cuda")
    if device == "cuda" and not torch.cuda.is_available():
        raise BadInput("torch sees no CUDA device", hint="measure on the CPU: --device cpu")
    return device


def free_bytes(device: str) -> int:
    """Memory that can be allocated now without pushing anything else out."""
    if device == "cuda":
        torch = require_torch()
        torch.cuda.empty_cache()  # blocks torch keeps cached count as free for us
        return int(torch.cuda.mem_get_info()[0])
    known = [n for n in (_meminfo_available(), _cgroup_headroom()) if n is not None]
    if not known:
        try:
            known.append(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
        except (AttributeError, ValueError, OSError):
            return UNKNOWN_FREE
    return min(known)


def _meminfo_available() -> int | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _cgroup_headroom() -> int | None:
    """Limit minus usage of this process's memory cgroup (v2, then v1), if limited."""
    for limit_file, usage_file in (
        ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
        (
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",
            "/sys/fs/cgroup/memory/memory.usage_in_bytes",
        ),
    ):
        try:
            limit = Path(limit_file).read_text().strip()
            usage = int(Path(usage_file).read_text().strip())
        except (OSError, ValueError):
            continue
        if limit == "max" or int(limit) >= 1 << 60:
            return None
        return max(int(limit) - usage, 0)
    return None


def measure_kv(shape: KVShape, tokens: int, device: str = "cpu") -> KVMeasurement:
    """Allocate the cache for ``tokens`` and read back the bytes torch holds for it."""
    torch = require_torch()
    dtype = getattr(torch, TORCH_DTYPES[shape.dtype])
    analytic = kv_bytes(shape, tokens)
    layer_bytes = analytic // shape.layers
    free = free_bytes(device)
    fits = int(free * SAFE_FRACTION) // layer_bytes
    layers = min(shape.layers, fits)
    if layers == 0:
        return KVMeasurement(tokens, analytic, None, 0, shape.layers, free)
    _sync(torch, device)
    before = torch.cuda.memory_allocated() if device == "cuda" else 0
    cache = [_layer_cache(torch, shape, tokens, dtype, device) for _ in range(layers)]
    _sync(torch, device)
    if device == "cuda":
        held = torch.cuda.memory_allocated() - before
    else:
        held = sum(t.untyped_storage().nbytes() for layer in cache for t in layer)
    del cache
    return KVMeasurement(
        tokens, analytic, held * shape.layers // layers, layers, shape.layers, free
    )


def _layer_cache(torch, shape: KVShape, tokens: int, dtype, device: str) -> list:
    """One layer's cache, allocated up front as a serving engine does.

    Left unfilled: on CPU the OS commits pages only as tokens are written,
    so measuring 32K on a laptop costs no page faults; the bytes torch
    holds for the tensors are the same.
    """
    if shape.mla:
        size: tuple[int, ...] = (
            shape.batch,
            tokens,
            shape.kv_lora_rank + shape.rope_dim,
        )  # (B, T, latent)
        return [torch.empty(size, dtype=dtype, device=device)]
    size = (shape.batch, shape.kv_heads, tokens, shape.head_dim)  # (B, nh_kv, T, hs)
    return [torch.empty(size, dtype=dtype, device=device) for _ in ("k", "v")]


def timing_dtype(shape: KVShape, device: str) -> str:
    """CPUs time in fp32; GPUs in the cache's 16-bit type (bf16 for 8-bit caches)."""
    if device == "cpu":
        return "fp32"
    return shape.dtype if shape.dtype in {"fp16", "bf16", "fp32"} else "bf16"


def heads_timed(shape: KVShape, device: str) -> int:
    return 1 if device == "cpu" else shape.heads


def time_attention(
    shape: KVShape, tokens: int, device: str = "cpu", naive: bool = True
) -> AttentionTiming:
    """One layer's attention over ``tokens`` (causal), naive and fused; times in ms."""
    torch = require_torch()
    dtype = getattr(torch, TORCH_DTYPES[timing_dtype(shape, device)])
    heads = heads_timed(shape, device)
    element = torch.tensor([], dtype=dtype).element_size()
    vectors = 4 * heads * tokens * shape.head_dim * element  # q, k, v and the output
    scores = 2 * heads * tokens * tokens * element + tokens * tokens  # scores, softmax, mask
    budget = int(free_bytes(device) * SAFE_FRACTION)
    if vectors > budget:
        return AttentionTiming(tokens, None, None)
    # Every layer-level figure is heads × batch times the heads really run.
    scale = shape.heads * shape.batch / heads
    generator = torch.Generator(device=device).manual_seed(0)
    q, k, v = (
        torch.randn(
            1, heads, tokens, shape.head_dim, generator=generator, device=device, dtype=dtype
        )
        for _ in range(3)
    )  # (1, nh, T, hs)
    sdpa_ms = _best_ms(
        torch,
        device,
        lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True),
    )
    naive_ms = None
    if naive and vectors + scores <= budget:
        future = torch.ones(tokens, tokens, dtype=torch.bool, device=device).triu(1)  # (T, T)
        naive_ms = _best_ms(torch, device, lambda: _naive_attention(torch, q, k, v, future))
    return AttentionTiming(
        tokens,
        naive_ms * scale if naive_ms is not None else None,
        sdpa_ms * scale,
    )


def _naive_attention(torch, q, k, v, future):
    scores = (q * q.shape[-1] ** -0.5) @ k.transpose(-2, -1)  # (1, nh, T, T)
    scores.masked_fill_(future, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v  # (1, nh, T, hs)


def _best_ms(torch, device: str, run) -> float:
    with torch.inference_mode():
        run()  # warm-up: kernels chosen, pages touched
        best = math.inf
        for _ in range(REPEATS):
            _sync(torch, device)
            started = time.perf_counter()
            run()
            _sync(torch, device)
            best = min(best, time.perf_counter() - started)
    return best * 1000


def _sync(torch, device: str) -> None:
    if device == "cuda":
        torch.cuda.synchronize()


def measure(shape: KVShape, contexts: Sequence[int], device: str = "cpu") -> Measurement:
    """KV bytes for every context, attention time per context and over a doubling sweep."""
    device = check_device(device)
    kv = tuple(measure_kv(shape, n, device) for n in contexts)
    sweep = tuple(time_attention(shape, n, device) for n in SWEEPS[device])
    timed = {row.tokens: row.sdpa_ms for row in sweep if row.sdpa_ms is not None}
    for n in sorted(set(contexts)):
        if n not in timed and n <= TIMING_LIMITS[device]:
            ms = time_attention(shape, n, device, naive=False).sdpa_ms
            if ms is not None:
                timed[n] = ms
    return Measurement(
        device=device,
        timing_dtype=timing_dtype(shape, device),
        heads_timed=heads_timed(shape, device),
        kv=kv,
        attention=tuple(_context_attention(n, timed) for n in contexts),
        sweep=sweep,
    )


def _context_attention(tokens: int, timed: dict[int, float]) -> ContextAttention:
    if tokens in timed:
        return ContextAttention(tokens, timed[tokens], "measured")
    if not timed:
        return ContextAttention(tokens, None, "not measured")
    base = max(timed)
    projected = timed[base] * (tokens / base) ** 2
    return ContextAttention(tokens, projected, f"projected from {token_label(base)} by n²")
