"""Reports in a 60- and a 100-column terminal: no line wider than the terminal, no header cut.

A line wider than the terminal is broken by the terminal wherever the width
runs out (``quick_chec``/``k ok``); studybot breaks its own lines at word
boundaries, and its tables drop their least needed columns before they cut
a header or a chapter title.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from screens import on_terminal

from studybot.learn import review
from studybot.storage.store import Store

ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def drawn(home: Path, command: tuple, columns: int) -> list[str]:
    text = on_terminal(home, command, columns, NO_COLOR="1")
    return ESCAPES.sub("", text).replace("\r", "").splitlines()


@pytest.fixture
def read_and_rated(invoke, studybot_home):
    assert invoke("run", "--from", "1", "--to", "8").exit_code == 0
    store = Store.open()
    try:
        review.record_review(store, bank="default", question_id=3, rating=1, grade=0.25)
    finally:
        store.close()
    return studybot_home


ATTEMPT = "KV 缓存只存 K 和 V，因为 Q 只在当前步用到；显存随序列长度线性增长"
REPORTS = {
    "sessions": (("sessions",), ("id", "status", "questions", "done")),
    "progress": (("progress",), ("ch", "title", "seen", "due", "grade", "retention")),
    "due": (("due",), ("Q", "due", "last", "question")),
    "cache": (("cache", "1"), ("#", "request", "prompt", "hit", "splits", "at", "reported")),
    "grade": (("grade", "23", "--attempt", ATTEMPT), ()),
    "doctor": (("doctor",), ()),
    "settings": (("doctor", "--model", "vendor/a-model-id-of-forty-two-characters"), ()),
    "plan": (("plan", "--from", "1", "--to", "40"), ()),
}


@pytest.mark.parametrize("columns", [60, 100])
@pytest.mark.parametrize("name", list(REPORTS))
def test_a_report_fits_the_terminal_and_keeps_its_headers_whole(read_and_rated, name, columns):
    command, headers = REPORTS[name]
    lines = drawn(read_and_rated, command, columns)
    assert lines and max(cell_len(line) for line in lines) <= columns, "\n".join(lines)
    if headers:
        unboxed = [line.replace("┃", " ").replace("│", " ") for line in lines]
        header = next(
            line for line in unboxed if line.split()[:1] == [headers[0]] and headers[1] in line
        )
        assert "…" not in header
        assert all(f" {h} " in f" {header} " for h in headers), header


def test_the_grade_wraps_each_point_under_itself(read_and_rated):
    lines = drawn(read_and_rated, ("grade", "23", "--attempt", ATTEMPT), 60)
    points = [n for n, line in enumerate(lines) if re.match(r"[✓½✗⚠] \d ", line)]
    assert len(points) == 6
    following = lines[points[0] + 1]
    assert following.startswith("    ") and following.strip()  # the point goes on, indented


def test_a_due_question_keeps_a_readable_part_of_its_text(read_and_rated):
    from studybot import bank

    lines = drawn(read_and_rated, ("due",), 60)
    row = next(line for line in lines if line.split()[:1] == ["3"])
    assert bank.load().get(3).question[:10] in row  # not cut to 6 characters


def test_the_growth_chart_keeps_one_row_per_question_group(read_and_rated):
    lines = drawn(read_and_rated, ("plan", "--from", "1", "--to", "8"), 60)
    rows = [line for line in lines if re.match(r"Q\d+ +seg ", line)]
    assert len(rows) == 8 and all("single" in row and row.endswith("K") for row in rows)


@pytest.mark.parametrize("columns", [60, 100])
def test_progress_keeps_every_chapter_title_readable(read_and_rated, columns):
    from studybot import bank

    lines = drawn(read_and_rated, ("progress",), columns)
    for chapter in bank.load().chapters:
        row = next(line for line in lines if line.split()[:1] == [str(chapter.number)])
        assert row.split(None, 1)[1].startswith(chapter.title[:6]), (chapter.title, row)
    assert "0% of 1" in "\n".join(lines)  # Q3 rated Again: retention of one rated question


@pytest.mark.parametrize("columns", [60, 100])
def test_bank_list_fits_and_goes_on_under_each_question(read_and_rated, columns):
    from studybot import bank

    lines = drawn(read_and_rated, ("bank", "list", "--chapter", "3"), columns)
    assert max(cell_len(line) for line in lines) <= columns, "\n".join(lines)
    assert not any(line.endswith(" ") for line in lines)
    shown = "\n".join(lines)
    for word in (
        "decoder-only",
        "FlashAttention",
        "PagedAttention",
        "speculative",
        "RadixAttention",
    ):
        assert re.search(rf"(^|\s|[^\x00-\x7f]){re.escape(word)}($|\s|[^\x00-\x7f])", shown), word
    questions = [n for n, line in enumerate(lines) if re.match(r" *\d+\. ", line)]
    for n in questions:  # each question's text goes on under its start, never at column 0
        following = lines[n + 1 : next((m for m in questions if m > n), len(lines))]
        assert all(line.startswith("      ") for line in following if line), following
    chapter = bank.load().chapter(3)
    assert len(questions) == chapter.last - chapter.first + 1


PIPED = {
    "sessions": ("sessions",),
    "progress": ("progress",),
    "due": ("due",),
    "cache": ("cache", "1"),
    "show": ("show", "1"),
}


@pytest.mark.parametrize("name", list(PIPED))
def test_a_piped_table_has_full_rows_and_no_trailing_spaces(
    read_and_rated, invoke, monkeypatch, name
):
    from studybot import bank

    monkeypatch.delenv("COLUMNS", raising=False)  # a pipe, and no width asked for
    result = invoke(*PIPED[name])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines and not any(line != line.rstrip() for line in lines), name
    assert "…" not in result.stdout  # nothing cut
    if name == "progress":
        for chapter in bank.load().chapters:
            assert any(chapter.title in line for line in lines), chapter.title
    if name == "due":
        assert bank.load().get(3).question in result.stdout
    if name == "sessions":
        header = lines[0].split()
        assert header[:4] == ["id", "status", "questions", "done"] and "created" in header


LONG_ATTEMPT = (
    "the attention layer uses d_k scaling because softmax saturates when the dot products "
    "grow large with d_k and the gradients vanish 所以注意力层要缩放"
)


def test_the_answer_editor_breaks_its_rows_between_words(studybot_home):
    import pyte
    import terminal

    child = terminal.spawn(studybot_home, "run", "--quiz", "--ids", "23", columns=60)
    child.expect("›")
    child.send(LONG_ATTEMPT)
    child.expect_exact("所以注意力层要缩放")
    screen = pyte.Screen(60, 40)
    pyte.Stream(screen).feed(child.logfile_read.getvalue())
    child.sendcontrol("c")
    terminal.finish(child)
    rows = [line.rstrip() for line in screen.display]
    first = next(n for n, row in enumerate(rows) if row.startswith("› the"))
    editor = rows[first : first + 4]
    assert len([row for row in editor if row.strip()]) >= 3, editor  # it wrapped
    words = re.findall(r"[A-Za-z_]+", LONG_ATTEMPT)
    on_screen = re.findall(r"[A-Za-z_]+", " ".join(editor))
    assert on_screen == words, editor  # every Latin word and d_k whole, on one row
