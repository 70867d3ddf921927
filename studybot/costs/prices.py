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
    view: SessionView,
    price: Price | None,
    cached: Mapping[int, int],
    side: Price | None,
) -> SessionCost | None:
    """Costs of a session's requests at ``price``; ``cached`` maps question id to cached tokens.

    ``cached`` is what the provider reported where it did, the session's
    cache rule's simulation where it did not. ``side``: the price of the
    requests that judge (grades, probes): ``price`` itself without a grader of
    its own; None, or another currency, leaves them out.
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
    for followup in view.followups:
        add(
            by_question[followup.question_id],
            price.cost(followup.prompt_tokens, followup.cached_tokens, followup.completion_tokens)
            + _thrown(price, followup.discarded),
        )
    if side is not None and side.currency == price.currency:
        for question_id, spent in judging(view):
            if question_id in by_question:
                add(by_question[question_id], side.cost(*spent))
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
    return price.cost(*_tokens(discarded))


def _tokens(discarded: Discarded) -> tuple[int, int, int]:
    """Requests thrown away as (prompt, cached, completion), the order ``Price.cost`` takes."""
    return discarded.prompt_tokens, discarded.cached_tokens, discarded.completion_tokens


def judging(view: SessionView) -> list[tuple[int, tuple[int, int, int]]]:
    """The side requests that judge the learner, as (question id, (prompt, cached, completion)):
    live grades, an interview's probes and the grading of their answers."""
    out = []
    for graded in view.grades.values():
        if graded.requests or graded.discarded.requests:  # live grading side requests
            usage = (graded.prompt_tokens, graded.cached_tokens, graded.completion_tokens)
            out.append((graded.question_id, usage))
            out.append((graded.question_id, _tokens(graded.discarded)))
    for probe in view.probes:
        out.append(
            (probe.question_id, (probe.prompt_tokens, probe.cached_tokens, probe.completion_tokens))
        )
        grading = (
            probe.grade_prompt_tokens,
            probe.grade_cached_tokens,
            probe.grade_completion_tokens,
        )
        out.append((probe.question_id, grading))
        out.append((probe.question_id, _tokens(probe.discarded)))
        out.append((probe.question_id, _tokens(probe.grade_discarded)))
    return out


@dataclass(frozen=True)
class Side:
    """One side of a session: the answering model's requests, or the grader's."""

    name: str  # "answers" (answers, follow-ups, summaries) or "grading" (grades, probes)
    model: str
    prompt_tokens: int
    cached_tokens: int
    completion_tokens: int
    cost: Cost | None  # None when the model has no prices

    def to_json(self) -> dict:
        return {
            "side": self.name,
            "model": self.model,
            "prompt_tokens": self.prompt_tokens,
            "cached_tokens": self.cached_tokens,
            "completion_tokens": self.completion_tokens,
            "cost": cost_json(self.cost),
        }


def sides(
    view: SessionView,
    cached: Mapping[int, int],
    price: Price | None,
    grader: str | None,
    grader_price: Price | None,
) -> tuple[Side, Side]:
    """The tokens and cost of each side; the grading side is the answering model's without
    a ``grader``."""
    answers = [(t.prompt_tokens, cached[t.question_id], t.completion_tokens) for t in view.turns]
    answers += [(f.prompt_tokens, f.cached_tokens, f.completion_tokens) for f in view.followups]
    answers += [
        (u.prompt_tokens, u.cached_tokens, u.completion_tokens)
        for u in (segment.summary_usage for segment in view.segments)
        if u is not None
    ]
    thrown = [t.discarded for t in view.turns] + [f.discarded for f in view.followups]
    answers += [_tokens(d) for d in thrown + [s.summary_discarded for s in view.segments]]
    judged = [usage for _, usage in judging(view)]
    side_price = grader_price if grader else price
    return (
        _side("answers", view.record.model, answers, price),
        _side("grading", grader or view.record.model, judged, side_price),
    )


def _side(name: str, model: str, usages: list[tuple[int, int, int]], price: Price | None) -> Side:
    prompt, cached, completion = (sum(u[n] for u in usages) for n in range(3))
    cost = price.cost(prompt, cached, completion) if price is not None else None
    return Side(name, model, prompt, cached, completion, cost)


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
