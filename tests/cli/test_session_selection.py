"""What a session was: its selection and mode, kept, listed, and what a later run continues."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from terminal import finish, spawn

from studybot.learn import review
from studybot.storage import migrations
from studybot.storage.store import DB_NAME, Store


def rate_low(*question_ids: int, at: datetime | None = None) -> None:
    """Again with low grades (so --weak picks these), and one Easy question beside them."""
    store = Store.open()
    for question_id in question_ids:
        review.record_review(
            store, bank="default", question_id=question_id, rating=1, grade=0.1, now=at
        )
    review.record_review(store, bank="default", question_id=50, rating=4, grade=1.0, now=at)
    store.close()


def listed(invoke) -> dict[int, dict]:
    result = invoke("sessions", "--json")
    assert result.exit_code == 0, result.stderr
    return {row["id"]: row for row in json.loads(result.stdout)}


def test_sessions_show_each_runs_real_selection_and_mode(invoke, monkeypatch):
    rate_low(2, 10, 26)
    for args in (
        ["run", "--weak", "3"],
        ["run", "--ids", "30"],
        ["run", "--tag", "kv-cache"],
        ["run", "--chapter", "3,4"],
        ["run", "--from", "1", "--to", "3"],
    ):
        assert invoke(*args).exit_code == 0, args
    rows = listed(invoke)
    assert rows[1]["selection"] == {"kind": "weak", "count": 3}
    assert rows[2]["selection"] == {"kind": "ids", "ids": [30]}
    assert rows[3]["selection"] == {"kind": "tag", "tags": ["kv-cache"]}
    assert rows[4]["selection"] == {"kind": "chapter", "chapters": [3, 4]}
    assert rows[5]["selection"] == {"kind": "range", "from": 1, "to": 3}
    assert {row["mode"] for row in rows.values()} == {"read"}

    monkeypatch.setenv("COLUMNS", "80")
    lines = invoke("sessions").stdout.splitlines()
    assert "mode" in lines[0].split()
    shown = {int(line.split()[0]): line for line in lines[1:]}
    assert "weak 3" in shown[1] and "2–26" not in shown[1]
    assert "ids 30" in shown[2] and "30–30" not in shown[2]
    assert "tag kv-cache" in shown[3] and "ch 3–4" in shown[4] and " 1–3 " in shown[5]
    assert all(len(line.rstrip()) <= 80 for line in lines)
    assert invoke("show", "1").stdout.startswith("Session 1 · weak 3 (Q2–26) · read ·")


def test_a_review_is_listed_as_the_due_questions_it_served(studybot_home, invoke):
    rate_low(5, 7, at=datetime.now(UTC) - timedelta(days=3))  # rated Again days ago: due now
    child = spawn(studybot_home, "review")
    child.expect("第 5 题")
    child.sendcontrol("c")
    finish(child)
    (row,) = listed(invoke).values()
    assert row["mode"] == "review"
    assert row["selection"] == {"kind": "review", "count": 2, "limit": None}
    line = invoke("sessions").stdout.splitlines()[1]
    assert " 2 due " in line and " review " in line


def test_ids_after_a_weak_session_start_fresh(studybot_home, invoke):
    rate_low(2, 10, 26)
    assert invoke("run", "--weak", "3").exit_code == 0  # Q2, Q10, Q26: it ends at 26
    child = spawn(studybot_home, "run", "--ids", "27", "--quiz")
    child.expect("第 27 题")
    opening = child.before
    child.sendcontrol("c")
    finish(child)
    assert "Continuing session" not in opening
    with sqlite3.connect(studybot_home / DB_NAME) as con:
        (summary_in,) = con.execute(
            "select summary_in from segments where session_id = 2"
        ).fetchone()
    assert summary_in is None


@pytest.mark.parametrize(
    ("before", "after", "continues"),
    [
        (["--from", "1", "--to", "8"], ["--from", "9", "--to", "12"], True),
        (["--chapter", "1"], ["--chapter", "2"], True),
        (["--chapter", "1"], ["--from", "9", "--to", "12"], False),
        (["--from", "1", "--to", "8"], ["--ids", "9,10"], False),
        (["--ids", "7,8"], ["--from", "9", "--to", "12"], False),
        (["--tag", "kv-cache"], ["--ids", "40"], False),
    ],
)
def test_only_a_span_of_the_same_kind_continues(invoke, before, after, continues):
    assert invoke("run", *before).exit_code == 0
    result = invoke("run", *after)
    assert result.exit_code == 0, result.stderr
    assert ("Continuing session 1" in result.stderr) is continues


def test_resume_of_an_offline_session_says_why_it_is_offline(invoke, monkeypatch):
    from studybot import bank
    from studybot.channel import config
    from studybot.channel.providers.offline import OfflineProvider
    from studybot.study import session

    loaded = bank.load()
    study = session.Study(loaded, OfflineProvider(loaded), config.load())
    session.start(study, Store.open(), loaded.select(9, 10))
    session.start(study, Store.open(), loaded.select(11, 12))
    result = invoke("resume", "1")
    assert result.exit_code == 0, result.stderr
    assert "offline: answering from the bank's answer key (no key)" in result.stderr
    assert "--offline" not in result.stderr
    monkeypatch.setenv("TAOTOKEN_API_KEY", "sk-test-0123456789abcdefghijkl")
    kept = invoke("resume", "2")
    assert "(session 2 was offline)" in kept.stderr and "--offline" not in kept.stderr
    assert invoke("sessions", "--json").exit_code == 0
    flagged = invoke("run", "--from", "1", "--to", "2", "--offline")
    assert "(--offline)" in flagged.stderr  # said only when it was typed


def test_sessions_from_before_the_selection_was_kept_are_told_by_their_questions(tmp_path):
    path = tmp_path / "old.db"
    con = sqlite3.connect(path)
    con.close()
    from sqlite_utils import Database

    db = Database(path)
    older = [fn for fn in migrations.MIGRATIONS if fn.__name__ != "m008_session_selection"]
    db.table("_migrations").create({"name": str, "applied_at": str}, pk="name")
    for fn in older:
        fn(db)
        db.table("_migrations").insert({"name": fn.__name__, "applied_at": "2025-01-01"})
    db.table("prefixes").insert({"sha256": "p", "text": "前缀"})
    for number, (first, last, mode, ids) in enumerate(
        [
            (1, 8, "read", [1, 2, 3, 4, 5, 6, 7, 8]),
            (2, 26, "quiz", [2, 10, 26]),
            (5, 7, "review", [5, 7]),
        ],
        start=1,
    ):
        db.table("sessions").insert(
            {
                "id": number,
                "bank": "default",
                "first_question": first,
                "last_question": last,
                "total": len(ids),
                "provider": "offline",
                "model": "answer-key",
                "settings": "{}",
                "prefix_sha256": "p",
                "created": "2025-01-01T00:00:00+00:00",
                "mode": mode,
            }
        )
        db.table("segments").insert(
            {"session_id": number, "idx": 0, "question_ids": json.dumps(ids)}
        )
    db.close()
    records = {r.id: r for r in Store(path).sessions()}
    assert records[1].selection == {"kind": "range", "from": 1, "to": 8}
    assert records[2].selection == {"kind": "ids", "ids": [2, 10, 26]}
    assert records[3].selection == {"kind": "review"}


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_the_turn_table_keeps_its_headings_whole_in_a_narrow_terminal(monkeypatch, invoke, columns):
    assert invoke("run", "--from", "1", "--to", "3").exit_code == 0
    monkeypatch.setenv("COLUMNS", str(columns))
    lines = invoke("show", "1").stdout.splitlines()
    header = next(line for line in lines if line.split()[:1] == ["Q"])
    headings = header.split()
    assert {"prompt", "cached", "answer"} <= set(headings)
    assert not any("…" in heading for heading in headings)
    table = lines[lines.index(header) : lines.index(header) + 5]
    assert all(len(line.rstrip()) <= columns for line in table)
    if columns >= 120:
        assert "growth" in headings and "latency" in headings


def test_a_one_question_session_is_named_by_its_question_not_a_range(invoke):
    """`show` of a one-question session said "ids 24 (Q24–24)"."""
    assert invoke("run", "--ids", "24").exit_code == 0
    shown = invoke("show", "1").stdout
    assert "ids 24 (Q24)" in shown and "Q24–24" not in shown
