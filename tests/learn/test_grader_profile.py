"""A grader of the learner's choice: ``[grader]`` / ``--grader PROFILE`` sends grades elsewhere.

Two local servers: the answering model's and the grader's. Each counts what
it was sent; ``show`` prices each side with its own model's prices.
"""

from __future__ import annotations

import json

import pytest
from openai_server import OpenAIServer
from scripted import Scripted, learner_text, quiz

KEY, GRADER_KEY = "sk-main-0123456789abcdef", "sk-grader-0123456789abcdef"
MODEL, GRADER = "test-model", "local-grader"
GRADING = "请给用户对上面这道题的作答评分"
ATTEMPTS = ["大模型是在海量文本上预测下一个词元训练的", "幻觉来自训练目标"]


def answers(body: dict) -> str:
    last = (body.get("messages") or body.get("input"))[-1]["content"]
    assert GRADING not in last, "a grade reached the answering model"
    return "Q：小结" if "总结" in last else "结论：回答。"


def grades(body: dict) -> str:
    last = (body.get("messages") or body.get("input"))[-1]["content"]
    assert GRADING in last, "the grader was asked for an answer"
    count = last.count("\n", last.index("参考要点"), last.index("用户的作答")) - 2
    quote = learner_text(last, "attempt")[:3]
    marks = [{"n": 1, "state": "covered", "evidence": quote}]
    marks += [{"n": n, "state": "missed", "evidence": ""} for n in range(2, count + 1)]
    return json.dumps({"points": marks, "advice": "先补第 2 点。"}, ensure_ascii=False)


@pytest.fixture
def servers(monkeypatch, studybot_home):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    monkeypatch.setenv("GRADER_KEY", GRADER_KEY)
    with (
        OpenAIServer(key=KEY, models=[MODEL], answer=answers) as main,
        OpenAIServer(key=GRADER_KEY, models=[GRADER], answer=grades) as grader,
    ):
        studybot_home.mkdir(parents=True, exist_ok=True)
        (studybot_home / "config.toml").write_text(
            "retry_backoff = 0.001\n"
            f'[providers.local]\nbase_url = "{grader.base_url}"\nmodel = "{GRADER}"\n'
            'env_key = "GRADER_KEY"\n'
            f'[prices."{MODEL}"]\ninput = 2.0\ncached_input = 0.5\noutput = 8.0\ncurrency = "CNY"\n'
            f'[prices."{GRADER}"]\ninput = 0.1\noutput = 0.2\ncurrency = "CNY"\n',
            encoding="utf-8",
        )
        yield main, grader, studybot_home / "config.toml"


def test_answers_come_from_the_model_and_grades_from_the_grader_and_show_prices_each(
    invoke, servers
):
    main, grader, _ = servers
    flags = {"base_url": main.base_url, "model": MODEL, "grader": "local"}
    learner = Scripted(ATTEMPTS, [3, 2])
    quiz(learner, first=1, last=2, flags=flags)
    assert [learner.grades[n].source for n in (1, 2)] == ["live", "live"]
    assert len(grader.generations) == 2  # one grade per attempt, nothing else
    assert all(r.body["model"] == GRADER for r in grader.generations)
    assert len(main.generations) == 2 and all(r.body["model"] == MODEL for r in main.generations)

    data = json.loads(invoke("show", "1", "--json").stdout)
    answering, grading = data["sides"]
    assert (answering["side"], answering["model"]) == ("answers", MODEL)
    assert (grading["side"], grading["model"]) == ("grading", GRADER)
    sent = grader.usage_sent
    assert grading["prompt_tokens"] == sum(u["prompt_tokens"] for u in sent)
    assert grading["completion_tokens"] == sum(u["completion_tokens"] for u in sent)
    assert answering["prompt_tokens"] == sum(u["prompt_tokens"] for u in main.usage_sent)
    expected = (grading["prompt_tokens"] - grading["cached_tokens"]) * 0.1 / 1e6
    expected += grading["cached_tokens"] * 0.1 / 1e6 + grading["completion_tokens"] * 0.2 / 1e6
    assert grading["cost"]["total"] == pytest.approx(expected, abs=1e-8)
    assert data["cost"]["total"] == pytest.approx(
        answering["cost"]["total"] + grading["cost"]["total"], abs=1e-7
    )
    shown = invoke("show", "1").stdout
    assert f"answers: {MODEL} · prompt tokens" in shown
    assert f"grading: {GRADER} · prompt tokens" in shown


def test_grader_in_config_toml_grades_a_single_attempt_there(invoke, servers):
    main, grader, path = servers
    path.write_text(path.read_text(encoding="utf-8") + '[grader]\nprovider = "local"\n')
    result = invoke(
        "grade", "22", "--json", "--attempt", "参数量与头数无关", "--base-url", main.base_url,
        "--model", MODEL,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["source"] == "live"
    assert (len(main.generations), len(grader.generations)) == (0, 1)


def test_an_unknown_grader_profile_is_one_line_with_the_profiles_there(invoke, servers):
    main, grader, _ = servers
    result = invoke(
        "grade", "22", "--attempt", "随便", "--base-url", main.base_url, "--model", MODEL,
        "--grader", "nope",
    )  # fmt: skip
    assert result.exit_code == 2
    assert (
        "no provider profile 'nope'" in result.stderr and "profiles there: local" in result.stderr
    )
    assert "Traceback" not in result.stderr
    assert main.requests == [] and grader.requests == []


def test_a_grader_whose_key_is_not_set_says_which_variable(invoke, servers, monkeypatch):
    main, grader, _ = servers
    monkeypatch.delenv("GRADER_KEY")
    result = invoke(
        "run", "--from", "1", "--to", "2", "--quiz", "--base-url", main.base_url, "--model", MODEL,
        "--grader", "local",
    )  # fmt: skip
    assert result.exit_code == 2
    assert "the grader (--grader local) reads its key from GRADER_KEY, which is not set" in (
        result.stderr
    )
    assert "export GRADER_KEY=" in result.stderr
    assert main.requests == [] and grader.requests == []


def test_a_grader_table_with_an_unknown_key_is_refused_with_what_it_takes(invoke, servers):
    main, _, path = servers
    path.write_text(path.read_text(encoding="utf-8") + '[grader]\nmodle = "x"\n')
    result = invoke("grade", "22", "--attempt", "随便", "--base-url", main.base_url)
    assert result.exit_code == 2
    assert "[grader] has an unknown key 'modle'" in result.stderr
    assert "provider" in result.stderr and "model" in result.stderr
