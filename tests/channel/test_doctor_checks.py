"""The doctor as a library: ``settings_checks``, ``probe`` through the real client, ``verdict``."""

from __future__ import annotations

from dataclasses import replace

import pytest
from openai_server import Fault, OpenAIServer

from studybot import bank
from studybot.bank import Bank, Chapter
from studybot.channel import config, doctor
from studybot.study.conversation import asker

KEY = "sk-doctor-lib-0123456789abcdef"
MODEL = "test-model"


@pytest.fixture
def keyed(studybot_home, monkeypatch):
    """A key in the environment and a config that retries once, at once."""
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    studybot_home.mkdir(parents=True, exist_ok=True)
    (studybot_home / "config.toml").write_text(
        "retry_backoff = 0.001\nstream_idle_timeout = 0.5\nmax_retries = 1\n", encoding="utf-8"
    )


def settings_for(server: OpenAIServer, model: str = MODEL, **flags):
    return config.load({"base_url": server.base_url, "model": model, **flags})


def probed(settings, loaded=None):
    loaded = loaded or bank.load()
    checks = list(doctor.probe(settings, loaded, asker(loaded, settings.prefix_style)))
    return checks, doctor.verdict(checks, probed=True)


def test_offline_by_choice_has_nothing_to_check():
    checks = doctor.settings_checks(config.load({"offline": True}))
    assert [(c.name, c.ok) for c in checks] == [("offline", None)]
    verdict = doctor.verdict(checks, probed=False)
    assert (verdict.ok, verdict.kind, verdict.exit_code) == (True, "offline", 0)
    assert verdict.text == "offline by choice: no channel to diagnose"


def test_without_a_key_offline_is_a_state_with_the_way_to_go_live():
    checks = doctor.settings_checks(config.load())
    assert [(c.name, c.ok) for c in checks] == [("lint", True), (doctor.OFFLINE_MODE, None)]
    assert checks[0].detail == "base URL looks right"
    verdict = doctor.verdict(checks, probed=False)
    assert (verdict.ok, verdict.kind, verdict.exit_code) == (True, "offline", 0)
    assert verdict.text == checks[1].detail
    assert "TAOTOKEN_API_KEY: not set" in verdict.text
    assert verdict.hint == doctor.go_live("TAOTOKEN_API_KEY")


