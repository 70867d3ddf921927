"""How a live stream ends: keep-alive comments, a connection held open, text past the end (#29).

Each test runs ``studybot run`` against the local server, through the real
``openai`` client: item 3 (keep-alive comments never keep a run waiting),
item 5 (a finished answer is saved though the connection stays open), item
14 (the answer is choice 0 up to its final event).
"""

from __future__ import annotations

import time

import pytest
from openai_server import Fault, OpenAIServer, default_answer

from studybot.storage.store import Store

KEY = "sk-live-test-0123456789abcdef"
MODEL = "test-model"


@pytest.fixture
def live(monkeypatch, studybot_home):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    studybot_home.mkdir(parents=True, exist_ok=True)

    def start(config: str, **options) -> OpenAIServer:
        (studybot_home / "config.toml").write_text(
            f"retry_backoff = 0.001\n{config}", encoding="utf-8"
        )
        return OpenAIServer(key=KEY, models=[MODEL], **options)

    return start


def run(invoke, server, wire_api: str, last: int = 1):
    started = time.monotonic()
    result = invoke(
        "run",
        *("--from", "1", "--to", str(last)),
        *("--base-url", server.base_url, "--model", MODEL, "--wire-api", wire_api),
    )
    return result, time.monotonic() - started


def answers() -> list[str]:
    return [t.answer for t in Store.open().turns(1)]


@pytest.mark.parametrize("wire_api", ["chat", "responses"])
def test_keepalive_comments_after_a_delta_do_not_count_as_data(invoke, live, wire_api):
    # One delta, then ": keepalive" every 0.2 s for 15 s: idle counts from that delta.
    with live("stream_idle_timeout = 1\nrequest_timeout = 60\nmax_retries = 0\n") as server:
        server.script(Fault.keepalive(seconds=15))
        result, seconds = run(invoke, server, wire_api)
    assert seconds < 6, f"waited {seconds:.1f} s on keep-alive comments"
    assert result.exit_code == 1
    assert "stream was cut" in result.stderr and "no data for 1 s" in result.stderr
    assert "unexpected" not in result.stderr


@pytest.mark.parametrize("wire_api", ["chat", "responses"])
def test_a_stream_of_keepalive_comments_ends_at_request_timeout(invoke, live, wire_api):
    # The idle clock alone would wait 30 s; the whole request is bounded at 2 s.
    with live("stream_idle_timeout = 30\nrequest_timeout = 2\nmax_retries = 0\n") as server:
        server.script(Fault.keepalive(seconds=15))
        result, seconds = run(invoke, server, wire_api)
    assert seconds < 7, f"waited {seconds:.1f} s past request_timeout"
    assert result.exit_code == 1
    assert "took longer than request_timeout (2 s)" in result.stderr
    assert "unexpected" not in result.stderr


@pytest.mark.parametrize("wire_api", ["chat", "responses"])
@pytest.mark.parametrize("every", [0.0, 0.2], ids=["silent", "keepalive"])
def test_a_finished_answer_is_saved_though_the_connection_stays_open(invoke, live, wire_api, every):
    with live("stream_idle_timeout = 20\nrequest_timeout = 60\nmax_retries = 2\n") as server:
        server.script(Fault.linger(seconds=15, every=every))
        result, seconds = run(invoke, server, wire_api)
        asked = len(server.generations)
        usage = server.usage_sent[0]
    assert result.exit_code == 0, result.stderr
    assert seconds < 8, f"waited {seconds:.1f} s after the final event"
    assert asked == 1 and "retry" not in result.stderr  # whole: not cut, not asked again
    turn = Store.open().turns(1)[0]
    assert turn.answer.startswith("结论：") and turn.answer_flag is None
    assert turn.prompt_tokens == usage.get("prompt_tokens", usage.get("input_tokens"))


@pytest.mark.parametrize(
    ("wire_api", "fault"),
    [
        ("chat", Fault.trailing("【结束之后的字】")),
        ("responses", Fault.trailing("【结束之后的字】")),
        ("chat", Fault.second_choice("【第二个选择】")),
    ],
    ids=["chat-after-finish", "responses-after-completed", "chat-second-choice"],
)
def test_the_answer_is_choice_0_up_to_its_final_event(invoke, live, wire_api, fault):
    with live("max_retries = 0\n") as server:
        server.script(fault)
        result, _ = run(invoke, server, wire_api)
        sent = server.generations[0].body
    assert result.exit_code == 0, result.stderr
    assert answers() == [default_answer(sent)]
    assert "【" not in result.stdout
