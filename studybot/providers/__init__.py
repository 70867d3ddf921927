"""Where answers come from: a small protocol, and the choice between providers.

``complete`` answers one question, ``summarise`` writes a segment's
summary, ``follow_up`` answers a side question. Each returns a ``Reply``
whose ``usage`` is what the provider itself reported (None when it
reported nothing); studybot keeps its own count beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from studybot.bank import Bank, Question
from studybot.config import Settings

Messages = list[dict[str, str]]
TextSink = Callable[[str], None]


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int = 0


@dataclass(frozen=True)
class Reply:
    text: str
    usage: Usage | None = None  # as reported by the provider
    finish_reason: str | None = "stop"


class Provider(Protocol):
    name: str  # "offline" or "openai-compat"
    model: str

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


OFFLINE_NOTICE = "offline: answering from the bank's answer key; set {var} for a live model"


def choose(settings: Settings, bank: Bank) -> tuple[Provider, str | None]:
    """The provider these settings ask for, and a notice to print once (or None)."""
    from studybot import channel

    if settings.live:
        from studybot.providers.openai_compat import OpenAICompatProvider

        channel.check(settings)  # exit 2 on a known-bad URL, key or model, before any request
        return OpenAICompatProvider(settings), None
    from studybot.cache.rules import resolve
    from studybot.providers.offline import OfflineProvider

    cache = resolve(None, settings).simulator()  # the same rule plan and show use
    provider = OfflineProvider(bank, delay=settings.offline_delay, cache=cache)
    if settings.offline:
        where = channel.origin(settings, "offline")
        return provider, f"offline: answering from the bank's answer key ({where})"
    notice = OFFLINE_NOTICE.format(var=settings.env_key)
    if channel.key_facts(settings).present:  # present but not live: the variable is empty
        notice += f" ({settings.env_key} is set but empty)"
    return provider, notice
