"""Live grades from engines that refuse a strict schema, send an empty list or run out of room.

As llama.cpp did: HTTP 500 for every strict ``json_schema`` request, a reply
cut at the token limit mid-string, ``"points": []``. Each is graded through
``studybot grade`` against the local server, counting what the server saw.
"""

from __future__ import annotations

import json

import pytest
from openai_server import Fault, OpenAIServer

from studybot import bank
from studybot.learn import live_grade

KEY = "sk-grading-modes-0123456789abcdef"
MODEL = "tiny-qwen2"
ATTEMPT = "参数量会随头数线性增加，计算量也是 h 倍。"
PEG = "the output does not match the expected peg-native format"


def points(count: int) -> str:
    marks = [{"n": n, "state": "missed", "evidence": ""} for n in range(1, count + 1)]
    marks[0] = {"n": 1, "state": "contradicted", "evidence": "参数量会随头数线性增加"}
    return json.dumps({"points": marks, "advice": "再读第 1 点。"}, ensure_ascii=False)


Q22 = len(bank.load().get(22).key_points)


def mode(request) -> str:
    """The JSON mode a request asked for: json_schema, json_object or text."""
    body = request.body
    shape = body.get("response_format") or (body.get("text") or {}).get("format") or {}
    return shape.get("type", "text")


@pytest.fixture
def keyed(monkeypatch, studybot_home):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    studybot_home.mkdir(parents=True, exist_ok=True)
    (studybot_home / "config.toml").write_text("retry_backoff = 0.001\n", encoding="utf-8")
    return studybot_home


def graded(invoke, server, wire_api: str = "chat"):
    result = invoke(
        "grade", "22", "--json", "--attempt", ATTEMPT, "--base-url", server.base_url,
        "--model", MODEL, "--wire-api", wire_api,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout), result.stderr


def refusing(*modes: str, status: int = 500):
    def refuse(body):
        shape = body.get("response_format") or (body.get("text") or {}).get("format") or {}
        return Fault.http(status, PEG) if shape.get("type", "text") in modes else None

    return refuse


@pytest.mark.parametrize("wire_api", ["chat", "responses"])
def test_a_refused_schema_falls_back_to_json_object_mode_and_later_grades_start_there(
    invoke, keyed, wire_api
):
    refuse = refusing("json_schema")
    with OpenAIServer(key=KEY, models=[MODEL], answer=lambda b: points(Q22), refuse=refuse) as s:
        first, said = graded(invoke, s, wire_api)
        # the schema once and once more (a 500 may pass), then JSON object mode once
        assert [mode(r) for r in s.generations] == ["json_schema", "json_schema", "json_object"]
        assert all(r.body["temperature"] == 0 for r in s.generations)
        second, said_again = graded(invoke, s, wire_api)
        assert [mode(r) for r in s.generations][3:] == ["json_object"]  # straight to it
    assert (first["source"], first["grader"]) == ("live", "model")
    assert first["points"][0]["state"] == "contradicted" and first["suggested_rating"] == 1
    assert second["source"] == "live"
    notice = [line for line in said.splitlines() if "refused the strict JSON schema" in line]
    assert len(notice) == 1 and "HTTP 500" in notice[0] and PEG in notice[0]
    assert "JSON object mode works for tiny-qwen2" in notice[0]
    assert "json-modes.json" in notice[0]
    assert "refused" not in said_again  # said once
    remembered = json.loads((keyed / "cache" / "json-modes.json").read_text(encoding="utf-8"))
    assert remembered == {f"{s.base_url} {MODEL}": "json_object"}


def test_an_engine_refusing_both_json_modes_is_asked_in_words_and_its_fenced_reply_read(
    invoke, keyed
):
    def fenced(body):
        return f"好的，评分如下：\n```json\n{points(Q22)}\n```"

    refuse = refusing("json_schema", "json_object", status=400)
    with OpenAIServer(key=KEY, models=[MODEL], answer=fenced, refuse=refuse) as server:
        data, said = graded(invoke, server)
        # a 400 is the server's final word on a shape: each mode is asked once
        assert [mode(r) for r in server.generations] == ["json_schema", "json_object", "text"]
        asked = server.generations[-1]
        assert "只输出一个 JSON 对象" in asked.messages[-1]["content"]
        assert asked.body["max_tokens"] == live_grade.reply_tokens(Q22)
        graded(invoke, server)
        assert [mode(r) for r in server.generations][3:] == ["text"]
    assert data["source"] == "live" and data["points"][0]["state"] == "contradicted"
    assert "asking for JSON in the prompt alone works" in said


