"""An interview on a live channel: the local OpenAI-compatible server, the real client (issue 23).

The probe and grading requests are side requests: each extends the main
request before it byte for byte (so the segment's cached prefix serves
it), and the main history holds only the interviewer's questions, never a
probe or a learner's answer.
"""

from __future__ import annotations

import json

import pytest
from openai_server import OpenAIServer
from scripted import ScriptedInterview, interview, interviewer_reply

from studybot.storage.store import Store
from studybot.study.prompt import INTERVIEW_ASK

KEY = "sk-live-test-0123456789abcdef"
MODEL = "test-model"
ANSWERS = {
    1: "大语言模型是海量文本上预测下一个词元训练的 Transformer。",
    2: "参数规模大，能力随规模出现。",
    3: "先预训练再微调。",
}
PROBE_ANSWERS = ["补充：还要指令微调和对齐。", "不清楚。", "补充：靠提示切换任务。"]


# The server of the `server` fixture (tests/conftest.py).
SERVER = {
    "key": KEY,
    "key_env": True,
    "config": "retry_backoff = 0.001\nmax_retries = 1\n",
    "models": [MODEL],
    "answer": interviewer_reply,
    "cache_min": 64,
    "cache_step": 16,
}


def test_probes_extend_the_cached_prefix_and_never_join_the_main_history(server, invoke):
    learner = ScriptedInterview(ANSWERS, PROBE_ANSWERS)
    flags = {"base_url": server.base_url, "model": MODEL, "segment_min": 2, "segment_max": 2}
    record = interview(learner, ids=(1, 2, 3), flags=flags)
    assert record.complete and record.live

    sent = [r.messages for r in server.generations]
    main = [m for m in sent if INTERVIEW_ASK in m[-1]["content"]]
    probes = [m for m in sent if m[-1]["content"].startswith("（面试官的追问")]
    gradings = [m for m in sent if "请给用户对上面这道题的作答评分" in m[-1]["content"]]
    assert len(main) == 3 and len(probes) >= 3 and len(gradings) >= 3 + len(probes)
    for index, messages in enumerate(sent):
        if messages in main or "总结" in messages[-1]["content"]:
            continue
        before = next(m for m in reversed(sent[:index]) if m in main)
        assert messages[: len(before)] == before  # a side request extends the main request
        assert messages[len(before)]["role"] == "assistant"  # ... then the interviewer's words
        assert len(messages) == len(before) + 2
    # The server counted the shared prefix as cached on the side requests.
    cached = [u["prompt_tokens_details"]["cached_tokens"] for u in server.usage_sent]
    assert all(cached[sent.index(p)] > 0 for p in probes)

    store = Store.open()
    spoken = set(ANSWERS.values()) | set(PROBE_ANSWERS) | set(learner.probes)
    for messages in [*main, *[m for m in sent if "总结" in m[-1]["content"]]]:
        history = "\n".join(m["content"] for m in messages)
        assert not any(text in history for text in spoken)  # no answer, no probe
    turns = store.turns(record.id)
    assert [t.answer for t in turns] == learner.asked  # the interviewer's words are the turns
    assert all(t.answer.startswith("面试官：") for t in turns)

    saved = store.probes(record.id)
    assert saved and all(p.source == "model" and p.prompt_tokens > 0 for p in saved)
    assert [p.question for p in saved] == learner.probes
    assert any(p.state_after == "covered" and p.state_before == "missed" for p in saved)
    assert sorted(q for q, _ in learner.saved) == [1, 2, 3]
    shown = invoke("show", str(record.id))
    assert shown.exit_code == 0 and "probes: " in shown.stdout and "by the model" in shown.stdout


def test_the_interviews_cost_in_show_is_every_request_it_sent(server, invoke, studybot_home):
    config = studybot_home / "config.toml"
    config.write_text(
        config.read_text(encoding="utf-8")
        + f'\n[prices."{MODEL}"]\ninput = 2.0\ncached_input = 0.5\noutput = 8.0\ncurrency = "CNY"\n',
        encoding="utf-8",
    )
    learner = ScriptedInterview(ANSWERS, PROBE_ANSWERS)
    flags = {"base_url": server.base_url, "model": MODEL, "segment_min": 2, "segment_max": 2}
    record = interview(learner, ids=(1, 2, 3), flags=flags)

    sent = server.usage_sent  # main asks, probes, gradings and the summary, as the server counted
    cached = sum(u["prompt_tokens_details"]["cached_tokens"] for u in sent)
    prompt = sum(u["prompt_tokens"] for u in sent)
    completion = sum(u["completion_tokens"] for u in sent)
    expected = ((prompt - cached) * 2.0 + cached * 0.5 + completion * 8.0) / 1e6
    shown = invoke("show", str(record.id), "--json")
    assert shown.exit_code == 0, shown.stderr
    cost = json.loads(shown.stdout)["cost"]
    assert cost["currency"] == "CNY" and cost["total"] == pytest.approx(expected, rel=1e-6)
    assert "CNY" in invoke("show", str(record.id)).stdout


