"""A mock interview in a real pseudo-terminal, offline (issue 23).

Three questions: a strong answer (no probe needed), a partial one (the
probes name the concepts it left out), a contradicting one (the challenge
quotes it). The feedback lists each; the ratings stored are the confirmed
ones; an interview stopped mid-probe resumes at that probe, and one stopped
at the ratings asks for them again.
"""

from __future__ import annotations

import json
import signal
import sqlite3

import pexpect
import terminal
from terminal import RATINGS, finish, say

from studybot.storage.store import DB_NAME

STRONG_Q1 = (
    "大语言模型是在海量文本上预测下一个词元训练出来的 Transformer，参数几十亿以上，"
    "一个模型能处理翻译问答写代码等多种任务；传统 NLP 一个任务一个模型，要单独标注训练，"
    "LLM 靠提示就能切换任务。"
    "能力来自规模放大，出现上下文学习。BERT 是编码器输出向量，GPT 解码器直接生成文本，"
    "对话助手还要做指令微调和偏好对齐。"
)
PARTIAL_Q5 = "注意力分数矩阵是 n×n 的。多轮对话要用摘要。KV 缓存随长度线性增长。"
WRONG_Q24 = (
    "MHA 每个头独立 KV，MQA 共享一组 KV，GQA 分组共享。KV 缓存和头数没有关系，主要是省计算。"
)


def interview_terminal(home, *args: str, key: str | None = None) -> pexpect.spawn:
    return terminal.spawn(home, *args, key=key, columns=140)


def probes(home) -> list[tuple]:
    with sqlite3.connect(home / DB_NAME) as db:
        return db.execute(
            "select question_id, n, point, state_before, question, answer, state_after, source "
            "from probes order by question_id, n"
        ).fetchall()


def ratings(home) -> dict[int, int]:
    with sqlite3.connect(home / DB_NAME) as db:
        return dict(db.execute("select question_id, rating from reviews").fetchall())


