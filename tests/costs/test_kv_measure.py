"""``kv --measure``: torch really allocates what the estimator states (CPU)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")

from studybot.costs.kv import measure, shapes  # noqa: E402

SMALL = ("--layers", "2", "--kv-heads", "2", "--head-dim", "16")


@pytest.mark.parametrize(
    ("shape", "tokens"),
    [
        (shapes.preset("llama-3.1-8b"), 1024),
        (shapes.preset("qwen2.5-7b"), 3000),
        (shapes.preset("deepseek-v3"), 2048),
        (shapes.custom(4, 2, 64, dtype="fp8"), 777),
        (shapes.custom(3, 4, 32, dtype="int8", batch=3), 100),
        (shapes.custom(2, 8, 64, heads=16, dtype="fp32"), 4096),
        (shapes.custom(2, 8, 64, dtype="fp16", batch=2), 513),
    ],
    ids=lambda value: getattr(value, "name", str(value)),
)
def test_measured_bytes_equal_the_analytic_figure_on_cpu(shape, tokens):
    result = measure.measure_kv(shape, tokens, "cpu")
    assert result.measured_layers == shape.layers
    assert (
        result.measured_bytes
        == result.analytic_bytes
        == shape.batch * tokens * shape.bytes_per_token
    )


def test_measure_json_reports_bytes_and_attention_time(invoke):
    result = invoke("kv", *SMALL, "--context", "1k,2k", "--measure", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    for context in data["contexts"]:
        assert context["measured_kv_bytes"] == context["kv_bytes"]
        assert context["measured_layers"] == 2
        assert context["attention_ms"] > 0
        assert context["attention_ms_source"] == "measured"
    timing = data["measure"]
    assert timing["device"] == "cpu" and timing["heads_timed"] == 1
    assert [row["tokens"] for row in timing["sweep"]] == [1024, 2048, 4096]
    assert all(row["naive_ms"] > 0 and row["sdpa_ms"] > 0 for row in timing["sweep"])
    assert len(timing["growth_per_doubling"]["naive"]) == 2
    assert len(timing["growth_per_doubling"]["sdpa"]) == 2


def test_measure_table_says_measured_equals_analytic(invoke):
    result = invoke("kv", *SMALL, "--context", "1k,16k", "--measure")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Measured KV bytes equal the analytic figure for every context (cpu)" in out
    assert "× per doubling" in out and "naive (n×n scores)" in out
    # 16K is past what a CPU times directly: its attention time is projected, and says so.
    assert "16K: attention time projected from" in out


def test_memory_guard_measures_a_subset_of_layers_and_scales(invoke, monkeypatch):
    shape = shapes.preset("llama-3.1-8b")
    layer = 8192 * shape.bytes_per_token // shape.layers
    # Room for 3 layers in the safe share of what is "free".
    monkeypatch.setattr(
        measure, "free_bytes", lambda device: int(3.5 * layer / measure.SAFE_FRACTION)
    )
    result = measure.measure_kv(shape, 8192, "cpu")
    assert result.measured_layers == 3 and result.scaled
    assert result.measured_bytes == result.analytic_bytes == 1 << 30

    shown = invoke("kv", "--model", "llama-3.1-8b", "--context", "8k", "--measure")
    assert shown.exit_code == 0, shown.stderr
    assert "3 of 32 layers allocated" in shown.stdout and "scaled to all layers" in shown.stdout
    data = json.loads(
        invoke("kv", "--model", "llama-3.1-8b", "--context", "8k", "--measure", "--json").stdout
    )
    assert data["contexts"][0]["measured_layers"] == 3
    assert data["contexts"][0]["measured_kv_bytes"] == 1 << 30


def test_nothing_is_allocated_when_one_layer_does_not_fit(invoke, monkeypatch):
    monkeypatch.setattr(measure, "free_bytes", lambda device: 1 << 20)
    data = json.loads(
        invoke("kv", "--model", "llama-3.1-8b", "--context", "8k", "--measure", "--json").stdout
    )
    context = data["contexts"][0]
    assert context["measured_kv_bytes"] is None and context["measured_layers"] == 0
    assert context["attention_ms"] is None
    shown = invoke("kv", "--model", "llama-3.1-8b", "--context", "8k", "--measure").stdout
    assert "not measured, one layer would not fit" in shown


def test_cuda_without_a_gpu_exits_2(invoke):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    result = invoke("kv", *SMALL, "--context", "1k", "--measure", "--device", "cuda")
    assert result.exit_code == 2
    assert "no CUDA device" in result.stderr and "--device cpu" in result.stderr
