"""A request sequence priced under a cache rule: what ``plan`` compares.

``measure`` replays requests that were built (the segmented run, by the
study's one conversation) through a rule's simulator; ``single`` prices one
long chat from lengths alone. Both yield a ``Strategy``: every request's
prompt, uncached and completion tokens, and the totals and money that
``plan`` prints. ``long_chat_tokens`` is the one count of what one long
chat over some questions prefills.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from studybot.costs import tokens
from studybot.costs.cache.rules import CacheRule
from studybot.costs.kv.turns import turn_kv_bytes
from studybot.costs.prices import Cost, Price, cost_json
from studybot.types import Messages


@dataclass(frozen=True)
class Request:
    kind: str  # "answer" or "summary"
    question: int | None  # None for a summary request
    segment: int | None  # 0-based; None in the single strategy
    prompt_tokens: int
    uncached_prompt_tokens: int
    completion_tokens: int

    @property
    def context_tokens(self) -> int:
        """n = prompt + completion: what the window must hold."""
        return self.prompt_tokens + self.completion_tokens

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "question": self.question,
            "segment": None if self.segment is None else self.segment + 1,
            "prompt_tokens": self.prompt_tokens,
            "uncached_prompt_tokens": self.uncached_prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "context_tokens": self.context_tokens,
        }


@dataclass(frozen=True)
class Strategy:
    name: str
    requests: tuple[Request, ...]
    peak_kv_bytes: int | None  # KV cache of the peak request (None: unknown preset)

    @property
    def prompt_tokens(self) -> int:
        return sum(r.prompt_tokens for r in self.requests)

    @property
    def uncached_prompt_tokens(self) -> int:
        return sum(r.uncached_prompt_tokens for r in self.requests)

    @property
    def completion_tokens(self) -> int:
        return sum(r.completion_tokens for r in self.requests)

    @property
    def peak_context_tokens(self) -> int:
        return max((r.context_tokens for r in self.requests), default=0)

    @property
    def prefill_decode_ratio(self) -> float:
        """Uncached prefill tokens per decode token (how PD serving sizes its pools)."""
        completion = self.completion_tokens
        return self.uncached_prompt_tokens / completion if completion else 0.0

    def cost(self, price: Price | None) -> Cost | None:
        if price is None:
            return None
        prompt_tokens = self.prompt_tokens
        cached = prompt_tokens - self.uncached_prompt_tokens
        return price.cost(prompt_tokens, cached, self.completion_tokens)

    def to_json(self, price: Price | None = None) -> dict:
        return {
            "requests": [r.to_json() for r in self.requests],
            "prompt_tokens": self.prompt_tokens,
            "uncached_prompt_tokens": self.uncached_prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "peak_context_tokens": self.peak_context_tokens,
            "peak_kv_bytes": self.peak_kv_bytes,
            "prefill_decode_ratio": round(self.prefill_decode_ratio, 4),
            "cost": cost_json(self.cost(price)),
        }


@dataclass(frozen=True)
class Sent:
    """One request as built, with the completion it is answered with."""

    kind: str
    question: int | None
    segment: int | None
    messages: Messages
    completion: str


@dataclass(frozen=True)
class Exchange:
    """One question of a long chat: the user message that asks it, and its answer."""

    question: int
    asked: str  # the user message, as sent
    answer: str


def long_chat_tokens(prefix: str, exchanges: Sequence[Exchange]) -> int:
    """Prompt tokens of the last request of one long chat over ``exchanges``.

    The system message once, every question once, every answer but the last
    once (it is never sent back), and the reply opening: exactly what one
    long session must prefill even under a perfect cache.
    """
    total = len(tokens.message_ids("system", prefix)) + len(tokens.reply_primer())
    for exchange in exchanges:
        total += len(tokens.message_ids("user", exchange.asked))
    for exchange in exchanges[:-1]:
        total += len(tokens.message_ids("assistant", exchange.answer))
    return total


def measure(name: str, sent: Sequence[Sent], rule: CacheRule, kv_model: str) -> Strategy:
    cache = rule.simulator()
    requests = []
    for item in sent:
        ids = tokens.request_ids(item.messages)
        output = tokens.encode(item.completion)
        hit = cache.request(ids, output)
        requests.append(
            Request(
                kind=item.kind,
                question=item.question,
                segment=item.segment,
                prompt_tokens=len(ids),
                uncached_prompt_tokens=len(ids) - hit,
                completion_tokens=len(output),
            )
        )
    peak = max((r.context_tokens for r in requests), default=0)
    return Strategy(name, tuple(requests), turn_kv_bytes(kv_model, peak))


def single(prefix: str, exchanges: Sequence[Exchange], rule: CacheRule, kv_model: str) -> Strategy:
    """One long chat from lengths: request k = request k-1 + answer k-1 + question k.

    Token counts of framed messages add up (``tokens.request_ids`` frames
    each message on its own), so no request's message list is ever built.
    """
    primer = len(tokens.reply_primer())
    history = len(tokens.message_ids("system", prefix))
    previous_prompt = previous_output = 0
    requests = []
    for exchange in exchanges:
        asked = len(tokens.message_ids("user", exchange.asked))
        prompt_tokens = history + asked + primer
        output = tokens.count(exchange.answer)
        hit = rule.chain_hit(previous_prompt, previous_output, prompt_tokens)
        requests.append(
            Request("answer", exchange.question, None, prompt_tokens, prompt_tokens - hit, output)
        )
        history += asked + len(tokens.message_ids("assistant", exchange.answer))
        previous_prompt, previous_output = prompt_tokens, output
    peak = max((r.context_tokens for r in requests), default=0)
    return Strategy("single", tuple(requests), turn_kv_bytes(kv_model, peak))