def test_a_full_offline_interview_of_three_questions(studybot_home, invoke):
    child = interview_terminal(studybot_home, "interview", "--ids", "1,5,24")
    child.expect("面试官 · 第 1 题")
    child.expect("本质区别在哪里")  # the bank's question, verbatim
    say(child, STRONG_Q1)
    child.expect(r"answered in \d+ s")
    # Strong: every point covered, so no probe; the next question comes.
    child.expect(r"面试官 · 第 5 题 \(2/3\)")
    before = child.logfile_read.getvalue()
    assert "追问" not in before.split("面试官 · 第 5 题")[0].split("面试官 · 第 1 题")[1]
    say(child, PARTIAL_Q5)
    child.expect("追问 1/2")
    child.expect("你提到了「n\\^2」；能把这里的具体数字算给我看吗")  # a figure: asked, not given
    say(child, "序列长度翻倍时分数矩阵变为 4 倍。")
    child.expect("追问 2/2")
    child.expect("你提到了「kv")
    say(child, "KV 缓存每 token 的字节数是 2 × 层数 × kv_heads × head_dim × 每元素字节数。")
    child.expect("面试官 · 第 24 题")
    say(child, WRONG_Q24)
    child.expect("追问 1/2")
    child.expect("你说「KV 缓存和头数没有关系」——确定吗？为什么？")
    say(child, "不对，KV 缓存与 KV 头数成正比，MQA 缩小为 1/h，GQA 为 g/h。")
    child.expect("追问 2/2")
    say(child, "不记得了。")
    # Nothing of the answers was revealed while the interview ran.
    during = child.logfile_read.getvalue()
    assert "参考要点" not in during and "✓" not in during
    child.expect("面试官的结论")
    child.expect(r"1\. Q1\s+grade 100%\s+→ 4 Easy")
    child.expect(r"3\. Q24\s+grade\s+\d+%\s+→ 1 Again")
    child.expect(RATINGS)
    child.send("3 3\r")  # the learner changes Q24's suggestion to Good
    child.expect(r"3\. Q24\s+grade\s+\d+%\s+→ 3 Good \(changed\)")
    child.expect(RATINGS)
    child.send("\r")
    child.expect("Q24 saved: 3 Good")
    assert finish(child) == 0

    rows = probes(studybot_home)
    assert [(q, n) for q, n, *_ in rows] == [(5, 1), (5, 2), (24, 1), (24, 2)]
    q5 = [r for r in rows if r[0] == 5]
    assert all(r[3] == "partly" and r[7] == "rubric" for r in q5)
    assert "算给我看" in q5[0][4]  # the probe asks for the figures it does not give away
    assert [r[6] for r in q5] == ["covered", "covered"]  # answered well: both points lifted
    challenge = next(r for r in rows if r[0] == 24 and r[1] == 1)
    assert challenge[3] == "contradicted" and "KV 缓存和头数没有关系" in challenge[4]
    assert challenge[6] != "contradicted"  # corrected under the probe
    stored = ratings(studybot_home)
    assert stored[1] == 4 and stored[24] == 3  # the confirmed ratings, not the suggestion
    assert 5 in stored

    with sqlite3.connect(studybot_home / DB_NAME) as db:
        seconds = db.execute("select question_id, seconds from interview_answers").fetchall()
    assert sorted(q for q, _ in seconds) == [1, 5, 24] and all(s >= 0 for _, s in seconds)

    report = invoke("export", "1", "-f", "md")
    assert report.exit_code == 0, report.stderr
    text = report.stdout
    for heading in ("## 第 1 题", "## 第 5 题", "## 第 24 题"):
        assert heading in text
    assert "你说「KV 缓存和头数没有关系」——确定吗？为什么？" in text
    assert "⚠ →" in text  # the probe's effect on the contradicted point
    assert "第 3 章" in text and ("weak" in text or "borderline" in text)
    assert "rating 3 Good" in text
    shown = invoke("show", "1")
    assert shown.exit_code == 0 and "追问1" in shown.stdout and "面试官的结论" in shown.stdout
    data = json.loads(invoke("show", "1", "--json").stdout)
    assert data["mode"] == "interview"
    assert len(data["interview"]["probes"]) == 4 and set(data["interview"]["answers"]) == {
        "1",
        "5",
        "24",
    }


def test_an_interview_killed_mid_probe_resumes_at_that_probe(studybot_home):
    child = interview_terminal(studybot_home, "interview", "--ids", "24", "--followups", "1")
    say(child, WRONG_Q24)
    child.expect("你说「KV 缓存和头数没有关系」")
    child.expect("›")
    child.kill(signal.SIGKILL)
    child.close()
    asked = probes(studybot_home)
    assert len(asked) == 1 and asked[0][5] is None  # asked, saved, not answered

    child = interview_terminal(studybot_home, "resume")
    child.expect(r"面试官 · 第 24 题 \(1/1\)")
    child.expect("对比 MHA、MQA 和 GQA")  # the question shown again, not asked again
    child.expect("你说「KV 缓存和头数没有关系」")  # the same probe, not a new one
    say(child, "KV 缓存与 KV 头数成正比。")
    child.expect(RATINGS)
    child.send("q")
    child.send("\r")
    child.expect("Stopped. Resume with: studybot resume 1")
    assert finish(child) == 0
    assert len(probes(studybot_home)) == 1 and probes(studybot_home)[0][5]
    assert ratings(studybot_home) == {}

    child = interview_terminal(studybot_home, "resume")  # the ratings not saved are asked again
    child.expect(r"1\. Q24")
    child.expect(RATINGS)
    child.send("\r")
    child.expect("Q24 saved")
    assert finish(child) == 0
    assert list(ratings(studybot_home)) == [24]


