"""A mock interview's rows: each answer with its time, each probe (追问) with its answer.

A part of ``Store``, like ``attempts``: rows read and written here, meaning decided elsewhere.
Each row is committed before the next request goes out.
"""

from __future__ import annotations

import sqlite3
from dataclasses import asdict, fields
from typing import TYPE_CHECKING, Any

from studybot.storage import lenient
from studybot.storage.dbfile import writing
from studybot.storage.records import InterviewAnswer, ProbeRecord, now

if TYPE_CHECKING:  # sqlite_utils (and the numpy it imports) loads when a store opens
    from sqlite_utils import Database


class Interviews:
    """Interview answers and probes."""

    db: Database

    def record_answer(self, answer: InterviewAnswer) -> None:
        """Save (or replace) the learner's answer to an interview question."""
        row = asdict(answer) | {"created": answer.created or now()}
        with writing(self.db):
            self.db.table("interview_answers").insert(row, replace=True)

    def finish_answer(self, session_id: int, question_id: int) -> None:
        """Every probe of the question is asked and answered: it is done."""
        with writing(self.db):
            self.db.table("interview_answers").update((session_id, question_id), {"finished": 1})

    def interview_answers(
        self, session_id: int, unread: list[str] | None = None
    ) -> dict[int, InterviewAnswer]:
        """The session's interview answers by question id; what cannot be read is said in
        ``unread`` (a newer studybot's rows)."""
        rows = _rows(self.db, "interview_answers", session_id, unread, "the interview answers")
        out = {}
        for row in rows:
            try:
                answer = _answer(row, unread)
            except lenient.Unreadable as why:
                lenient.note(unread, f"the interview answer to Q{row.get('question_id')}: {why}")
                continue
            out[answer.question_id] = answer
        return out

    def record_probe(self, probe: ProbeRecord) -> None:
        """Save a probe when it is asked, and again (replaced) when it is answered."""
        row = asdict(probe) | {"created": probe.created or now()}
        row["discarded"] = lenient.stored_discarded(probe.discarded)
        row["grade_discarded"] = lenient.stored_discarded(probe.grade_discarded)
        with writing(self.db):
            self.db.table("probes").insert(row, replace=True)

    def probes(self, session_id: int, unread: list[str] | None = None) -> list[ProbeRecord]:
        """The session's probes by question, in the order asked; what cannot be read is said
        in ``unread`` (a newer studybot's rows)."""
        out = []
        for row in _rows(self.db, "probes", session_id, unread, "the probes (追问)"):
            try:
                out.append(_probe(row, unread))
            except lenient.Unreadable as why:
                lenient.note(unread, f"a probe of Q{row.get('question_id')}: {why}")
        return sorted(out, key=lambda p: (p.question_id, p.n))


def _rows(db: Database, table: str, session_id: int, unread: list[str] | None, what: str):
    """The table's rows of the session; none, said in ``unread``, when it is not where this
    studybot keeps it (a newer one moved or changed it)."""
    try:
        return [
            dict(row)
            for row in db.query(f"select * from {table} where session_id = ?", [session_id])
        ]
    except sqlite3.OperationalError as exc:
        if not lenient.missing_table(exc):
            raise
        lenient.note(unread, f"{what}: {exc}")
        return []


def _answer(row: dict, unread: list[str] | None) -> InterviewAnswer:
    question = lenient.whole(row.get("question_id"))
    if question is None:
        raise lenient.Unreadable("no question")
    try:
        seconds = lenient.number(row.get("seconds"))
    except lenient.Unreadable as why:  # the answer itself still reads
        lenient.note(unread, f"the time of the answer to Q{question}: {why}")
        seconds = None
    return InterviewAnswer(
        session_id=lenient.whole(row.get("session_id"), 0),  # read by session: never none
        question_id=question,
        chapter=lenient.whole(row.get("chapter"), 0),
        chapter_title=lenient.text(row.get("chapter_title"), ""),
        attempt=lenient.text(row.get("attempt"), ""),
        seconds=seconds,
        finished=lenient.whole(row.get("finished"), 0),
        created=lenient.text(row.get("created"), ""),
    )


def _probe(row: dict, unread: list[str] | None) -> ProbeRecord:
    try:
        seconds = lenient.number(row.get("seconds"))
    except lenient.Unreadable as why:  # the probe itself still reads
        lenient.note(unread, f"the time of a probe of Q{row.get('question_id')}: {why}")
        seconds = None
    values: dict[str, Any] = {
        "session_id": lenient.whole(row.get("session_id")),
        "question_id": lenient.whole(row.get("question_id")),
        "n": lenient.whole(row.get("n")),
        "point": lenient.whole(row.get("point")),
        "state_before": lenient.state(row.get("state_before")),
        "question": lenient.text(row.get("question")),
        "source": lenient.text(row.get("source"), ""),
        "answer": lenient.text(row.get("answer")),
        "seconds": seconds,
        "state_after": None
        if row.get("state_after") is None
        else lenient.state(row["state_after"]),
        "latency_ms": lenient.number(row.get("latency_ms")) or 0.0,
        "created": lenient.text(row.get("created"), ""),
    }
    for name in ("question_id", "n", "point", "question"):
        if values[name] is None:
            raise lenient.Unreadable(f"no {name}")
    for name in (
        "prompt_tokens",
        "completion_tokens",
        "cached_tokens",
        "grade_prompt_tokens",
        "grade_completion_tokens",
        "grade_cached_tokens",
    ):
        values[name] = lenient.whole(row.get(name), 0)
    for name in ("discarded", "grade_discarded"):
        try:
            values[name] = lenient.discarded(row.get(name))
        except lenient.Unreadable as why:  # the probe itself still reads
            lenient.note(unread, f"the requests of a probe of Q{values['question_id']}: {why}")
    names = {f.name for f in fields(ProbeRecord)}
    return ProbeRecord(**{k: v for k, v in values.items() if k in names})
