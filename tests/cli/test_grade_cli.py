"""``studybot grade QUESTION``: one attempt graded as a user, a script or an evaluation runs it."""

from __future__ import annotations

import json

from openai_server import OpenAIServer

from studybot import bank

KEY = "sk-grade-cli-0123456789abcdef"
MODEL = "test-model"
WRONG_Q22 = (
    "参数量会随头数线性增加，计算量也是 h 倍。头数越多越好。KV 缓存和头数没有关系，只和层数有关。"
)
RIGHT_Q22 = (
    "把 d_model 切成 h 个头，每头 d_head = d_model / h，各头单独算注意力后拼接再乘 W_O。"
    "每个头有自己的 softmax，能在不同子空间关注不同模式；单头只有一个分布，会被平均掉。"
    "参数量与头数无关：共 4d²，矩阵乘的 FLOPs 基本不变。头数并非越多越好，d_head 太小表达力受限，"
    "主流取 64 或 128。很多头是冗余的；KV 缓存与 K/V 头数成正比。"
)


def test_a_wrong_answer_from_stdin_shows_its_contradictions_and_suggests_again(invoke):
    result = invoke("grade", "22", input=WRONG_Q22)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith("Q22 多头注意力")
    assert "⚠ 3." in out and "you: 参数量会随头数线性增加 · key: " in out
    assert "suggested: 1 Again" in out and "offline (rubric)" in out
    assert "contradict the key" in out


def test_a_right_answer_is_marked_point_by_point_with_its_evidence(invoke):
    result = invoke("grade", "22", "--attempt", RIGHT_Q22)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count("✓") >= 4 and "⚠" not in result.stdout
    assert "「" in result.stdout  # the clause that decided a point
    assert "suggested: 4 Easy" in result.stdout or "suggested: 3 Good" in result.stdout


def test_json_gives_score_points_rating_source_and_grader(invoke):
    result = invoke("grade", "22", "--json", input=WRONG_Q22)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert {"score", "points", "suggested_rating", "source", "grader"} <= set(data)
    assert data["source"] == "offline" and data["grader"] == "rubric"
    assert data["suggested_rating"] == 1 and data["score"] < 0.5
    assert len(data["points"]) == len(bank.load().get(22).key_points)
    assert all({"point", "state", "evidence"} <= set(p) for p in data["points"])
    states = [p["state"] for p in data["points"]]
    assert "contradicted" in states and set(states) <= {
        "covered",
        "partly",
        "missed",
        "contradicted",
    }


def test_an_imported_bank_is_graded_by_a_term_estimate_that_says_so(invoke, tmp_path):
    path = tmp_path / "mine.md"
    path.write_text(
        "### 1. 为什么 KV 缓存不存 Q？\n\n- 新 token 只用当前的 q。\n- 历史的 k 和 v 每步都要读。\n"
        "- 显存随长度线性增长。\n",
        encoding="utf-8",
    )
    result = invoke(
        "grade", "1", "--bank", str(path), "--json", "--attempt", "历史的 k 和 v 每步都要读"
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["grader"] == "term estimate" and data["source"] == "offline"
    assert [p["state"] for p in data["points"]][1] == "covered"
    shown = invoke("grade", "1", "--bank", str(path), "--attempt", "历史的 k 和 v 每步都要读")
    assert "offline (term estimate)" in shown.stdout


def test_no_attempt_or_a_bad_question_is_one_line_and_exit_2(invoke):
    empty = invoke("grade", "22", input="  \n")
    assert empty.exit_code == 2
    assert empty.stderr.splitlines()[0] == "Error: there is no attempt to grade"
    assert "Traceback" not in empty.stderr and empty.stdout == ""
    missing = invoke("grade", "999", "--attempt", "随便")
    assert missing.exit_code == 2 and "question 999 is not in bank" in missing.stderr
    word = invoke("grade", "abc", "--attempt", "随便")
    assert word.exit_code == 2


def test_with_a_key_the_live_grader_judges_and_offline_forces_the_rubric(invoke, monkeypatch):
    def answer(body):
        last = (body.get("messages") or body.get("input"))[-1]["content"]
        if "请给用户对上面这道题的作答评分" not in last:
            return "结论。"
        states = ["covered", "partly", "contradicted", "missed", "missed"]
        points = [
            {
                "n": n,
                "state": s,
                "evidence": "参数量会随头数线性增加" if s == "contradicted" else "",
            }
            for n, s in enumerate(states, start=1)
        ]
        return json.dumps({"points": points, "advice": "再读第 3 点。"}, ensure_ascii=False)

    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    with OpenAIServer(key=KEY, models=[MODEL], answer=answer) as server:
        channel = ["--base-url", server.base_url, "--model", MODEL]
        live = invoke("grade", "22", "--json", *channel, input=WRONG_Q22)
        assert live.exit_code == 0, live.stderr
        data = json.loads(live.stdout)
        assert (data["source"], data["grader"], data["suggested_rating"]) == ("live", "model", 1)
        assert (
            data["points"][2]
            == {
                "point": bank.load().get(22).key_points[2],
                "state": "contradicted",
                "evidence": "参数量会随头数线性增加",
                "key": data["points"][2]["key"],
                "mentioned": False,
            }
            and data["points"][2]["key"]
        )
        (asked,) = server.generations
        assert asked.body["response_format"]["type"] == "json_schema"
        assert asked.messages[1]["content"].endswith(bank.load().get(22).question)
        offline = invoke("grade", "22", "--json", "--offline", *channel, input=WRONG_Q22)
        assert json.loads(offline.stdout)["source"] == "offline"
        assert len(server.generations) == 1  # --offline sent nothing


def test_help_has_an_example(invoke):
    result = invoke("grade", "--help")
    assert result.exit_code == 0 and "studybot grade 22 < answer.txt" in result.stdout


def test_bank_search_finds_a_term_however_it_is_written(invoke):
    def hits(*words):
        result = invoke("bank", "search", *words, "--json")
        return {h["id"] for h in json.loads(result.stdout)}

    chinese = hits("KV 缓存")
    assert chinese and hits("KV cache") == chinese == hits("键值缓存")
    assert chinese <= hits("kv", "cache")  # two words: each anywhere
    assert hits("词元") == hits("token")
