"""The learner's attempts: each graded attempt (the confirmed marks and the estimate) and drafts.

A part of ``Store``, like ``reviews``: rows read and written here, meaning decided elsewhere.
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields
from typing import TYPE_CHECKING

from studybot.storage.dbfile import writing
from studybot.storage.records import GradeRecord, PointMark, now

if TYPE_CHECKING:  # sqlite_utils (and the numpy it imports) loads when a store opens
    from sqlite_utils import Database


class Attempts:
    """Grades and drafts of quiz attempts."""

    db: Database

    def record_grade(self, grade: GradeRecord) -> None:
        """Save (or replace) a question's graded attempt in a session."""
        row = asdict(grade)
        row["points"] = _marks_json(grade.points)
        row["estimate"] = _marks_json(grade.estimate) if grade.estimate else None
        row["created"] = grade.created or now()
        with writing(self.db):
            self.db.table("grades").insert(row, replace=True)

    def grades(self, session_id: int) -> dict[int, GradeRecord]:
        """The session's graded attempts by question id."""
        rows = self.db.query("select * from grades where session_id = ?", [session_id])
        out = {}
        for row in rows:
            row = dict(row)
            row["points"] = _marks(row["points"])
            row["estimate"] = _marks(row.get("estimate"))
            names = {f.name for f in fields(GradeRecord)}
            out[row["question_id"]] = GradeRecord(**{k: v for k, v in row.items() if k in names})
        return out

    def save_draft(self, session_id: int, question_id: int, text: str) -> None:
        """Keep an attempt that was being typed when the session stopped."""
        row = {"session_id": session_id, "question_id": question_id, "text": text}
        with writing(self.db):
            self.db.table("drafts").insert(row | {"saved_at": now()}, replace=True)

    def draft(self, session_id: int, question_id: int) -> str | None:
        rows = self.db.query(
            "select text from drafts where session_id = ? and question_id = ?",
            [session_id, question_id],
        )
        return next((row["text"] for row in rows), None)

    def drop_draft(self, session_id: int, question_id: int) -> None:
        """The attempt was sent: its draft is no longer needed."""
        with writing(self.db):
            self.db.execute(
                "delete from drafts where session_id = ? and question_id = ?",
                [session_id, question_id],
            )


def _marks_json(marks: tuple[PointMark, ...]) -> str:
    return json.dumps(
        [
            {"point": m.point, "state": m.state, "covered": m.covered, "evidence": m.evidence}
            for m in marks
        ],
        ensure_ascii=False,
    )


def _marks(text: str | None) -> tuple[PointMark, ...]:
    """Stored marks; rows from before states were kept say only covered or not."""
    if not text:
        return ()
    return tuple(
        PointMark(
            m["point"],
            m.get("state") or ("covered" if m.get("covered") else "missed"),
            m.get("evidence"),
        )
        for m in json.loads(text)
    )
