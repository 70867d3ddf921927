"""FSRS cards and the review log: ratings move due dates, every rating is logged and kept."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from studybot import bank
from studybot.errors import BadInput
from studybot.learn import review
from studybot.storage.store import DB_NAME, Store

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def new_session(store: Store) -> int:
    return store.new_session(
        bank="default",
        bank_title="t",
        first_question=1,
        last_question=8,
        provider="offline",
        model="answer-key",
        base_url="",
        wire_api="chat",
        settings={},
        prefix="系统前缀",
        segments=[tuple(range(1, 9))],
    )


@pytest.mark.parametrize(
    ("score", "rating"),
    [(None, 3), (0.0, 1), (0.34, 1), (0.35, 2), (0.69, 2), (0.7, 3), (0.89, 3), (0.9, 4), (1, 4)],
)
def test_suggested_rating_follows_the_documented_bounds(score, rating):
    assert review.suggest_rating(score) == rating
    assert review.RATINGS[rating] in {"Again", "Hard", "Good", "Easy"}


def test_good_pushes_the_due_date_forward_and_again_brings_it_back_soon(rate, store):
    first = rate(23, 3, T0, store=store)
    assert first.due == T0 + timedelta(minutes=10)  # the second learning step
    assert first.interval == "in 10 minutes"
    second = rate(23, 3, first.due, store=store)
    assert second.due - first.due >= timedelta(days=1)
    assert second.interval.endswith("days")
    third = rate(23, 3, second.due, store=store)
    assert third.due - second.due > second.due - first.due
    lapse = rate(23, 1, third.due, store=store)
    assert lapse.due - third.due <= timedelta(minutes=10)
    card = review.card_info(store, "default", 23)
    assert (card.state, card.last_rating, card.reviews) == ("relearning", 1, 4)


def test_every_rating_is_one_log_row_with_the_card_after_it(rate, store):
    session_id = new_session(store)
    rate(5, 3, T0, grade=0.75, attempt="输入加输出", session_id=session_id, store=store)
    rate(
        5, 1, T0 + timedelta(minutes=11), grade=0.0, attempt="", session_id=session_id, store=store
    )
    rate(6, 4, T0, store=store)
    rows = list(store.db.query("select * from reviews order by id"))
    assert [
        (r["bank"], r["question_id"], r["reviewed_at"], r["rating"], r["grade"], r["attempt"])
        for r in rows
    ] == [
        ("default", 5, "2026-03-02T09:00:00+00:00", 3, 0.75, "输入加输出"),
        ("default", 5, "2026-03-02T09:11:00+00:00", 1, 0.0, ""),
        ("default", 6, "2026-03-02T09:00:00+00:00", 4, None, None),
    ]
    assert [r["session_id"] for r in rows] == [session_id, session_id, None]
    card = review.card_info(store, "default", 5)
    assert json.loads(rows[1]["card"]) == card.card.to_dict()
    assert card.reviews == 2
    latest = store.session_reviews(session_id)
    assert list(latest) == [5]
    assert (latest[5].rating, latest[5].grade, latest[5].attempt) == (1, 0.0, "")


def test_a_saved_rating_is_visible_to_another_connection_at_once(rate, store, studybot_home):
    rate(34, 2, T0, store=store)
    other = sqlite3.connect(studybot_home / DB_NAME)
    assert other.execute("select question_id, rating from reviews").fetchall() == [(34, 2)]
    assert other.execute("select reviews from cards where question_id = 34").fetchone() == (1,)
    other.close()


def test_a_failing_log_write_leaves_the_card_unchanged(rate, store, monkeypatch):
    rate(7, 3, T0, store=store)
    before = review.card_info(store, "default", 7)
    # A trigger that rejects every log row makes the second write of the pair fail.
    store.db.execute(
        "create trigger no_log before insert on reviews begin select raise(abort, 'x'); end"
    )
    with pytest.raises(sqlite3.IntegrityError):
        rate(7, 3, before.due, store=store)
    assert review.card_info(store, "default", 7) == before
    assert len(store.reviews("default", 7)) == 1


def test_bad_ratings_and_grades_are_bad_input(rate, store):
    with pytest.raises(BadInput):
        rate(1, 5, T0, store=store)
    with pytest.raises(BadInput):
        rate(1, 3, T0, grade=1.5, store=store)
    assert review.cards(store) == []


def test_due_questions_are_the_most_overdue_returned_in_bank_order(rate, store):
    shipped = bank.load()
    for question_id, minutes in ((40, 0), (3, 1), (25, 2), (26, 3), (120, 4)):
        rate(question_id, 1, T0 + timedelta(minutes=minutes), store=store)  # due one minute later
    rate(9, 4, T0, store=store)  # Easy: not due for days
    later = T0 + timedelta(hours=1)
    assert [q.id for q in review.due_questions(store, shipped, "default", now=later)] == [
        3,
        25,
        26,
        40,
        120,
    ]
    # limit keeps the most overdue (40 and 3 were rated first), still in bank order
    assert [q.id for q in review.due_questions(store, shipped, "default", limit=2, now=later)] == [
        3,
        40,
    ]
    assert review.due_questions(store, shipped, "default", now=T0) == []
    assert review.due_questions(store, shipped, "other-bank", now=later) == []


def test_cards_of_two_banks_are_kept_apart(rate, store):
    rate(1, 3, T0, store=store)
    review.record_review(store, bank="mine", question_id=1, rating=1, now=T0)
    assert [(c.bank, c.last_rating) for c in review.cards(store)] == [("mine", 1), ("default", 3)]
    assert [c.bank for c in review.cards(store, "mine")] == ["mine"]


def test_question_stats_and_the_weakest_first(rate, store):
    shipped = bank.load()
    rate(10, 3, T0, grade=0.9, store=store)
    rate(10, 3, T0 + timedelta(minutes=10), grade=0.7, store=store)
    rate(11, 1, T0, grade=0.2, store=store)
    rate(12, 2, T0, store=store)  # rated in read mode: no grade
    rate(13, 1, T0, store=store)
    stats = review.question_stats(store, "default", T0 + timedelta(days=3))
    assert set(stats) == {10, 11, 12, 13}
    assert stats[10].mean_grade == pytest.approx(0.8)
    assert stats[10].last_reviewed == "2026-03-02T09:10:00+00:00"
    assert stats[12].mean_grade is None
    assert all(0.0 < s.retention < 1.0 for s in stats.values())
    assert stats[11].retention < stats[10].retention
    assert [q.id for q in review.by_weakness(stats, shipped.questions)] == [11, 10, 13, 12]


@pytest.mark.parametrize(
    ("delta", "text"),
    [
        (timedelta(seconds=-5), "due now"),
        (timedelta(seconds=20), "in 1 minute"),
        (timedelta(minutes=10), "in 10 minutes"),
        (timedelta(hours=5), "in 5 hours"),
        (timedelta(days=1), "in 1 day"),
        (timedelta(days=45), "in 45 days"),
        (timedelta(days=90), "in 3 months"),
        (timedelta(days=800), "in 2 years"),
    ],
)
def test_intervals_read_as_words(delta, text):
    assert review.until(T0 + delta, T0) == text


def test_two_processes_rating_at_once_lose_no_review(studybot_home):
    """Each rating reads the card, then writes it: the write lock must come first."""
    import subprocess
    import sys

    Store.open().close()  # migrations done before the race
    code = (
        "from studybot.learn import review\nfrom studybot.storage.store import Store\n"
        "store = Store.open()\n"
        "for _ in range(25):\n"
        "    review.record_review(store, bank='default', question_id=5, rating=3)\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE) for _ in (1, 2)]
    errors = [p.communicate(timeout=120)[1].decode() for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errors
    with sqlite3.connect(studybot_home / DB_NAME) as con:
        assert con.execute("select count(*) from reviews").fetchone()[0] == 50
        assert con.execute("select reviews from cards").fetchone()[0] == 50


def test_one_contradicted_point_suggests_hard_at_most_and_two_suggest_again():
    assert review.suggest_rating(1.0, contradicted=1) == 2  # one ⚠ in a good answer: Hard
    assert review.suggest_rating(0.5, contradicted=1) == 2
    assert review.suggest_rating(0.2, contradicted=1) == 1  # a poor answer is Again anyway
    assert review.suggest_rating(None, contradicted=1) == 2
    assert review.suggest_rating(0.9, contradicted=2) == 1
    assert review.suggest_rating(None, contradicted=2) == 1
