"""A session's segments (its plan and each summary) and what was answered in them.

A part of ``Store``, like ``attempts``: the turns and follow-ups of each segment, each
committed before the next request goes out; rows read and written here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, fields
from typing import TYPE_CHECKING, Any

from studybot.storage import lenient
from studybot.storage.dbfile import writing
from studybot.storage.records import FollowUp, SegmentRecord, Turn, now
from studybot.types import NONE_DISCARDED, Discarded, Usage

if TYPE_CHECKING:  # sqlite_utils (and the numpy it imports) loads when a store opens
    from sqlite_utils import Database


class Segments:
    """Segments, their summaries, and the turns and follow-ups answered in them."""

    db: Database

    def segments(self, session_id: int) -> list[SegmentRecord]:
        rows = self.db.query(
            "select * from segments where session_id = ? order by idx", [session_id]
        )
        return [
            SegmentRecord(
                index=row["idx"],
                question_ids=tuple(json.loads(row["question_ids"])),
                summary_in=row["summary_in"],
                summary_out=row["summary_out"],
                summary_usage=None
                if row["summary_prompt_tokens"] is None
                else Usage(
                    row["summary_prompt_tokens"],
                    row["summary_completion_tokens"],
                    row["summary_cached_tokens"] or 0,
                ),
                summary_discarded=_discarded(row.get("summary_discarded")),
            )
            for row in rows
        ]

    def drop_unasked(self, session_id: int, question_ids: Iterable[int]) -> None:
        """Take unanswered questions out of a session's plan (they left the bank).

        A last segment left empty goes too, so the session can complete; the
        session's total follows.
        """
        dropped = set(question_ids)
        segments = self.segments(session_id)
        with writing(self.db):
            for segment in segments:
                kept = [q for q in segment.question_ids if q not in dropped]
                if kept != list(segment.question_ids):
                    self.db.table("segments").update(
                        (session_id, segment.index), {"question_ids": json.dumps(kept)}
                    )
            for segment in reversed(segments):
                if any(q not in dropped for q in segment.question_ids):
                    break
                self.db.execute(
                    "delete from segments where session_id = ? and idx = ?",
                    [session_id, segment.index],
                )
            total = sum(len([q for q in s.question_ids if q not in dropped]) for s in segments)
            self.db.table("sessions").update(session_id, {"total": total})

    def split_segment(self, session_id: int, index: int, at_question: int) -> None:
        """Cut segment ``index`` before ``at_question``: the rest becomes segment ``index + 1``.

        Later segments move one place on; they have no turns yet (segments are
        answered in order), so only their index changes.
        """
        segments = self.segments(session_id)
        ids = segments[index].question_ids
        cut = ids.index(at_question)
        with writing(self.db):
            # Two steps, so that no two rows ever share an index on the way.
            self.db.execute(
                "update segments set idx = -idx - 2 where session_id = ? and idx > ?",
                [session_id, index],
            )
            self.db.execute(
                "update segments set idx = -idx - 1 where session_id = ? and idx < -1",
                [session_id],
            )
            self.db.table("segments").update(
                (session_id, index), {"question_ids": json.dumps(ids[:cut])}
            )
            self.db.table("segments").insert(
                {
                    "session_id": session_id,
                    "idx": index + 1,
                    "question_ids": json.dumps(list(ids[cut:])),
                    "summary_in": None,
                    "summary_out": None,
                }
            )

    def set_summary(
        self,
        session_id: int,
        index: int,
        summary: str,
        usage: Usage | None = None,
        discarded: Discarded = NONE_DISCARDED,
    ) -> None:
        """Record segment ``index``'s summary (and its cost); carry it into the next segment."""
        row: dict[str, Any] = {"summary_out": summary}
        if usage is not None:
            row["summary_prompt_tokens"] = usage.prompt_tokens
            row["summary_completion_tokens"] = usage.completion_tokens
            row["summary_cached_tokens"] = usage.cached_tokens
        if discarded.requests:
            row["summary_discarded"] = lenient.stored_discarded(discarded)
        with writing(self.db):
            self.db.table("segments").update((session_id, index), row)
            self.db.execute(
                "update segments set summary_in = ? where session_id = ? and idx = ?",
                [summary, session_id, index + 1],
            )

    def record_turn(self, turn: Turn) -> None:
        self._insert("turns", turn)

    def turns(self, session_id: int) -> list[Turn]:
        return self._records(Turn, "turns", session_id, order="question_id")

    def record_followup(self, followup: FollowUp) -> None:
        self._insert("followups", followup)

    def _insert(self, table: str, record: Turn | FollowUp) -> None:
        row = asdict(record)
        row["created"] = record.created or now()
        row["discarded"] = lenient.stored_discarded(record.discarded)
        with writing(self.db):  # committed before the next request goes out
            self.db.table(table).insert(row)

    def followups(self, session_id: int) -> list[FollowUp]:
        return self._records(FollowUp, "followups", session_id, order="id")

    def _records(self, cls, table: str, session_id: int, order: str) -> list:
        """Rows of ``table`` for a session as ``cls`` values (extra columns ignored)."""
        rows = self.db.query(
            f"select * from {table} where session_id = ? order by {order}", [session_id]
        )
        names = {f.name for f in fields(cls)}
        return [
            cls(**{k: v for k, v in row.items() if k in names} | {"discarded": _discarded(row)})
            for row in rows
        ]


def _discarded(row: Any) -> Discarded:
    """A row's thrown-away requests (a row, or its column's value); none where unreadable."""
    stored = row.get("discarded") if isinstance(row, dict) else row
    try:
        return lenient.discarded(stored)
    except lenient.Unreadable:
        return NONE_DISCARDED
