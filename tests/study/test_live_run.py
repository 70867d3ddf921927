"""`studybot run` / `resume` on a live channel: a local OpenAI-compatible server in a thread."""

from __future__ import annotations

import json
import socket

import pytest
from openai_server import Fault

from studybot.storage.store import Store
from studybot.study import prompt

KEY = "sk-live-test-0123456789abcdef"
MODEL = "test-model"
SUMMARY_LINES = [f"Q{n}：第 {n} 行结论" for n in range(1, 8)]  # 7 lines; studybot keeps 5


def answer(body: dict) -> str:
    """Answers that name their question, and a 7-line summary when asked for one."""
    last = (body.get("messages") or body.get("input"))[-1]["content"]
    if "总结" in last:
        return "\n".join(SUMMARY_LINES)
    head = last.splitlines()[-1][:12]
    return f"结论：{head} 的回答。第一点。第二点。第三点。"


# The server of the `server` fixture (tests/conftest.py).
SERVER = {
    "key": KEY,
    "key_env": True,
    "config": "retry_backoff = 0.001\nstream_idle_timeout = 0.3\nmax_retries = 3\n",
    "models": [MODEL],
    "answer": answer,
    "cache_min": 64,
    "cache_step": 16,
}


def run(invoke, server, *args: str, base_url: str | None = None):
    return invoke("run", *args, "--base-url", base_url or server.base_url, "--model", MODEL)


def test_done_means_a_live_run_of_14_questions_in_segments(invoke, server):
    result = run(invoke, server, "--from", "1", "--to", "14")
    assert result.exit_code == 0, result.stderr
    assert "offline" not in result.stderr

    store = Store.open()
    record = store.sessions()[0]
    assert record.complete and record.answered == 14
    assert (record.provider, record.model, record.base_url) == (
        "openai-compat",
        MODEL,
        server.base_url,
    )
    segments = store.segments(record.id)
    assert len(segments) >= 2

    requests = server.generations
    # answers, and a summary for every segment but the last (no later run has read it)
    assert len(requests) == sum(len(s.question_ids) for s in segments) + len(segments) - 1
    system = requests[0].messages[0]
    assert system["role"] == "system"
    assert all(r.messages[0] == system for r in requests)  # byte-identical, every request
    for r in requests:
        assert r.body["model"] == MODEL and r.body["stream"] is True
        assert r.body["stream_options"] == {"include_usage": True}
        assert r.headers["authorization"] == f"Bearer {KEY}"

    start = 0
    for segment in segments:
        last = segment.index == segments[-1].index
        in_segment = requests[start : start + len(segment.question_ids) + (not last)]
        start += len(in_segment)
        for before, after in zip(in_segment, in_segment[1:], strict=False):
            assert after.messages[: len(before.messages)] == before.messages  # extends it
            assert len(after.messages) == len(before.messages) + 2
        first = in_segment[0].messages
        assert len(first) == 2  # a new segment starts from the prefix (+ summary) alone
        opening = first[1]["content"]
        assert opening.endswith(prompt.question_text(_question(segment.question_ids[0])))
        if segment.index == 0:
            assert prompt.SUMMARY_HEADING not in opening
        else:
            carried = segments[segment.index - 1].summary_out
            assert carried == "\n".join(SUMMARY_LINES[:5])
            assert opening.startswith(f"{prompt.SUMMARY_HEADING}\n{carried}\n\n")
        if last:
            assert segment.summary_out is None
        else:
            assert segment.summary_out.splitlines() == SUMMARY_LINES[:5]

    # The answers streamed to the terminal, and were stored whole.
    turns = store.turns(record.id)
    assert [t.question_id for t in turns] == list(range(1, 15))
    assert all(t.answer in result.stdout for t in turns)
    # The provider's usage was recorded beside the local count, and `show` tells them apart.
    assert all(t.usage_source == "provider" for t in turns)
    sent = [u for u in server.usage_sent]
    answers = [
        u for u, r in zip(sent, requests, strict=True) if "总结" not in r.messages[-1]["content"]
    ]
    assert [t.prompt_tokens for t in turns] == [u["prompt_tokens"] for u in answers]
    assert any(t.cached_tokens > 0 for t in turns)
    shown = invoke("show", str(record.id))
    assert "(local " in shown.stdout
    assert "simulated" not in shown.stdout  # the provider's own figures are not labelled so