def test_an_interviews_cut_and_failed_requests_count_as_the_server_served_them(
    monkeypatch, studybot_home, invoke
):
    from openai_server import Fault

    from studybot.costs import tokens

    def counted(messages, text):  # the server counts as studybot does: a cut stream's local
        return tokens.prompt_tokens(messages), tokens.count(text)  # count is then exact

    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    studybot_home.mkdir(parents=True, exist_ok=True)
    (studybot_home / "config.toml").write_text(
        "retry_backoff = 0.001\nmax_retries = 1\n", encoding="utf-8"
    )
    with OpenAIServer(
        key=KEY, models=[MODEL], answer=interviewer_reply, cache_min=64, counter=counted
    ) as server:
        # the question put (cut, again), its grading (500 in every JSON mode, each asked
        # as often as it is: so the offline grader's), the probe (cut, again), the probe's
        # answer graded
        server.script(Fault.cut(), None, *[Fault.server_error(500)] * 4, Fault.cut(), None, None)
        learner = ScriptedInterview(ANSWERS, PROBE_ANSWERS)
        flags = {"base_url": server.base_url, "model": MODEL}
        record = interview(learner, ids=(1,), followups=1, flags=flags)

    data = json.loads(invoke("show", str(record.id), "--json").stdout)
    total, served = data["requests"], server.served
    assert total["sent"] == len(server.generations) == 9
    assert (total["discarded"], total["estimated"]) == (6, 2)
    assert total["prompt_tokens"] == sum(s.prompt_tokens for s in served)
    assert total["completion_tokens"] == sum(s.completion_tokens for s in served)
    assert total["cached_tokens"] == sum(s.cached_tokens for s in served if s.reported)
    (turn,) = data["turns"]
    assert turn["requests"] == 2 and turn["discarded"]["estimated"] == 1
    (probe,) = data["interview"]["probes"]
    assert probe["discarded"]["requests"] == probe["discarded"]["estimated"] == 1
    assert probe["discarded"]["prompt_tokens"] == served[2].prompt_tokens  # its first, cut try
    # the 500s: requests that served nothing, though the grade fell back to the rubric
    assert turn["grade_source"] == "offline-fallback"
    assert data["grading_usage"] == {
        "requests": 4,
        "discarded_requests": 4,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "cached_tokens": 0,
    }
    screen = invoke("show", str(record.id)).stdout
    assert "↻ Q1 probe: 2 requests sent, 1 thrown away" in screen
    assert "↻ Q1 grading: 4 requests sent, 4 thrown away (cut or failed)" in screen


def test_with_a_grader_the_probes_and_grades_go_to_it_and_show_prices_each_side(
    server, invoke, studybot_home, monkeypatch
):
    monkeypatch.setenv("GRADER_KEY", "sk-grader-0123456789")
    with OpenAIServer(key="sk-grader-0123456789", models=["cheap"], answer=interviewer_reply) as g:
        (studybot_home / "config.toml").write_text(
            "retry_backoff = 0.001\nmax_retries = 1\n"
            f'[providers.cheap]\nbase_url = "{g.base_url}"\nmodel = "cheap"\nenv_key = "GRADER_KEY"\n'
            '[prices."cheap"]\ninput = 0.1\noutput = 0.2\n',
            encoding="utf-8",
        )
        learner = ScriptedInterview(ANSWERS, PROBE_ANSWERS)
        flags = {"base_url": server.base_url, "model": MODEL, "grader": "cheap"}
        record = interview(learner, ids=(1, 2), flags=flags)
        side = [r.messages[-1]["content"] for r in g.generations]
    assert record.complete and learner.probes
    assert all(INTERVIEW_ASK not in m[-1]["content"] for m in (r.messages for r in g.generations))
    assert sum(text.startswith("（面试官的追问") for text in side) == len(learner.probes)
    main = [r.messages[-1]["content"] for r in server.generations]
    assert not any(t.startswith("（面试官的追问") or "作答评分" in t for t in main)
    data = json.loads(invoke("show", str(record.id), "--json").stdout)
    answering, grading = data["sides"]
    assert (answering["model"], grading["model"]) == (MODEL, "cheap")
    assert grading["prompt_tokens"] == sum(u["prompt_tokens"] for u in g.usage_sent)
    assert grading["cost"] is not None and answering["cost"] is None  # only the grader is priced
