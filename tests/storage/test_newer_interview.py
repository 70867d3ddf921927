"""A database from a newer studybot whose interview tables changed: show and export what is readable.

Issue 29, item 11: ``grades.points`` as an object, a probe state this
version does not know, ``seconds`` as text, the ``probes`` table moved —
``show`` and ``export`` ended in TypeError, KeyError, ValueError or a bare
"no such table". Now they say the file comes from a newer studybot, show
what they can read, and name what they left out.
"""

from __future__ import annotations

import json
import sqlite3

import pytest
from scripted import ScriptedInterview, interview

from studybot.storage.store import DB_NAME

NEWER = "m042_interview_tables_v2"
ANSWERS = {1: "大语言模型是预测下一个词元的 Transformer。", 2: "分词把文本切成词元。"}

CHANGES = {
    "points as an object": 'update grades set points = \'{"version": 2, "marks": []}\'',
    "an unknown probe state": "update probes set state_before = 'half-covered'",
    "an unknown state after a probe": "update probes set state_after = 'evaded'",
    "seconds as text": "update interview_answers set seconds = '12.5 s'; "
    "update probes set seconds = 'fast'",
    "probes moved": "alter table probes rename to interview_probes",
    "a probe column moved": "alter table probes drop column point",
    "a score as text": "update grades set score = 'high'",
    "answers moved": "alter table interview_answers rename to answers_v2",
}
LEFT_OUT = {
    "points as an object": "the grade of Q1: its marks are not a list",
    "an unknown probe state": "a probe of Q1: a point state 'half-covered' this studybot does not know",
    "an unknown state after a probe": "a probe of Q1: a point state 'evaded'",
    "seconds as text": "the time of the answer to Q1: '12.5 s' is not a number",
    "probes moved": "the probes (追问): no such table: probes",
    "a probe column moved": "a probe of Q1: no point",
    "a score as text": "the score of Q1: 'high' is not a number",
    "answers moved": "the interview answers: no such table: interview_answers",
}


@pytest.fixture
def newer(studybot_home):
    """An offline interview of Q1 and Q2, then the file as a newer studybot left it."""
    record = interview(ScriptedInterview(ANSWERS), ids=(1, 2), followups=1)
    assert record.complete

    def change(what: str) -> None:
        with sqlite3.connect(studybot_home / DB_NAME) as db:
            db.executescript(CHANGES[what])
            db.execute(
                "insert into _migrations (name, applied_at, studybot_version) values (?, ?, ?)",
                (NEWER, "2030-01-01", "0.9.0"),
            )

    return change


def note_of(result) -> str:
    notes = [line for line in result.stderr.splitlines() if line.startswith("Note: ")]
    assert len(notes) == 1, result.stderr
    assert "Hint: upgrade studybot to see all of it" in result.stderr
    return notes[0]


@pytest.mark.parametrize("what", list(CHANGES))
@pytest.mark.parametrize(
    "command",
    [
        ("show", "1"),
        ("show", "1", "--json"),
        ("export", "1", "-f", "md"),
        ("export", "1", "-f", "json"),
        ("export", "1", "-f", "anki"),
    ],
    ids=["show", "show-json", "md", "json", "anki"],
)
def test_show_and_export_say_newer_and_show_what_they_read(invoke, newer, what, command):
    newer(what)
    result = invoke(*command)
    assert result.exit_code == 0, result.stderr
    note = note_of(result)
    assert note.startswith("Note: session 1 was written by studybot 0.9.0 or newer; ")
    assert LEFT_OUT[what] in note
    assert "什么是大语言模型" in result.stdout  # the questions and answers are all there


def test_the_notes_keep_every_answer_readable_beside_what_is_left_out(invoke, newer):
    newer("seconds as text")
    notes = invoke("export", "1", "-f", "md").stdout
    assert notes.count("- time: answer ? s") == 2  # the time unreadable, the answer shown
    assert ANSWERS[1] in notes and ANSWERS[2] in notes
    assert "追问 1" in notes  # the probes, with their questions and answers


def test_a_grade_left_out_leaves_the_rest_of_the_session(invoke, newer):
    newer("points as an object")
    data = json.loads(invoke("export", "1", "-f", "json").stdout)
    assert [t["question_id"] for t in data["turns"]] == [1, 2]


def test_sessions_lists_a_file_whose_answers_moved(invoke, newer):
    newer("answers moved")
    result = invoke("sessions")
    assert result.exit_code == 0, result.stderr
    assert "interview" in result.stdout


def test_rows_in_an_unknown_form_without_a_newer_migration_are_said_as_such(
    invoke, newer, studybot_home
):
    newer("an unknown probe state")
    with sqlite3.connect(studybot_home / DB_NAME) as db:
        db.execute("delete from _migrations where name = ?", (NEWER,))
    note = note_of(invoke("show", "1"))
    assert "holds rows in a form studybot" in note and "(from a newer studybot?)" in note
