"""Schema changes, applied in order and recorded in ``_migrations``.

Append new functions at the end; never edit one that has shipped.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from studybot import __version__
from studybot.errors import StudybotError
from studybot.storage.dbfile import writing

if TYPE_CHECKING:  # sqlite_utils (and the numpy it imports) loads when a store opens
    from sqlite_utils import Database

Migration = Callable[["Database"], None]
MIGRATIONS: list[Migration] = []


def migration(fn: Migration) -> Migration:
    MIGRATIONS.append(fn)
    return fn


def apply(db: Database, *, write: bool = True) -> list[str]:
    """Run every migration not yet recorded; returns the names applied now.

    Two processes may open a fresh home at once: the pending list is read
    again under the write lock, so each migration runs exactly once. A
    database that records migrations this studybot does not know comes from
    a newer version: writing to it could break that version's data.
    """
    if not _pending(db, write):
        return []
    applied = []
    with writing(db):
        db.table("_migrations").create(
            {"name": str, "applied_at": str}, pk="name", if_not_exists=True
        )
        done = _done(db)
        for fn in MIGRATIONS:
            if fn.__name__ in done:
                continue
            fn(db)
            row = {
                "name": fn.__name__,
                "applied_at": datetime.now(UTC).isoformat(timespec="seconds"),
            }
            if "studybot_version" in db.table("_migrations").columns_dict:
                row["studybot_version"] = __version__
            db.table("_migrations").insert(row)
            applied.append(fn.__name__)
    return applied


def _done(db: Database) -> set[str]:
    return {row["name"] for row in db.query("select name from _migrations")}


def _pending(db: Database, write: bool) -> bool:
    """Whether migrations are due; raises NewerDatabase before a write to a newer file."""
    if not db.table("_migrations").exists():
        return write
    done = _done(db)
    unknown = done - {fn.__name__ for fn in MIGRATIONS}
    if unknown and write:
        raise NewerDatabase(unknown, _versions(db, unknown))
    return write and not unknown and len(done) < len(MIGRATIONS)


def _versions(db: Database, names: set[str]) -> list[str]:
    if "studybot_version" not in db.table("_migrations").columns_dict:
        return []
    rows = db.query("select name, studybot_version from _migrations")
    return sorted(
        {r["studybot_version"] for r in rows if r["name"] in names and r["studybot_version"]}
    )


class NewerDatabase(StudybotError):
    """The database was written by a newer studybot; this one refuses to write to it."""

    def __init__(self, unknown: set[str], versions: list[str]) -> None:
        needed = f"studybot {versions[-1]} or newer" if versions else "a newer studybot"
        self.needed = needed
        super().__init__(
            f"the session database was written by {needed} (unknown migrations: "
            f"{', '.join(sorted(unknown))}); studybot {__version__} will not write to it",
            hint=f"upgrade to {needed}, or set STUDYBOT_HOME to another folder; "
            "sessions, show and export can still read it",
        )


@migration
def m001_sessions_segments_turns(db: Database) -> None:
    db.table("prefixes").create({"sha256": str, "text": str}, pk="sha256")
    db.table("sessions").create(
        {
            "id": int,
            "bank": str,  # bank name or path, as given to --bank
            "bank_title": str,
            "first_question": int,
            "last_question": int,
            "total": int,
            "provider": str,  # "offline" or "openai-compat"
            "model": str,
            "base_url": str,
            "wire_api": str,
            "settings": str,  # JSON: the settings a resume must reuse (never a key)
            "prefix_sha256": str,
            "created": str,
        },
        pk="id",
        foreign_keys=[("prefix_sha256", "prefixes", "sha256")],
    )
    db.table("segments").create(
        {
            "session_id": int,
            "idx": int,
            "question_ids": str,  # JSON list
            "summary_in": str,
            "summary_out": str,
        },
        pk=("session_id", "idx"),
        foreign_keys=[("session_id", "sessions", "id")],
    )
    db.table("turns").create(
        {
            "session_id": int,
            "segment": int,
            "question_id": int,
            "question": str,
            "answer": str,
            "prompt_tokens": int,  # the provider's figure when it reported one
            "completion_tokens": int,
            "cached_tokens": int,
            "context_tokens": int,  # n = prompt + completion
            "local_prompt_tokens": int,  # studybot's own count of the same request
            "local_completion_tokens": int,
            "usage_source": str,  # "provider" or "local"
            "kv_bytes": int,
            "latency_ms": float,
            "finish_reason": str,
            "prefix_sha256": str,
            "created": str,
        },
        pk=("session_id", "question_id"),
        foreign_keys=[("session_id", "sessions", "id")],
        not_null={"answer", "prompt_tokens", "completion_tokens", "context_tokens"},
    )
    db.table("followups").create(
        {
            "id": int,
            "session_id": int,
            "question_id": int,
            "question": str,
            "answer": str,
            "prompt_tokens": int,
            "completion_tokens": int,
            "cached_tokens": int,
            "latency_ms": float,
            "created": str,
        },
        pk="id",
        foreign_keys=[("session_id", "sessions", "id")],
    )
    db.table("followups").create_index(["session_id", "question_id"])


@migration
def m002_summary_usage(db: Database) -> None:
    """Summary requests cost tokens too; keep their usage beside the summary."""
    for column in ("summary_prompt_tokens", "summary_completion_tokens", "summary_cached_tokens"):
        db.table("segments").add_column(column, int)


@migration
def m003_cards_and_reviews(db: Database) -> None:
    """FSRS cards, one per (bank, question), and the log of every rating given."""
    db.table("cards").create(
        {
            "bank": str,  # the session's bank key ("default" for the shipped bank)
            "question_id": int,
            "card": str,  # JSON: fsrs Card.to_dict() after the latest review
            "due": str,  # ISO-8601 UTC, seconds; compared as text
            "state": str,  # "learning", "review" or "relearning"
            "last_rating": int,  # 1 Again, 2 Hard, 3 Good, 4 Easy
            "reviews": int,
        },
        pk=("bank", "question_id"),
        not_null={"card", "due", "state", "last_rating", "reviews"},
    )
    db.table("cards").create_index(["bank", "due"])
    db.table("reviews").create(
        {
            "id": int,
            "bank": str,
            "question_id": int,
            "reviewed_at": str,  # ISO-8601 UTC
            "rating": int,
            "grade": float,  # covered / total key points, 0-1; null when not graded
            "attempt": str,  # what the user typed before the reveal; null in read mode
            "session_id": int,  # with question_id, the turn this rating belongs to
            "card": str,  # JSON: the card after this review
        },
        pk="id",
        foreign_keys=[("session_id", "sessions", "id")],
        not_null={"bank", "question_id", "reviewed_at", "rating", "card"},
    )
    db.table("reviews").create_index(["bank", "question_id"])
    db.table("reviews").create_index(["session_id", "question_id"])


@migration
def m004_session_mode_and_grades(db: Database) -> None:
    """Quiz and review sessions: the session's mode, and each graded attempt with its cost."""
    db.table("sessions").add_column("mode", str, not_null_default="read")
    db.table("grades").create(
        {
            "session_id": int,
            "question_id": int,
            "attempt": str,  # what the user typed before the reveal ("" = think, then reveal)
            "score": float,  # covered / total key points, 0-1; null when nothing to grade against
            "points": str,  # JSON list of {"point", "covered"}
            "advice": str,
            "source": str,  # "live", "offline", or "offline-fallback" (live JSON was malformed)
            "prompt_tokens": int,  # the grading side request(s); 0 offline
            "completion_tokens": int,
            "cached_tokens": int,
            "requests": int,  # side requests sent (a malformed reply is retried once)
            "created": str,
        },
        pk=("session_id", "question_id"),
        foreign_keys=[("session_id", "sessions", "id")],
    )


