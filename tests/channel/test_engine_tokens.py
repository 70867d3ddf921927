"""token_counter = "server": the engine's own tokenizer counts, through a real local engine."""

from __future__ import annotations

import json

import pytest
from engine_server import EngineServer
from openai_server import OpenAIServer

from studybot.storage.store import Store

KEY = "sk-engine-test-0123456789"
MODEL = "tiny-qwen2"


def configure(home, *lines: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    text = "retry_backoff = 0.001\nmax_retries = 1\n" + "".join(f"{line}\n" for line in lines)
    (home / "config.toml").write_text(text, encoding="utf-8")


@pytest.fixture
def live(monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)


def run(invoke, server, *args: str):
    result = invoke(
        "run", "--from", "1", "--to", "3", "--base-url", server.base_url, "--model", MODEL, *args
    )
    assert result.exit_code == 0, result.stderr
    return result


def turns():
    store = Store.open(write=False)
    return store.view(str(store.sessions()[0].id)).turns


def test_each_prompt_count_is_the_engines_and_the_llamacpp_rule_is_chosen(
    invoke, live, studybot_home
):
    configure(studybot_home, 'token_counter = "server"')
    with EngineServer(key=KEY, models=[MODEL]) as server:
        run(invoke, server)
        engine_prompts = [u["prompt_tokens"] for u in server.usage_sent]
        engine_cached = [u["prompt_tokens_details"]["cached_tokens"] for u in server.usage_sent]
        assert "/props" in server.engine_calls and "/apply-template" in server.engine_calls
        answered = turns()
        # studybot's own count of every request equals the engine's prompt_tokens
        assert [t.local_prompt_tokens for t in answered] == engine_prompts
        assert [t.prompt_tokens for t in answered] == engine_prompts
        assert all(t.usage_suspect == 0 for t in answered)

        # the session remembers the rule the server named; its replay is the engine's cache
        shown = json.loads(invoke("cache", "1", "--mode", "provider", "--json").stdout)
    assert shown["cache_rule"] == "llamacpp"
    assert [r["hit"] for r in shown["requests"]] == engine_cached
    assert engine_cached[1] > 0  # the second question re-used the first request and answer


def test_the_local_count_differs_from_the_engines(invoke, live, studybot_home):
    """Without the setting nothing but chat is sent, and the counts are cl100k's (the test can fail)."""
    configure(studybot_home)
    with EngineServer(key=KEY, models=[MODEL]) as server:
        run(invoke, server)
        engine_prompts = [u["prompt_tokens"] for u in server.usage_sent]
        assert server.engine_calls == []
    assert [t.local_prompt_tokens for t in turns()] != engine_prompts


def test_a_vllm_style_tokenize_counts_whole_chats(invoke, live, studybot_home):
    configure(studybot_home, 'token_counter = "server"')
    with EngineServer(key=KEY, models=[MODEL], style="vllm") as server:
        run(invoke, server)
        engine_prompts = [u["prompt_tokens"] for u in server.usage_sent]
    assert [t.local_prompt_tokens for t in turns()] == engine_prompts


def test_a_server_without_a_tokenizer_falls_back_with_one_note(invoke, live, studybot_home):
    configure(studybot_home, 'token_counter = "server"')
    with OpenAIServer(key=KEY, models=[MODEL]) as server:
        result = run(invoke, server)
    notes = [line for line in result.stderr.splitlines() if "offers no /tokenize" in line]
    assert len(notes) == 1 and "counting tokens locally" in notes[0]
    assert all(t.local_prompt_tokens > 0 for t in turns())


def test_plan_counts_with_the_engine_once_per_text(invoke, live, studybot_home):
    """The second plan finds every count on disk: the engine is asked nothing again."""
    configure(studybot_home, 'token_counter = "server"')
    with EngineServer(key=KEY, models=[MODEL]) as server:
        flags = ("--from", "1", "--to", "6", "--base-url", server.base_url, "--model", MODEL)
        first = invoke("plan", *flags, "--json")
        assert first.exit_code == 0, first.stderr
        asked = [p for p in server.engine_calls if p != "/props"]
        assert asked
        again = invoke("plan", *flags, "--json")
        asked_again = [p for p in server.engine_calls if p != "/props"][len(asked) :]
    assert asked_again == []
    assert json.loads(again.stdout) == json.loads(first.stdout)
    assert list((studybot_home / "cache").glob("tokens-*.jsonl"))


def test_offline_plan_never_opens_a_connection(invoke, studybot_home):
    configure(studybot_home, 'token_counter = "server"')
    with EngineServer(key=KEY, models=[MODEL]) as server:
        result = invoke("plan", "--from", "1", "--to", "6", "--base-url", server.base_url)
        assert result.exit_code == 0, result.stderr
        assert server.requests == []


def test_an_unknown_token_counter_is_one_clear_error(invoke, studybot_home):
    configure(studybot_home, 'token_counter = "engine"')
    result = invoke("plan", "--from", "1", "--to", "6")
    assert result.exit_code == 2
    assert "token_counter 'engine'" in result.stderr and "local" in result.stderr


def test_a_tokenizer_that_stops_answering_mid_run_leaves_one_note(invoke, live, studybot_home):
    configure(studybot_home, 'token_counter = "server"')
    with EngineServer(key=KEY, models=[MODEL]) as server:

        def answer_then_fail(body):
            server.tokenizer_down = True  # from the first answer on, the tokenizer is gone
            return "结论：第一点。第二点。"

        server.answer = answer_then_fail
        result = run(invoke, server)
    notes = [line for line in result.stderr.splitlines() if "stopped answering" in line]
    assert len(notes) == 1 and "counting tokens locally from here" in notes[0]
    assert len(turns()) == 3
