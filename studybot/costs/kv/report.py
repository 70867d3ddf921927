"""``studybot kv --json``: the estimate (and measurement) as data with stable keys."""

from __future__ import annotations

from typing import Any

from studybot.costs.kv.estimate import KVEstimate
from studybot.costs.kv.measure import SAFE_FRACTION, Measurement


def kv_data(estimate: KVEstimate, measurement: Measurement | None = None) -> dict[str, Any]:
    shape = estimate.shape
    contexts = []
    for index, cost in enumerate(estimate.contexts):
        row: dict[str, Any] = {
            "tokens": cost.tokens,
            "kv_bytes": cost.kv_bytes,
            "attention_score_elements": cost.attention_score_elements,
            "uncached_tokens": cost.uncached_tokens,
            "prefill_score_elements": cost.prefill_score_elements,
        }
        if measurement is not None:
            kv = measurement.kv[index]
            attention = measurement.attention[index]
            row["measured_kv_bytes"] = kv.measured_bytes
            row["measured_layers"] = kv.measured_layers
            row["attention_ms"] = _ms(attention.sdpa_ms)
            row["attention_ms_source"] = attention.source
        contexts.append(row)
    data: dict[str, Any] = {
        "model": shape.name,
        "dtype": shape.dtype,
        "bytes_per_token": estimate.bytes_per_token,
        "batch": shape.batch,
        "shape": {
            "layers": shape.layers,
            "kv_heads": shape.kv_heads,
            "head_dim": shape.head_dim,
            "heads": shape.heads,
            "kv_lora_rank": shape.kv_lora_rank,
            "rope_dim": shape.rope_dim,
        },
        "formula": shape.formula(),
        "cached_tokens": estimate.cached_tokens,
        "contexts": contexts,
        "scaling": {
            "kv": round(estimate.kv_scaling, 4),
            "attention": round(estimate.attention_scaling, 4),
        },
    }
    if measurement is not None:
        data["measure"] = {
            "device": measurement.device,
            "timing_dtype": measurement.timing_dtype,
            "heads_timed": measurement.heads_timed,
            "safe_fraction": SAFE_FRACTION,
            "free_bytes": measurement.kv[0].free_bytes if measurement.kv else None,
            "sweep": [
                {"tokens": row.tokens, "naive_ms": _ms(row.naive_ms), "sdpa_ms": _ms(row.sdpa_ms)}
                for row in measurement.sweep
            ],
            "growth_per_doubling": {
                kind: [None if g is None else round(g, 2) for g in measurement.growth(kind)]
                for kind in ("naive", "sdpa")
            },
        }
    return data


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value, 3)
