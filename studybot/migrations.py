"""Schema changes, applied in order and recorded in ``_migrations``.

Append new functions at the end; never edit one that has shipped.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from sqlite_utils import Database

Migration = Callable[[Database], None]
MIGRATIONS: list[Migration] = []


def migration(fn: Migration) -> Migration:
    MIGRATIONS.append(fn)
    return fn


def apply(db: Database) -> list[str]:
    """Run every migration not yet recorded; returns the names applied now."""
    db["_migrations"].create({"name": str, "applied_at": str}, pk="name", if_not_exists=True)
    done = {row["name"] for row in db["_migrations"].rows}
    applied = []
    for fn in MIGRATIONS:
        if fn.__name__ in done:
            continue
        with db.atomic():
            fn(db)
            db["_migrations"].insert(
                {"name": fn.__name__, "applied_at": datetime.now(UTC).isoformat(timespec="seconds")}
            )
        applied.append(fn.__name__)
    return applied


@migration
def m001_sessions_segments_turns(db: Database) -> None:
    db["prefixes"].create({"sha256": str, "text": str}, pk="sha256")
    db["sessions"].create(
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
    db["segments"].create(
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
    db["turns"].create(
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
    db["followups"].create(
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
    db["followups"].create_index(["session_id", "question_id"])


@migration
def m002_summary_usage(db: Database) -> None:
    """Summary requests cost tokens too; keep their usage beside the summary."""
    for column in ("summary_prompt_tokens", "summary_completion_tokens", "summary_cached_tokens"):
        db["segments"].add_column(column, int)


@migration
def m003_cards_and_reviews(db: Database) -> None:
    """FSRS cards, one per (bank, question), and the log of every rating given."""
    db["cards"].create(
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
    db["cards"].create_index(["bank", "due"])
    db["reviews"].create(
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
    db["reviews"].create_index(["bank", "question_id"])
    db["reviews"].create_index(["session_id", "question_id"])


@migration
def m004_session_mode_and_grades(db: Database) -> None:
    """Quiz and review sessions: the session's mode, and each graded attempt with its cost."""
    db["sessions"].add_column("mode", str, not_null_default="read")
    db["grades"].create(
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
