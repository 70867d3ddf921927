"""Answers from one model, grades and probes from another (``[grader]`` / ``--grader``).

The main provider answers, poses, follows up and summarises; the grader's
provider takes the two side requests that judge the learner (``grade``,
``probe``). The main thread never sees the grader, so its prefix cache is
untouched; what each side costs is recorded apart (``study.session``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from studybot.channel.providers.base import Provider
from studybot.types import Discard, Messages, Notify, Reply, TextSink

if TYPE_CHECKING:
    from studybot.bank import Question


class WithGrader:
    """A provider whose side requests that judge (grades, probes) go to ``grader``."""

    def __init__(self, main: Provider, grader: Provider) -> None:
        self.main = main
        self.grader = grader
        self.name = main.name
        self.model = main.model
        self.live = main.live

    @property
    def notify(self) -> Notify:
        return self.main.notify

    @notify.setter
    def notify(self, notify: Notify) -> None:
        self.main.notify = notify
        self.grader.notify = notify

    @property
    def discard(self) -> Discard:
        return self.main.discard

    @discard.setter
    def discard(self, discard: Discard) -> None:
        # Only the main provider streams to the screen; it is the one that takes text back.
        self.main.discard = discard

    def warm(self, requests: Iterable[tuple[Messages, str | None]]) -> None:
        self.main.warm(requests)

    def answer(
        self, messages: Messages, *, question: Question, on_text: TextSink | None = None
    ) -> Reply:
        return self.main.answer(messages, question=question, on_text=on_text)

    def pose(
        self, messages: Messages, *, question: Question, on_text: TextSink | None = None
    ) -> Reply:
        return self.main.pose(messages, question=question, on_text=on_text)

    def follow_up(
        self,
        messages: Messages,
        *,
        question: Question,
        text: str,
        on_text: TextSink | None = None,
    ) -> Reply:
        return self.main.follow_up(messages, question=question, text=text, on_text=on_text)

    def summarise(self, messages: Messages, *, questions: Sequence[Question], lines: int) -> Reply:
        return self.main.summarise(messages, questions=questions, lines=lines)

    def grade(
        self,
        messages: Messages,
        *,
        question: Question,
        schema: Mapping[str, Any] | None = None,
        limit: int | None = None,
    ) -> Reply | None:
        return self.grader.grade(messages, question=question, schema=schema, limit=limit)

    def probe(self, messages: Messages, *, question: Question) -> Reply | None:
        return self.grader.probe(messages, question=question)
