"""Spaced review: one FSRS card per (bank, question), the log of every rating, what is due.

Scheduling is the ``fsrs`` package (the scheduler modern Anki uses) with its
default parameters: 90 % desired retention, learning steps of 1 and 10
minutes, interval fuzzing on (cards learnt together spread over nearby days).

A bank is named by its *bank key*: the ``bank`` column of the session the
rating came from ("default" for the shipped bank). Cards exist only for
questions that were rated at least once: an unseen question is new, never due.

The store keeps the tables (``cards``: each card's latest state; ``reviews``:
every rating with the card after it); ``record_review`` has both written in
one transaction, committed before it returns, so a rating shown as saved
survives a crash or Ctrl-C.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from fsrs import Card, Rating, Scheduler, State

from studybot.bank import Bank, Question
from studybot.errors import BadInput
from studybot.storage.store import CardRow, ReviewEntry, Store

RATINGS = {1: "Again", 2: "Hard", 3: "Good", 4: "Easy"}
# Lower bounds of the grade (covered + half the partly, over the key points)
# that suggest Hard, Good and Easy; below the first, Again. Under 70 % is never
# a good recall; nearly everything covered is an easy one. A contradicted
# point (a wrong belief stated) suggests Again whatever the rest.
SUGGESTION_BOUNDS = ((0.9, 4), (0.7, 3), (0.35, 2))
STATES = {State.Learning: "learning", State.Review: "review", State.Relearning: "relearning"}

_scheduler = Scheduler()
DAY = 86400  # seconds


@dataclass(frozen=True)
class Scheduled:
    """When a question comes back after a rating."""

    due: datetime  # UTC
    interval: str  # from the rating to due, in words: "in 10 minutes", "in 3 days"


@dataclass(frozen=True)
class CardInfo:
    """A question's card: when it is due and how it has gone so far."""

    bank: str
    question_id: int
    due: datetime  # UTC
    state: str  # "learning", "review" or "relearning"
    last_rating: int
    reviews: int
    card: Card

    def to_json(self) -> dict:
        return {
            "bank": self.bank,
            "question_id": self.question_id,
            "due": iso(self.due),
            "state": self.state,
            "last_rating": self.last_rating,
            "reviews": self.reviews,
        }


@dataclass(frozen=True)
class QuestionStats:
    """What the log says about one seen question of a bank."""

    card: CardInfo
    mean_grade: float | None  # mean of the graded reviews; None if none was graded
    last_reviewed: str  # ISO-8601 UTC
    retention: float  # FSRS probability of recall at the time asked, 0-1


def suggest_rating(score: float | None, contradicted: int = 0) -> int:
    """The rating a grade suggests: <0.35 Again, <0.7 Hard, <0.9 Good, else Easy.

    Any ``contradicted`` point suggests Again. No grade (read mode, or
    grading was skipped) suggests Good: the user saw the answer and moves on
    unless they say otherwise.
    """
    if contradicted:
        return 1
    if score is None:
        return 3
    for bound, rating in SUGGESTION_BOUNDS:
        if score >= bound:
            return rating
    return 1


def record_review(
    store: Store,
    *,
    bank: str,
    question_id: int,
    rating: int,
    grade: float | None = None,
    attempt: str | None = None,
    session_id: int | None = None,
    now: datetime | None = None,
) -> Scheduled:
    """Rate a question: reschedule its card and log the review, committed before returning."""
    if rating not in RATINGS:
        raise BadInput(
            f"rating {rating!r} is not one of 1-4",
            hint="1 Again, 2 Hard, 3 Good, 4 Easy",
        )
    if grade is not None and not 0.0 <= grade <= 1.0:
        raise BadInput(f"grade {grade!r} is outside 0-1")
    at = utc(now)

    def schedule(before: CardRow | None) -> tuple[CardRow, ReviewEntry]:
        card = (
            Card.from_dict(json.loads(before.card)) if before else Card(card_id=question_id, due=at)
        )
        card, _ = _scheduler.review_card(card, Rating(rating), at)
        card_json = json.dumps(card.to_dict(), sort_keys=True)
        after = CardRow(
            bank=bank,
            question_id=question_id,
            card=card_json,
            due=iso(card.due),
            state=STATES[card.state],
            last_rating=rating,
            reviews=(before.reviews if before else 0) + 1,
        )
        entry = ReviewEntry(
            question_id, rating, grade, attempt, iso(at), session_id, bank, card_json
        )
        return after, entry

    after = store.review(bank, question_id, schedule)
    due = utc(datetime.fromisoformat(after.due))
    return Scheduled(due=due, interval=until(due, at))