def test_a_usable_key_and_model_look_right_without_sending_anything(monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    checks = doctor.settings_checks(config.load({"model": MODEL}))
    assert [(c.name, c.ok) for c in checks] == [("lint", True), ("key", True)]
    assert checks[0].detail == "base URL, key and model look right"
    assert checks[1].detail == f'TAOTOKEN_API_KEY: set, {len(KEY)} characters, starts "sk-"'
    assert KEY not in " ".join(c.detail for c in checks)
    verdict = doctor.verdict(checks, probed=False)
    assert (verdict.ok, verdict.kind) == (True, "ok") and "--probe" in verdict.text


def test_a_placeholder_key_is_a_settings_problem_on_the_keys_line_only(monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", "YOUR_API_KEY")
    checks = doctor.settings_checks(config.load({"model": MODEL}))
    assert [(c.name, c.ok, c.points_to) for c in checks] == [("key", False, doctor.CONFIG)]
    assert "holds a placeholder" in checks[0].detail
    verdict = doctor.verdict(checks, probed=False)
    assert (verdict.ok, verdict.kind, verdict.exit_code) == (False, "config", 2)
    assert verdict.text == f"channel problem (settings): {checks[0].detail}"
    assert verdict.hint.endswith("nothing was sent")


def test_every_settings_problem_is_listed_and_the_first_decides(monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    settings = config.load({"base_url": "https://taotoken.net/api/v1", "model": " m"})
    checks = doctor.settings_checks(settings)
    assert [(c.name, c.ok) for c in checks] == [("lint", False), ("lint", False), ("key", True)]
    assert "ends in /v1" in checks[0].detail and "whitespace" in checks[1].detail
    assert all(c.points_to == doctor.CONFIG for c in checks[:2])
    assert doctor.verdict(checks, probed=False).text.endswith(checks[0].detail)


def test_a_healthy_channel_is_probed_with_the_requests_a_run_sends(keyed):
    loaded = bank.load()
    with OpenAIServer(key=KEY, models=["other-model", MODEL]) as server:
        settings = settings_for(server)
        checks, verdict = probed(settings, loaded)
        sent = [r.messages for r in server.generations]
    assert [c.name for c in checks] == ["models", "Q23", "Q76", "Q34 alone", "Q34 deep"]
    assert all(c.ok for c in checks)
    assert checks[0].detail == f"2 listed, {MODEL!r} among them"
    ask = asker(loaded, settings.prefix_style)
    assert sent[:3] == [ask([], loaded.get(23)), ask([], loaded.get(76)), ask([], loaded.get(34))]
    deep = sent[3]
    assert deep[0] == sent[2][0] and deep[-1] == sent[2][-1]  # the same prefix, the same question
    assert len(deep) == 2 + 2 * 33  # every earlier question with its answer-key answer
    assert checks[4].points_to == doctor.HISTORY and "after 33 earlier turns" in checks[4].detail
    assert checks[4].figures["prompt_tokens"] > 5 * checks[3].figures["prompt_tokens"]
    assert (verdict.ok, verdict.kind, verdict.exit_code) == (True, "ok", 0)
    assert verdict.text.startswith("the channel is fine")


def test_a_history_that_breaks_is_a_history_problem(keyed):
    with OpenAIServer(key=KEY, models=[MODEL], context_limit=3000) as server:
        checks, verdict = probed(settings_for(server))
    assert [c.ok for c in checks] == [True, True, True, True, False]
    assert checks[-1].points_to == doctor.HISTORY
    assert (verdict.ok, verdict.kind, verdict.exit_code) == (False, "history", 1)
    assert verdict.text.startswith("history-length problem") and "segment" in verdict.hint


def test_a_long_history_is_trimmed_to_fit_the_window(keyed):
    with OpenAIServer(key=KEY, models=[MODEL]) as server:
        settings = settings_for(server)
        settings = replace(settings, context_window=6000, max_output_tokens=1000)
        checks, _ = probed(settings)
        deep = server.generations[-1].messages
    assert checks[-1].ok
    assert 2 < len(deep) < 2 + 2 * 33
    assert deep[-2]["role"] == "assistant"  # whole turns dropped from the start, Q33 kept
    assert deep[-3]["content"].startswith("第 33 题")


def test_a_model_the_endpoint_does_not_list_is_a_warning_and_the_request_judges(keyed):
    with OpenAIServer(key=KEY, models=["deepseek-v3", "qwen-max"]) as server:
        checks, verdict = probed(settings_for(server, model="deepseek-v3-2099"))
    models, q23 = checks[0], checks[1]
    assert (models.ok, models.warn) == (None, True)
    assert (
        "closest: deepseek-v3" in models.detail
        and "it lists deepseek-v3, qwen-max" in models.detail
    )
    assert q23.ok is False and "'deepseek-v3-2099' (from --model) was not found" in q23.detail
    assert (verdict.ok, verdict.kind, verdict.exit_code) == (False, "channel", 1)
    assert verdict.text.startswith("channel problem (URL, key or model): Q23: ")


def test_a_model_the_server_answers_to_but_does_not_list_is_fine(keyed):
    with OpenAIServer(key=KEY, models=["tiny-qwen2"], listed=["tiny-qwen2.gguf"]) as server:
        checks, verdict = probed(settings_for(server, model="tiny-qwen2"))
    assert checks[0].warn and "it lists tiny-qwen2.gguf" in checks[0].detail
    assert all(c.ok for c in checks[1:])
    assert (verdict.ok, verdict.kind, verdict.exit_code) == (True, "ok", 0)


def test_a_refused_key_stops_at_the_model_list(keyed):
    with OpenAIServer(key="sk-another-key-000000000000", models=[MODEL]) as server:
        checks, verdict = probed(settings_for(server))
        assert len(server.requests) == 1 and server.generations == []
    assert [(c.name, c.ok) for c in checks] == [("models", False)]
    assert verdict.kind == "channel" and verdict.exit_code == 1


def test_an_answer_that_never_comes_whole_stops_the_probe_there(keyed):
    with OpenAIServer(key=KEY, models=[MODEL], list_models=False) as server:
        server.script(Fault.cut(), Fault.cut())
        checks, verdict = probed(settings_for(server))
    assert [(c.name, c.ok) for c in checks] == [("models", None), ("Q23", False)]
    assert verdict.kind == "channel" and "Q23" in verdict.text


def test_a_bank_without_the_anchor_questions_probes_its_nearest_ones(keyed):
    shipped = bank.load()
    questions = tuple(replace(q, chapter=1, rubric=()) for q in shipped.select(1, 6))
    bank.save(Bank("mini", "小题库", "zh-CN", (Chapter(1, "全部", 1, 6),), questions), "mini")
    mini = bank.load("mini")
    with OpenAIServer(key=KEY, models=[MODEL]) as server:
        checks, verdict = probed(settings_for(server), mini)
        asked = [r.messages[-1]["content"].split("：")[0] for r in server.generations]
        deep = server.generations[-1].messages
    assert [c.name for c in checks] == ["models", "Q6", "Q6", "Q6 alone", "Q6 deep"]
    assert asked == ["第 6 题"] * 4
    assert len(deep) == 2 + 2 * 5 and verdict.kind == "ok"
