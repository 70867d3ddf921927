"""Mastery per chapter, read from the review log and the FSRS cards; and its picture.

Per chapter: questions in it, seen (rated at least once), due now, the mean
grade, the last time one was studied, and retention: the mean FSRS
probability of recalling a seen question right now. The mean grade weighs
each graded question once (the mean of its own grades), so a question
drilled ten times does not drown out the rest of the chapter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from studybot.bank import Bank
from studybot.learn import review
from studybot.storage.store import Store


@dataclass(frozen=True)
class ChapterProgress:
    chapter: int
    title: str
    total: int  # questions in the chapter
    seen: int  # rated at least once
    due: int  # seen and due now
    mean_grade: float | None  # 0-1; None when nothing in it was graded
    retention: float | None  # 0-1, mean over seen questions; None when none was seen
    last_studied: str | None  # ISO-8601 UTC of the latest rating

    def to_json(self) -> dict:
        return {
            "chapter": self.chapter,
            "title": self.title,
            "total": self.total,
            "seen": self.seen,
            "due": self.due,
            "mean_grade": _rounded(self.mean_grade),
            "retention": _rounded(self.retention),
            "last_studied": self.last_studied,
        }


@dataclass(frozen=True)
class Progress:
    bank: str  # the bank key the cards are filed under
    title: str
    chapters: tuple[ChapterProgress, ...]
    retention: Mapping[int, float]  # question id -> retention now, seen questions only

    def to_json(self) -> dict:
        return {"bank": self.bank, "chapters": [c.to_json() for c in self.chapters]}


def progress(store: Store, bank: Bank, bank_key: str, now: datetime | None = None) -> Progress:
    """Every chapter of ``bank``, studied or not, as of ``now``."""
    at = review.utc(now)
    stats = review.question_stats(store, bank_key, at)
    rows = []
    for chapter in bank.chapters:
        questions = [q for q in bank.questions if q.chapter == chapter.number]
        seen = [stats[q.id] for q in questions if q.id in stats]
        grades = [s.mean_grade for s in seen if s.mean_grade is not None]
        rows.append(
            ChapterProgress(
                chapter=chapter.number,
                title=chapter.title,
                total=len(questions),
                seen=len(seen),
                due=sum(1 for s in seen if s.card.due <= at),
                mean_grade=_mean(grades),
                retention=_mean([s.retention for s in seen]),
                last_studied=max((s.last_reviewed for s in seen), default=None),
            )
        )
    known = {q.id for q in bank.questions}
    return Progress(
        bank=bank_key,
        title=bank.title,
        chapters=tuple(rows),
        retention={i: s.retention for i, s in stats.items() if i in known},
    )


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)
