"""Answers from the bank's own reference answers and key points, with no network at all.

Usage is counted with the local tokenizer, and cached tokens come from the
cache rule of ``studybot.cache.rules`` that plan and show use (by default
``openai``: no hit below 1024 tokens, hits in 128-token steps). This provider exists so
that every command works on a fresh machine with no key, and it never
pretends to be a model: the run says once that it is offline.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from studybot.bank import Bank, Question
from studybot.bank.key import FOLLOW_UP_NOT_ANSWERED, answer_text, summary_text
from studybot.channel.providers.base import kept, quiet
from studybot.costs import tokens
from studybot.costs.cache.rules import PromptCache
from studybot.types import Messages, Notify, Reply, TextSink, Usage


class OfflineProvider:
    """The bank's answer key as a provider: the embedded default when no key is set."""

    name = "offline"
    model = "answer-key"
    live = False

    def __init__(
        self,
        bank: Bank,
        delay: float = 0.0,
        cache: PromptCache | None = None,
        notify: Notify = quiet,
    ) -> None:
        self.bank = bank
        self.delay = delay
        self.cache = cache  # None: report no cached tokens
        self.notify = notify  # it never has anything to say
        self.discard = kept  # nor asks anything twice

    def warm(self, requests: Iterable[tuple[Messages, str | None]]) -> None:
        """Replay (messages, reply) sent before this process (a resumed session) into the cache."""
        if self.cache is not None:
            for messages, reply in requests:
                self.cache.request(tokens.request_ids(messages), tokens.encode(reply or ""))

    def _reply(self, messages: Messages, text: str, on_text: TextSink | None) -> Reply:
        if self.delay > 0:
            time.sleep(self.delay)
        if on_text is not None:
            on_text(text)
        ids = tokens.request_ids(messages)
        output = tokens.encode(text)  # rules that cache outputs (deepseek) need them
        usage = Usage(
            prompt_tokens=len(ids),
            completion_tokens=len(output),
            cached_tokens=self.cache.request(ids, output) if self.cache is not None else 0,
        )
        return Reply(text=text, usage=usage, finish_reason="stop")

    def answer(
        self, messages: Messages, *, question: Question, on_text: TextSink | None = None
    ) -> Reply:
        return self._reply(messages, answer_text(question), on_text)

    def pose(
        self, messages: Messages, *, question: Question, on_text: TextSink | None = None
    ) -> Reply:
        """The answer key's interviewer asks the bank's question verbatim."""
        return self._reply(messages, question.question, on_text)

    def summarise(self, messages: Messages, *, questions: Sequence[Question], lines: int) -> Reply:
        return self._reply(messages, summary_text(questions, lines=lines), None)

    def grade(
        self,
        messages: Messages,
        *,
        question: Question,
        schema: Mapping[str, Any] | None = None,
        limit: int | None = None,
    ) -> Reply | None:
        """The answer key cannot judge meaning: the caller's local estimate grades."""
        return None

    def probe(self, messages: Messages, *, question: Question) -> Reply | None:
        """The answer key asks no questions: the caller makes them from the rubric."""
        return None

    def follow_up(
        self,
        messages: Messages,
        *,
        question: Question,
        text: str,
        on_text: TextSink | None = None,
    ) -> Reply:
        # Said once: the answer with its key points is already on screen above.
        return self._reply(messages, FOLLOW_UP_NOT_ANSWERED, on_text)
