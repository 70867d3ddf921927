"""Replaying requests through a simulator, and the API provider's caching rule.

``make`` builds one of three simulators by name: ``radix`` (SGLang),
``blocks`` (vLLM) or ``provider`` (an OpenAI-style prompt cache: nothing
below ``min_tokens``, hits in ``step``-token increments). ``replay`` times
only the loop over requests, so loading a trace never counts as speed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from studybot.cache.blocks import BlockCache
from studybot.cache.radix import RadixCache
from studybot.errors import BadInput

MODES = ("radix", "blocks", "provider")


class Simulator(Protocol):
    def request(self, ids: Sequence[int]) -> int: ...


class ProviderCache:
    """An API provider's prompt cache, as OpenAI documents it.

    A prompt under ``min_tokens`` is neither served from the cache nor kept
    in it; a longer one is kept in whole ``step``-token pieces, and its hit
    counts only once it reaches ``min_tokens``. Capacity is unlimited.
    """

    def __init__(self, min_tokens: int = 1024, step: int = 128) -> None:
        self.min_tokens = min_tokens
        self.step = step
        self._tree = RadixCache(page_size=step)

    def request(self, ids: Sequence[int]) -> int:
        if len(ids) < self.min_tokens:
            return 0
        hit = self._tree.request(ids)
        return hit if hit >= self.min_tokens else 0


def make(
    mode: str = "radix",
    *,
    capacity: int = 0,
    page_size: int = 1,
    block_size: int = 16,
    min_tokens: int = 1024,
    step: int = 128,
) -> Simulator:
    if mode == "radix":
        return RadixCache(page_size=page_size, capacity=capacity)
    if mode == "blocks":
        return BlockCache(block_size=block_size, capacity=capacity)
    if mode == "provider":
        return ProviderCache(min_tokens=min_tokens, step=step)
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


def load_trace(path: Path) -> list[list[int]]:
    """Requests of a JSONL trace, one ``{"tokens": [ids…]}`` per line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise BadInput(
            f"cannot read {path}: {exc.strerror}", hint="give a JSONL trace file"
        ) from None
    requests: list[list[int]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            ids = json.loads(line)["tokens"]
        except (json.JSONDecodeError, TypeError, KeyError):
            ids = None
        if not isinstance(ids, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) and 0 <= i < 2**32 for i in ids
        ):
            raise BadInput(
                f'{path}:{number}: expected {{"tokens": [token ids…]}}',
                hint="each line is one request: a JSON object whose tokens are ids in 0..2^32-1",
            )
        requests.append(ids)
    if not requests:
        raise BadInput(f"{path}: the trace has no requests", hint='one {"tokens": [...]} per line')
    return requests
