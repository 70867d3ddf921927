"""Replaying requests through a simulator.

``make`` builds one of three simulators by name: ``radix`` (SGLang),
``blocks`` (vLLM) or ``provider`` (an API provider's prompt cache under a
rule of ``studybot.cache.rules``). ``replay`` times only the loop over
requests, and ``load_trace`` reads a JSONL trace into compact arrays.
"""

from __future__ import annotations

import json
import time
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from studybot.cache.blocks import BlockCache
from studybot.cache.radix import TOKEN_CODE, RadixCache
from studybot.cache.rules import CacheRule
from studybot.errors import BadInput

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


def load_trace(path: Path) -> list[array]:
    """Requests of a JSONL trace, one ``{"tokens": [ids…]}`` per line, as uint32 arrays.

    No Python step per token: a line in the usual ``{"tokens": [...]}``
    shape is parsed and range-checked by numpy when it is installed, any
    other line by the JSON parser with ``array("I", ids)`` checking each id
    in C (OverflowError or TypeError outside 0..2^32-1). JSON booleans are
    ints to Python, so a line that spells ``true`` or ``false`` is checked
    for them.
    """
    try:
        lines = path.read_bytes().splitlines()
    except OSError as exc:
        raise BadInput(
            f"cannot read {path}: {exc.strerror}", hint="give a JSONL trace file"
        ) from None
    fast = _fast_parser()
    requests: list[array] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        ids = fast(line) if fast is not None else None
        if ids is None:
            ids = _ids(line)
        if ids is None:
            raise BadInput(
                f'{path}:{number}: expected {{"tokens": [token ids…]}}',
                hint="each line is one request: a JSON object whose tokens are ids in 0..2^32-1",
            )
        requests.append(ids)
    if not requests:
        raise BadInput(f"{path}: the trace has no requests", hint='one {"tokens": [...]} per line')
    return requests


_HEAD, _TAIL = b'{"tokens": [', b"]}"


def _fast_parser():
    """A numpy parser for the common line shape, or None without numpy."""
    try:
        import numpy
    except ImportError:
        return None
    import warnings

    def parse(line: bytes) -> array | None:
        line = line.strip()
        if not (line.startswith(_HEAD) and line.endswith(_TAIL)):
            return None  # another shape: the JSON path decides
        body = line[len(_HEAD) : -len(_TAIL)]
        if not body.strip():
            return array(TOKEN_CODE)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # numpy warns, and stops, at text it cannot read
            try:
                ids = numpy.fromstring(body, dtype=numpy.int64, sep=",")
            except (ValueError, DeprecationWarning):
                return None
        if ids.size != body.count(b",") + 1 or ids.min() < 0 or ids.max() >= 2**32:
            return None
        out = array(TOKEN_CODE)
        out.frombytes(ids.astype(numpy.uint32).tobytes())
        return out

    return parse


def _ids(line: bytes) -> array | None:
    try:
        ids = json.loads(line)["tokens"]
    except (json.JSONDecodeError, UnicodeDecodeError, TypeError, KeyError):
        return None
    if not isinstance(ids, list):
        return None
    if (b"true" in line or b"false" in line) and any(isinstance(i, bool) for i in ids):
        return None
    try:
        return array(TOKEN_CODE, ids)
    except (OverflowError, TypeError):
        return None
