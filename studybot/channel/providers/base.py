"""The provider contract: everything studybot asks of a model, offline or live.

Every caller talks to a provider only through this protocol and asks the
object what it is (``live``), never its name. Two requests are side
requests a provider may decline by answering None: ``grade`` (the caller
then grades with the local estimate) and ``probe`` (the caller then makes
its follow-up question from the rubric). Notices a provider has for the
user (a retry, a wait) go to ``notify``, which the study loop connects to
its Listener. When an answer already streamed to ``on_text`` is abandoned
and asked again, the provider calls ``discard`` first, then notifies why:
whoever drew that text takes it back, so only the kept reply stays.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from studybot.types import Discard, Messages, Notify, Reply, TextSink

if TYPE_CHECKING:
    from studybot.bank import Question


def quiet(line: str) -> None:
    """The notify of a provider nobody listens to."""


def kept() -> None:
    """The discard of a provider whose streamed text nobody draws."""


class Provider(Protocol):
    name: str  # "offline" or "openai-compat": shown and stored, never compared
    model: str
    live: bool  # a real model answers (False: the bank's answer key)
    notify: Notify
    discard: Discard  # the text streamed so far is dropped; a notice follows

    def warm(self, requests: Iterable[tuple[Messages, str | None]]) -> None:
        """See the (request, reply) pairs a resumed session sent before this process."""

    def answer(
        self, messages: Messages, *, question: Question, on_text: TextSink | None = None
    ) -> Reply:
        """The answer to ``question``, the last message of ``messages``."""
        ...

    def pose(
        self, messages: Messages, *, question: Question, on_text: TextSink | None = None
    ) -> Reply:
        """An interviewer putting ``question`` (the last message of ``messages``) to the learner."""
        ...

    def follow_up(
        self,
        messages: Messages,
        *,
        question: Question,
        text: str,
        on_text: TextSink | None = None,
    ) -> Reply:
        """The answer to a follow-up ``text`` about ``question`` (a side request)."""
        ...

    def summarise(self, messages: Messages, *, questions: Sequence[Question], lines: int) -> Reply:
        """A summary of at most ``lines`` lines of the segment that asked ``questions``."""
        ...

    def grade(
        self,
        messages: Messages,
        *,
        question: Question,
        schema: Mapping[str, Any] | None = None,
        limit: int | None = None,
    ) -> Reply | None:
        """A JSON judgement of the attempt in the side request ``messages``; None: declined.

        ``schema``: the JSON schema the reply must follow (strict), else any JSON object;
        ``limit``: the most output tokens the reply may take.
        """
        ...

    def probe(self, messages: Messages, *, question: Question) -> Reply | None:
        """An interviewer's follow-up question about an answer to ``question``; None: declined."""
        ...
