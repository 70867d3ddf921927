"""The session database: SQLite through sqlite-utils, one file under STUDYBOT_HOME.

Each turn is committed before the next request goes out, so a crash loses
at most the turn in flight. The file is created 0600 and never holds a key.
Here: opening the file, sessions and a session's view; ``Store`` takes the
rest from its parts (``segments``, ``attempts``, ``interviews``, ``reviews``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from studybot.errors import SessionNotFound
from studybot.storage import migrations
from studybot.storage.attempts import Attempts
from studybot.storage.dbfile import connect, enable_wal, explain, writable, writing
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
from studybot.storage.segments import Segments

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


class Store(Segments, Attempts, Interviews, ReviewLog):
    """The session database: every table, read and written through these methods."""

    def __init__(self, path: Path, *, write: bool = True) -> None:
        self.path = path
        self.newer: str | None = None  # "studybot 0.9.0 or newer": the file is a newer one's
        try:
            can_write = write or writable(path)
            self.writable = can_write  # False on a read-only home: readers still work
            self.db = connect(path, write=can_write)
            if can_write:
                enable_wal(self.db)
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
            inserted = table.last_pk
            assert inserted is not None  # the row just inserted has its key
            session_id = int(inserted)
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

    # A question of session s is done (j.value: its id, from its segment's list): an
    # interview's when its answer and probes are all in ({finished}), the others' when it
    # is answered and, if graded, rated.
    _DONE = """(case when s.mode = 'interview' then {finished}
          else exists (select 1 from turns t where t.session_id = s.id and t.question_id = j.value)
            and not exists (select 1 from grades r where r.session_id = s.id
              and r.question_id = j.value and not exists (select 1 from reviews v
                where v.session_id = s.id and v.question_id = r.question_id))
          end)"""
    _FINISHED = """exists (select 1 from interview_answers a where a.session_id = s.id
          and a.question_id = j.value and a.finished = 1)"""
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
          {interviewing} as interviewing,
          (select count(*) from segments g, json_each(g.question_ids) j
             where g.session_id = s.id and {done}) as done,
          (select j.value from segments g, json_each(g.question_ids) j
             where g.session_id = s.id and not {done}
             order by g.idx, cast(j.key as integer) limit 1) as stopped_at
        from sessions s join prefixes p on p.sha256 = s.prefix_sha256
    """
    _INTERVIEWING = """(select count(*) from turns t where t.session_id = s.id
          and s.mode = 'interview' and not exists (select 1 from interview_answers a
            where a.session_id = s.id and a.question_id = t.question_id and a.finished = 1))"""

    def _session_sql(self) -> str:
        """The query of sessions; a file whose interview answers are not where this studybot
        keeps them (a newer one's) counts no interview question as open, and an asked one
        as done."""
        if self.db.memory or self.db.table("interview_answers").exists():
            finished, interviewing = self._FINISHED, self._INTERVIEWING
        else:
            finished = "exists (select 1 from turns t where t.session_id = s.id "
            finished += "and t.question_id = j.value)"
            interviewing = "0"
        done = self._DONE.format(finished=finished)
        return self._SESSION_SQL.format(interviewing=interviewing, done=done)

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
