"""What a run does with replies that are garbage, not whole, or counted wrong (#11 items 2, 3, 11)."""

from __future__ import annotations

import json

import pytest
from openai_server import Fault, OpenAIServer

from studybot.storage.store import Store

KEY = "sk-live-test-0123456789abcdef"
MODEL = "test-model"


@pytest.fixture
def live(monkeypatch, studybot_home):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    studybot_home.mkdir(parents=True, exist_ok=True)
    (studybot_home / "config.toml").write_text(
        "retry_backoff = 0.001\nstream_idle_timeout = 0.5\nmax_retries = 2\n", encoding="utf-8"
    )

    def start(**options) -> OpenAIServer:
        return OpenAIServer(key=KEY, models=[MODEL], **options)

    return start


def run(invoke, server, *args: str):
    return invoke("run", *args, "--base-url", server.base_url, "--model", MODEL)


@pytest.mark.parametrize(
    ("fault", "says"),
    [
        (Fault.html(), "sent an HTML page (text/html) instead of an answer"),
        (Fault.bad_sse(), "sent text that is not valid JSON"),
        (Fault.truncated_json(), "instead of an answer"),
        (Fault.stream_error("server_error", "upstream exploded"), "upstream exploded"),
    ],
)
def test_garbage_that_persists_ends_in_one_message_and_resume(invoke, live, fault, says):
    with live() as server:
        server.script(None, *[fault] * 3)
        result = run(invoke, server, "--from", "1", "--to", "3")
        assert len(server.generations) == 4  # one answer, then three attempts at question 2
    assert result.exit_code == 1
    assert says in result.stderr
    assert "studybot resume 1" in result.stderr
    assert "unexpected" not in result.stderr
    assert Store.open().session(1).answered == 1


def test_garbage_once_is_retried_and_the_run_finishes(invoke, live):
    with live() as server:
        server.script(Fault.html(), Fault.bad_sse())
        result = run(invoke, server, "--from", "1", "--to", "2")
    assert result.exit_code == 0, result.stderr
    assert "retry 1/2" in result.stderr
    assert Store.open().session(1).complete


def test_an_answer_cut_by_the_limit_is_saved_flagged_and_shown_everywhere(invoke, live, tmp_path):
    with live(finish_at=1_000_000) as server:
        result = run(invoke, server, "--from", "1", "--to", "2")
        limits = [r.body["max_tokens"] for r in server.generations]
    assert result.exit_code == 0, result.stderr
    assert limits[:2] == [2048, 4096]  # asked once more with more room
    assert "Q1 saved flagged: cut by the token limit" in result.stderr
    turns = Store.open().turns(1)
    assert [t.answer_flag for t in turns] == ["truncated", "truncated"]
    shown = invoke("show", "1")
    assert "1*" in shown.stdout and "* Q1 truncated: cut by the token limit" in shown.stdout
    data = json.loads(invoke("show", "1", "--json").stdout)
    assert [t["answer_flag"] for t in data["turns"]] == ["truncated", "truncated"]
    markdown = invoke("export", "1", "-f", "md").stdout
    assert markdown.count("**Incomplete answer:** cut by the token limit") == 2
    anki = [line.split("\t") for line in invoke("export", "1", "-f", "anki").stdout.splitlines()]
    assert all("truncated" in row[3].split() for row in anki if not row[0].startswith("#"))  # tags


def test_a_whole_answer_carries_no_flag(invoke, live):
    with live() as server:
        assert run(invoke, server, "--from", "1", "--to", "1").exit_code == 0
    assert Store.open().turns(1)[0].answer_flag is None
    assert json.loads(invoke("show", "1", "--json").stdout)["turns"][0]["answer_flag"] is None


def test_usage_that_cannot_be_right_is_flagged_once_and_local_counts_size_n(invoke, live):
    with live(reported_prompt=36) as server:
        result = run(invoke, server, "--from", "1", "--to", "6")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.count("the provider reported 36 prompt tokens") == 1
    turns = Store.open().turns(1)
    assert all(t.prompt_tokens == 36 for t in turns)  # the report is kept
    assert all(t.usage_suspect for t in turns)
    assert all(t.context_tokens == t.local_prompt_tokens + t.local_completion_tokens for t in turns)
    assert turns[-1].context_tokens > turns[0].context_tokens  # n grows with the history
    shown = invoke("show", "1")
    assert "36 (local" in shown.stdout and " !" in shown.stdout
    assert "disagrees with the local count" in shown.stdout
    assert all(
        t["usage_suspect"] for t in json.loads(invoke("show", "1", "--json").stdout)["turns"]
    )


def test_usage_that_agrees_is_not_flagged(invoke, live):
    with live() as server:
        result = run(invoke, server, "--from", "1", "--to", "3")
    assert "the provider reported" not in result.stderr
    assert not any(t.usage_suspect for t in Store.open().turns(1))