def _question(question_id: int):
    from studybot import bank

    return bank.load(None).get(question_id)


def test_the_key_is_never_stored_exported_or_printed(invoke, server, studybot_home, tmp_path):
    outputs = []
    server.script(Fault.http(400, f"bad request near {KEY}"))
    outputs.append(run(invoke, server, "--from", "1", "--to", "3"))
    outputs.append(invoke("resume"))
    outputs.append(run(invoke, server, "--from", "4", "--to", "5", "--json"))
    for args in (
        ("sessions", "--json"),
        ("show", "1"),
        ("show", "1", "--json"),
        ("config", "show"),
    ):
        outputs.append(invoke(*args))
    outputs.append(invoke("config", "show", "--json"))
    outputs.append(invoke("doctor", "--probe", "--base-url", server.base_url, "--model", MODEL))
    for fmt in ("md", "json", "anki"):
        target = tmp_path / f"notes.{fmt}"
        outputs.append(invoke("export", "1", "-f", fmt, "-o", str(target)))
        outputs.append(invoke("export", "1", "-f", fmt))
        assert KEY not in target.read_text(encoding="utf-8")
    assert outputs[1].exit_code == 0 and outputs[2].exit_code == 0
    assert "[key]" in outputs[0].stderr  # the server's text was quoted, the key scrubbed
    for result in outputs:
        assert KEY not in result.stdout and KEY not in result.stderr
    stored = list(studybot_home.iterdir())
    assert any(p.name.startswith("studybot.db") for p in stored)
    for path in stored:
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), path
    shown = json.loads(outputs[7].stdout)
    assert shown["key"]["length"] == len(KEY) and shown["key"]["starts"] == "sk-"


# -- lint: exit 2, and not a byte on the network --------------------------


@pytest.mark.parametrize(
    ("base_url", "says"),
    [
        ("https://taotoken.net/api/v1", "ends in /v1"),
        ("https://taotoken.net/api/v1/", "ends in /v1"),
        ("https://taotoken.net/?utm_source=guide", "landing page"),
        ("ftp://taotoken.net/api", "http(s)"),
        ("https:///api", "http(s)"),
        ("taotoken.net/api", "http(s)"),
    ],
)
def test_a_bad_base_url_stops_before_any_request(invoke, server, base_url, says):
    result = run(
        invoke, server, "--from", "1", "--to", "2", base_url=base_url.format(url=server.base_url)
    )
    assert result.exit_code == 2
    assert says in result.stderr
    assert server.requests == []
    assert Store.open().sessions() == []


def test_the_v1_error_names_the_fix(invoke, server):
    result = run(
        invoke, server, "--from", "1", "--to", "2", base_url="https://taotoken.net/api/v1/"
    )
    assert "drop /v1 and use https://taotoken.net/api" in result.stderr


def test_a_trailing_slash_is_trimmed(invoke, server):
    result = run(invoke, server, "--from", "1", "--to", "1", base_url=server.base_url + "/")
    assert result.exit_code == 0, result.stderr
    assert server.generations[0].path == "/api/chat/completions"


@pytest.mark.parametrize(
    ("key", "says"),
    [
        ("YOUR_API_KEY", "placeholder"),
        ("sk-xxx", "placeholder"),
        ("sk-xxxxxxxxxxxxxxxx", "placeholder"),
        ("<your TaoToken key>", "placeholder"),
        ("sk-live-test 0123", "whitespace"),
        ("sk-live-test-0123\n", "line break"),
        ('"sk-live-test-0123"', "quote"),
    ],
)
def test_a_bad_key_stops_before_any_request_without_printing_it(
    invoke, server, monkeypatch, key, says
):
    monkeypatch.setenv("TAOTOKEN_API_KEY", key)
    result = run(invoke, server, "--from", "1", "--to", "2")
    assert result.exit_code == 2
    assert "TAOTOKEN_API_KEY" in result.stderr and says in result.stderr
    assert key.strip() not in result.stderr + result.stdout
    assert server.requests == []


