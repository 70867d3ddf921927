"""The small ones of issue 31 item 9, as a user meets them: advice and legends without raw
Markdown, text cut by display width, labelled peaks, aligned ratings, local times, pipes."""

from __future__ import annotations

import io
import json
import os
import re
import sys

import pexpect
import pytest
from screens import ROOT, on_terminal

MISSED_Q20 = "我不太清楚。"  # Q20's first point starts with a long code span (the formula)


def test_advice_draws_a_code_span_without_backticks(studybot_home, invoke):
    shown = on_terminal(studybot_home, ("grade", "20", "--attempt", MISSED_Q20), 100)
    advice = shown[shown.index("advice: ") :]
    assert "Attention(Q, K, V)" in advice and "`" not in shown
    piped = invoke("grade", "20", input=MISSED_Q20)
    line = next(x for x in piped.stdout.splitlines() if x.startswith("advice: "))
    assert "Attention(Q, K, V)" in line and "`" not in line


def test_the_progress_plot_legend_has_no_markdown(invoke, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    from studybot.output import plots

    drawn: list[str] = []

    def keep_texts(figure, path):
        drawn.extend(t.get_text() for t in figure.findobj(lambda o: hasattr(o, "get_text")))
        figure.clear()

    monkeypatch.setattr(plots, "save", keep_texts)
    monkeypatch.setattr(plots, "drawing_font", lambda text, only=None: None)  # "ch N" rows
    assert invoke("run", "--from", "1", "--to", "3").exit_code == 0
    assert invoke("progress", "--plot", str(tmp_path / "p.png")).exit_code == 0
    legend = [text for text in drawn if text.startswith("ch N")]
    assert legend and not any("`" in text for text in drawn)


@pytest.mark.parametrize("columns", [60, 100])
def test_titles_and_questions_are_cut_at_a_word_with_the_ellipsis_right_after(
    studybot_home, invoke, columns
):
    assert invoke("run", "--from", "1", "--to", "3").exit_code == 0
    drawn = "".join(
        on_terminal(studybot_home, (command,), columns) for command in ("progress", "sessions")
    )
    cut = [line for line in drawn.splitlines() if "…" in line]
    assert cut  # chapter 3's title does not fit
    assert all(" …" not in line and "�" not in line for line in cut), cut
    assert any("Transformer" in line for line in cut)


def test_where_a_request_leaves_the_last_is_cut_at_whole_characters():
    from studybot.costs.cache.radix import RadixCache
    from studybot.costs.cache.recorded import RecordedRequest, report

    def asking(text: str) -> RecordedRequest:
        messages = [{"role": "system", "content": "p"}, {"role": "user", "content": text}]
        return RecordedRequest("answer", 1, 0, "p", messages, None)

    # 缓 and 缦 share their first UTF-8 bytes: the tokens part inside the character
    pairs = [("这份笔记与缓存有关的内容很多", "这份笔记与缦存有关的内容很多"), ("生僻字", "生僻宇")]
    for first, second in pairs:
        split = report([asking(first), asking(second)], RadixCache())[1]
        assert split.diverges_at is not None and "\ufffd" not in split.snippet, split.snippet
    split = report([asking(pairs[0][0]), asking(pairs[0][1])], RadixCache())[1]
    assert "与⟦缦存有关" in split.snippet


def test_show_says_which_request_each_peak_is(invoke):
    """A summary request carries its segment's whole history: the KV peak may be its n."""
    assert invoke("run", "--from", "20", "--to", "39").exit_code == 0
    shown = " ".join(invoke("show", "1", env={"COLUMNS": "100"}).stdout.split())
    answer = re.search(r"peak context n = ([\d,]+) of an answer request", shown)
    kv = re.search(r"peak KV [^(]+\(qwen2\.5-7b, n = ([\d,]+) of a summary request\)", shown)
    assert answer and kv, shown
    assert int(kv.group(1).replace(",", "")) > int(answer.group(1).replace(",", ""))


def test_the_interview_ratings_line_up(studybot_home):
    from rich.cells import cell_len
    from terminal import RATINGS, finish, say, spawn

    child = spawn(studybot_home, "interview", "--ids", "1,5,24", "--followups", "0")
    for answer in (
        "大语言模型是在海量文本上预测下一个词元训练出来的 Transformer。",
        "不知道。",
        "x",
    ):
        say(child, answer)
    child.expect(RATINGS)
    screen = child.before.replace("\r\n", "\n")
    rows = [line for line in screen.splitlines() if re.match(r"\s+\d\. Q\d+ ", line)][-3:]
    assert len(rows) == 3, screen
    for mark in ("grade", "→"):
        assert len({cell_len(row[: row.index(mark)]) for row in rows}) == 1, rows
    child.send("q\r")
    finish(child)


@pytest.fixture
def shanghai(monkeypatch):
    """The local time zone is UTC+8 (no daylight saving) for the test."""
    import time

    monkeypatch.setenv("TZ", "Asia/Shanghai")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_reports_say_when_in_local_time_to_the_minute(invoke, shanghai):
    from datetime import datetime, timedelta

    from scripted import ScriptedInterview, interview

    assert invoke("run", "--from", "1", "--to", "2").exit_code == 0
    interview(ScriptedInterview({}), ids=[5], followups=0)
    created = json.loads(invoke("show", "1", "--json").stdout)["created"]
    local = datetime.fromisoformat(created) + timedelta(hours=8)  # stored in UTC
    shown = local.strftime("%Y-%m-%d %H:%M")
    for session in ("1", "2"):
        notes = invoke("export", session, "-f", "md", "-o", "-").stdout
        started = re.search(r"started (\S+ \S+)", notes).group(1)
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", started), started
    assert f"started {shown}" in invoke("export", "1", "-f", "md", "-o", "-").stdout
    listed = invoke("sessions", env={"COLUMNS": "120"}).stdout
    assert shown[5:] in listed or shown[:10] in listed


def test_a_terminal_that_does_not_answer_cursor_requests_gets_no_warning(studybot_home):
    """A pty that never answers prompt_toolkit's CPR (\\x1b[6n): the editor works, quietly."""
    import time

    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTEST_CURRENT_TEST", "COLUMNS", "PROMPT_TOOLKIT_NO_CPR")
    }
    environment.update(STUDYBOT_HOME=str(studybot_home), NO_COLOR="1", PYTHONPATH=str(ROOT))
    child = pexpect.spawn(
        sys.executable,
        ["-m", "studybot", "run", "--ids", "1", "--quiz"],
        env=environment,
        encoding="utf-8",
        timeout=30,
        dimensions=(40, 100),
    )
    child.logfile_read = io.StringIO()  # everything the terminal was sent
    child.expect("think, then reveal")
    child.expect("\x1b\\[6n")  # the request is sent, and never answered
    time.sleep(2.5)  # prompt_toolkit gives up waiting after 2 s
    child.send("大语言模型\r\r")
    child.expect("Marks:")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    seen = child.logfile_read.getvalue()
    assert "Marks:" in seen and "cursor position" not in seen and "WARNING" not in seen
