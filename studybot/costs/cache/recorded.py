"""Replaying a recorded session's requests: each one's hit, and where it splits.

``studybot.study.recorded`` rebuilds the requests token for token from the
store, with the conversation that sent them; ``report`` replays them
through a simulator and finds, for each, the first token where it leaves
the previous request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from studybot.costs import tokens
from studybot.costs.cache.replay import Simulator
from studybot.costs.cache.rules import PromptCache
from studybot.types import Messages

SNIPPET_TOKENS = 8  # tokens shown on each side of a divergence


@dataclass(frozen=True)
class RecordedRequest:
    kind: str  # "answer", "follow-up" or "summary"
    question_id: int | None  # None for a summary
    segment: int  # 0-based
    prefix: str  # the system prefix this request carried
    messages: Messages
    reported_cached: int | None  # cached tokens the provider reported, when recorded
    output: str | None = None  # what the reply said (rules that cache outputs need it)


@dataclass(frozen=True)
class RequestReport:
    request: RecordedRequest
    tokens: int
    hit: int
    diverges_at: int | None  # first token that differs from the previous request
    snippet: str | None  # text around that token, "…before⟦after…"

    def to_json(self) -> dict:
        r = self.request
        return {
            "kind": r.kind,
            "question": r.question_id,
            "segment": r.segment + 1,
            "tokens": self.tokens,
            "hit": self.hit,
            "diverges_at": self.diverges_at,
            "snippet": self.snippet,
            "reported_cached": r.reported_cached,
        }


def report(requests: Sequence[RecordedRequest], simulator: Simulator) -> list[RequestReport]:
    out: list[RequestReport] = []
    previous: list[int] | None = None
    for request in requests:
        ids = tokens.request_ids(request.messages)
        if isinstance(simulator, PromptCache):
            hit = simulator.request(ids, tokens.encode(request.output or ""))
        else:
            hit = simulator.request(ids)
        at = None if previous is None else divergence(previous, ids)
        snippet = None if at is None else _snippet(ids, at)
        out.append(RequestReport(request, len(ids), hit, at, snippet))
        previous = ids
    return out


def divergence(previous: Sequence[int], ids: Sequence[int]) -> int | None:
    """First index where ``ids`` leaves ``previous``; None when it extends it."""
    limit = min(len(previous), len(ids))
    low, high = 0, limit  # previous[:low] == ids[:low] holds throughout
    while low < high:
        middle = (low + high + 1) // 2
        if previous[:middle] == ids[:middle]:
            low = middle
        else:
            high = middle - 1
    if low == len(previous):
        return None
    return low


PARTIAL = "\ufffd"  # what decoding shows for the bytes of a character cut by a token slice
UTF8_MOST = 4  # bytes in a character at most: so many tokens may share one


def _snippet(ids: Sequence[int], at: int) -> str:
    """The text around token ``at``, cut at whole characters (a token may hold part of one)."""
    start = at
    # the token that differs may begin inside a character: mark where that character begins
    while start > max(0, at - UTF8_MOST) and tokens.decode(ids[start : at + 1]).startswith(PARTIAL):
        start -= 1
    before = tokens.decode(ids[max(0, start - SNIPPET_TOKENS) : start]).lstrip(PARTIAL)
    after = tokens.decode(ids[start : at + SNIPPET_TOKENS]).rstrip(PARTIAL)
    return f"…{_flat(before)}⟦{_flat(after)}…"


def _flat(text: str) -> str:
    return text.replace("\r", "").replace("\n", "⏎")