@migration
def m006_turn_flags(db: Database) -> None:
    """Answers cut by the token limit or empty are kept, flagged; and so is usage that cannot be right."""
    db.table("turns").add_column("answer_flag", str)  # None, "truncated" or "empty"
    # usage_suspect 1: reported usage disagreed with the local count
    db.table("turns").add_column("usage_suspect", int)
    # so a newer file can say what it needs
    db.table("_migrations").add_column("studybot_version", str)


@migration
def m007_grade_states(db: Database) -> None:
    """Grades keep each point's state and evidence, and the grader's estimate beside the confirmed marks."""
    # points: JSON list of {"point", "state", "covered", "evidence"} (state: covered, partly,
    # missed or contradicted); estimate: the same for what the grader said, null if unchanged.
    db.table("grades").add_column("estimate", str)
    db.table("grades").add_column("estimate_score", float)


@migration
def m008_session_selection(db: Database) -> None:
    """What a session chose (a range, chapters, tags, ids, the weakest, the due), as JSON.

    Sessions from before were started with a range or by ``review``; one
    whose questions are not the whole range it spans is told by its ids.
    """
    db.table("sessions").add_column("selection", str)
    for row in list(db.query("select id, first_question, last_question, mode from sessions")):
        planned = [
            q
            for segment in db.query(
                "select question_ids from segments where session_id = ? order by idx", [row["id"]]
            )
            for q in json.loads(segment["question_ids"])
        ]
        first, last = row["first_question"], row["last_question"]
        if row["mode"] == "review":
            chosen: dict = {"kind": "review"}
        elif planned == list(range(first, last + 1)):
            chosen = {"kind": "range", "from": first, "to": last}
        else:
            chosen = {"kind": "ids", "ids": planned}
        db.table("sessions").update(row["id"], {"selection": json.dumps(chosen)})


