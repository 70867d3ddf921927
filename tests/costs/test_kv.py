"""The KV-cache and attention estimator, analytic side: no torch needed."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from studybot.costs.kv import estimate, shapes
from studybot.errors import BadInput

GIB = 1 << 30


def kv_json(invoke, *args: str) -> dict:
    result = invoke("kv", *args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_llama_8b_from_8k_to_32k_is_4x_kv_and_16x_attention(invoke):
    result = invoke("kv", "--model", "llama-3.1-8b", "--context", "8k,32k")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "131,072 B/token" in out
    assert "1.0 GiB" in out and "4.0 GiB" in out
    assert "KV cache 4× (linear in n)" in out and "attention scores 16× (n²)" in out

    data = kv_json(invoke, "--model", "llama-3.1-8b", "--context", "8k,32k")
    assert data["model"] == "llama-3.1-8b" and data["dtype"] == "bf16"
    assert data["bytes_per_token"] == 131072
    assert [c["tokens"] for c in data["contexts"]] == [8192, 32768]
    assert [c["kv_bytes"] for c in data["contexts"]] == [1 * GIB, 4 * GIB]
    assert [c["attention_score_elements"] for c in data["contexts"]] == [
        32 * 8192**2,
        32 * 32768**2,
    ]
    assert data["scaling"] == {"kv": 4, "attention": 16}
    assert "measured_kv_bytes" not in data["contexts"][0]


@pytest.mark.parametrize(
    ("name", "per_token", "heads"),
    [
        ("llama-3.1-8b", 131072, 32),
        ("llama-3.1-70b", 327680, 64),
        ("qwen2.5-7b", 57344, 28),
        ("qwen2.5-72b", 327680, 64),
        ("mistral-7b-v0.3", 131072, 32),
        ("deepseek-v3", 70272, 128),
    ],
)
def test_presets_carry_the_published_bytes_per_token(name, per_token, heads):
    shape = shapes.preset(name)
    assert shape.bytes_per_token == per_token
    assert shape.heads == heads


def test_deepseek_v3_caches_one_latent_per_layer(invoke):
    data = kv_json(invoke, "--model", "DeepSeek-V3", "--context", "1k")
    assert data["bytes_per_token"] == 61 * (512 + 64) * 2 == 70272
    assert data["contexts"][0]["kv_bytes"] == 1024 * 70272
    assert "61 layers × (512 latent + 64 rope)" in data["formula"]


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("8192", (8192,)),
        ("8k", (8192,)),
        ("32K", (32768,)),
        (" 8k , 32K ", (8192, 32768)),
        ("1m,1000", (1048576, 1000)),
    ],
)
def test_context_lengths_are_written_as_users_write_them(text, tokens):
    assert estimate.parse_contexts(text) == tokens


@pytest.mark.parametrize("text", ["8q", "0", "-1", "1.5k", ",", "k", "8 k k"])
def test_bad_context_lengths_exit_2_with_a_hint(invoke, text):
    result = invoke("kv", "--model", "qwen2.5-7b", "--context", text)
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ")
    assert "Hint: give token counts such as 8192, 8k or 32K" in result.stderr


def test_custom_shape_with_dtype_batch_and_query_heads(invoke):
    base = ("--layers", "32", "--kv-heads", "8", "--head-dim", "128", "--context", "1k")
    fp8 = kv_json(invoke, *base, "--dtype", "fp8")
    assert fp8["bytes_per_token"] == 2 * 32 * 8 * 128 * 1
    # Without --heads every query head has its own K/V.
    assert fp8["contexts"][0]["attention_score_elements"] == 8 * 1024**2

    batched = kv_json(invoke, *base, "--dtype", "FP32", "--batch", "4", "--heads", "32")
    assert batched["dtype"] == "fp32" and batched["batch"] == 4
    assert batched["contexts"][0]["kv_bytes"] == 4 * 1024 * 2 * 32 * 8 * 128 * 4
    assert batched["contexts"][0]["attention_score_elements"] == 4 * 32 * 1024**2


def test_a_preset_takes_another_cache_dtype(invoke):
    data = kv_json(invoke, "--model", "llama-3.1-8b", "--dtype", "fp8", "--context", "8k")
    assert data["bytes_per_token"] == 65536
    assert data["contexts"][0]["kv_bytes"] == GIB // 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--model", "gpt-5"), "unknown model preset 'gpt-5'"),
        (("--layers", "32", "--kv-heads", "8"), "needs --layers, --kv-heads and --head-dim"),
        (("--model", "qwen2.5-7b", "--layers", "4"), "either --model or a custom shape"),
        (("--model", "qwen2.5-7b", "--dtype", "fp4"), "unknown dtype 'fp4'"),
        (("--layers", "2", "--kv-heads", "3", "--head-dim", "8", "--heads", "4"), "cannot share"),
        (
            ("--model", "qwen2.5-7b", "--context", "8k", "--cached", "8k"),
            "cached tokens must be fewer",
        ),
    ],
)
def test_bad_shapes_exit_2_with_one_line(invoke, args, message):
    result = invoke("kv", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_cached_prefix_cuts_the_prefill_scores(invoke):
    data = kv_json(invoke, "--model", "qwen2.5-7b", "--context", "8k,32k", "--cached", "6k")
    first, last = data["contexts"]
    assert data["cached_tokens"] == 6144
    assert first["uncached_tokens"] == 2048
    assert first["prefill_score_elements"] == 28 * 2048 * 8192
    assert last["prefill_score_elements"] == 28 * (32768 - 6144) * 32768
    # The KV cache still holds every token: caching saves compute, not memory.
    assert first["kv_bytes"] == 8192 * 57344

    plain = kv_json(invoke, "--model", "qwen2.5-7b", "--context", "8k")
    assert plain["contexts"][0]["prefill_score_elements"] == 28 * 8192**2

    shown = invoke("kv", "--model", "qwen2.5-7b", "--context", "8k", "--cached", "6k").stdout
    assert "(−75%)" in shown


def test_default_model_is_the_kv_model_setting(invoke, studybot_home):
    assert kv_json(invoke, "--context", "1k")["model"] == "qwen2.5-7b"
    studybot_home.mkdir(parents=True, exist_ok=True)
    (studybot_home / "config.toml").write_text('kv_model = "llama-3.1-70b"\n', encoding="utf-8")
    assert kv_json(invoke, "--context", "1k")["model"] == "llama-3.1-70b"

    (studybot_home / "config.toml").write_text('kv_model = "llama-9"\n', encoding="utf-8")
    result = invoke("kv")
    assert result.exit_code == 2
    assert "kv_model 'llama-9'" in result.stderr and "Hint: presets:" in result.stderr


def test_one_context_has_no_scaling_line(invoke):
    data = kv_json(invoke, "--model", "qwen2.5-7b", "--context", "4096")
    assert data["scaling"] == {"kv": 1, "attention": 1}
    assert "the tokens:" not in invoke("kv", "--model", "qwen2.5-7b", "--context", "4096").stdout


def test_the_analytic_estimate_never_imports_torch():
    code = (
        "import sys\n"
        "from studybot.cli import cli\n"
        "cli.main(['kv', '--model', 'llama-3.1-8b', '--context', '8k,32k'], standalone_mode=False)\n"
        "cli.main(['kv', '--model', 'deepseek-v3', '--json'], standalone_mode=False)\n"
        "assert 'torch' not in sys.modules, 'torch was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "131,072 B/token" in done.stdout


def test_measure_without_torch_exits_2_with_the_install_command(invoke, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` now fails
    result = invoke("kv", "--model", "qwen2.5-7b", "--measure")
    assert result.exit_code == 2
    assert "--measure needs PyTorch" in result.stderr
    assert "pip install 'studybot[kv]'" in result.stderr and "torch==2.13.0" in result.stderr


def test_library_errors_are_bad_input():
    with pytest.raises(BadInput):
        estimate.parse_tokens("lots")
    with pytest.raises(BadInput):
        estimate.estimate(shapes.preset("qwen2.5-7b"), [])


def test_every_turn_records_its_kv_bytes_and_the_run_shows_the_peak(invoke):
    result = invoke("run", "--from", "1", "--to", "12")
    assert result.exit_code == 0, result.stderr
    assert "· KV " in result.stderr  # the per-turn line
    assert "peak KV" in result.stdout and "one long session over these questions" in result.stdout

    data = json.loads(invoke("show", "1", "--json").stdout)
    turns = data["turns"]
    assert len({t["segment"] for t in turns}) == 2
    for turn in turns:
        assert turn["kv_bytes"] == turn["context_tokens"] * 57344  # qwen2.5-7b, the default
    kv = data["kv"]
    assert kv["model"] == "qwen2.5-7b"
    assert kv["peak_tokens"] == max(t["context_tokens"] for t in turns)
    assert kv["peak_kv_bytes"] == kv["peak_tokens"] * 57344
    # One long chat carries both segments' questions and answers: more than either segment.
    assert kv["one_long_session_tokens"] > kv["peak_tokens"]
    assert kv["one_long_session_tokens"] > sum(t["local_completion_tokens"] for t in turns)
    assert kv["one_long_session_kv_bytes"] == kv["one_long_session_tokens"] * 57344

    shown = invoke("show", "1").stdout
    assert "peak KV" in shown


def test_a_session_keeps_the_kv_model_it_started_with(invoke, studybot_home):
    studybot_home.mkdir(parents=True, exist_ok=True)
    config = studybot_home / "config.toml"
    config.write_text('kv_model = "llama-3.1-8b"\n', encoding="utf-8")
    invoke("run", "--from", "1", "--to", "3")
    config.write_text('kv_model = "deepseek-v3"\n', encoding="utf-8")
    turns = json.loads(invoke("show", "1", "--json").stdout)["turns"]
    assert [t["kv_bytes"] for t in turns] == [t["context_tokens"] * 131072 for t in turns]
