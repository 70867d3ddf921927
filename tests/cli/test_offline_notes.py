"""An offline follow-up, asked at the terminal, leaves no stand-in text in the notes."""

from __future__ import annotations

from terminal import PROMPT, finish, spawn

from studybot import bank
from studybot.bank.key import FOLLOW_UP_NOT_ANSWERED


def test_an_offline_follow_up_puts_no_placeholder_or_second_key_points_in_the_notes(
    studybot_home, invoke, tmp_path
):
    child = spawn(studybot_home, "run", "--from", "1", "--to", "2")
    child.expect(PROMPT)
    child.send("f")
    child.expect("追问")
    child.send("批大小会影响吗")
    child.send("\r")
    child.expect(FOLLOW_UP_NOT_ANSWERED)
    child.expect("follow-up saved, not answered \\(offline\\)")
    said = child.before  # between the notice and the saved line: the key is not shown again
    assert "参考要点" not in said and "prompt" not in said
    child.expect(PROMPT)
    child.send("q")
    assert finish(child) == 0

    first_point = bank.load().get(1).key_points[0]
    # What a follow-up said offline is still in the session, as it was said.
    assert FOLLOW_UP_NOT_ANSWERED in invoke("show", "1").stdout

    cards = tmp_path / "cards.txt"
    assert invoke("export", "1", "-f", "anki", "-o", str(cards)).exit_code == 0
    (q1,) = [line for line in cards.read_text(encoding="utf-8").splitlines() if "第 1 题" in line]
    back = q1.split("\t")[2]
    assert "离线模式" not in back and "追问" not in back
    assert back.count(first_point[:20]) == 1  # the answer's key points, once

    notes = tmp_path / "notes.md"
    assert invoke("export", "1", "-f", "md", "-o", str(notes)).exit_code == 0
    text = notes.read_text(encoding="utf-8")
    assert "离线模式" not in text and "参考要点" not in text
    assert text.count(first_point[:20]) == 1
    assert "**追问（离线，未回答）：** 批大小会影响吗" in text  # the learner's question is kept
