"""Replaying requests through a simulator.

``make`` builds one of three simulators by name: ``radix`` (SGLang),
``blocks`` (vLLM) or ``provider`` (an API provider's prompt cache under a
rule of ``studybot.cache.rules``). ``replay`` times only the loop over
requests; ``load_trace`` (from ``studybot.cache.trace``) reads a JSONL
trace into compact arrays.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from studybot.costs.cache.paged import BlockCache
from studybot.costs.cache.radix import RadixCache
from studybot.costs.cache.rules import CacheRule
from studybot.costs.cache.trace import load_trace

__all__ = ["MODES", "Replay", "Simulator", "load_trace", "make", "replay"]

MODES = ("radix", "blocks", "provider")


class Simulator(Protocol):
    def request(self, ids: Sequence[int]) -> int: ...


def make(
    mode: str = "radix",
    *,
    capacity: int = 0,
    page_size: int = 1,
    block_size: int = 16,
    rule: CacheRule | None = None,
) -> Simulator:
    if mode == "radix":
        return RadixCache(page_size=page_size, capacity=capacity)
    if mode == "blocks":
        return BlockCache(block_size=block_size, capacity=capacity)
    if mode == "provider":
        if rule is None:
            raise ValueError("provider mode needs a cache rule")
        return rule.simulator()
    raise ValueError(f"unknown cache mode {mode!r}; use one of {', '.join(MODES)}")


@dataclass(frozen=True)
class Replay:
    tokens: tuple[int, ...]  # prompt tokens of each request
    hits: tuple[int, ...]  # cached tokens of each request
    elapsed_s: float  # the replay loop alone

    @property
    def hit_rate(self) -> float:
        total = sum(self.tokens)
        return sum(self.hits) / total if total else 0.0

    @property
    def tokens_per_s(self) -> float:
        return sum(self.tokens) / self.elapsed_s if self.elapsed_s > 0 else float("inf")

    def to_json(self) -> dict:
        return {
            "requests": [
                {"tokens": t, "hit": h} for t, h in zip(self.tokens, self.hits, strict=True)
            ],
            "hit_rate": round(self.hit_rate, 6),
            "elapsed_s": round(self.elapsed_s, 6),
        }


def replay(requests: Sequence[Sequence[int]], simulator: Simulator) -> Replay:
    started = time.perf_counter()
    hits = [simulator.request(ids) for ids in requests]
    elapsed = time.perf_counter() - started
    return Replay(tuple(len(ids) for ids in requests), tuple(hits), elapsed)
