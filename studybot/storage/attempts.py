"""The learner's attempts: each graded attempt (the confirmed marks and the estimate) and drafts.

A part of ``Store``, like ``reviews``: rows read and written here, meaning decided elsewhere.
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields
from typing import TYPE_CHECKING, Any

from studybot.storage import lenient
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
        row["discarded"] = lenient.stored_discarded(grade.discarded)
        with writing(self.db):
            self.db.table("grades").insert(row, replace=True)

    def grades(self, session_id: int, unread: list[str] | None = None) -> dict[int, GradeRecord]:
        """The session's graded attempts by question id; a grade this studybot cannot read
        (a newer one's) is left out, and said in ``unread``."""
        rows = self.db.query("select * from grades where session_id = ?", [session_id])
        out = {}
        for row in rows:
            try:
                grade = _grade(dict(row), unread)
            except lenient.Unreadable as why:
                lenient.note(unread, f"the grade of Q{row.get('question_id')}: {why}")
                continue
            out[grade.question_id] = grade
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


def _grade(row: dict, unread: list[str] | None) -> GradeRecord:
    """A stored grade, each value checked (``lenient``): its marks must be read whole."""
    question = lenient.whole(row.get("question_id"))
    if question is None:
        raise lenient.Unreadable("no question")
    try:
        estimate = lenient.marks(row.get("estimate"))
    except lenient.Unreadable as why:  # the confirmed marks still stand
        lenient.note(unread, f"the grader's estimate of Q{question}: {why}")
        estimate = ()
    score, estimate_score = row.get("score"), row.get("estimate_score")
    try:
        score = lenient.number(score)
    except lenient.Unreadable as why:
        lenient.note(unread, f"the score of Q{question}: {why}")
        score = None
    try:
        estimate_score = lenient.number(estimate_score)
    except lenient.Unreadable:
        estimate_score = None
    values: dict[str, Any] = {
        "session_id": lenient.whole(row.get("session_id")),
        "question_id": question,
        "attempt": lenient.text(row.get("attempt"), ""),
        "score": score,
        "points": lenient.marks(row.get("points")),
        "advice": lenient.text(row.get("advice"), ""),
        "source": lenient.text(row.get("source"), ""),
        "created": lenient.text(row.get("created"), ""),
        "estimate": estimate,
        "estimate_score": estimate_score,
    }
    for name in ("prompt_tokens", "completion_tokens", "cached_tokens", "requests"):
        values[name] = lenient.whole(row.get(name), 0)
    try:
        values["discarded"] = lenient.discarded(row.get("discarded"))
    except lenient.Unreadable as why:  # the grade still stands
        lenient.note(unread, f"the grading requests of Q{question}: {why}")
    names = {f.name for f in fields(GradeRecord)}
    return GradeRecord(**{k: v for k, v in values.items() if k in names})
