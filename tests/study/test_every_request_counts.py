"""Every request sent counts: cut, empty and failed attempts are in `show`, costs and `sessions`.

A real local OpenAI-compatible server counts what it served (prompt and
answer "tokens" by studybot's own tokenizer, so that the local count of a
stream cut before its usage is exact); the reports must add up to it.
"""

from __future__ import annotations

import json

import pytest
from openai_server import Fault

from studybot.costs import tokens
from studybot.output.figures import percent

KEY = "sk-live-test-0123456789abcdef"
MODEL = "test-model"
PRICES = {"input": 2.0, "cached_input": 0.5, "output": 8.0}  # per million tokens


def answer(body: dict) -> str:
    last = (body.get("messages") or body.get("input"))[-1]["content"]
    if "总结" in last:
        return "Q1：要点\nQ2：要点"
    return f"结论：{last.splitlines()[-1][:12]} 的回答。第一点。第二点。第三点。"


def counted(messages: list[dict], text: str) -> tuple[int, int]:
    return tokens.prompt_tokens(messages), tokens.count(text)


# The server of the `server` fixture (tests/conftest.py).
SERVER = {
    "key": KEY,
    "key_env": True,
    "config": "retry_backoff = 0.001\nstream_idle_timeout = 0.3\nmax_retries = 3\n"
    f'[prices."{MODEL}"]\n'
    + "\n".join(f"{k} = {v}" for k, v in PRICES.items())
    + '\ncurrency = "CNY"\n',
    "models": [MODEL],
    "answer": answer,
    "cache_min": 64,
    "cache_step": 16,
    "counter": counted,
}


def run(invoke, server, *args: str):
    result = invoke("run", *args, "--base-url", server.base_url, "--model", MODEL)
    assert result.exit_code == 0, result.stderr
    return result


def shown(invoke) -> dict:
    result = invoke("show", "1", "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_cut_length_and_failed_requests_count_and_add_up_to_what_the_server_served(invoke, server):
    # Q1 whole; Q2's stream cut; Q3 cut at the token limit (usage reported), asked again;
    # Q4 answered by a 500 first. Then every other request of the run goes through.
    server.script(None, Fault.cut(after_chunks=2), None, Fault.length(), None)
    server.script(Fault.server_error(500), None)
    ran = run(invoke, server, "--from", "1", "--to", "14", "--stats")  # a summary request too
    assert "2 requests, 1 thrown away" in ran.stderr  # each turn's line, as it is saved

    data = shown(invoke)
    served = server.served
    assert len(served) == len(server.generations) - 1  # the 500 served nothing
    total = data["requests"]
    assert total["sent"] == len(server.generations)
    assert (total["discarded"], total["estimated"]) == (3, 1)
    assert total["prompt_tokens"] == sum(s.prompt_tokens for s in served)
    assert total["completion_tokens"] == sum(s.completion_tokens for s in served)
    # Cached tokens are what the server reported: a cut stream's hit never reaches anyone.
    reported_cached = sum(s.cached_tokens for s in served if s.reported)
    assert total["cached_tokens"] == reported_cached > 0
    assert total["cached_share"] == round(reported_cached / total["prompt_tokens"], 6)

    turns = {t["question_id"]: t for t in data["turns"]}
    assert [turns[q]["requests"] for q in (1, 2, 3, 4, 5)] == [1, 2, 2, 2, 1]
    cut, length, failed = (turns[q]["discarded"] for q in (2, 3, 4))
    assert cut["estimated"] == 1 and cut["prompt_tokens"] == served[1].prompt_tokens
    assert cut["completion_tokens"] == served[1].completion_tokens > 0  # the text that came
    assert length == {
        "requests": 1,
        "prompt_tokens": served[3].prompt_tokens,
        "completion_tokens": served[3].completion_tokens,
        "cached_tokens": served[3].cached_tokens,
        "estimated": 0,
    }
    assert failed == {
        "requests": 1,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "cached_tokens": 0,
        "estimated": 0,
    }
    assert turns[1]["discarded"] is None

    # The money of every report is the money of every token served.
    cached, prompt = reported_cached, total["prompt_tokens"]
    expected = (
        (prompt - cached) * PRICES["input"]
        + cached * PRICES["cached_input"]
        + total["completion_tokens"] * PRICES["output"]
    ) / 1_000_000
    assert data["cost"]["total"] == pytest.approx(expected, abs=1e-8)
    listed = invoke("sessions", "--json")
    assert json.loads(listed.stdout)[0]["cost"]["total"] == pytest.approx(expected, abs=1e-8)

    screen = invoke("show", "1").stdout
    assert f"all requests: {total['sent']} sent, 3 thrown away" in screen
    share = percent(cached / prompt)
    assert f"cached {cached:,} ({share} of prompt tokens)" in screen  # the share of all of them
    assert "↻ Q2 answer: 2 requests sent, 1 thrown away (cut or failed, 1 counted locally)" in (
        screen
    )
    assert "↻ Q4 answer: 2 requests sent, 1 thrown away (cut or failed)" in screen


def test_a_run_without_retries_sends_what_the_plan_predicts(invoke, server):
    flags = ("--from", "1", "--to", "14", "--base-url", server.base_url, "--model", MODEL)
    planned = json.loads(invoke("plan", *flags, "--json").stdout)["strategies"]["segmented"]
    run(invoke, server, "--from", "1", "--to", "14")
    total = shown(invoke)["requests"]
    assert total["sent"] == len(planned["requests"]) == len(server.generations)
    assert total["discarded"] == 0
