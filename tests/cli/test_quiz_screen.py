"""The quiz screen a learner keeps, in a real pseudo-terminal (issues 18.3, 20.1-20.4, 20.7, 21.1).

Before the reveal (hint and keys at the attempt prompt, a draft kept across
Ctrl-C, Ctrl-D ends the attempt); the reveal (each point once, its mark
beside it, fits 40 rows; figures only with --stats); the learner's marks
(a toggle changes the stored grade and the suggestion); width (60 and 200
columns, words, flags and key hints never split); summaries (once, never
cut inside a formula); no terminal, no quiz; a rating lost on interrupt.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys

import pexpect
import pytest
import terminal
from quizzing import ATTEMPT, MARKS, RATE, answer, quiz_terminal, shown
from rich.cells import cell_len
from terminal import db, finish

from studybot import bank

NEXT = r"q\s+stop: "  # read mode's key prompt
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]")
GOOD_Q1 = (
    "大语言模型是在海量文本上预测下一个词元训练出来的 Transformer，参数几十亿以上，"
    "一个模型能处理翻译问答写代码等多种任务；传统 NLP 一个任务一个模型，要单独标注训练，"
    "LLM 靠提示就能切换任务。"
    "能力来自规模放大，出现上下文学习。BERT 是编码器输出向量，GPT 解码器直接生成文本，"
    "对话助手还要做指令微调和偏好对齐。"
)


def confirm_and_rate(child: pexpect.spawn, key: str) -> None:
    """Confirm the grader's marks with Enter, then press ``key`` at the rating prompt."""
    child.expect(MARKS)
    child.send("\r")
    child.expect(RATE)
    child.send(key)


def lines(screen: str) -> list[str]:
    """What a terminal shows, line by line: escapes dropped, a carriage return overwrites."""
    plain = ESCAPES.sub("", screen).replace("\x08", "")
    return [line.rstrip("\r").split("\r")[-1].rstrip() for line in plain.split("\n")]


# -- 20.1 before the reveal ---------------------------------------------------------


def test_h_and_question_mark_alone_on_a_line_show_the_hint_and_keys_without_sending(
    studybot_home,
):
    child = quiz_terminal(studybot_home, "run", "--ids", "1,2", "--quiz")
    child.expect("›")
    child.send("h\r")
    child.expect("hint: 从训练目标、任务形式和规模三个角度回答。")
    child.send("?\r")
    child.expect("Ctrl-C stop")
    child.send("大模型是预测下一个词元训练的\r")
    child.send("h\r")  # alone on the next line: the hint again, the line typed stays
    child.expect("hint: ")
    child.send("\r\r")
    confirm_and_rate(child, "3")
    # Ctrl-D on an empty first line ends the attempt (think, then reveal): no quitting.
    answer(child, end="\x04")
    child.expect(r"answer \(no attempt\)")
    confirm_and_rate(child, "2")
    assert finish(child) == 0
    with db(studybot_home) as con:
        attempts = con.execute("select question_id, attempt from grades order by question_id")
        assert attempts.fetchall() == [(1, "大模型是预测下一个词元训练的"), (2, "")]
        assert con.execute("select question_id, rating from reviews").fetchall() == [(1, 3), (2, 2)]


def test_a_draft_survives_ctrl_c_and_is_offered_on_resume(studybot_home):
    child = quiz_terminal(studybot_home, "run", "--ids", "23,24", "--quiz")
    child.expect("›")
    child.send("只存 K 和 V，因为")
    child.send("\x03")
    child.expect("your draft answer too")
    child.expect("Resume with: studybot resume 1")
    assert finish(child) == 130
    with db(studybot_home) as con:
        assert con.execute("select question_id, text from drafts").fetchall() == [
            (23, "只存 K 和 V，因为")
        ]
        assert con.execute("select count(*) from turns").fetchone() == (0,)

    child = quiz_terminal(studybot_home, "resume")
    child.expect("Your draft from the last run is back")
    child.expect("›")
    child.send("Q 只用一次\r\r")  # the draft is in the editor: this goes on from it
    confirm_and_rate(child, "3")
    answer(child, end="\x04")
    confirm_and_rate(child, "\r")
    assert finish(child) == 0
    with db(studybot_home) as con:
        grades = con.execute("select question_id, attempt from grades order by question_id")
        assert grades.fetchall() == [(23, "只存 K 和 V，因为Q 只用一次"), (24, "")]
        assert con.execute("select count(*) from drafts").fetchone() == (0,)


