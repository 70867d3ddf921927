"""What a range costs before a single request is sent: segmented versus one long chat.

``segmented`` is what ``studybot run`` sends: the same segments
(``session.cut``), the same request sequence (``prompt.segment_requests``),
the offline answers and summaries (or answers of a given length, for a
live model), and a summary request at the end of every segment but the
last (which nothing reads until a later run continues from it). ``single``
is one long chat that re-sends the whole history with every question; it
is computed from lengths alone (request k = request k-1 + answer k-1 +
question k), so a 20,000-question bank projects in seconds.

A request's uncached prompt tokens follow the cache rule
(``studybot.cache.rules``): ``openai`` by default, from the model ID.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from studybot.bank import Bank, Question
from studybot.channel.config import Settings
from studybot.channel.providers.offline import answer_text, has_answer, summary_text
from studybot.costs import strategy, tokens
from studybot.costs.cache.rules import CacheRule, resolve
from studybot.costs.prices import Price, cost_json
from studybot.costs.strategy import Sent, Strategy, measure
from studybot.study import prompt, session

WINDOW_8K = 8192
FLOOR_DEFINITION = (
    "what one long session must prefill under a perfect cache: the system prefix once, "
    "every question once, and every answer that is sent back once (the final answer never is)"
)


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
class PrefixChoice:
    """The segmented run with each prefix style, and which one is cheaper."""

    designed: Strategy
    short: Strategy
    designed_tokens: int  # system message tokens, framing included
    short_tokens: int

    def cheaper(self, price: Price | None) -> str:
        """By money when prices are known, else by uncached prompt tokens."""
        a, b = self.designed.cost(price), self.short.cost(price)
        if a is not None and b is not None:
            return "designed" if a.total <= b.total else "short"
        return (
            "designed"
            if self.designed.uncached_prompt_tokens <= self.short.uncached_prompt_tokens
            else "short"
        )

    def to_json(self, price: Price | None) -> dict:
        def one(strategy: Strategy, system: int) -> dict:
            return {
                "system_tokens": system,
                "prompt_tokens": strategy.prompt_tokens,
                "uncached_prompt_tokens": strategy.uncached_prompt_tokens,
                "cost": cost_json(strategy.cost(price)),
            }

        return {
            "designed": one(self.designed, self.designed_tokens),
            "short": one(self.short, self.short_tokens),
            "cheaper": self.cheaper(price),
        }


@dataclass(frozen=True)
class Projection:
    first: int
    last: int
    window: int
    rule: CacheRule
    prefix_style: str  # the prefix the run would send: "designed" or "short"
    answer_tokens: int | None  # None: lengths from the offline answer key
    live_answers: int  # questions the answer key cannot answer, projected at live length
    live_tokens: int  # that live length (settings.answer_tokens)
    kv_model: str
    segments: int
    segmented: Strategy
    single: Strategy
    exact: Strategy  # segmented under the exact rule, for comparison
    floor: int  # see FLOOR_DEFINITION
    break_point: int | None  # first question where single's context passes the window
    break_point_8k: int | None
    trap: PrefixTrap | None  # rules with a minimum, when it costs anything
    prefixes: PrefixChoice
    price: Price | None

    def to_json(self) -> dict:
        return {
            "range": {"from": self.first, "to": self.last},
            "window": self.window,
            "cache_rule": self.rule.name,
            "cache_rule_min_tokens": self.rule.min_tokens,
            "cache_rule_step_tokens": self.rule.step,
            "prefix_style": self.prefix_style,
            "answer_tokens": self.answer_tokens,
            "live_answers": {"questions": self.live_answers, "answer_tokens": self.live_tokens},
            "kv_model": self.kv_model,
            "segments": self.segments,
            "strategies": {
                "segmented": self.segmented.to_json(self.price),
                "single": self.single.to_json(self.price),
            },
            "floor_uncached_prompt_tokens": self.floor,
            "floor_definition": FLOOR_DEFINITION,
            "exact_uncached_prompt_tokens": {
                "segmented": self.exact.uncached_prompt_tokens,
            },
            "break_point": {"single": self.break_point, "single_8k": self.break_point_8k},
            "prefix_trap": self.trap.to_json() if self.trap else None,
            "prefixes": self.prefixes.to_json(self.price),
            "currency": self.price.currency if self.price else None,
        }


def project(
    bank: Bank,
    first: int,
    last: int,
    settings: Settings,
    *,
    answer_tokens: int | None = None,
    rule: str | None = None,
    window: int | None = None,
    price: Price | None = None,
) -> Projection:
    """Every request of both strategies for questions ``first``..``last``."""
    cache_rule = resolve(rule, settings)
    window = window or settings.context_window
    questions = bank.select(first, last)
    answers, lengths = _inputs(questions, answer_tokens, settings)
    built = {
        style: _segmented_sent(bank, style, questions, settings, lengths, answers)
        for style in prompt.PREFIX_STYLES
    }
    style = settings.prefix_style
    prefix, parts, sent = built[style]
    segmented = measure("segmented", sent, cache_rule, settings)
    exact = measure("segmented", sent, resolve("exact", settings), settings)
    single = strategy.single(prefix, questions, answers, cache_rule, settings)
    other = "short" if style == "designed" else "designed"
    alternative = measure("segmented", built[other][2], cache_rule, settings)
    by_style = {style: segmented, other: alternative}
    prefixes = PrefixChoice(
        designed=by_style["designed"],
        short=by_style["short"],
        designed_tokens=len(tokens.message_ids("system", built["designed"][0])),
        short_tokens=len(tokens.message_ids("system", built["short"][0])),
    )
    return Projection(
        first=first,
        last=last,
        window=window,
        rule=cache_rule,
        prefix_style=style,
        answer_tokens=answer_tokens,
        live_answers=sum(1 for q in questions if not has_answer(q)) if answer_tokens is None else 0,
        live_tokens=settings.answer_tokens,
        kv_model=settings.kv_model,
        segments=len(parts),
        segmented=segmented,
        single=single,
        exact=exact,
        floor=floor(prefix, questions, answers),
        break_point=_break_point(single, window),
        break_point_8k=_break_point(single, WINDOW_8K),
        trap=_trap(segmented, exact, prefix, cache_rule),
        prefixes=prefixes,
        price=price,
    )


def floor(prefix: str, questions: Sequence[Question], answers: Mapping[int, str]) -> int:
    """Prompt tokens one long session must prefill even with a perfect cache.

    The system message once, every question once, every answer but the last
    once (it is never sent back), and the one reply opening of the last
    request: exactly what the single strategy prefills under ``exact``.
    """
    total = len(tokens.message_ids("system", prefix)) + len(tokens.reply_primer())
    for question in questions:
        total += len(tokens.message_ids("user", prompt.question_text(question)))
    for question in questions[:-1]:
        total += len(tokens.message_ids("assistant", answers[question.id]))
    return total


def planned_requests(bank: Bank, first: int, last: int, settings: Settings) -> list[Sent]:
    """The segmented run's requests for ``first``..``last``, as ``project`` prices them."""
    questions = bank.select(first, last)
    answers, lengths = _inputs(questions, None, settings)
    return _segmented_sent(bank, settings.prefix_style, questions, settings, lengths, answers)[2]


