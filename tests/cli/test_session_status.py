"""One status vocabulary (issue 31.5): `sessions`, `show`, the reports and --json say where a
session stands in the same words: finished, not started, stopped at Q…, not rated yet."""

from __future__ import annotations

import json

from terminal import RATINGS, finish, say, spawn


def everywhere(invoke, session_id: int) -> dict[str, str]:
    """What each report says of the session: the sessions row, show's title, the notes, --json."""
    wide = {"COLUMNS": "160"}
    rows = invoke("sessions", env=wide).stdout.splitlines()
    row = next(line for line in rows if line.split()[0] == str(session_id))
    return {
        "sessions": " ".join(row.split()),
        "show": invoke("show", str(session_id), env=wide).stdout.splitlines()[0],
        "notes": invoke("export", str(session_id), "-f", "md", "-o", "-").stdout,
        "json": json.loads(invoke("show", str(session_id), "--json").stdout),
        "listed": json.loads(invoke("sessions", "--json").stdout)[0],
    }


def test_an_interview_quit_before_any_answer_is_not_started(studybot_home, invoke):
    child = spawn(studybot_home, "interview", "--ids", "5", "--followups", "0")
    child.expect("Ctrl-C stops, your draft is kept")
    child.expect("›")
    child.send("\x03")
    child.expect("studybot resume 1")
    assert finish(child) == 130
    said = everywhere(invoke, 1)
    assert said["sessions"].startswith("1 not started ids 5 0/1 interview")
    assert "· not started · 0/1 done" in said["show"]
    assert "- session 1 · not started · 0/1 done ·" in said["notes"]
    for data in (said["json"], said["listed"]):
        assert (data["status"], data["done"], data["stopped_at"]) == ("not started", 0, 5)


def test_a_finished_interview_says_finished_and_its_feedback_not_rated_yet(studybot_home, invoke):
    child = spawn(studybot_home, "interview", "--ids", "5", "--followups", "0")
    say(child, "注意力分数矩阵是 n×n 的。")
    # the feedback comes before the ratings: every answer is in, no rating yet
    child.expect("not rated yet · 1/1 done")
    child.expect(RATINGS)
    child.send("\r")
    child.expect("Q5 saved")
    assert finish(child) == 0
    assert "incomplete" not in child.logfile_read.getvalue()
    said = everywhere(invoke, 1)
    assert said["sessions"].startswith("1 finished ids 5 1/1 interview")
    assert "· finished · 1/1 done" in said["show"]
    assert "- session 1 · finished · 1/1 done ·" in said["notes"]
    for data in (said["json"], said["listed"]):
        assert (data["status"], data["done"], data["stopped_at"]) == ("finished", 1, None)


def test_a_quiz_stopped_partway_names_the_question_it_stopped_at(invoke):
    from scripted import Scripted, quiz

    quiz(Scripted(["自注意力要算 n×n 的分数矩阵", ""], ratings=[3]), ids=(5, 6, 7))
    said = everywhere(invoke, 1)
    # Q5 rated; Q6 and Q7 graded, then the quiz stopped before their ratings
    assert said["sessions"].startswith("1 stopped at Q6 ids 5–7 1/3 quiz")
    assert "· stopped at Q6 · 1/3 done" in said["show"]
    assert "- session 1 · stopped at Q6 · 1/3 done · 2 not rated yet" in said["notes"]
    assert said["json"]["status"] == said["listed"]["status"] == "stopped at Q6"
