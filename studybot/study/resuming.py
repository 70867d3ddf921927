"""The rules of resuming: which session, with which settings, and what is left.

``study.opening.reopen`` applies them; the CLI only parses the flags and
prints what these functions decide.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from studybot.bank import Bank, Question
from studybot.channel import config
from studybot.channel.config import Settings
from studybot.channel.providers.base import Provider
from studybot.errors import BadInput, ConfigError
from studybot.storage.store import SessionRecord, Store, sha256

# Flags that name a channel: given to the resume of an offline session, they mean "go live".
CHANNEL_FLAGS = {"base_url", "model", "wire_api", "provider"}


def pick(store: Store, session_id: int | str | None) -> SessionRecord:
    """The named session, or the newest unfinished one; BadInput when there is nothing to resume."""
    if session_id is None:
        record = store.latest_unfinished()
        if record is None:
            raise BadInput(
                "there is no unfinished session", hint="start one: studybot run --from 1 --to 8"
            )
        return record
    record = store.session(session_id)
    if record.complete:
        raise BadInput(
            f"session {record.id} is already complete",
            hint=f"see it with: studybot show {record.id}",
        )
    return record


def settings_for(
    record: SessionRecord, overrides: dict[str, Any], waiting_for_live: bool = False
) -> Settings:
    """The session's own channel, unless a flag in ``overrides`` says otherwise.

    An offline session stays offline, unless channel flags are given or it has
    questions offline could not answer (``waiting_for_live``): then a configured
    key answers them (config's own rule: live when a key is set). A live one
    needs its key again.
    """
    given = config.flag_settings(overrides)
    going_live = not record.live and (waiting_for_live or bool(CHANNEL_FLAGS & set(given)))
    settings = config.load(given) if going_live else config.recorded_settings(record, given)
    if not record.live and not going_live and "offline" not in given:
        # Offline because the session was, not because of an --offline never typed.
        why = "no key" if settings.api_key() is None else f"session {record.id} was offline"
        settings = replace(settings, sources={**settings.sources, "offline": why})
    if record.live and not settings.live and not settings.offline:
        raise ConfigError(
            f"session {record.id} was answered by {record.model}, but {settings.env_key} is not set",
            hint=f"export {settings.env_key}=... to resume it live, or add --offline to finish from the answer key",
        )
    return settings


def bank_ref(record: SessionRecord) -> str | None:
    """What to pass to ``bank.load`` for this session's bank (None: the shipped one)."""
    return None if record.bank == "default" else record.bank


def unanswered(store: Store, record: SessionRecord) -> tuple[int, ...]:
    """The session's questions without an answer, in the order they were planned."""
    answered = {t.question_id for t in store.turns(record.id)}
    return tuple(q for s in store.segments(record.id) for q in s.question_ids if q not in answered)


def rest_command(store: Store, record: SessionRecord, segment_max: int = 4) -> str:
    """A command that studies what an overflow left, in smaller segments.

    ``resume`` would keep the segment that overflowed, so the rest needs a new, finer cut.
    """
    rest = unanswered(store, record)
    if rest and list(rest) == list(range(rest[0], rest[0] + len(rest))):
        chosen = f"--from {rest[0]} --to {rest[-1]}"
    elif rest:
        chosen = "--ids " + ",".join(str(q) for q in rest)
    else:
        chosen = f"--from {record.last_question} --to {record.last_question}"
    bank = f" --bank {record.bank}" if record.bank != "default" else ""
    quiz = " --quiz" if record.mode != "read" else ""
    # --segment-min too: the default minimum (5) is above the smaller maximum.
    return f"studybot run {chosen}{bank}{quiz} --segment-min 1 --segment-max {segment_max}"


def unanswered_offline(store: Store, record: SessionRecord) -> list[int]:
    """The session's unanswered questions that the offline provider cannot answer.

    Offline, a question with neither a reference answer nor key points is not
    recorded as a turn: the session stays resumable, and a live resume answers it.
    """
    from studybot import bank as banks
    from studybot.bank.key import has_answer

    loaded = banks.load(bank_ref(record))
    present = {q.id: q for q in loaded.questions}  # a question that left the bank is not waiting
    return [q for q in unanswered(store, record) if q in present and not has_answer(present[q])]


# -- faithful resumes --------------------------------------------------------

DIGEST_CHARS = 16  # hex characters kept of each question's sha256


def question_digests(questions: Sequence[Question]) -> dict[str, str]:
    """Per question, a digest of what was asked and what the answer key said."""
    return {
        str(q.id): sha256(json.dumps([q.question, list(q.key_points)], ensure_ascii=False))[
            :DIGEST_CHARS
        ]
        for q in questions
    }


def changed_questions(record: SessionRecord, bank: Bank) -> tuple[list[int], list[int]]:
    """(edited, removed): questions of the session whose bank entry differs from the start."""
    before = record.settings.get("question_digests") or {}
    present = {str(q.id): q for q in bank.questions}
    removed = sorted(int(k) for k in before if k not in present)
    now = question_digests([present[k] for k in before if k in present])
    edited = sorted(int(k) for k, digest in now.items() if before[k] != digest)
    return edited, removed


def record_channel(
    store: Store, record: SessionRecord, provider: Provider, settings: Settings
) -> SessionRecord:
    """Record on the session the channel a resume continues with, when it differs.

    The columns say who answers from now on (``show`` reads them); the
    ``resumed`` list in the settings keeps each switch with the question it starts at.
    """
    channel = {
        "provider": provider.name,
        "model": provider.model,
        "base_url": settings.base_url if provider.live else "",
        "wire_api": settings.wire_api,
    }
    before = {k: getattr(record, k) for k in channel}
    if channel == before:
        return record
    rest = unanswered(store, record)
    switch = {**channel, "from_question": rest[0] if rest else None, "before": before}
    kept = dict(record.settings)
    kept["resumed"] = [*kept.get("resumed", []), switch]
    store.update_channel(record.id, channel, kept)
    return store.session(record.id)