@pytest.mark.parametrize(
    ("model", "says"), [("", "no model ID is set"), (" test-model", "whitespace")]
)
def test_a_bad_model_id_stops_before_any_request(invoke, server, model, says):
    result = invoke(
        "run", "--from", "1", "--to", "2", "--base-url", server.base_url, "--model", model
    )
    assert result.exit_code == 2
    assert says in result.stderr and "model list" in result.stderr
    assert server.requests == []


def test_a_key_without_a_model_never_invents_one(invoke, server):
    result = invoke("run", "--from", "1", "--to", "2", "--base-url", server.base_url)
    assert result.exit_code == 2
    assert "no model ID is set" in result.stderr and "--model" in result.stderr
    assert server.requests == []


def test_an_empty_key_means_offline_and_says_why(invoke, server, monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", "")
    result = run(invoke, server, "--from", "1", "--to", "1")
    assert result.exit_code == 0
    assert "offline" in result.stderr and "set but empty" in result.stderr
    assert server.requests == []


# -- failures at run time: one message, exit 1, the session resumable -------------


def test_a_rejected_key_names_the_variable_not_the_key(invoke, server):
    server.script(Fault.unauthorized(401))
    result = run(invoke, server, "--from", "1", "--to", "2")
    assert result.exit_code == 1
    assert "HTTP 401" in result.stderr and "TAOTOKEN_API_KEY" in result.stderr
    assert f"set, {len(KEY)} characters" in result.stderr
    assert "export TAOTOKEN_API_KEY=" in result.stderr
    assert "studybot resume 1" in result.stderr
    assert KEY not in result.stderr + result.stdout
    assert len(server.generations) == 1  # not retried


def test_forbidden_is_a_key_problem_too(invoke, server):
    server.script(Fault.unauthorized(403))
    result = run(invoke, server, "--from", "1", "--to", "2")
    assert result.exit_code == 1
    assert "HTTP 403" in result.stderr and "TAOTOKEN_API_KEY" in result.stderr


def test_a_wrong_path_shows_the_url_called(invoke, server):
    wrong = server.base_url.replace("/api", "/openai")
    result = run(invoke, server, "--from", "1", "--to", "2", base_url=wrong)
    assert result.exit_code == 1
    assert f"404 Not Found for POST {wrong}/chat/completions" in result.stderr
    assert "/v1" in result.stderr


def test_an_unknown_model_is_named_as_sent(invoke, server):
    result = invoke(
        "run",
        "--from",
        "1",
        "--to",
        "2",
        "--base-url",
        server.base_url,
        "--model",
        "gpt-4o-2099-01-01",
    )
    assert result.exit_code == 1
    assert "'gpt-4o-2099-01-01' (from --model) was not found" in result.stderr
    assert "model list" in result.stderr


def test_rate_limits_are_retried_then_explained(invoke, server):
    server.script(*[Fault.rate_limited(retry_after="0")] * 4)
    result = run(invoke, server, "--from", "1", "--to", "2")
    assert result.exit_code == 1
    assert "rate limiting" in result.stderr and "HTTP 429" in result.stderr
    assert "retry 3/3" in result.stderr
    assert len(server.generations) == 4


def test_a_passing_rate_limit_is_invisible_in_the_result(invoke, server):
    server.script(Fault.rate_limited(retry_after="0"), Fault.server_error(502))
    result = run(invoke, server, "--from", "1", "--to", "2")
    assert result.exit_code == 0, result.stderr
    assert Store.open().session(1).complete


def test_server_errors_are_retried_then_explained(invoke, server):
    server.script(*[Fault.server_error(500)] * 4)
    result = run(invoke, server, "--from", "1", "--to", "2")
    assert result.exit_code == 1
    assert "HTTP 500" in result.stderr and "still after 3 retries" in result.stderr


def test_an_unreachable_endpoint_is_retried_then_explained(invoke, server):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = run(
        invoke, server, "--from", "1", "--to", "2", base_url=f"http://127.0.0.1:{port}/api"
    )
    assert result.exit_code == 1
    assert f"cannot reach http://127.0.0.1:{port}/api" in result.stderr


def test_a_cut_stream_is_retried_and_stored_whole(invoke, server):
    server.script(None, Fault.cut(after_chunks=1), Fault.stall(seconds=3))
    result = run(invoke, server, "--from", "1", "--to", "3")
    assert result.exit_code == 0, result.stderr
    assert "stream was cut" in result.stderr and "no data for 0.3 s" in result.stderr
    second = Store.open().turns(1)[1]
    assert second.question_id == 2
    assert second.answer == answer(server.generations[3].body)  # the third try, whole


def test_a_stream_that_keeps_breaking_fails_and_resume_finishes(invoke, server):
    server.script(None, *[Fault.cut()] * 4)
    result = run(invoke, server, "--from", "1", "--to", "3")
    assert result.exit_code == 1
    assert "cut 4 times" in result.stderr and "studybot resume 1" in result.stderr
    assert [t.question_id for t in Store.open().turns(1)] == [1]  # no partial answer stored

    resumed = invoke("resume")  # the session's base URL and model, no flags needed
    assert resumed.exit_code == 0, resumed.stderr
    turns = Store.open().turns(1)
    assert [t.question_id for t in turns] == [1, 2, 3]
    assert all(t.answer.endswith("第三点。") for t in turns)


def test_the_responses_wire_api_runs_a_session(invoke, server):
    result = run(invoke, server, "--from", "1", "--to", "6", "--wire-api", "responses")
    assert result.exit_code == 0, result.stderr
    assert {r.path for r in server.generations} == {"/api/responses"}
    assert Store.open().session(1).wire_api == "responses"


def test_an_overflow_mid_segment_starts_a_fresh_segment_and_finishes(invoke, server):
    server.script(None, Fault.context_length())
    result = run(invoke, server, "--from", "1", "--to", "3")
    assert result.exit_code == 0, result.stderr
    assert "Q2 does not fit segment 1's context any more" in result.stderr
    store = Store.open()
    assert [s.question_ids for s in store.segments(1)] == [(1,), (2, 3)]
    assert store.session(1).complete
    fresh = server.generations[3].messages  # Q2 again, after segment 1's summary
    assert len(fresh) == 2 and fresh[1]["content"].startswith(prompt.SUMMARY_HEADING)


def test_a_question_that_overflows_alone_gives_a_hint_that_works(invoke, server):
    # Q1, Q2 overflows, segment 1's summary, Q2 alone still overflows.
    server.script(None, Fault.context_length(), None, Fault.context_length())
    result = run(invoke, server, "--from", "1", "--to", "3")
    assert result.exit_code == 1
    hint = "studybot run --from 2 --to 3 --segment-min 1 --segment-max 4"
    assert hint in result.stderr
    assert [t.question_id for t in Store.open().turns(1)] == [1]
    again = run(invoke, server, *hint.split()[2:])
    assert again.exit_code == 0, again.stderr


def test_a_summary_that_overflows_still_completes_the_session(invoke, server):
    server.script(None, None, Fault.context_length())  # two answers, then segment 1's summary
    result = run(
        invoke, server, "--from", "1", "--to", "4", "--segment-min", "2", "--segment-max", "2"
    )
    assert result.exit_code == 0, result.stderr
    record = Store.open().session(1)
    assert record.complete
    assert Store.open().segments(1)[0].summary_out.startswith("Q1：")


def test_resume_gets_past_a_question_that_overflows_its_segment(invoke, server):
    server.script(None, Fault.unauthorized())
    assert run(invoke, server, "--from", "1", "--to", "4").exit_code == 1
    server.script(Fault.context_length())
    result = invoke("resume", "1")
    assert result.exit_code == 0, result.stderr
    store = Store.open()
    assert store.session(1).complete
    assert [s.question_ids for s in store.segments(1)] == [(1,), (2, 3, 4)]


def test_export_summary_of_a_live_session_needs_its_key_and_never_falls_back_offline(
    invoke, server, monkeypatch
):
    assert run(invoke, server, "--from", "1", "--to", "5").exit_code == 0
    sent = len(server.requests)
    monkeypatch.delenv("TAOTOKEN_API_KEY")
    result = invoke("export", "1", "-f", "md", "--summary")
    assert result.exit_code == 2
    assert "TAOTOKEN_API_KEY is not set" in result.stderr
    assert Store.open().segments(1)[-1].summary_out is None  # no offline summary slipped in
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    result = invoke("export", "1", "-f", "md", "--summary")
    assert result.exit_code == 0, result.stderr
    assert len(server.requests) == sent + 1  # the one summary request, made live
    assert Store.open().segments(1)[-1].summary_out.startswith("Q1：")
