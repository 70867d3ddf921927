"""The FSRS tables: each question's card and the log of every rating (``Store`` has them).

The scheduler itself is ``learn.review``; here only rows are read and
written, a card and its log entry in one transaction under the write lock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, fields
from typing import TYPE_CHECKING, Any

from studybot.storage.dbfile import writing
from studybot.storage.records import CardRow, ReviewEntry, ReviewStats

if TYPE_CHECKING:  # sqlite_utils (and the numpy it imports) loads when a store opens
    from sqlite_utils import Database


class ReviewLog:
    """Cards and reviews: the part of the store the schedule reads and writes."""

    db: Database

    def card(self, bank: str, question_id: int) -> CardRow | None:
        rows = list(
            self.db.query(
                "select * from cards where bank = ? and question_id = ?", [bank, question_id]
            )
        )
        return _card(rows[0]) if rows else None

    def cards(self, bank: str | None = None) -> list[CardRow]:
        """Every card (of one bank, or of all), soonest due first."""
        where, params = ("where bank = ?", [bank]) if bank is not None else ("", [])
        rows = self.db.query(f"select * from cards {where} order by due, bank, question_id", params)
        return [_card(row) for row in rows]

    def due_cards(self, bank: str, at: str) -> list[int]:
        """Question ids of the bank's cards due at ``at`` (ISO-8601 UTC), most overdue first."""
        rows = self.db.query(
            "select question_id from cards where bank = ? and due <= ? order by due, question_id",
            [bank, at],
        )
        return [row["question_id"] for row in rows]

    def review(
        self,
        bank: str,
        question_id: int,
        schedule: Callable[[CardRow | None], tuple[CardRow, ReviewEntry]],
    ) -> CardRow:
        """Update a card and log its review in one transaction that holds the write lock.

        ``schedule`` gets the card as it is (None for a new one) and returns the
        card after the rating with its log entry; a second process rating the
        same card waits for the lock, so no review is lost.
        """
        with writing(self.db):
            after, entry = schedule(self.card(bank, question_id))
            self.db.table("cards").upsert(asdict(after), pk=("bank", "question_id"))
            self.db.table("reviews").insert(asdict(entry))
        return after

    def session_reviews(self, session_id: int) -> dict[int, ReviewEntry]:
        """Question id -> the latest review given during this session."""
        rows = self.db.query("select * from reviews where session_id = ? order by id", [session_id])
        return {row["question_id"]: _entry(row) for row in rows}

    def reviews(self, bank: str, question_id: int | None = None) -> list[ReviewEntry]:
        """The review log of a bank (or one question of it), oldest first."""
        sql = "select * from reviews where bank = ?"
        params: list[str | int] = [bank]
        if question_id is not None:
            sql += " and question_id = ?"
            params.append(question_id)
        return [_entry(row) for row in self.db.query(sql + " order by id", params)]

    def review_stats(self, bank: str) -> dict[int, ReviewStats]:
        """Question id -> mean grade and last review, for every question of the bank reviewed."""
        rows = self.db.query(
            "select question_id, avg(grade) as mean_grade, max(reviewed_at) as last_reviewed "
            "from reviews where bank = ? group by question_id",
            [bank],
        )
        return {r["question_id"]: ReviewStats(r["mean_grade"], r["last_reviewed"]) for r in rows}

    def ratings_since(self, bank: str, at: str) -> tuple[int, int]:
        """(first ratings, other ratings) of the bank's questions given since ``at`` (ISO UTC)."""
        row = next(
            self.db.query(
                "select count(*) as total, coalesce(sum(r.id = (select min(f.id) from reviews f"
                " where f.bank = r.bank and f.question_id = r.question_id)), 0) as first"
                " from reviews r where r.bank = ? and r.reviewed_at >= ?",
                [bank, at],
            )
        )
        return row["first"], row["total"] - row["first"]

    def studied(self, bank: str) -> dict[int, str]:
        """Question id -> when it was last answered in a session of the bank (read runs too)."""
        rows = self.db.query(
            "select t.question_id, max(t.created) as last from turns t"
            " join sessions s on s.id = t.session_id where s.bank = ? group by t.question_id",
            [bank],
        )
        return {r["question_id"]: r["last"] for r in rows}


def _card(row: dict[str, Any]) -> CardRow:
    return CardRow(**{f.name: row[f.name] for f in fields(CardRow)})


def _entry(row: dict[str, Any]) -> ReviewEntry:
    return ReviewEntry(**{f.name: row[f.name] for f in fields(ReviewEntry)})
