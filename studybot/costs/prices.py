"""Money: a model's prices per million tokens, and what a set of requests costs.

Prices come from the studybot config file, one table per model ID::

    [prices."deepseek-chat"]
    input = 2.0          # per million uncached prompt tokens
    cached_input = 0.5   # per million cached prompt tokens
    output = 8.0         # per million completion tokens
    currency = "CNY"

``plan`` also takes them as flags. Without prices every report shows
tokens only; a cost is then ``None`` (``null`` in JSON).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from studybot.costs.cache.rules import CacheRule
from studybot.errors import ConfigError
from studybot.storage.store import SessionView
from studybot.types import Discarded

PER = 1_000_000  # prices are per million tokens
DEFAULT_CURRENCY = "USD"
NO_PRICES_HINT = (
    'no prices for {model}: add [prices."{model}"] input/cached_input/output/currency '
    "to config.toml (per million tokens) to see costs"
)


@dataclass(frozen=True)
class Price:
    model: str
    input: float  # per million uncached prompt tokens
    cached_input: float  # per million cached prompt tokens
    output: float  # per million completion tokens
    currency: str

    def cost(self, prompt_tokens: int, cached_tokens: int, completion_tokens: int) -> Cost:
        cached = min(cached_tokens, prompt_tokens)
        return Cost(
            currency=self.currency,
            input=(prompt_tokens - cached) * self.input / PER,
            cached_input=cached * self.cached_input / PER,
            output=completion_tokens * self.output / PER,
        )


@dataclass(frozen=True)
class Cost:
    currency: str
    input: float  # uncached prompt tokens
    cached_input: float
    output: float

    @property
    def total(self) -> float:
        return self.input + self.cached_input + self.output

    def __add__(self, other: Cost) -> Cost:
        if other.currency != self.currency:
            raise ValueError("cannot add costs in different currencies")
        return Cost(
            self.currency,
            self.input + other.input,
            self.cached_input + other.cached_input,
            self.output + other.output,
        )

    def to_json(self) -> dict:
        return {
            "currency": self.currency,
            "input": round(self.input, 8),
            "cached_input": round(self.cached_input, 8),
            "output": round(self.output, 8),
            "total": round(self.total, 8),
        }

    def text(self) -> str:
        return money(self.total, self.currency)


def money(amount: float, currency: str) -> str:
    return f"{figure(amount)} {currency}"


def figure(amount: float) -> str:
    """An amount readable at a glance: more digits for the small sums of one turn."""
    digits = 2 if abs(amount) >= 1 else 4 if abs(amount) >= 0.01 else 6
    return f"{amount:,.{digits}f}"


def cost_json(cost: Cost | None) -> dict | None:
    return cost.to_json() if cost is not None else None


def for_model(
    model: str,
    tables: Mapping[str, Mapping[str, Any]],
    overrides: Mapping[str, Any] | None = None,
) -> Price | None:
    """The prices for ``model``: its table of ``tables`` (config), then flags; None when unknown.

    ``overrides`` holds ``input``, ``cached_input``, ``output``, ``currency``
    (None = not given). Cached input defaults to the input price, which is
    what a provider without a cache discount charges.
    """
    table = dict(tables.get(model, {}))
    for key, value in (overrides or {}).items():
        if value is not None:
            table[key] = value
    unknown = sorted(set(table) - {"input", "cached_input", "output", "currency"})
    if unknown:
        raise ConfigError(
            f"prices for {model}: unknown key {unknown[0]!r}",
            hint="use input, cached_input, output (per million tokens) and currency",
        )
    if "input" not in table or "output" not in table:
        return None
    try:
        values = {k: float(table[k]) for k in ("input", "output")}
        cached = float(table.get("cached_input", values["input"]))
    except (TypeError, ValueError):
        raise ConfigError(
            f"prices for {model} must be numbers per million tokens",
            hint='e.g. input = 2.0, cached_input = 0.5, output = 8.0, currency = "CNY"',
        ) from None
    if min(values["input"], values["output"], cached) < 0:
        raise ConfigError(f"prices for {model} cannot be negative")
    currency = str(table.get("currency", DEFAULT_CURRENCY))
    return Price(model, values["input"], cached, values["output"], currency)


@dataclass(frozen=True)
class SessionCost:
    """What a recorded session cost: per answer, per segment, in all.

    A segment's cost holds its answers, follow-ups, live grading side
    requests and its summary request, each with the requests sent for it
    and thrown away (cut and asked again, failed and retried); an answer's
    cost holds its thrown-away requests too.
    """

    turns: dict[int, Cost]  # question id -> its answer request
    segments: dict[int, Cost]  # segment index -> answers, follow-ups and summary request
    total: Cost


def session_cost(
    view: SessionView, price: Price | None, cached: Mapping[int, int]
) -> SessionCost | None:
    """Costs of a session's requests at ``price``; ``cached`` maps question id to cached tokens.

    ``cached`` is what the provider reported where it did, the session's
    cache rule's simulation where it did not.
    """
    if price is None:
        return None
    zero = Cost(price.currency, 0.0, 0.0, 0.0)
    turns: dict[int, Cost] = {}
    segments: dict[int, Cost] = {}

    def add(index: int, cost: Cost) -> None:
        segments[index] = segments.get(index, zero) + cost

    by_question = {turn.question_id: turn.segment for turn in view.turns}
    for turn in view.turns:
        cost = price.cost(turn.prompt_tokens, cached[turn.question_id], turn.completion_tokens)
        cost += _thrown(price, turn.discarded)  # the answer's cut or failed requests
        turns[turn.question_id] = cost
        add(turn.segment, cost)
    for graded in view.grades.values():
        sent = graded.requests or graded.discarded.requests
        if sent and graded.question_id in by_question:  # live grading side requests
            add(
                by_question[graded.question_id],
                price.cost(graded.prompt_tokens, graded.cached_tokens, graded.completion_tokens)
                + _thrown(price, graded.discarded),
            )
    for followup in view.followups:
        add(
            by_question[followup.question_id],
            price.cost(followup.prompt_tokens, followup.cached_tokens, followup.completion_tokens)
            + _thrown(price, followup.discarded),
        )
    for probe in view.probes:  # an interview's probe and its answer's grading: side requests
        if probe.question_id in by_question:
            add(
                by_question[probe.question_id],
                price.cost(probe.prompt_tokens, probe.cached_tokens, probe.completion_tokens)
                + price.cost(
                    probe.grade_prompt_tokens,
                    probe.grade_cached_tokens,
                    probe.grade_completion_tokens,
                )
                + _thrown(price, probe.discarded)
                + _thrown(price, probe.grade_discarded),
            )
    for segment in view.segments:
        usage = segment.summary_usage
        if usage is not None:
            add(
                segment.index,
                price.cost(usage.prompt_tokens, usage.cached_tokens, usage.completion_tokens),
            )
        if segment.summary_discarded.requests:
            add(segment.index, _thrown(price, segment.summary_discarded))
    return SessionCost(turns, segments, sum(segments.values(), zero))


def _thrown(price: Price, discarded: Discarded) -> Cost:
    """What requests sent and thrown away cost: every token the server served is billed."""
    return price.cost(discarded.prompt_tokens, discarded.cached_tokens, discarded.completion_tokens)


@dataclass(frozen=True)
class SessionMoney:
    """A session's cache rule, cached tokens per question, prices and cost."""

    rule: CacheRule
    cached: dict[int, int]  # question id -> cached tokens (reported, else simulated)
    price: Price | None
    cost: SessionCost | None

    def turn_cost(self, question_id: int) -> Cost | None:
        return self.cost.turns.get(question_id) if self.cost else None

    def segment_cost(self, index: int) -> Cost | None:
        return self.cost.segments.get(index) if self.cost else None

    @property
    def total(self) -> Cost | None:
        return self.cost.total if self.cost else None
