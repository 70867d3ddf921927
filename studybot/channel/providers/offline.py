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
from studybot.bank.text import clip
from studybot.channel.providers.base import kept, quiet
from studybot.costs import tokens
from studybot.costs.cache.rules import PromptCache
from studybot.types import Messages, Notify, Reply, TextSink, Usage

NO_KEY_ANSWER = (
    "题库没有这道题的参考答案，离线模式无法作答。"
    "设置 TAOTOKEN_API_KEY（或 config.toml 里 env_key 指定的变量）后用在线模型作答。"
)
# The first line of an offline follow-up's reply: it says the follow-up was kept, not answered.
FOLLOW_UP_NOT_ANSWERED = "离线模式不能回答追问，追问已保存；设置 API Key 后可用在线模型重新提问。"
SUMMARY_POINT_CHARS = 24  # per question: a carried summary is re-sent once per segment


def has_answer(question: Question) -> bool:
    """Whether offline can answer ``question``: it has a reference answer or key points."""
    return bool(question.reference or question.key_points)


def answered_follow_up(answer: str) -> bool:
    """Whether a saved follow-up's reply answers it (the offline one only says it could not)."""
    return not answer.startswith(FOLLOW_UP_NOT_ANSWERED)


def answer_text(question: Question) -> str:
    """The offline answer: the reference answer as written, else the numbered key points."""
    if question.reference:
        return question.reference
    if not question.key_points:
        return NO_KEY_ANSWER
    return "\n".join(f"{n}. {point}" for n, point in enumerate(question.key_points, start=1))


def summary_text(questions: Sequence[Question], *, lines: int) -> str:
    """An extractive summary: each question's first key point, clipped, in ≤ ``lines`` lines.

    Questions without key points contribute their question text instead.
    """
    if not questions:
        return ""
    groups = _even_groups(list(questions), lines)
    out = []
    for group in groups:
        parts = []
        for question in group:
            source = question.key_points[0] if question.key_points else question.question
            parts.append(f"Q{question.id}：{clip(source, SUMMARY_POINT_CHARS)}")
        out.append("；".join(parts))
    return "\n".join(out)


def _even_groups(items: list[Question], count: int) -> list[list[Question]]:
    count = min(count, len(items))
    size, extra = divmod(len(items), count)
    groups, start = [], 0
    for index in range(count):
        end = start + size + (1 if index < extra else 0)
        groups.append(items[start:end])
        start = end
    return groups


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
