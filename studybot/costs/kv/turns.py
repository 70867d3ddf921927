"""KV figures of a study session: each turn's cache, the peak, and the alternative.

The alternative is one long chat over the same questions: its last request
would carry the prefix and every question and answer of the session, so
its context n is the sum of the whole history rather than one segment's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from studybot.bank import Question
from studybot.channel.config import Settings
from studybot.costs import tokens
from studybot.costs.kv.estimate import kv_bytes
from studybot.costs.kv.shapes import find
from studybot.study import prompt


@dataclass(frozen=True)
class SessionKV:
    model: str  # KV preset the figures are for
    peak_tokens: int  # largest context n of any turn
    peak_bytes: int  # KV cache of that turn
    long_tokens: int  # context n of the last request of one long session
    long_bytes: int  # KV cache that request would hold

    @property
    def ratio(self) -> float:
        return self.long_bytes / self.peak_bytes if self.peak_bytes else 0.0


def kv_model(session_settings: Mapping[str, Any]) -> str:
    """The preset a session was started with (sessions keep it in their settings)."""
    return session_settings.get("kv_model") or Settings.kv_model


def turn_kv_bytes(model: str, context_tokens: int) -> int | None:
    """The KV cache one request of ``context_tokens`` holds; None for an unknown preset.

    A session whose preset has since disappeared must still record its
    turns, so this never raises.
    """
    shape = find(model)
    return kv_bytes(shape, context_tokens) if shape else None


def session_kv(
    prefix: str,
    session_settings: Mapping[str, Any],
    turns: Sequence,
    summaries: Sequence = (),
) -> SessionKV | None:
    """Peak KV of ``turns`` and the summary requests against one long session.

    ``summaries`` are the segments' ``SummaryUsage`` records: a summary
    request carries its segment's whole history, so it is often the peak.
    The long session's n is counted locally from lengths (prefix, every
    question and answer, the last answer to come), as no provider ever saw
    that request.
    """
    model = kv_model(session_settings)
    shape = find(model)
    if shape is None or not turns:
        return None
    peak = max(
        [turn.context_tokens for turn in turns]
        + [s.prompt_tokens + s.completion_tokens for s in summaries if s is not None]
    )
    long_tokens = len(tokens.message_ids("system", prefix)) + len(tokens.reply_primer())
    for turn in turns:
        long_tokens += len(tokens.message_ids("user", prompt.question_text(_asked(turn))))
    for turn in turns[:-1]:
        long_tokens += len(tokens.message_ids("assistant", turn.answer))
    long_tokens += turns[-1].local_completion_tokens
    return SessionKV(
        model=model,
        peak_tokens=peak,
        peak_bytes=kv_bytes(shape, peak),
        long_tokens=long_tokens,
        long_bytes=kv_bytes(shape, long_tokens),
    )


def _asked(turn) -> Question:
    return Question(id=turn.question_id, chapter=0, question=turn.question)
