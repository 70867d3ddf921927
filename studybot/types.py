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
class Discarded:
    """Requests sent for one reply and thrown away (cut, empty, failed), their tokens summed.

    The server's usage where it reported one; a request it never reported
    (a stream cut before its usage) is studybot's local count of its prompt
    and of the text that arrived, and ``estimated`` counts it; a request
    refused outright (an HTTP error) is a request with no tokens.
    """

    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    estimated: int = 0  # of ``requests``: counted locally, the server reported no usage

    def add(self, usage: Usage | None, estimated: bool = False) -> Discarded:
        """These requests and one more, with ``usage`` (None: no tokens served)."""
        usage = usage or Usage(0, 0)
        return Discarded(
            self.requests + 1,
            self.prompt_tokens + usage.prompt_tokens,
            self.completion_tokens + usage.completion_tokens,
            self.cached_tokens + usage.cached_tokens,
            self.estimated + estimated,
        )

    def __add__(self, other: Discarded) -> Discarded:
        return Discarded(
            self.requests + other.requests,
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.cached_tokens + other.cached_tokens,
            self.estimated + other.estimated,
        )


NONE_DISCARDED = Discarded()


@dataclass(frozen=True)
class Reply:
    text: str
    usage: Usage | None = None  # as reported by the provider; None when it reported nothing
    finish_reason: str | None = "stop"  # "length" when the token limit cut the answer
    discarded: Discarded = NONE_DISCARDED  # requests sent for this reply before it, thrown away

    @property
    def flag(self) -> str | None:
        """Why the answer is not whole: "empty", "truncated" (the token limit), or None."""
        if not self.text.strip():
            return "empty"
        if self.finish_reason == "length":
            return "truncated"
        return None
