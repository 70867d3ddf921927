"""What a range costs before a single request is sent: segmented versus one long chat.

``compare`` prices what ``studybot.study.projection`` built: the segmented
run's requests (the same segments and conversation a run sends, with the
offline answers and summaries, or answers of a given length for a live
model) under each prefix style, and one long chat that re-sends the whole
history with every question, computed from lengths alone (request k =
request k-1 + answer k-1 + question k), so a 20,000-question bank projects
in seconds. A request's uncached prompt tokens follow the cache rule
(``studybot.costs.cache.rules``): ``openai`` by default, from the model ID.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from studybot.costs import strategy, tokens
from studybot.costs.cache.rules import CacheRule
from studybot.costs.prices import Price, cost_json
from studybot.costs.strategy import Exchange, Sent, Strategy, measure

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


@dataclass(frozen=True)
class Design:
    """The segmented run with one prefix style: its prefix, its segments, its requests."""

    prefix: str
    segments: int
    sent: Sequence[Sent]


def compare(
    *,
    first: int,
    last: int,
    window: int,
    rule: CacheRule,
    exact: CacheRule,
    style: str,
    designs: Mapping[str, Design],
    exchanges: Sequence[Exchange],
    kv_model: str,
    answer_tokens: int | None,
    live_answers: int,
    live_tokens: int,
    price: Price | None,
) -> Projection:
    """Both strategies for the run ``designs[style]`` and one long chat over ``exchanges``."""
    design = designs[style]
    segmented = measure("segmented", design.sent, rule, kv_model)
    single = strategy.single(design.prefix, exchanges, rule, kv_model)
    by_style = {
        name: segmented if name == style else measure("segmented", d.sent, rule, kv_model)
        for name, d in designs.items()
    }
    exact_run = measure("segmented", design.sent, exact, kv_model)
    prefixes = PrefixChoice(
        designed=by_style["designed"],
        short=by_style["short"],
        designed_tokens=len(tokens.message_ids("system", designs["designed"].prefix)),
        short_tokens=len(tokens.message_ids("system", designs["short"].prefix)),
    )
    return Projection(
        first=first,
        last=last,
        window=window,
        rule=rule,
        prefix_style=style,
        answer_tokens=answer_tokens,
        live_answers=live_answers,
        live_tokens=live_tokens,
        kv_model=kv_model,
        segments=design.segments,
        segmented=segmented,
        single=single,
        exact=exact_run,
        floor=strategy.long_chat_tokens(design.prefix, exchanges),
        break_point=_break_point(single, window),
        break_point_8k=_break_point(single, WINDOW_8K),
        trap=_trap(segmented, exact_run, design.prefix, rule),
        prefixes=prefixes,
        price=price,
    )


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
