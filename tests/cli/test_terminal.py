"""The study loop in a real pseudo-terminal: single keys, edited text, quiz, Ctrl-C, resume.

Each test spawns ``studybot`` under pexpect as a user would run it, then
checks what was saved through the commands (and the database) a user has.
"""

from __future__ import annotations

import json

import pytest
from terminal import LEFT, MARKS, PROMPT, RATE, attempt, db, finish, spawn

from studybot import bank

GOOD_Q1 = [
    "大语言模型是在海量文本上预测下一个词元训练出来的 Transformer，参数几十亿以上，",
    "一个模型能处理翻译问答写代码等多种任务；传统 NLP 一个任务一个模型，要单独标注训练，LLM 靠提示就能切换任务。",
    "能力来自规模放大，出现上下文学习。BERT 是编码器输出向量，GPT 解码器直接生成文本，对话助手还要做指令微调和偏好对齐。",
]
OFF_TOPIC = "我觉得今天天气不错，适合去公园散步，晚饭做红烧肉。"
GOOD_Q5 = (
    "上下文长度是一次前向能处理的词元总数，生成每个输出词元都要看前面所有词元，所以算历史加输入加输出。"
    "注意力分数矩阵 n×n，随 n² 增长；KV 缓存随长度线性增长。多轮对话要分段用摘要。"
)


def test_single_keys_an_edited_follow_up_hint_help_and_ctrl_c_then_resume(studybot_home):
    child = spawn(studybot_home, "run", "--from", "1", "--to", "8")
    child.expect(PROMPT)
    child.send("?")
    child.expect("Enter next · 1 rate Again")
    child.expect(PROMPT)
    child.send("x")
    child.expect("'x' does nothing here; keys: Enter next")
    child.expect(PROMPT)
    child.send("h")
    child.expect("hint: 从训练目标、任务形式和规模三个角度回答。")
    child.expect(PROMPT)
    child.send("f")
    child.expect("追问")
    child.send("批大小影响吗")
    child.send(LEFT)  # the cursor moves back one character; 会 goes in before 吗
    child.send("会")
    child.send("\r")
    child.expect("follow-up saved")
    child.expect(PROMPT)
    child.send(" ")  # space = next
    child.expect("第 2 题")
    child.expect(PROMPT)
    child.send("h")
    child.expect("hint: 从训练目标、推理方式和工程生态三方面")
    child.expect(PROMPT)
    child.send("3")  # rating is optional in read mode; it is saved, then the next question
    child.expect("saved: 3 Good · next review in")
    child.expect(PROMPT)
    child.send("\x03")
    child.expect("Resume with: studybot resume 1")
    assert finish(child) == 130
    assert "Traceback" not in child.before and "Aborted" not in child.before

    with db(studybot_home) as con:
        assert con.execute("select question from followups").fetchall() == [("批大小影响会吗",)]
        assert con.execute("select question_id, rating from reviews").fetchall() == [(2, 3)]
        assert [r[0] for r in con.execute("select question_id from turns")] == [1, 2, 3]

    child = spawn(studybot_home, "resume")
    child.expect("第 4 题")
    child.expect(PROMPT)
    child.send("q")
    child.expect("Stopped. Resume with: studybot resume 1")
    assert finish(child) == 0

    child = spawn(studybot_home, "resume")
    for _ in range(4):
        child.expect(PROMPT)
        child.send("\r")
    child.expect("Session 1")
    assert finish(child) == 0
    with db(studybot_home) as con:
        assert con.execute("select count(*) from turns").fetchone()[0] == 8


def test_ctrl_d_at_the_key_prompt_also_saves_and_exits_130(studybot_home):
    child = spawn(studybot_home, "run", "--from", "1", "--to", "5")
    child.expect(PROMPT)
    child.send("\x04")
    child.expect("Resume with: studybot resume 1")
    assert finish(child) == 130