@migration
def m009_attempt_drafts(db: Database) -> None:
    """A quiz attempt typed but not yet sent (Ctrl-C while typing), offered again on resume."""
    db.table("drafts").create(
        {"session_id": int, "question_id": int, "text": str, "saved_at": str},
        pk=("session_id", "question_id"),
        foreign_keys=[("session_id", "sessions", "id")],
    )


@migration
def m010_interviews(db: Database) -> None:
    """A mock interview's answers (with the time each took) and its probes (追问), one row each."""
    db.table("interview_answers").create(
        {
            "session_id": int,
            "question_id": int,
            "chapter": int,
            "chapter_title": str,
            "attempt": str,
            "seconds": float,  # from the question shown to the answer sent
            "finished": int,  # 1: every probe asked and answered (the question is done)
            "created": str,
        },
        pk=("session_id", "question_id"),
        foreign_keys=[("session_id", "sessions", "id")],
    )
    db.table("probes").create(
        {
            "session_id": int,
            "question_id": int,
            "n": int,  # 1, 2, ... in the order asked
            "point": int,  # the key point it aims at, 1-based
            "state_before": str,
            "question": str,
            "source": str,  # "rubric" (made offline) or "model" (a side request)
            "answer": str,  # null until the learner answered it
            "seconds": float,
            "state_after": str,
            "prompt_tokens": int,  # the probe's side request (0 for a rubric probe)
            "completion_tokens": int,
            "cached_tokens": int,
            "grade_prompt_tokens": int,  # the grading side request of its answer (live)
            "grade_completion_tokens": int,
            "grade_cached_tokens": int,
            "latency_ms": float,
            "created": str,
        },
        pk=("session_id", "question_id", "n"),
        foreign_keys=[("session_id", "sessions", "id")],
    )


# (table, column) m011 adds: what each kept row's thrown-away requests cost.
DISCARDED_COLUMNS = (
    ("turns", "discarded"),
    ("followups", "discarded"),
    ("grades", "discarded"),
    ("segments", "summary_discarded"),
    ("probes", "discarded"),
    ("probes", "grade_discarded"),
)


@migration
def m011_discarded_requests(db: Database) -> None:
    """Requests sent and thrown away (cut and asked again, failed and retried) count too.

    Each column is JSON ``{"requests", "prompt_tokens", "completion_tokens",
    "cached_tokens", "estimated"}`` beside the kept request's figures, null
    when nothing was thrown away (and in every row from before).
    """
    for table, column in DISCARDED_COLUMNS:
        db.table(table).add_column(column, str)