def test_no_interview_without_a_terminal(invoke, studybot_home):
    result = invoke("interview", "--ids", "1")
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: an interview needs you at a terminal")
    assert not (studybot_home / DB_NAME).exists() or not ratings(studybot_home)


def test_a_live_interview_puts_the_question_in_its_words_the_bank_wording_dim_beneath(
    studybot_home,
):
    from openai_server import OpenAIServer
    from scripted import interviewer_reply

    key = "sk-live-screen-0123456789abcdef"
    studybot_home.mkdir(parents=True, exist_ok=True)
    (studybot_home / "config.toml").write_text("retry_backoff = 0.001\n", encoding="utf-8")
    with OpenAIServer(key=key, models=["m"], answer=interviewer_reply) as server:
        child = interview_terminal(
            studybot_home, "interview", "--ids", "24", "--followups", "1",
            "--base-url", server.base_url, "--model", "m", key=key,
        )  # fmt: skip
        child.expect("面试官：第 24 题")  # the model's words, streamed
        child.expect("（题库原题：对比 MHA、MQA 和 GQA")  # the bank's, beneath
        say(child, WRONG_Q24)
        child.expect("追问 1/1")
        child.expect("条你没讲清楚")  # the model wrote the probe
        say(child, "补充：KV 缓存与 KV 头数成正比。")
        child.expect(RATINGS)
        child.send("\r")
        child.expect("Q24 saved")
        assert finish(child) == 0
    (probe,) = probes(studybot_home)
    assert probe[7] == "model" and probe[6] == "covered"


def test_an_interview_of_a_chapter_stops_on_ctrl_c_and_is_listed_as_one(studybot_home, invoke):
    child = interview_terminal(studybot_home, "interview", "--chapter", "1", "--followups", "0")
    child.expect(r"面试官 · 第 1 题 \(1/8\)")
    say(child, STRONG_Q1)
    child.expect(r"面试官 · 第 2 题 \(2/8\)")
    child.expect("Ctrl-C stops")  # question 2 is put (its turn saved): the answer is awaited
    child.expect("›")
    child.sendcontrol("c")
    child.expect("studybot resume 1")
    assert finish(child) == 130
    listed = json.loads(invoke("sessions", "--json").stdout)
    (session,) = listed if isinstance(listed, list) else listed["sessions"]
    assert session["mode"] == "interview"
    assert session["selection"] == {"kind": "chapter", "chapters": [1]}
    assert session["answered"] == 2  # both questions were put; the second is not answered


def test_a_live_interview_says_when_its_grading_fell_back_to_the_offline_grader(studybot_home):
    from openai_server import OpenAIServer
    from scripted import interviewer_reply

    def unreadable_grades(body: dict) -> str:  # the model's grades are not JSON
        if body.get("response_format"):
            return "评分：还不错"
        return interviewer_reply(body)

    key = "sk-live-screen-0123456789abcdef"
    studybot_home.mkdir(parents=True, exist_ok=True)
    (studybot_home / "config.toml").write_text("retry_backoff = 0.001\n", encoding="utf-8")
    with OpenAIServer(key=key, models=["m"], answer=unreadable_grades) as server:
        child = interview_terminal(
            studybot_home, "interview", "--ids", "24", "--followups", "1",
            "--base-url", server.base_url, "--model", "m", key=key,
        )  # fmt: skip
        child.expect("面试官：第 24 题")
        say(child, WRONG_Q24)
        child.expect("Note: the model's grade was malformed")  # as run and grade say it
        child.expect("offline grade")
        child.expect("answered in")
        child.expect("追问 1/1")
        say(child, "补充：KV 缓存与 KV 头数成正比。")
        child.expect("Note: ")  # the probe's answer, graded the same way
        child.expect(RATINGS)
        child.send("\r")
        child.expect("Q24 saved")
        assert finish(child) == 0
    with sqlite3.connect(studybot_home / DB_NAME) as db:
        (source,) = db.execute("select source from grades").fetchone()
    assert source == "offline-fallback"
