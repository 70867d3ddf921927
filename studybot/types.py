"""The values every stage passes along: a request's messages, a reply, its token usage.

This module imports nothing from studybot, so storage, costs, providers and
the study loop can all share these types without importing one another.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

Messages = list[dict[str, str]]  # one request: a list of {role, content} messages
TextSink = Callable[[str], None]  # receives an answer's text as it streams in
Notify = Callable[[str], None]  # receives a one-line notice (a retry, a wait) for the user
# Called when the text streamed to a TextSink since its request went out is dropped: that
# attempt was abandoned (cut, or dropped) and the request goes again; a notice follows.
Discard = Callable[[], None]


@dataclass(frozen=True)
class Usage:
    """Tokens of one request: a provider's report, or studybot's own count."""

    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int = 0


@dataclass(frozen=True)
class Reply:
    text: str
    usage: Usage | None = None  # as reported by the provider; None when it reported nothing
    finish_reason: str | None = "stop"  # "length" when the token limit cut the answer

    @property
    def flag(self) -> str | None:
        """Why the answer is not whole: "empty", "truncated" (the token limit), or None."""
        if not self.text.strip():
            return "empty"
        if self.finish_reason == "length":
            return "truncated"
        return None