# -- 20.2 the reveal -----------------------------------------------------------------


def test_the_reveal_shows_each_point_once_with_its_mark_and_fits_40_rows(studybot_home):
    child = quiz_terminal(studybot_home, "run", "--ids", "22", "--quiz", columns=60)
    answer(child, "参数量与头数无关；多头在不同子空间关注不同模式")
    child.expect(MARKS)
    child.send("\r")
    child.expect(RATE)
    screen = lines(shown(child))
    child.send("\r")
    assert finish(child) == 0

    start = max(n for n, line in enumerate(screen) if line.startswith("── answer"))
    reveal = screen[start:]
    assert len(reveal) <= 40  # the answer, the marks, the advice and both prompts
    points = bank.load().get(22).key_points
    marked = [line for line in reveal if re.match(r"[✓½✗⚠] \d ", line)]
    assert [int(line[2]) for line in marked] == list(range(1, len(points) + 1))
    text = "\n".join(screen)
    assert "`" not in "\n".join(reveal)  # code spans drawn, not their backticks
    assert "MultiHead(X) = Concat(head_1, …, head_h) · W_O" in text
    flat = "".join(text.split())  # the lines joined again, wrapping undone
    for point in points:  # once: as the answer, with its mark (no second list)
        assert flat.count("".join(point.replace("`", "").split())[-16:]) == 1, point
    assert not re.search(r"Q22 · prompt [\d,]+", text)  # figures only with --stats
    assert all(cell_len(line) <= 60 for line in screen if "›" not in line)


@pytest.mark.parametrize("how", ["--stats", "stats = true"])
def test_the_per_turn_figures_show_with_stats_and_show_always_has_them(studybot_home, invoke, how):
    args = ["run", "--ids", "22", "--quiz"]
    if how == "--stats":
        args.append("--stats")
    else:
        studybot_home.mkdir(parents=True, exist_ok=True)
        (studybot_home / "config.toml").write_text(how + "\n", encoding="utf-8")
    child = quiz_terminal(studybot_home, *args)
    answer(child)
    child.expect(r"\[1/1\] Q22 · prompt [\d,]+ · answer [\d,]+ · n=[\d,]+")
    confirm_and_rate(child, "1")
    assert finish(child) == 0
    shown = json.loads(invoke("show", "1", "--json").stdout)
    assert shown["turns"][0]["prompt_tokens"] > 0
    assert "Q22" in invoke("show", "1").stdout


def test_a_contradicted_point_shows_both_texts_and_suggests_again(studybot_home):
    from studybot.learn import grading

    wrong = "多头是为了增加参数，头数越多参数越多，参数量随头数增加；KV 缓存和头数没有关系。"
    estimate = grading.OfflineGrader(bank.load()).grade(bank.load().get(22), wrong)
    assert estimate.contradicted
    child = quiz_terminal(studybot_home, "run", "--ids", "22", "--quiz")
    answer(child, wrong)
    child.expect("⚠")
    child.expect(MARKS)
    reveal = "\n".join(lines(shown(child)))
    point = next(p for p in estimate.points if p.state == grading.CONTRADICTED)
    assert point.evidence and f"you: {point.evidence}" in reveal
    child.send("\r")
    child.expect(r"\[Enter = 1 Again\]")
    child.send("\r")
    assert finish(child) == 0


# -- 18.3 the learner has the last word ------------------------------------------------


