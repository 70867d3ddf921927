"""The provider contract: what a provider is asked, and what it answers.

This module imports nothing from studybot, so the store, the token counter
and every provider can share these types without an import cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from studybot.bank import Question

Messages = list[dict[str, str]]
TextSink = Callable[[str], None]


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


class Provider(Protocol):
    name: str  # "offline" or "openai-compat"
    model: str

    def warm(self, requests: Iterable[tuple[Messages, str | None]]) -> None:
        """See the (request, reply) pairs a resumed session sent before this process."""

    def complete(
        self, messages: Messages, *, question: Question, on_text: TextSink | None = None
    ) -> Reply: ...

    def summarise(self, messages: Messages, *, questions: Sequence[Question]) -> Reply: ...

    def follow_up(
        self,
        messages: Messages,
        *,
        question: Question,
        text: str,
        on_text: TextSink | None = None,
    ) -> Reply: ...
