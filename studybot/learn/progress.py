"""Mastery per chapter, read from the sessions, the review log and the FSRS cards.

Per chapter: questions in it, seen (read in a run or rated), rated, due now
and by the end of today, failed (last rated Again), the mean grade, the last
time one was studied, and two retentions:

- **retention**: FSRS's probability of recalling each rated question now,
  over the exact time elapsed (``learn.review.retrievability``), averaged. A
  question whose last rating was Again counts 0 until it is passed again:
  its last recall failed, whatever the curve says a minute later.
- **true retention**: the share of reviews not rated Again, as Anki's
  statistics count it: only ratings of a question that was in FSRS's
  review state (first ratings and learning steps are not recall tests).

The mean grade weighs each graded question once (the mean of its own
grades), so a question drilled ten times does not drown out the rest.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from fsrs import Card, State

from studybot.bank import Bank
from studybot.learn import review
from studybot.storage.store import ReviewEntry, Store

AGAIN = 1


@dataclass(frozen=True)
class QuestionState:
    """One seen question as the grid draws it."""

    question_id: int
    chapter: int
    rated: bool  # False: read in a run, never rated
    retention: float | None  # 0-1 (0 after Again); None when never rated
    last_rating: int | None
    failed: bool  # the last rating was Again
    due: str | None  # ISO-8601 UTC of the card's due; None when never rated
    due_now: bool
    due_today: bool  # due by the end of the local day (overdue included)

    def to_json(self) -> dict:
        return {
            "id": self.question_id,
            "chapter": self.chapter,
            "rated": self.rated,
            "retention": _rounded(self.retention),
            "last_rating": self.last_rating,
            "failed": self.failed,
            "due": self.due,
            "due_now": self.due_now,
            "due_today": self.due_today,
        }


@dataclass(frozen=True)
class Recall:
    """Reviews counted for true retention: passed (not Again) and failed (Again)."""

    passed: int = 0
    failed: int = 0

    @property
    def share(self) -> float | None:
        total = self.passed + self.failed
        return self.passed / total if total else None

    def __add__(self, other: Recall) -> Recall:
        return Recall(self.passed + other.passed, self.failed + other.failed)

    def to_json(self) -> dict:
        return {"share": _rounded(self.share), "passed": self.passed, "failed": self.failed}


@dataclass(frozen=True)
class ChapterProgress:
    chapter: int
    title: str
    total: int  # questions in the chapter
    seen: int  # read in a run or rated
    rated: int  # rated at least once
    due: int  # rated and due now
    due_today: int  # rated and due by the end of the local day
    failed: int  # last rated Again
    graded: int  # graded at least once (a quiz's attempt): what mean_grade is the mean of
    mean_grade: float | None  # 0-1; None when nothing in it was graded
    retention: float | None  # 0-1, mean over rated questions; None when none was rated
    recall: Recall  # true retention over the chapter's review log
    last_studied: str | None  # ISO-8601 UTC of the latest rating or answer

    def to_json(self) -> dict:
        return {
            "chapter": self.chapter,
            "title": self.title,
            "total": self.total,
            "seen": self.seen,
            "rated": self.rated,
            "due": self.due,
            "due_today": self.due_today,
            "failed": self.failed,
            "graded": self.graded,
            "mean_grade": _rounded(self.mean_grade),
            "retention": _rounded(self.retention),
            "true_retention": self.recall.to_json(),
            "last_studied": self.last_studied,
        }


@dataclass(frozen=True)
class Progress:
    bank: str  # the bank key the cards are filed under
    title: str
    chapters: tuple[ChapterProgress, ...]
    questions: Mapping[int, QuestionState]  # seen questions only
    due_today: int
    forecast: tuple[int, ...]  # due on each of the 7 days after today
    recall: Recall  # true retention over the whole bank's log

    @property
    def retention(self) -> dict[int, float]:
        """Question id -> retention now, rated questions only."""
        return {i: q.retention for i, q in self.questions.items() if q.retention is not None}

    def to_json(self) -> dict:
        return {
            "bank": self.bank,
            "due_today": self.due_today,
            "forecast": list(self.forecast),
            "true_retention": self.recall.to_json(),
            "chapters": [c.to_json() for c in self.chapters],
            "questions": [q.to_json() for _, q in sorted(self.questions.items())],
        }


def progress(store: Store, bank: Bank, bank_key: str, now: datetime | None = None) -> Progress:
    """Every chapter of ``bank``, studied or not, as of ``now``."""
    at = review.utc(now)
    end_of_today = review.day_start(at) + timedelta(days=1)
    stats = review.question_stats(store, bank_key, at)
    read = store.studied(bank_key)
    recall = recalls(store.reviews(bank_key))
    states: dict[int, QuestionState] = {}
    rows = []
    for chapter in bank.chapters:
        questions = [q for q in bank.questions if q.chapter == chapter.number]
        for q in questions:
            if q.id in stats or q.id in read:
                states[q.id] = _state(q.id, chapter.number, stats.get(q.id), at, end_of_today)
        mine = [states[q.id] for q in questions if q.id in states]
        rated = [s for s in mine if s.rated]
        logged = [stats[q.id] for q in questions if q.id in stats]
        grades = [s.mean_grade for s in logged if s.mean_grade is not None]
        studied = [s.last_reviewed for s in logged] + [
            read[q.id] for q in questions if q.id in read
        ]
        rows.append(
            ChapterProgress(
                chapter=chapter.number,
                title=chapter.title,
                total=len(questions),
                seen=len(mine),
                rated=len(rated),
                due=sum(s.due_now for s in rated),
                due_today=sum(s.due_today for s in rated),
                failed=sum(s.failed for s in rated),
                graded=len(grades),
                mean_grade=_mean(grades),
                retention=_mean([s.retention for s in rated if s.retention is not None]),
                recall=sum((recall.get(q.id, Recall()) for q in questions), Recall()),
                last_studied=max(studied, default=None),
            )
        )
    due = [datetime.fromisoformat(q.due) for q in states.values() if q.due is not None]
    today, ahead = review.forecast(due, at)
    return Progress(
        bank=bank_key,
        title=bank.title,
        chapters=tuple(rows),
        questions=states,
        due_today=today,
        forecast=tuple(ahead),
        recall=sum((r for i, r in recall.items() if i in states), Recall()),
    )


def recalls(entries: list[ReviewEntry]) -> dict[int, Recall]:
    """Question id -> its reviews made in FSRS's review state, passed and failed (Anki's count)."""
    before: dict[int, State] = {}  # each question's card state after its latest rating so far
    out: dict[int, Recall] = {}
    for entry in entries:  # oldest first
        if before.get(entry.question_id) == State.Review:
            failed = entry.rating == AGAIN
            out[entry.question_id] = out.get(entry.question_id, Recall()) + Recall(
                passed=int(not failed), failed=int(failed)
            )
        before[entry.question_id] = Card.from_dict(json.loads(entry.card)).state
    return out


def _state(
    question_id: int,
    chapter: int,
    stats: review.QuestionStats | None,
    at: datetime,
    end_of_today: datetime,
) -> QuestionState:
    if stats is None:  # read in a run, never rated
        return QuestionState(question_id, chapter, False, None, None, False, None, False, False)
    card = stats.card
    failed = card.last_rating == AGAIN
    return QuestionState(
        question_id=question_id,
        chapter=chapter,
        rated=True,
        retention=0.0 if failed else stats.retention,
        last_rating=card.last_rating,
        failed=failed,
        due=review.iso(card.due),
        due_now=card.due <= at,
        due_today=card.due < end_of_today,
    )


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)