def card_info(store: Store, bank: str, question_id: int) -> CardInfo | None:
    row = store.card(bank, question_id)
    return _card(row) if row else None


def cards(store: Store, bank: str | None = None) -> list[CardInfo]:
    """Every card (of one bank, or of all), soonest due first."""
    return [_card(row) for row in store.cards(bank)]


def due_questions(
    store: Store,
    bank: Bank,
    bank_key: str,
    *,
    limit: int | None = None,
    now: datetime | None = None,
) -> list[Question]:
    """The bank's questions whose card is due: the ``limit`` most overdue, in id order.

    Which questions is decided by overdueness; the order they come back in is
    the bank's (ascending id), so questions of one chapter sit together and
    the segment cut can follow chapter lines.
    """
    if limit is not None and limit < 1:
        raise BadInput(f"--limit {limit} must be at least 1")
    known = {q.id: q for q in bank.questions}
    # A card may outlive its question (an imported bank saved again, shorter).
    overdue = [known[q] for q in store.due_cards(bank_key, iso(utc(now))) if q in known]
    return sorted(overdue[:limit], key=lambda q: q.id)


def question_stats(
    store: Store, bank: str, now: datetime | None = None
) -> dict[int, QuestionStats]:
    """Question id -> its card, mean grade, last review and retention now, for seen questions."""
    at = utc(now)
    logged = store.review_stats(bank)
    out = {}
    for info in cards(store, bank):
        row = logged.get(info.question_id)
        out[info.question_id] = QuestionStats(
            card=info,
            mean_grade=row.mean_grade if row else None,
            last_reviewed=(row.last_reviewed if row else "") or "",
            retention=_scheduler.get_card_retrievability(info.card, at),
        )
    return out


def by_weakness(stats: dict[int, QuestionStats], questions: Sequence[Question]) -> list[Question]:
    """Seen questions, weakest first: lowest mean grade; ungraded ones after, by last rating."""

    def weakness(q: Question) -> tuple:
        s = stats[q.id]
        graded = s.mean_grade is not None
        return (not graded, s.mean_grade if graded else s.card.last_rating, q.id)

    return sorted((q for q in questions if q.id in stats), key=weakness)


def until(due: datetime, now: datetime | None = None) -> str:
    """How long until ``due``, in words: "due now", "in 10 minutes", "in 3 days"."""
    seconds = (utc(due) - utc(now)).total_seconds()
    if seconds <= 0:
        return "due now"
    # Each unit from two of the next one up: "in 45 days", not "in 2 months".
    for least, size, unit in (
        (730 * DAY, 365 * DAY, "year"),
        (60 * DAY, 30 * DAY, "month"),
        (DAY, DAY, "day"),
        (3600, 3600, "hour"),
    ):
        if seconds >= least:
            return _count(round(seconds / size), unit)
    return _count(max(1, round(seconds / 60)), "minute")


def _count(number: int, unit: str) -> str:
    return f"in {number} {unit}{'s' * (number != 1)}"


def utc(moment: datetime | None) -> datetime:
    """``moment`` in UTC (now when None; a naive time is taken as UTC)."""
    if moment is None:
        return datetime.now(UTC)
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def iso(moment: datetime) -> str:
    """ISO-8601 UTC to the second, the one form stored and compared as text."""
    return utc(moment).isoformat(timespec="seconds")


def _card(row: CardRow) -> CardInfo:
    card = Card.from_dict(json.loads(row.card))
    return CardInfo(
        bank=row.bank,
        question_id=row.question_id,
        due=utc(card.due),
        state=row.state,
        last_rating=row.last_rating,
        reviews=row.reviews,
        card=card,
    )
