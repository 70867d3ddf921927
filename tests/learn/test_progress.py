"""Mastery per chapter, as ``progress`` reports it from the cards and the review log."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from studybot.learn import progress, review

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_an_unstudied_bank_lists_every_chapter_with_nothing_seen(store, shipped):
    report = progress.progress(store, shipped, "default", T0)
    assert [c.chapter for c in report.chapters] == [c.number for c in shipped.chapters]
    assert [c.title for c in report.chapters] == [c.title for c in shipped.chapters]
    assert sum(c.total for c in report.chapters) == len(shipped.questions)
    for row in report.chapters:
        assert (row.seen, row.due, row.mean_grade, row.retention, row.last_studied) == (
            0,
            0,
            None,
            None,
            None,
        )
    assert report.retention == {} and report.bank == "default" and report.title == shipped.title


def test_a_chapter_counts_seen_and_due_questions_as_of_now(rate, store, shipped):
    chapter = shipped.chapters[0]
    first, second, third = range(chapter.first, chapter.first + 3)
    rate(first, 1, T0, store=store)  # Again: back in a minute
    rate(second, 3, T0, store=store)  # Good: back in ten minutes
    rate(third, 4, T0, store=store)  # Easy: back in days
    soon = progress.progress(store, shipped, "default", T0 + timedelta(minutes=5))
    row = soon.chapters[0]
    assert (row.total, row.seen, row.due) == (chapter.last - chapter.first + 1, 3, 1)
    later = progress.progress(store, shipped, "default", T0 + timedelta(hours=1))
    assert later.chapters[0].due == 2
    assert all(c.seen == 0 for c in later.chapters[1:])
    assert later.chapters[0].last_studied == review.iso(T0)


def test_the_mean_grade_weighs_each_question_once(rate, store, shipped):
    chapter = shipped.chapters[1]
    drilled, once, ungraded = range(chapter.first, chapter.first + 3)
    for hours in range(4):  # one question drilled four times, always perfect
        rate(drilled, 4, T0 + timedelta(hours=hours), grade=1.0, store=store)
    rate(once, 1, T0, grade=0.0, store=store)
    rate(ungraded, 3, T0 + timedelta(hours=9), store=store)  # read mode: rated, not graded
    row = progress.progress(store, shipped, "default", T0 + timedelta(days=1)).chapters[1]
    assert row.mean_grade == pytest.approx(0.5)  # not 0.8: (1.0 + 0.0) / 2
    assert row.seen == 3
    assert row.last_studied == review.iso(T0 + timedelta(hours=9))


def test_retention_is_the_mean_recall_of_seen_questions_and_fades(rate, store, shipped):
    chapter = shipped.chapters[2]
    ids = list(range(chapter.first, chapter.first + 2))
    for question_id in ids:
        rate(question_id, 3, T0, grade=0.8, store=store)
    soon = progress.progress(store, shipped, "default", T0 + timedelta(minutes=1))
    late = progress.progress(store, shipped, "default", T0 + timedelta(days=60))
    assert set(soon.retention) == set(ids)
    for report in (soon, late):
        row = report.chapters[2]
        expected = sum(report.retention[q] for q in ids) / len(ids)
        assert row.retention == pytest.approx(expected)
        assert 0.0 < row.retention <= 1.0
    assert late.chapters[2].retention < soon.chapters[2].retention


def test_only_the_banks_own_cards_count(rate, store, shipped):
    rate(1, 3, T0, grade=1.0, bank_key="elsewhere", store=store)
    rate(999, 3, T0, grade=1.0, store=store)  # a card that outlived its question
    report = progress.progress(store, shipped, "default", T0)
    assert all(c.seen == 0 for c in report.chapters)
    assert report.retention == {}
    mine = progress.progress(store, shipped, "elsewhere", T0)
    assert mine.bank == "elsewhere" and mine.chapters[0].seen == 1 and set(mine.retention) == {1}


def test_the_json_rounds_the_ratios_and_keeps_the_agreed_keys(rate, store, shipped):
    rate(1, 3, T0, grade=2 / 3, store=store)
    data = progress.progress(store, shipped, "default", T0 + timedelta(hours=2)).to_json()
    assert set(data) == {"bank", "chapters", "questions", "due_today", "forecast", "true_retention"}
    assert len(data["chapters"]) == len(shipped.chapters)
    first = data["chapters"][0]
    assert set(first) == {
        "chapter",
        "title",
        "total",
        "seen",
        "rated",
        "due",
        "due_today",
        "failed",
        "graded",
        "mean_grade",
        "retention",
        "true_retention",
        "last_studied",
    }
    assert first["mean_grade"] == 0.667 and first["seen"] == 1 and first["due"] == 1
    assert first["retention"] == round(first["retention"], 3)
    assert data["chapters"][1]["mean_grade"] is None and data["chapters"][1]["retention"] is None
