"""Model shapes that decide what a KV cache holds: presets and custom shapes.

Only what the cache and the attention scores depend on is kept: layers,
K/V heads, head width, element size, and for MLA models (DeepSeek-V3) the
width of the one latent vector each layer stores per token instead of K
and V. Pure data, no torch.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from studybot.errors import BadInput

# Bytes per element of the cached K/V (or latent) tensors.
DTYPES = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1}


@dataclass(frozen=True)
class KVShape:
    name: str
    layers: int  # transformer blocks, each with its own cache
    kv_heads: int  # K/V heads per layer (GQA shares each across query heads)
    head_dim: int  # channels per head: the width of every q·k dot product
    heads: int  # query heads per layer; attention scores are per query head
    dtype: str = "bf16"  # element type of the cache, a key of DTYPES
    kv_lora_rank: int = 0  # MLA: width of the compressed KV latent; 0 = plain K/V
    rope_dim: int = 0  # MLA: width of the decoupled RoPE key cached beside the latent
    batch: int = 1  # sequences held at once

    @property
    def dtype_bytes(self) -> int:
        return DTYPES[self.dtype]

    @property
    def mla(self) -> bool:
        return self.kv_lora_rank > 0

    @property
    def elements_per_token_layer(self) -> int:
        """Cached elements one token adds to one layer: K and V, or the latent."""
        if self.mla:
            return self.kv_lora_rank + self.rope_dim
        return 2 * self.kv_heads * self.head_dim

    @property
    def bytes_per_token(self) -> int:
        """KV bytes one token of one sequence adds across all layers."""
        return self.layers * self.elements_per_token_layer * self.dtype_bytes

    def formula(self) -> str:
        """The product that gives ``bytes_per_token``, spelled out for the reader."""
        size = f"{self.dtype_bytes} B ({self.dtype})"
        if self.mla:
            return f"{self.layers} layers × ({self.kv_lora_rank} latent + {self.rope_dim} rope) × {size}"
        return (
            f"2 (K and V) × {self.layers} layers × {self.kv_heads} kv_heads × "
            f"{self.head_dim} head_dim × {size}"
        )

    def describe(self) -> str:
        if self.mla:
            cache = f"MLA latent {self.kv_lora_rank}+{self.rope_dim}"
        else:
            cache = f"{self.kv_heads} KV heads × {self.head_dim}"
        batch = f" · batch {self.batch}" if self.batch > 1 else ""
        return f"{self.layers} layers · {cache} · {self.heads} query heads · {self.dtype}{batch}"


# Published configs (config.json of each model); all cache in bf16.
DEFAULT_MODEL = "qwen2.5-7b"  # the preset per-turn KV figures use unless settings name another

PRESETS = {
    shape.name: shape
    for shape in (
        KVShape("llama-3.1-8b", layers=32, kv_heads=8, head_dim=128, heads=32),
        KVShape("llama-3.1-70b", layers=80, kv_heads=8, head_dim=128, heads=64),
        KVShape("qwen2.5-7b", layers=28, kv_heads=4, head_dim=128, heads=28),
        KVShape("qwen2.5-72b", layers=80, kv_heads=8, head_dim=128, heads=64),
        KVShape("mistral-7b-v0.3", layers=32, kv_heads=8, head_dim=128, heads=32),
        # Each query head scores 128 nope + 64 rope channels; after the latent
        # is up-projected every query head has its own K and V (128 of them).
        KVShape(
            "deepseek-v3",
            layers=61,
            kv_heads=128,
            head_dim=192,
            heads=128,
            kv_lora_rank=512,
            rope_dim=64,
        ),
    )
}


def find(name: str) -> KVShape | None:
    """The preset called ``name`` (any case), or None."""
    return PRESETS.get(name.strip().lower())


def preset(name: str) -> KVShape:
    shape = find(name)
    if shape is None:
        raise BadInput(
            f"unknown model preset {name!r}",
            hint="presets: " + ", ".join(PRESETS) + "; or give --layers --kv-heads --head-dim",
        )
    return shape


def resolve(
    model: str | None,
    layers: int | None = None,
    kv_heads: int | None = None,
    head_dim: int | None = None,
    heads: int | None = None,
    dtype: str | None = None,
    batch: int | None = None,
) -> KVShape:
    """The shape ``studybot kv``'s options describe: a preset, adjusted, or a custom shape."""
    dtype = dtype.strip().lower() if dtype else None
    custom_fields = (layers, kv_heads, head_dim)
    if all(value is None for value in custom_fields):
        if not model:
            raise BadInput("no model given", hint="give --model PRESET or a custom shape")
        return adjusted(preset(model), dtype=dtype, batch=batch, heads=heads)
    if model:
        raise BadInput(
            "give either --model or a custom shape, not both",
            hint="--dtype, --batch and --heads also adjust a preset",
        )
    if layers is None or kv_heads is None or head_dim is None:
        raise BadInput(
            "a custom shape needs --layers, --kv-heads and --head-dim",
            hint="e.g. --layers 32 --kv-heads 8 --head-dim 128 --dtype bf16",
        )
    return custom(layers, kv_heads, head_dim, heads=heads, dtype=dtype or "bf16", batch=batch or 1)


def custom(
    layers: int,
    kv_heads: int,
    head_dim: int,
    heads: int | None = None,
    dtype: str = "bf16",
    batch: int = 1,
) -> KVShape:
    """A shape the user describes; without ``heads`` every query head has its own K/V."""
    shape = KVShape(
        name=f"custom {layers}×{kv_heads}×{head_dim}",
        layers=layers,
        kv_heads=kv_heads,
        head_dim=head_dim,
        heads=heads or kv_heads,
        dtype=dtype,
        batch=batch,
    )
    check(shape)
    return shape


def adjusted(
    shape: KVShape, dtype: str | None = None, batch: int | None = None, heads: int | None = None
) -> KVShape:
    """A preset with another cache dtype, batch or query-head count."""
    changes: dict[str, Any] = {"dtype": dtype, "batch": batch, "heads": heads}
    shape = replace(shape, **{k: v for k, v in changes.items() if v is not None})
    check(shape)
    return shape


def check(shape: KVShape) -> None:
    if shape.dtype not in DTYPES:
        raise BadInput(f"unknown dtype {shape.dtype!r}", hint="use one of " + ", ".join(DTYPES))
    for field in ("layers", "kv_heads", "head_dim", "heads", "batch"):
        if getattr(shape, field) < 1:
            raise BadInput(f"{field} must be at least 1, not {getattr(shape, field)}")
    if not shape.mla and shape.heads % shape.kv_heads:
        raise BadInput(
            f"{shape.heads} query heads cannot share {shape.kv_heads} KV heads evenly",
            hint="query heads must be a multiple of --kv-heads (grouped-query attention)",
        )
