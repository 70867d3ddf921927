"""The session database: SQLite through sqlite-utils, one file under STUDYBOT_HOME.

Each turn is committed before the next request goes out, so a crash loses
at most the turn in flight. The file is created 0600 and never holds a key.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from studybot.errors import SessionNotFound
from studybot.storage import lenient, migrations
from studybot.storage.attempts import Attempts
from studybot.storage.dbfile import connect, explain, writable, writing
from studybot.storage.interviews import Interviews
from studybot.storage.records import (
    ANSWER_FLAGS,
    OFFLINE,
    CardRow,
    FollowUp,
    GradeRecord,
    InterviewAnswer,
    PointMark,
    ProbeRecord,
    ReviewEntry,
    ReviewStats,
    SegmentRecord,
    SessionRecord,
    SessionView,
    Turn,
    now,
    sha256,
)
from studybot.storage.reviews import ReviewLog
from studybot.types import NONE_DISCARDED, Discarded, Usage

__all__ = [
    "ANSWER_FLAGS",
    "DB_NAME",
    "OFFLINE",
    "CardRow",
    "PointMark",
    "FollowUp",
    "GradeRecord",
    "InterviewAnswer",
    "ProbeRecord",
    "ReviewEntry",
    "ReviewStats",
    "SegmentRecord",
    "SessionRecord",
    "SessionView",
    "Store",
    "Turn",
    "now",
    "sha256",
]

DB_NAME = "studybot.db"


class Store(Attempts, Interviews, ReviewLog):
    """The session database: every table, read and written through these methods."""

    def __init__(self, path: Path, *, write: bool = True) -> None:
        self.path = path
        self.newer: str | None = None  # "studybot 0.9.0 or newer": the file is a newer one's
        try:
            can_write = write or writable(path)
            self.writable = can_write  # False on a read-only home: readers still work
            self.db = connect(path, write=can_write)
            if can_write:
                self.db.enable_wal()
            migrations.apply(self.db, write=can_write or self.db.memory)
        except migrations.NewerDatabase as exc:
            if write:
                exc.message = f"{path}: {exc.message}"
                raise
            # Reading a newer file is safe; what it holds in a newer form is left out, and
            # a view says so (``lenient``).
            self.newer = exc.needed
        except sqlite3.Error as exc:
            raise explain(exc, path) from None

    @classmethod
    def open(cls, *, write: bool = True) -> Store:
        """The home's database; ``write=False`` for commands that only read (works read-only)."""
        from studybot.storage.home import home

        return cls(home() / DB_NAME, write=write)

    @staticmethod
    def exists() -> bool:
        """Whether the home has a database yet (nothing is created to find out)."""
        from studybot.storage.home import home

        return (home() / DB_NAME).is_file()

    def close(self) -> None:
        self.db.close()

    # -- sessions ---------------------------------------------------------

    def new_session(
        self,
        *,
        bank: str,
        bank_title: str,
        first_question: int,
        last_question: int,
        provider: str,
        model: str,
        base_url: str,
        wire_api: str,
        settings: dict[str, Any],
        prefix: str,
        segments: Iterable[tuple[int, ...]],
        summary_in: str | None = None,
        mode: str = "read",
        selection: dict[str, Any] | None = None,
    ) -> int:
        """Create a session with its segments in one transaction; returns its id.

        ``selection`` is what the user chose (a range unless said otherwise).
        """
        chosen = selection or {"kind": "range", "from": first_question, "to": last_question}
        parts = list(segments)
        with writing(self.db):
            prefix_sha = self.remember_prefix(prefix)
            table = self.db.table("sessions").insert(
                {
                    "bank": bank,
                    "bank_title": bank_title,
                    "first_question": first_question,
                    "last_question": last_question,
                    "total": sum(len(p) for p in parts),
                    "provider": provider,
                    "model": model,
                    "base_url": base_url,
                    "wire_api": wire_api,
                    "settings": json.dumps(settings, sort_keys=True),
                    "prefix_sha256": prefix_sha,
                    "created": now(),
                    "mode": mode,
                    "selection": json.dumps(chosen, ensure_ascii=False, sort_keys=True),
                }
            )
            session_id = int(table.last_pk)
            self.db.table("segments").insert_all(
                {
                    "session_id": session_id,
                    "idx": index,
                    "question_ids": json.dumps(list(ids)),
                    "summary_in": summary_in if index == 0 else None,
                    "summary_out": None,
                }
                for index, ids in enumerate(parts)
            )
        return session_id

    def update_channel(
        self, session_id: int, channel: dict[str, str], settings: dict[str, Any]
    ) -> None:
        """A resume continues with another provider, model or URL: record it on the session."""
        row = {**channel, "settings": json.dumps(settings, sort_keys=True)}
        with writing(self.db):
            self.db.table("sessions").update(session_id, row)

    def remember_prefix(self, prefix: str) -> str:
        digest = sha256(prefix)
        with writing(self.db):
            self.db.table("prefixes").insert({"sha256": digest, "text": prefix}, ignore=True)
        return digest

    def prefix_text(self, digest: str) -> str | None:
        rows = list(self.db.query("select text from prefixes where sha256 = ?", [digest]))
        return rows[0]["text"] if rows else None

    _SESSION_SQL = """
        select s.*, p.text as prefix,
          (select count(*) from turns t where t.session_id = s.id) as answered,
          (select count(*) from segments g
             where g.session_id = s.id and g.summary_out is null
               and g.idx < (select max(idx) from segments l where l.session_id = s.id)
          ) as summaries_pending,
          (select count(*) from grades r where r.session_id = s.id and not exists
             (select 1 from reviews v
                where v.session_id = s.id and v.question_id = r.question_id)
          ) as unrated,
          (select count(*) from turns t where t.session_id = s.id and s.mode = 'interview'
             and not exists (select 1 from interview_answers a where a.session_id = s.id
               and a.question_id = t.question_id and a.finished = 1)
          ) as interviewing
        from sessions s join prefixes p on p.sha256 = s.prefix_sha256
    """

    def _session_sql(self) -> str:
        """The query of sessions; a file whose interview answers are not where this studybot
        keeps them (a newer one's) counts no interview question as open."""
        if self.db.memory or self.db.table("interview_answers").exists():
            return self._SESSION_SQL
        start = self._SESSION_SQL.index(
            "(select count(*) from turns t where t.session_id = s.id and s.mode"
        )
        end = self._SESSION_SQL.index(") as interviewing")
        return self._SESSION_SQL[:start] + "0" + self._SESSION_SQL[end + 1 :]

    def _session(self, row: dict[str, Any]) -> SessionRecord:
        row = dict(row)
        row["settings"] = json.loads(row["settings"] or "{}")
        row["selection"] = json.loads(row.get("selection") or "{}")
        row.pop("prefix_sha256", None)
        return SessionRecord(**row)

    def session(self, session_id: int | str) -> SessionRecord:
        try:
            number = int(session_id)
        except (TypeError, ValueError):
            number = -1
        rows = list(self.db.query(self._session_sql() + " where s.id = ?", [number]))
        if not rows:
            raise SessionNotFound(
                f"no session {session_id!s}",
                hint="`studybot sessions` lists the sessions you have",
            )
        return self._session(rows[0])

    def sessions(self) -> list[SessionRecord]:
        """Every session, newest first."""
        rows = self.db.query(self._session_sql() + " order by s.id desc")
        return [self._session(row) for row in rows]

    def latest_unfinished(self) -> SessionRecord | None:
        return next((s for s in self.sessions() if not s.complete), None)

    # -- segments and turns ----------------------------------------------

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

    # -- one session, read once -----------------------------------------------

    def view(self, session_id: int | str) -> SessionView:
        """Everything stored about a session, in one value (``show``, ``export``, ``cache``)."""
        record = self.session(session_id)
        turns = tuple(self.turns(record.id))
        digests = {t.prefix_sha256 for t in turns if t.prefix_sha256}
        prefixes = {d: text for d in digests if (text := self.prefix_text(d)) is not None}
        unread: list[str] = []  # what a newer studybot wrote in a form this one cannot read
        return SessionView(
            record=record,
            segments=tuple(self.segments(record.id)),
            turns=turns,
            followups=tuple(self.followups(record.id)),
            grades=self.grades(record.id, unread),
            reviews=self.session_reviews(record.id),
            prefixes=prefixes,
            interview=self.interview_answers(record.id, unread),
            probes=tuple(self.probes(record.id, unread)),
            unread=tuple(unread),
            newer=self.newer,
        )


def _discarded(row: Any) -> Discarded:
    """A row's thrown-away requests (a row, or its column's value); none where unreadable."""
    stored = row.get("discarded") if isinstance(row, dict) else row
    try:
        return lenient.discarded(stored)
    except lenient.Unreadable:
        return NONE_DISCARDED
