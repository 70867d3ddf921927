"""Spaced review: one FSRS card per (bank, question), the log of every rating, what is due.

Scheduling is the ``fsrs`` package (the scheduler modern Anki uses) with its
default parameters, learning steps of 1 and 10 minutes and interval fuzzing
on (cards learnt together spread over nearby days). The settings a learner
knows from Anki are studybot settings (config.toml, flags of ``review``):
``desired_retention`` and ``maximum_interval`` shape each interval from the
next rating on (as in Anki, cards already scheduled keep their dates);
``reviews_per_day`` and ``new_per_day`` cap what ``review`` serves in a
local calendar day (``today``).

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
from datetime import UTC, datetime, timedelta
from typing import Protocol

from fsrs import Card, Rating, Scheduler, State

from studybot.bank import Bank, Question
from studybot.errors import BadInput
from studybot.learn.marks import RATINGS, SUGGESTION_BOUNDS, suggest_rating  # noqa: F401
from studybot.storage.store import CardRow, ReviewEntry, Store


class Settings(Protocol):
    """The settings of scheduling a learner knows from Anki (``channel.config.Settings``)."""

    @property
    def desired_retention(self) -> float: ...
    @property
    def maximum_interval(self) -> int: ...
    @property
    def reviews_per_day(self) -> int: ...
    @property
    def new_per_day(self) -> int: ...


STATES = {State.Learning: "learning", State.Review: "review", State.Relearning: "relearning"}

_scheduler = Scheduler()  # the defaults, for what does not depend on the settings
DAY = 86400  # seconds


def scheduler(settings: Settings | None = None) -> Scheduler:
    """The FSRS scheduler under the learner's desired retention and maximum interval."""
    if settings is None:
        return _scheduler
    return Scheduler(
        desired_retention=settings.desired_retention, maximum_interval=settings.maximum_interval
    )


def retrievability(card: Card, at: datetime) -> float:
    """FSRS's probability of recalling ``card`` at ``at``, over fractional days.

    ``fsrs`` counts whole days, so a card rated an hour ago shows 100 %;
    the same forgetting curve over the exact time elapsed does not.
    """
    if card.last_review is None or not card.stability:
        return 0.0
    decay = -_scheduler.parameters[20]
    factor = 0.9 ** (1 / decay) - 1
    elapsed = max(0.0, (utc(at) - utc(card.last_review)).total_seconds() / DAY)
    return (1 + factor * elapsed / card.stability) ** decay


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
    settings: Settings | None = None,
) -> Scheduled:
    """Rate a question: reschedule its card and log the review, committed before returning.

    ``settings`` give the desired retention and maximum interval (FSRS's defaults without).
    """
    if rating not in RATINGS:
        raise BadInput(
            f"rating {rating!r} is not one of 1-4",
            hint="1 Again, 2 Hard, 3 Good, 4 Easy",
        )
    if grade is not None and not 0.0 <= grade <= 1.0:
        raise BadInput(f"grade {grade!r} is outside 0-1")
    at = utc(now)
    fsrs = scheduler(settings)

    def schedule(before: CardRow | None) -> tuple[CardRow, ReviewEntry]:
        card = (
            Card.from_dict(json.loads(before.card)) if before else Card(card_id=question_id, due=at)
        )
        card, _ = fsrs.review_card(card, Rating(rating), at)
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
    order: str = "bank",
) -> list[Question]:
    """The bank's questions whose card is due: the ``limit`` most overdue, in id order.

    Which questions is decided by overdueness; the order they come back in is
    the bank's (ascending id), so questions of one chapter sit together and
    the segment cut can follow chapter lines (``order="overdue"``: most overdue first).
    """
    if limit is not None and limit < 1:
        raise BadInput(f"--limit {limit} must be at least 1")
    known = {q.id: q for q in bank.questions}
    # A card may outlive its question (an imported bank saved again, shorter).
    overdue = [known[q] for q in store.due_cards(bank_key, iso(utc(now))) if q in known]
    return overdue[:limit] if order == "overdue" else sorted(overdue[:limit], key=lambda q: q.id)


@dataclass(frozen=True)
class Today:
    """What the daily limits leave for ``review`` today (a local calendar day)."""

    reviews_done: int  # ratings today of questions rated before (a review, in Anki's words)
    new_done: int  # questions rated for the first time today
    reviews_per_day: int
    new_per_day: int

    @property
    def reviews_left(self) -> int:
        return max(0, self.reviews_per_day - self.reviews_done)

    @property
    def new_left(self) -> int:
        return max(0, self.new_per_day - self.new_done)


def today(store: Store, bank_key: str, settings: Settings, now: datetime | None = None) -> Today:
    """Today's ratings of the bank against ``reviews_per_day`` and ``new_per_day``."""
    first, other = store.ratings_since(bank_key, iso(day_start(now)))
    return Today(other, first, settings.reviews_per_day, settings.new_per_day)


def serve(
    store: Store,
    bank: Bank,
    bank_key: str,
    settings: Settings,
    *,
    limit: int | None = None,
    now: datetime | None = None,
) -> list[Question]:
    """What ``review`` studies now: due questions within today's review limit, most
    overdue first, then questions never rated within the new limit, in bank order;
    at most ``limit`` in all, returned in bank order (segments follow chapters)."""
    left = today(store, bank_key, settings, now)
    due = due_questions(store, bank, bank_key, now=now, order="overdue")[: left.reviews_left]
    rated = {c.question_id for c in cards(store, bank_key)}
    new = [q for q in bank.questions if q.id not in rated][: left.new_left]
    chosen = (due + new)[:limit] if limit is not None else due + new
    return sorted(chosen, key=lambda q: q.id)


def day_start(now: datetime | None = None) -> datetime:
    """Midnight of ``now``'s day in the local time zone, where a learner's day starts."""
    local = utc(now).astimezone()
    return local.replace(hour=0, minute=0, second=0, microsecond=0)


def forecast(
    due: list[datetime], now: datetime | None = None, days: int = 7
) -> tuple[int, list[int]]:
    """(due by the end of today, overdue included; due on each of the next ``days`` days)."""
    start = day_start(now)
    ends = [start + timedelta(days=n + 1) for n in range(days + 1)]
    counts = [0] * (days + 1)
    for moment in due:
        index = next((n for n, end in enumerate(ends) if moment < end), None)
        if index is not None:
            counts[index] += 1
    return counts[0], counts[1:]


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
            retention=retrievability(info.card, at),
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