def test_toggling_marks_changes_the_stored_grade_and_the_suggestion(studybot_home, invoke):
    child = quiz_terminal(studybot_home, "run", "--ids", "1", "--quiz")
    answer(child, GOOD_Q1)
    child.expect(r"grade 100% · 4 ✓")
    child.expect(MARKS)
    child.send("3")
    child.expect(r"marks 1✓ 2✓ 3½ 4✓ · grade 88% \(estimate 100%\) · \[suggests 3 Good\]")
    child.send("u")  # undo: the grader's marks again
    child.expect(r"marks 1✓ 2✓ 3✓ 4✓ · grade 100% · \[suggests 4 Easy\]")
    child.send("u")  # nothing left to undo
    child.expect("nothing to undo: these are the grader's marks")
    child.send("1")
    child.expect(r"\[suggests 3 Good\]")
    for _ in range(3):  # point 2: ✓ → ½ → ✗ → ⚠
        child.send("2")
        child.expect("marks ")
    # one ⚠ holds the suggestion at Hard (two would suggest Again)
    child.expect(r"2⚠ 3✓ 4✓ · grade 62% \(estimate 100%\) · \[suggests 2 Hard\]")
    child.send("\r")
    child.expect(r"\[Enter = 2 Hard\]")  # the suggestion follows the confirmed marks
    child.send("\r")
    child.expect("saved: 2 Hard")
    assert finish(child) == 0

    turn = json.loads(invoke("show", "1", "--json").stdout)["turns"][0]
    assert (turn["grade"], turn["grade_estimate"], turn["rating"]) == (0.625, 1.0, 2)
    assert [p["state"] for p in turn["points"]] == ["partly", "contradicted", "covered", "covered"]
    assert [p["state"] for p in turn["points_estimate"]] == ["covered"] * 4
    notes = invoke("export", "1", "-f", "md").stdout
    assert "grade 62% — you changed 2 marks; estimate 100%" in notes
    with db(studybot_home) as con:
        assert con.execute("select grade from reviews").fetchall() == [(0.625,)]


def test_u_takes_back_the_last_change_only(studybot_home):
    """README: `u` to undo the last change; the changes before it stay (issue 31.9)."""
    child = terminal.spawn(studybot_home, "run", "--ids", "1", "--quiz")
    answer(child, GOOD_Q1)
    child.expect(MARKS)
    child.send("3")
    child.expect(r"marks 1✓ 2✓ 3½ 4✓")
    child.send("4")
    child.expect(r"marks 1✓ 2✓ 3½ 4½")
    child.send("4")
    child.expect(r"marks 1✓ 2✓ 3½ 4✗")
    child.send("u")  # point 4 goes back one step; point 3 keeps its change
    child.expect(r"marks 1✓ 2✓ 3½ 4½ ")
    child.send("u")
    child.expect(r"marks 1✓ 2✓ 3½ 4✓ ")
    child.send("\r")
    child.expect(r"\[Enter = 3 Good\]")
    child.send("\r")
    child.expect("saved: 3 Good")
    assert finish(child) == 0


# -- 20.3 width ------------------------------------------------------------------------


def drive(child: pexpect.spawn) -> str:
    """Answer every prompt as a learner pressing keys would; everything the terminal showed."""
    keys = {0: "\r", 1: "\r", 2: "\r", 3: "\r"}
    asked_keys = False
    while True:
        n = child.expect([ATTEMPT, MARKS, RATE, NEXT, pexpect.EOF])
        if n == 0:
            child.expect("›")  # an empty first line: think, then reveal
        if n == 4:
            break
        if n == 2 and not asked_keys:
            asked_keys = True
            child.send("?")  # the key list, wrapped like every line
            continue
        child.send(keys[n])
    child.close()
    assert child.exitstatus == 0, shown(child)[-2000:]
    return shown(child)


@pytest.mark.parametrize("columns", [60, 200])
def test_every_line_breaks_at_word_boundaries_at_60_and_200_columns(studybot_home, columns):
    first = drive(quiz_terminal(studybot_home, "run", "--from", "1", "--to", "5", columns=columns))
    quiz = drive(
        quiz_terminal(studybot_home, "run", "--from", "6", "--to", "8", "--quiz", columns=columns)
    )
    screen = lines(first + quiz)
    drawn = [line for line in screen if "›" not in line]  # the editor draws itself
    assert all(cell_len(line) <= columns for line in drawn), max(drawn, key=cell_len)
    text = "\n".join(screen)
    assert "TAOTOKEN_API_KEY" in text  # the offline notice
    assert "(--fresh to start without)" in text  # the continuing run's line
    assert re.search(r"\[Enter = \d \w+\]", text)  # the rating prompt's suggestion
    assert "Enter take the suggested rating" in text or "Enter accept" in text  # the key list
    # The answers drawn as Markdown: no Latin word of the key points is cut in two.
    loaded = bank.load()
    words = {
        w
        for q in range(1, 9)
        for p in loaded.get(q).key_points
        for w in re.findall(r"(?<![\w`])[A-Za-z]{4,}(?![\w`])", p)
    }
    assert words and all(w in text for w in words), sorted(w for w in words if w not in text)