def test_done_means_quiz_rate_quit_resume_then_due_progress_and_review(studybot_home, invoke):
    child = spawn(studybot_home, "run", "--from", "1", "--to", "6", "--quiz")
    attempt(child, GOOD_Q1)  # a good paraphrase, in two lines
    child.expect(r"grade 100% · 4 ✓ \(offline rubric\)")
    child.expect("Every key point covered")
    child.expect(MARKS)
    child.send("\r")  # the marks as estimated
    child.expect(r"\[Enter = 4 Easy\]")
    child.expect(RATE)
    child.send("\r")  # Enter accepts the suggestion
    child.expect("saved: 4 Easy")

    attempt(child, [OFF_TOPIC], end="\x04")  # Ctrl-D ends an attempt too
    q2 = len(bank.load().get(2).key_points)
    child.expect(f"grade 0% · {q2} ✗")
    child.expect(MARKS)
    child.send("\r")
    child.expect(r"\[Enter = 1 Again\]")
    child.expect(RATE)
    child.send("?")
    child.expect("4 rate Easy")
    child.expect(RATE)
    child.send("1")
    child.expect("saved: 1 Again")

    child.expect("think, then reveal")
    child.expect("›")
    child.send("\r")  # empty first line: think, then reveal
    child.expect(r"answer \(no attempt\)")
    child.expect("grade 0% · 5 ✗")
    child.expect(MARKS)
    child.send("\r")
    child.expect(RATE)
    child.send("2")
    child.expect("saved: 2 Hard")

    attempt(
        child,
        ["缩放定律：损失随参数量和数据量按幂律下降，C ≈ 6ND，Chinchilla 每个参数 20 个词元。"],
    )
    child.expect(MARKS)
    child.send("\r")
    child.expect(RATE)
    child.send("q")  # stop half-way: question 4 is answered but left unrated
    child.expect("Stopped. Resume with: studybot resume 1")
    assert finish(child) == 0

    child = spawn(studybot_home, "resume")
    child.expect("第 4 题 · graded, not rated yet")  # the rating left out comes first
    child.expect(MARKS)
    child.send("\r")
    child.expect(r"Enter = \d \w+\] · h \? q: ")  # no follow-up here
    child.send("3")
    child.expect("saved: 3 Good")
    attempt(child, [GOOD_Q5])
    child.expect("grade ")
    child.expect(MARKS)
    child.send("\r")
    child.expect(RATE)
    child.send("4")
    child.expect("saved: 4 Easy")
    attempt(child, [OFF_TOPIC])
    child.expect(MARKS)
    child.send("\r")
    child.expect(RATE)
    child.send("\r")
    child.expect("saved: 1 Again")
    child.expect("rated 6: 2 Again · 1 Hard · 1 Good · 2 Easy")
    assert finish(child) == 0

    rated = {1: 4, 2: 1, 3: 2, 4: 3, 5: 4, 6: 1}
    shown = json.loads(invoke("show", "1", "--json").stdout)
    assert shown["status"] == "finished" and shown["mode"] == "quiz"
    assert {t["question_id"]: t["rating"] for t in shown["turns"]} == rated
    assert shown["turns"][0]["attempt"] == "\n".join(GOOD_Q1)
    assert shown["turns"][0]["grade"] == 1.0 and shown["turns"][2]["grade"] == 0.0
    due = json.loads(invoke("due", "--json").stdout)
    assert {d["question_id"]: d["last_rating"] for d in due} == rated
    assert all(d["reviews"] == 1 for d in due)
    progress = json.loads(invoke("progress", "--json").stdout)
    first = next(c for c in progress["chapters"] if c["chapter"] == 1)
    assert (first["seen"], first["rated"]) == (6, len(rated))
    with db(studybot_home) as con:
        log = con.execute("select question_id, rating, session_id from reviews order by id")
        assert sorted(log.fetchall()) == [(q, r, 1) for q, r in rated.items()]
        # Time passes: the two questions rated Again come due.
        con.execute("update cards set due = '2000-01-01T00:00:00+00:00' where last_rating = 1")

    child = spawn(studybot_home, "review")
    child.expect("第 2 题")
    attempt(child, [OFF_TOPIC])
    child.expect(MARKS)
    child.send("\r")
    child.expect(RATE)
    child.send("3")
    child.expect("第 6 题")
    attempt(child, [OFF_TOPIC])
    child.expect(MARKS)
    child.send("\r")
    child.expect(RATE)
    child.send("3")
    child.expect("Session 2")
    assert finish(child) == 0
    with db(studybot_home) as con:
        assert con.execute("select mode from sessions where id = 2").fetchone() == ("review",)
        assert con.execute(
            "select question_id, rating from reviews where session_id = 2 order by id"
        ).fetchall() == [(2, 3), (6, 3)]


@pytest.mark.parametrize("when", ["typing an attempt", "at the next attempt"])
def test_ctrl_c_in_a_quiz_attempt_exits_130_with_the_resume_hint(studybot_home, when):
    child = spawn(studybot_home, "run", "--from", "1", "--to", "5", "--quiz")
    child.expect("think, then reveal")
    child.expect("›")
    if when == "typing an attempt":
        child.send("写了一半")
    else:
        child.send("\r")
        child.expect(MARKS)
        child.send("\r")
        child.expect(RATE)
        child.send("3")
        child.expect("saved: 3 Good")
        child.expect("›")
    child.send("\x03")
    child.expect("Resume with: studybot resume 1")
    assert finish(child) == 130
    assert "Traceback" not in child.before
