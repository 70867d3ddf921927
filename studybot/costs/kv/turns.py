"""KV figures of a study session: each turn's cache, the peak, and the alternative.

The alternative is one long chat over the same questions: its last request
would carry the prefix and every question and answer of the session, so
its context n is the sum of the whole history rather than one segment's
(``studybot.study.recorded.session_kv`` counts it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from studybot.costs.kv.estimate import kv_bytes
from studybot.costs.kv.shapes import DEFAULT_MODEL, find


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
    return session_settings.get("kv_model") or DEFAULT_MODEL


def turn_kv_bytes(model: str, context_tokens: int) -> int | None:
    """The KV cache one request of ``context_tokens`` holds; None for an unknown preset.

    A session whose preset has since disappeared must still record its
    turns, so this never raises.
    """
    shape = find(model)
    return kv_bytes(shape, context_tokens) if shape else None
