"""What a range costs before a single request is sent: segmented versus one long chat.

``segmented`` is what ``studybot run`` sends: the same segments
(``session.cut``), the same messages (``studybot.prompt``), the offline
answers and summaries (or answers of a given length, for a live model),
and a summary request at the end of every segment. ``single`` is one long
chat that re-sends the whole history with every question.

A request's uncached prompt tokens are those not covered by the longest
prefix of any earlier prompt of the same run: the ``simple`` rule, an API
provider's prompt-only cache with page size 1 and no capacity limit. The
``provider`` rule adds what OpenAI-style caches do: nothing is cached for
a prompt under ``cache_min_tokens``, and hits grow in ``cache_step_tokens``.
The floor is the system prefix once plus every question and every answer
once: each token new to the conversation prefilled once. (It counts the
last answer too, which no request carries, so ``single`` can end a few
hundred tokens under it.)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from studybot import prompt, session, tokens
from studybot.bank import Bank, Question
from studybot.cache.replay import ProviderCache, Simulator
from studybot.config import Settings
from studybot.kv.turns import turn_kv_bytes
from studybot.providers.offline import answer_text, has_answer, summary_text

RULES = ("simple", "provider")
WINDOW_8K = 8192


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

    def to_json(self) -> dict:
        return {
            "requests": [r.to_json() for r in self.requests],
            "prompt_tokens": self.prompt_tokens,
            "uncached_prompt_tokens": self.uncached_prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "peak_context_tokens": self.peak_context_tokens,
            "peak_kv_bytes": self.peak_kv_bytes,
            "prefill_decode_ratio": round(self.prefill_decode_ratio, 4),
        }


@dataclass(frozen=True)
class PrefixTrap:
    """Segmented requests the provider rule serves nothing, though a prefix was seen before."""

    requests: int
    tokens: int  # what a cache without the minimum would have served them
    system_tokens: int  # the system message as it is (framing included)
    min_tokens: int  # the stable prefix it would take to avoid the trap

    def to_json(self) -> dict:
        return {
            "requests": self.requests,
            "tokens": self.tokens,
            "system_tokens": self.system_tokens,
            "min_tokens": self.min_tokens,
        }


@dataclass(frozen=True)
class Projection:
    first: int
    last: int
    window: int
    rule: str  # "simple" or "provider"
    answer_tokens: int | None  # None: lengths from the offline answer key
    live_answers: int  # questions the answer key cannot answer, projected at live length
    live_tokens: int  # that live length (settings.answer_tokens)
    kv_model: str
    segments: int
    segmented: Strategy
    single: Strategy
    floor: int  # uncached prompt tokens no strategy can go below
    break_point: int | None  # first question where single's context passes the window
    break_point_8k: int | None
    trap: PrefixTrap | None  # provider rule only, when it costs anything

    def to_json(self) -> dict:
        return {
            "range": {"from": self.first, "to": self.last},
            "window": self.window,
            "cache_rule": self.rule,
            "answer_tokens": self.answer_tokens,
            "live_answers": {"questions": self.live_answers, "answer_tokens": self.live_tokens},
            "kv_model": self.kv_model,
            "segments": self.segments,
            "strategies": {
                "segmented": self.segmented.to_json(),
                "single": self.single.to_json(),
            },
            "floor_uncached_prompt_tokens": self.floor,
            "break_point": {"single": self.break_point, "single_8k": self.break_point_8k},
            "prefix_trap": self.trap.to_json() if self.trap else None,
        }


@dataclass(frozen=True)
class _Sent:
    kind: str
    question: int | None
    segment: int | None
    messages: prompt.Messages
    completion: str


def project(
    bank: Bank,
    first: int,
    last: int,
    settings: Settings,
    *,
    answer_tokens: int | None = None,
    rule: str = "simple",
    window: int | None = None,
) -> Projection:
    """Every request of both strategies for questions ``first``..``last``."""
    if rule not in RULES:
        raise ValueError(f"unknown cache rule {rule!r}")
    window = window or settings.context_window
    questions = bank.select(first, last)
    prefix = prompt.system_prefix(bank)
    answers = _answers(questions, answer_tokens, settings.answer_tokens)
    lengths: Mapping[int, int] | int = (
        {q: tokens.count(text) for q, text in answers.items()}
        if answer_tokens is None
        else answer_tokens
    )
    parts = session.cut(questions, prefix, settings, lengths)
    by_id = {q.id: q for q in questions}
    segmented_sent = list(_segmented(prefix, [p.question_ids for p in parts], by_id, answers))
    single_sent = list(_single(prefix, questions, answers))

    segmented = _strategy("segmented", segmented_sent, _cache(rule, settings), settings)
    single = _strategy("single", single_sent, _cache(rule, settings), settings)
    trap = None
    if rule == "provider":
        simple = _strategy("segmented", segmented_sent, _cache("simple", settings), settings)
        trap = _trap(segmented, simple, prefix, settings.cache_min_tokens)

    floor = len(tokens.message_ids("system", prefix)) + sum(
        len(tokens.message_ids("user", prompt.question_text(q)))
        + len(tokens.message_ids("assistant", answers[q.id]))
        for q in questions
    )
    return Projection(
        first=first,
        last=last,
        window=window,
        rule=rule,
        answer_tokens=answer_tokens,
        live_answers=sum(1 for q in questions if not has_answer(q)) if answer_tokens is None else 0,
        live_tokens=settings.answer_tokens,
        kv_model=settings.kv_model,
        segments=len(parts),
        segmented=segmented,
        single=single,
        floor=floor,
        break_point=_break_point(single, window),
        break_point_8k=_break_point(single, WINDOW_8K),
        trap=trap,
    )


def _answers(
    questions: Sequence[Question], answer_tokens: int | None, live_tokens: int
) -> dict[int, str]:
    # A live model's words are unknown; a stand-in of exactly that many tokens
    # (" x" is one token each) gives every count the right length. A question the
    # answer key cannot answer is answered live (on resume), so it gets the live length.
    if answer_tokens is None:
        return {q.id: answer_text(q) if has_answer(q) else " x" * live_tokens for q in questions}
    return {q.id: " x" * answer_tokens for q in questions}


def _segmented(
    prefix: str,
    parts: Sequence[Sequence[int]],
    by_id: Mapping[int, Question],
    answers: Mapping[int, str],
) -> Iterator[_Sent]:
    summary: str | None = None
    for index, ids in enumerate(parts):
        history: list[tuple[Question, str]] = []
        for question_id in ids:
            question = by_id[question_id]
            messages = prompt.messages(prefix, summary, history, question)
            yield _Sent("answer", question_id, index, messages, answers[question_id])
            history.append((question, answers[question_id]))
        written = prompt.clip_summary(summary_text([q for q, _ in history]))
        messages = prompt.summary_messages(prefix, summary, history)
        yield _Sent("summary", None, index, messages, written)
        summary = written


def _single(
    prefix: str, questions: Sequence[Question], answers: Mapping[int, str]
) -> Iterator[_Sent]:
    history: list[tuple[Question, str]] = []
    for question in questions:
        messages = prompt.messages(prefix, None, history, question)
        yield _Sent("answer", question.id, None, messages, answers[question.id])
        history.append((question, answers[question.id]))


def _cache(rule: str, settings: Settings) -> Simulator:
    if rule == "provider":
        return ProviderCache(settings.cache_min_tokens, settings.cache_step_tokens)
    return ProviderCache(min_tokens=0, step=1)


def _strategy(name: str, sent: Sequence[_Sent], cache: Simulator, settings: Settings) -> Strategy:
    requests = []
    for item in sent:
        ids = tokens.request_ids(item.messages)
        hit = cache.request(ids)
        requests.append(
            Request(
                kind=item.kind,
                question=item.question,
                segment=item.segment,
                prompt_tokens=len(ids),
                uncached_prompt_tokens=len(ids) - hit,
                completion_tokens=tokens.count(item.completion),
            )
        )
    peak = max((r.context_tokens for r in requests), default=0)
    return Strategy(name, tuple(requests), turn_kv_bytes(settings.kv_model, peak))


def _trap(provider: Strategy, simple: Strategy, prefix: str, min_tokens: int) -> PrefixTrap | None:
    missed = [
        s.prompt_tokens - s.uncached_prompt_tokens
        for p, s in zip(provider.requests, simple.requests, strict=True)
        if p.uncached_prompt_tokens == p.prompt_tokens
        and s.uncached_prompt_tokens < s.prompt_tokens
    ]
    if not missed:
        return None
    system = len(tokens.message_ids("system", prefix))
    return PrefixTrap(len(missed), sum(missed), system, min_tokens)


def _break_point(single: Strategy, window: int) -> int | None:
    return next((r.question for r in single.requests if r.context_tokens > window), None)