# -- 20.4 summaries ----------------------------------------------------------------------


def test_a_summary_prints_once_and_is_never_cut_inside_a_formula(studybot_home, invoke):
    screen = "\n".join(
        lines(drive(quiz_terminal(studybot_home, "run", "--from", "20", "--to", "33")))
    )
    assert screen.count("summary (carried into the next segment)") == 1
    assert "carried from the previous segment" not in screen  # printed once, just above
    formula = "`Attention(Q, K, V) = softmax(QKᵀ / √d_k + M) · V`"
    assert screen.count(formula) == 1
    assert "`Attention(Q, K…" not in screen
    notes = invoke("export", "1", "-f", "md").stdout
    assert formula in notes and "`Attention(Q, K…" not in notes


# -- 20.7 no terminal, no quiz -----------------------------------------------------------


@pytest.mark.parametrize("args", [["run", "--ids", "5", "--quiz"], ["review"]])
def test_a_quiz_or_review_on_dev_null_stops_with_exit_2_and_writes_nothing(
    studybot_home, invoke, args
):
    from datetime import UTC, datetime, timedelta

    from studybot.learn import review
    from studybot.storage.store import Store

    store = Store.open()
    past = datetime.now(UTC) - timedelta(days=3)
    for question_id in (2, 6):  # two questions due: `review < /dev/null` used to answer both
        review.record_review(store, bank="default", question_id=question_id, rating=1, now=past)
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}
    done = subprocess.run(
        [sys.executable, "-m", "studybot", *args],
        stdin=subprocess.DEVNULL,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    mode = "quiz" if "--quiz" in args else "review"
    assert done.stderr.splitlines()[0] == (
        f"Error: a {mode} needs you at a terminal: standard input is not one, "
        "so nothing was started"
    )
    assert done.stderr.splitlines()[1].startswith("Hint: ")
    assert json.loads(invoke("sessions", "--json").stdout) == []
    assert len(store.reviews("default")) == 2


# -- 21.1 a rating lost on interrupt ------------------------------------------------------


@pytest.mark.parametrize("stop", ["ctrl-c", "SIGHUP", "SIGTERM"])
def test_a_rating_lost_at_the_rating_prompt_is_asked_first_on_resume(studybot_home, stop):
    child = quiz_terminal(studybot_home, "run", "--ids", "5,6", "--quiz")
    answer(child, "注意力分数矩阵 n×n，随 n² 增长；KV 缓存随长度线性增长")
    child.expect(MARKS)
    child.send("\r")
    child.expect(RATE)
    if stop == "ctrl-c":
        child.send("\x03")
    else:
        child.kill(getattr(signal, stop))
    child.expect(pexpect.EOF)
    child.close()
    with db(studybot_home) as con:
        assert con.execute("select question_id from grades").fetchall() == [(5,)]
        assert con.execute("select count(*) from reviews").fetchone() == (0,)

    child = quiz_terminal(studybot_home, "resume")
    child.expect("第 5 题 · graded, not rated yet")
    child.expect(MARKS)
    child.send("\r")
    child.expect(r"\] · h \? q: ")  # the rating, without a follow-up
    child.send("2")
    child.expect("saved: 2 Hard")
    child.expect("第 6 题")
    answer(child, end="\x04")
    confirm_and_rate(child, "\r")
    assert finish(child) == 0
    with db(studybot_home) as con:
        rated = con.execute("select question_id, rating, session_id from reviews order by id")
        assert rated.fetchall() == [(5, 2, 1), (6, 1, 1)]


def test_a_key_typed_twice_at_the_rating_prompt_rates_once_and_never_reaches_the_attempt(
    studybot_home,
):
    child = quiz_terminal(studybot_home, "run", "--ids", "5,6", "--quiz")
    answer(child, "注意力分数矩阵 n×n，随 n² 增长")
    confirm_and_rate(child, "33")
    child.expect("saved: 3 Good")
    child.expect("第 6 题")
    child.expect("›")
    child.send("\r")  # an empty first line: if the second 3 had stayed, it would be the attempt
    confirm_and_rate(child, "1")
    assert finish(child) == 0
    with db(studybot_home) as con:
        assert con.execute("select attempt from grades where question_id = 6").fetchone() == ("",)
        assert con.execute("select question_id, rating from reviews").fetchall() == [(5, 3), (6, 1)]