def test_a_server_failing_every_mode_costs_four_requests_and_grades_offline(invoke, keyed):
    with OpenAIServer(key=KEY, models=[MODEL], refuse=lambda body: Fault.server_error()) as s:
        data, said = graded(invoke, s)
        assert [mode(r) for r in s.generations] == [
            "json_schema",
            "json_schema",
            "json_object",
            "text",
        ]
    assert data["source"] == "offline-fallback"
    assert "the grading request failed" in data["note"] and "HTTP 500" in data["note"]
    assert not (keyed / "cache" / "json-modes.json").exists()  # nothing worked: nothing kept


def test_an_empty_points_list_is_malformed_asked_once_more_then_graded_offline(invoke, keyed):
    empty = json.dumps({"points": [], "advice": "很好"})
    with OpenAIServer(key=KEY, models=[MODEL], answer=lambda body: empty) as server:
        data, _ = graded(invoke, server)
        assert len(server.generations) == 2
        sent = server.generations[0].body["response_format"]["json_schema"]["schema"]
        assert sent["properties"]["points"]["minItems"] == Q22
        assert sent["properties"]["points"]["maxItems"] == Q22
    assert data["source"] == "offline-fallback" and data["grader"] == "rubric"
    assert f"an empty points list, expected {Q22} points" in data["note"]
    assert "showing the offline grade" in data["note"]


def test_a_grade_cut_at_its_limit_is_not_asked_again(invoke, keyed):
    cut = points(Q22)[:150]  # the engine stopped mid-string
    with OpenAIServer(key=KEY, models=[MODEL], answer=lambda body: cut, finish_at=4096) as server:
        data, _ = graded(invoke, server)
        assert len(server.generations) == 1
        assert server.generations[0].body["max_tokens"] == live_grade.reply_tokens(Q22)
    assert data["source"] == "offline-fallback"
    limit = live_grade.reply_tokens(Q22)
    assert f"the model's grade was cut at its limit of {limit} tokens" in data["note"]


def lengths(request) -> dict:
    """The string bounds a strict-schema request carried: {field: maxLength}."""
    schema = request.body["response_format"]["json_schema"]["schema"]
    point = schema["properties"]["points"]["items"]["properties"]
    return {
        "evidence": point["evidence"].get("maxLength"),
        "advice": schema["properties"]["advice"].get("maxLength"),
    }


def test_an_engine_that_decodes_by_grammar_gets_bounded_strings_and_a_grade_budget(invoke, keyed):
    """llama.cpp's grammar cannot run on inside a quote until the reply is cut, and a
    small max_output_tokens (the answers' cap) does not cut the grade."""
    from engine_server import EngineServer

    (keyed / "config.toml").write_text(
        'retry_backoff = 0.001\ntoken_counter = "server"\nmax_output_tokens = 256\n',
        encoding="utf-8",
    )
    with EngineServer(key=KEY, models=[MODEL], answer=lambda b: points(Q22)) as server:
        grade, _ = graded(invoke, server)
        (request,) = server.generations
    assert grade["source"] == "live"
    assert lengths(request) == {
        "evidence": live_grade.EVIDENCE_CHARS,
        "advice": live_grade.ADVICE_CHARS,
    }
    assert request.body["max_tokens"] == live_grade.reply_tokens(Q22) > 256


def test_a_hosted_api_gets_the_schema_without_length_keywords(invoke, keyed):
    """OpenAI's strict mode refuses minLength/maxLength: an endpoint not known to be
    an engine gets the strictest common subset, and the grade is parsed."""
    with OpenAIServer(key=KEY, models=[MODEL], answer=lambda b: points(Q22)) as server:
        grade, _ = graded(invoke, server)
        (request,) = server.generations
    assert grade["source"] == "live"
    assert lengths(request) == {"evidence": None, "advice": None}
    schema = json.dumps(request.body["response_format"])
    assert "maxLength" not in schema and "minLength" not in schema
    points_schema = request.body["response_format"]["json_schema"]["schema"]["properties"]["points"]
    assert points_schema["minItems"] == points_schema["maxItems"] == Q22
