"""Errors no alias of a claim holds, each read by its own rule.

A finding credited to another work of the question (``credits``), a ratio
written upside down (``ratios``), a default given another value
(``defaults``), a share or figure said against the point's own text
(``against``), two things the point writes side by side given each
other's figure or words (``swaps``), a comparison or a "先 X 再 Y" order
said the other way round (``comparisons``). Each is read after the claims,
on a point not already contradicted; the first one found gives the clause
shown as evidence and the key shown beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from studybot.bank import Question
from studybot.learn import (
    against,
    aliases,
    comparisons,
    credits,
    defaults,
    measures,
    ratios,
    substitutes,
    swaps,
    words,
)
from studybot.learn.claims import Claim
from studybot.learn.marks import clip
from studybot.learn.reading import Attempt


@dataclass(frozen=True)
class Lapses:
    """What a point's lapses are read against: its credits, defaults, ratios, its question's names."""

    credits: tuple[str, ...] = ()  # whose finding the point states
    others: tuple[str, ...] = ()  # the question's names that credit none of its points
    defaults: tuple = ()  # per claim, the default it states, or None
    values: frozenset[str] = frozenset()  # the Latin names of the question's claims
    ratios: tuple = ()  # per claim, the ratios its words hold (``ratios.of_claim``)
    shares: tuple = ()  # per claim, the shares its words give (``against.shares_of``)
    known: tuple = ((), ())  # the figures the question states (``measures.known``)
    swaps: tuple = ()  # the things the point writes side by side (``swaps.of_point``)
    comparisons: tuple = ()  # the comparatives the point writes (``comparisons.of_point``)
    orders: tuple = ()  # the "先 X 再 Y" it writes (``comparisons.orders_of``)
    held: tuple = ()  # the names it writes (``substitutes.of_point``)
    names: substitutes.Names = substitutes.NO_NAMES  # every name the bank writes
    asked: frozenset[str] = frozenset()  # the names the question's texts write


def of_question(
    question: Question, names: substitutes.Names = substitutes.NO_NAMES
) -> list[Lapses]:
    """Each key point's ``Lapses`` (``names``: the bank's)."""
    own = [
        credits.of_point(text, [s for s in question.sources if i in s.points])
        for i, text in enumerate(question.key_points, 1)
    ]
    others = credits.rivals((question.question, *question.key_points), [n for c in own for n in c])
    values = defaults.names_of([c.zh for r in question.rubric for c in r.claims])
    known = measures.known(question)
    asked = substitutes.written((question.question, *question.key_points))
    cutter = words.lexicon().extended(aliases.words_of(question))
    return [
        Lapses(
            mine,
            others,
            tuple(defaults.of_claim(c.zh, c.en, c.value) for c in r.claims),
            values,
            tuple(ratios.of_claim([c.subject, c.object or "", c.relation or ""]) for c in r.claims),
            tuple(against.shares_of(c.zh, c.value) for c in r.claims),
            known,
            swaps.of_point(read),
            comparisons.of_point(read),
            comparisons.orders_of(read),
            substitutes.of_point(read, mine),
            names,
            asked,
        )
        for mine, r, text in zip(own, question.rubric, question.key_points, strict=True)
        for read in [Attempt(text, "", cutter=cutter)]  # the point read once, like an attempt
    ]


def first(
    lapses: Lapses, text: str, claims: Sequence[Claim], attempt: Attempt, said: Sequence[int]
) -> tuple[int, str] | None:
    """The clause of the first lapse ``attempt`` makes on a point, and the key shown beside it.

    ``text``: the point's text; ``said``: the clauses where its claims are said.
    """
    n = credits.misattributed(lapses.credits, lapses.others, attempt, said)
    if n is not None:
        return n, credits.shown(lapses.credits, text)
    put = substitutes.substituted(lapses.held, lapses.names, lapses.asked, attempt, said)
    put = put or substitutes.stood_in(lapses.held, lapses.names, lapses.asked, attempt)
    if put is not None:
        return put
    for claim, held in zip(claims, lapses.ratios, strict=True):
        n = ratios.inverted(held, attempt, claim.subject)
        if n is not None:
            return n, claim.zh
    for claim, default in zip(claims, lapses.defaults, strict=True):
        n = defaults.denied(default, lapses.values, attempt) if default else None
        if n is not None:
            return n, claim.zh
    for claim, shares in zip(claims, lapses.shares, strict=True):
        others = [c.subject for c in claims if c is not claim]
        n = against.denied(claim, shares, lapses.known, attempt, others)
        if n is not None:
            return n, claim.zh
    for swap in lapses.swaps:
        n = swaps.swapped(swap, attempt)
        if n is not None:
            return n, clip(text, 40)
    turned = comparisons.reversed_in(lapses.comparisons, attempt)
    turned = turned or comparisons.reordered(lapses.orders, attempt)
    return (turned[0], turned[1] or clip(text, 40)) if turned else None
