"""The provider contract: what a provider is asked, and what it answers.

This module imports nothing from studybot, so the store, the token counter
and every provider can share these types without an import cycle.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

from studybot.types import Messages, Reply, TextSink

if TYPE_CHECKING:
    from studybot.bank import Question


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
