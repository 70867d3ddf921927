"""A recorded session's requests, rebuilt token for token, and where each one splits.

The store keeps what went into every request: the system prefix (by hash,
per turn), each segment's carried summary, every question and answer and
every follow-up. ``session_requests`` assembles them again in the order
they were sent (answers, follow-ups after their question, the segment's
summary request last) with ``studybot.prompt``, the same code that sent
them. ``report`` replays them through a simulator and finds, for each,
the first token where it leaves the previous request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from studybot.bank import Question
from studybot.costs import tokens
from studybot.costs.cache.lint import Finding, lint
from studybot.costs.cache.replay import Simulator
from studybot.costs.cache.rules import PromptCache
from studybot.storage.store import SessionRecord, Store
from studybot.study import prompt
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


def session_requests(store: Store, record: SessionRecord) -> list[RecordedRequest]:
    """Every request the session sent, in order, rebuilt from the store."""
    turns = {turn.question_id: turn for turn in store.turns(record.id)}
    followups: dict[int, list] = {}
    for followup in store.followups(record.id):
        followups.setdefault(followup.question_id, []).append(followup)
    prefixes: dict[str, str] = {}

    def prefix_of(digest: str | None) -> str:
        if not digest:
            return record.prefix
        if digest not in prefixes:
            prefixes[digest] = store.prefix_text(digest) or record.prefix
        return prefixes[digest]

    out: list[RecordedRequest] = []
    for segment in store.segments(record.id):
        asked: list[prompt.Asked] = []
        for question_id in segment.question_ids:
            turn = turns.get(question_id)
            if turn is None:
                break
            # The question as it was asked; the bank may have changed since.
            question = Question(id=turn.question_id, chapter=0, question=turn.question)
            texts = tuple(f.question for f in followups.get(question_id, []))
            asked.append(prompt.Asked(question, turn.answer, texts, prefix_of(turn.prefix_sha256)))
        pending = {q: list(followups.get(q, [])) for q in segment.question_ids}
        summarised = segment.summary_out is not None
        for sent in prompt.segment_requests(
            record.prefix, segment.summary_in, asked, summarise=summarised
        ):
            if sent.kind == "answer":
                turn = turns[sent.question_id]
                cached, output = turn.cached_tokens, turn.answer
            elif sent.kind == "follow-up":
                followup = pending[sent.question_id].pop(0)
                cached, output = followup.cached_tokens, followup.answer
            else:
                usage = segment.summary_usage
                cached, output = (usage.cached_tokens if usage else None), segment.summary_out
            out.append(
                RecordedRequest(
                    sent.kind,
                    sent.question_id,
                    segment.index,
                    sent.prefix,
                    sent.messages,
                    cached,
                    output,
                )
            )
    return out


def prefix_findings(store: Store, record: SessionRecord) -> list[Finding]:
    """Lint of the prefixes the session sent so far plus the one it sends next."""
    prefixes = [request.prefix for request in session_requests(store, record)]
    return lint([*prefixes, record.prefix])


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


def _snippet(ids: Sequence[int], at: int) -> str:
    before = tokens.decode(ids[max(0, at - SNIPPET_TOKENS) : at])
    after = tokens.decode(ids[at : at + SNIPPET_TOKENS])
    return f"…{_flat(before)}⟦{_flat(after)}…"


def _flat(text: str) -> str:
    return text.replace("\r", "").replace("\n", "⏎")
