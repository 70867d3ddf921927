"""`studybot doctor [--probe]`: channel problem or history-length problem."""

from __future__ import annotations

import json

import pytest
from openai_server import Fault, OpenAIServer

KEY = "sk-doctor-test-0123456789abcdef"
MODEL = "test-model"


@pytest.fixture
def fast(studybot_home, monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    studybot_home.mkdir(parents=True, exist_ok=True)
    (studybot_home / "config.toml").write_text(
        "retry_backoff = 0.001\nstream_idle_timeout = 0.3\nmax_retries = 1\n", encoding="utf-8"
    )


def doctor(invoke, server, *args: str, model: str = MODEL):
    return invoke("doctor", *args, "--base-url", server.base_url, "--model", model)


def asked(server) -> list[str]:
    """The question each probe asked, read from its last user message."""
    return [r.messages[-1]["content"].split("：")[0] for r in server.generations]


def test_without_a_key_offline_mode_is_a_state_with_the_way_to_go_live(invoke):
    result = invoke("doctor")
    assert result.exit_code == 0, result.stderr
    assert "FAIL" not in result.stdout
    assert "offline mode: TAOTOKEN_API_KEY: not set" in result.stdout
    assert "To go live: export TAOTOKEN_API_KEY=" in result.stdout
    report = json.loads(invoke("doctor", "--json").stdout)
    assert report["verdict"]["kind"] == "offline" and report["verdict"]["ok"] is True


def test_probe_without_a_key_says_it_was_skipped(invoke):
    result = invoke("doctor", "--probe")
    assert result.exit_code == 0, result.stderr
    assert "probe      skipped: offline, so nothing was sent" in result.stdout


def test_a_placeholder_key_is_not_also_reported_ok(invoke, monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", "YOUR_API_KEY")
    result = invoke("doctor", "--model", "m")
    assert result.exit_code == 2
    assert "FAIL  key        TAOTOKEN_API_KEY holds a placeholder" in result.stdout
    assert "ok  key" not in result.stdout


def test_offline_by_choice_is_fine(invoke):
    result = invoke("doctor", "--offline")
    assert result.exit_code == 0
    assert "offline by choice" in result.stdout


def test_settings_only_check_sends_nothing(invoke, fast):
    with OpenAIServer(key=KEY, models=[MODEL]) as server:
        result = doctor(invoke, server)
        assert server.requests == []
    assert result.exit_code == 0, result.stderr
    assert "base URL, key and model look right" in result.stdout
    assert "--probe" in result.stdout
    assert KEY not in result.stdout


def test_lint_errors_exit_2_with_every_problem_listed(invoke, fast, monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", "YOUR_API_KEY")
    with OpenAIServer(key=KEY, models=[MODEL]) as server:
        result = invoke(
            "doctor", "--probe", "--base-url", "https://taotoken.net/api/v1", "--model", " m"
        )
        assert server.requests == []
    assert result.exit_code == 2
    for words in ("ends in /v1", "placeholder", "whitespace"):
        assert words in result.stdout
    assert "channel problem (settings)" in result.stderr


def test_a_healthy_channel(invoke, fast):
    with OpenAIServer(key=KEY, models=["other-model", MODEL]) as server:
        result = doctor(invoke, server, "--probe")
        assert asked(server) == ["第 23 题", "第 76 题", "第 34 题", "第 34 题"]
        fresh, deep = server.generations[2].messages, server.generations[3].messages
        assert len(fresh) == 2 and len(deep) > 40  # Q34 alone, then after 33 earlier turns
        assert [r.path for r in server.requests][0] == "/api/models"
    assert result.exit_code == 0, result.stderr
    assert "2 listed, 'test-model' among them" in result.stdout
    assert result.stdout.count("whole answer") == 4
    assert "Verdict: the channel is fine" in result.stdout
    assert "earlier turns" in result.stdout


def test_json_report(invoke, fast):
    with OpenAIServer(key=KEY, models=[MODEL]) as server:
        result = doctor(invoke, server, "--probe", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["verdict"]["kind"] == "ok"
    names = [c["name"] for c in data["checks"]]
    assert names == ["database", "lint", "key", "models", "Q23", "Q76", "Q34 alone", "Q34 deep"]
    deep = data["checks"][-1]["figures"]
    alone = data["checks"][-2]["figures"]
    assert deep["prompt_tokens"] > 5 * alone["prompt_tokens"]
    assert data["config"]["key"]["length"] == len(KEY)
    assert KEY not in result.stdout


def test_a_wrong_key_is_a_channel_problem(invoke, fast):
    with OpenAIServer(key="sk-the-real-one-000000000000", models=[MODEL]) as server:
        result = doctor(invoke, server, "--probe")
        assert len(server.requests) == 1  # the model list refused it; nothing more was tried
    assert result.exit_code == 1
    assert "channel problem (URL, key or model)" in result.stderr
    assert "refused the key" in result.stderr and "TAOTOKEN_API_KEY" in result.stderr


def test_a_wrong_model_is_a_channel_problem_with_close_matches(invoke, fast):
    with OpenAIServer(key=KEY, models=["deepseek-v3", "qwen-max"]) as server:
        result = doctor(invoke, server, "--probe", model="deepseek-v3-2099")
        assert asked(server) == ["第 23 题"]
    assert result.exit_code == 1
    assert "warn  models" in result.stdout and "closest: deepseek-v3" in result.stdout
    assert "'deepseek-v3-2099' (from --model) was not found" in result.stdout
    assert "channel problem (URL, key or model): Q23: model 'deepseek-v3-2099'" in result.stderr


def test_a_model_the_list_does_not_name_but_the_server_answers_to_is_fine(invoke, fast):
    # llama-server lists its file name and answers to any model name.
    with OpenAIServer(key=KEY, models=["tiny-qwen2"], listed=["tiny-qwen2.gguf"]) as server:
        result = doctor(invoke, server, "--probe", model="tiny-qwen2")
        assert len(server.generations) == 4
        report = json.loads(doctor(invoke, server, "--probe", "--json", model="tiny-qwen2").stdout)
    assert result.exit_code == 0, result.stderr
    warning = next(line for line in result.stdout.splitlines() if "warn  models" in line)
    assert "'tiny-qwen2' is not among the 1 models listed (it lists tiny-qwen2.gguf)" in warning
    assert result.stdout.count("whole answer") == 4
    assert "Verdict: the channel is fine" in result.stdout
    models = next(c for c in report["checks"] if c["name"] == "models")
    assert (models["ok"], models["warning"]) == (None, True) and report["verdict"]["ok"]


def test_an_endpoint_without_a_model_list_is_not_a_failure(invoke, fast):
    with OpenAIServer(key=KEY, models=[MODEL], list_models=False) as server:
        result = doctor(invoke, server, "--probe")
    assert result.exit_code == 0, result.stderr
    assert "does not list models" in result.stdout


def test_an_answer_that_never_arrives_whole_is_a_channel_problem(invoke, fast):
    with OpenAIServer(key=KEY, models=[MODEL]) as server:
        server.script(Fault.cut(), Fault.cut())
        result = doctor(invoke, server, "--probe")
    assert result.exit_code == 1
    assert "Q23" in result.stderr and "cut 2 times" in result.stderr


def test_a_long_history_that_breaks_is_a_history_problem(invoke, fast):
    # The fresh questions fit; Q34 after 33 turns does not.
    with OpenAIServer(key=KEY, models=[MODEL], context_limit=3000) as server:
        result = doctor(invoke, server, "--probe")
    assert result.exit_code == 1
    assert result.stdout.count("whole answer") == 3
    assert "history-length problem" in result.stderr
    assert "segment" in result.stderr
