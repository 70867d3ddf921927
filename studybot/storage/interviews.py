"""A mock interview's rows: each answer with its time, each probe (追问) with its answer.

A part of ``Store``, like ``attempts``: rows read and written here, meaning decided elsewhere.
Each row is committed before the next request goes out.
"""

from __future__ import annotations

from dataclasses import asdict, fields
from typing import TYPE_CHECKING

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

    def interview_answers(self, session_id: int) -> dict[int, InterviewAnswer]:
        rows = self.db.query("select * from interview_answers where session_id = ?", [session_id])
        return {row["question_id"]: _made(InterviewAnswer, row) for row in rows}

    def record_probe(self, probe: ProbeRecord) -> None:
        """Save a probe when it is asked, and again (replaced) when it is answered."""
        row = asdict(probe) | {"created": probe.created or now()}
        with writing(self.db):
            self.db.table("probes").insert(row, replace=True)

    def probes(self, session_id: int) -> list[ProbeRecord]:
        rows = self.db.query(
            "select * from probes where session_id = ? order by question_id, n", [session_id]
        )
        return [_made(ProbeRecord, row) for row in rows]


def _made(cls, row: dict):
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in row.items() if k in names})