def _inputs(
    questions: Sequence[Question], answer_tokens: int | None, settings: Settings
) -> tuple[dict[int, str], Mapping[int, int] | int]:
    """Each question's projected answer text, and the answer lengths that cut segments."""
    answers = _answers(questions, answer_tokens, settings.answer_tokens)
    if answer_tokens is not None:
        return answers, answer_tokens
    return answers, {q: tokens.count(text) for q, text in answers.items()}


def _answers(
    questions: Sequence[Question], answer_tokens: int | None, live_tokens: int
) -> dict[int, str]:
    # A live model's words are unknown; a stand-in of exactly that many tokens
    # (" x" is one token each) gives every count the right length. A question the
    # answer key cannot answer is answered live (on resume), so it gets the live length.
    if answer_tokens is None:
        return {q.id: answer_text(q) if has_answer(q) else " x" * live_tokens for q in questions}
    return {q.id: " x" * answer_tokens for q in questions}


def _segmented_sent(
    bank: Bank,
    style: str,
    questions: Sequence[Question],
    settings: Settings,
    lengths: Mapping[int, int] | int,
    answers: Mapping[int, str],
):
    prefix = prompt.system_prefix(bank, style)
    parts = session.cut(questions, prefix, settings, lengths)
    by_id = {q.id: q for q in questions}
    sent = list(_segmented(prefix, [p.question_ids for p in parts], by_id, answers))
    return prefix, parts, sent


def _segmented(
    prefix: str,
    parts: Sequence[Sequence[int]],
    by_id: Mapping[int, Question],
    answers: Mapping[int, str],
) -> Iterator[Sent]:
    summary: str | None = None
    for index, ids in enumerate(parts):
        asked = [by_id[q] for q in ids]
        turns = [prompt.Asked(q, answers[q.id]) for q in asked]
        last = index == len(parts) - 1
        written = prompt.clip_summary(summary_text(asked))
        for item in prompt.segment_requests(prefix, summary, turns, summarise=not last):
            completion = written if item.kind == "summary" else answers[item.question_id]
            yield Sent(item.kind, item.question_id, index, item.messages, completion)
        summary = written


def _trap(ruled: Strategy, exact: Strategy, prefix: str, rule: CacheRule) -> PrefixTrap | None:
    if rule.min_tokens <= 0:
        return None
    missed = [
        s.prompt_tokens - s.uncached_prompt_tokens
        for p, s in zip(ruled.requests, exact.requests, strict=True)
        if p.uncached_prompt_tokens == p.prompt_tokens
        and s.uncached_prompt_tokens < s.prompt_tokens
    ]
    if not missed:
        return None
    system = len(tokens.message_ids("system", prefix))
    return PrefixTrap(len(missed), sum(missed), system, rule.min_tokens)


def _break_point(single: Strategy, window: int) -> int | None:
    return next((r.question for r in single.requests if r.context_tokens > window), None)
