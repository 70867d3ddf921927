"""The offline grader on the rubric: what each key point claims, found or contradicted.

Per key point (docs/bank-format.md, "The rubric"; how an alias is found:
``reading``):

- each concept, and the claim, is a requirement; found negated, with the
  opposite relation, or said of a rival side of the comparison, it
  contradicts the point;
- a rubric number is a requirement found by value (``numbers``); when it is
  absent, a figure of its family that the question does not state, in a
  clause about the point, is a wrong number and contradicts it;
- a ``wrong`` alternative said un-negated, its words in order and close
  together, contradicts the point ("并不是与头数无关" is nothing), unless
  right alternatives of the question explain the clause.

A point is contradicted, else covered (every requirement found; with three
or more, all but one), else partly (at least one found), else missed.
Clauses that only repeat the question earn nothing."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace

from studybot.bank import Bank, Question
from studybot.bank.rubric import Number, PointRubric
from studybot.learn import numbers as figures
from studybot.learn.aliases import Alias
from studybot.learn.marks import CONTRADICTED, COVERED, MISSED, PARTLY, clip
from studybot.learn.reading import ELSEWHERE, FOUND, NEGATED, Asked, Attempt
from studybot.learn.sides import Sides, sides
from studybot.learn.words import Clause

EVIDENCE_CHARS = 40  # the clause shown as evidence, trimmed to about this many characters
ALL_BUT_ONE_FROM = 3  # a point with this many requirements (concepts, claim, numbers) or more
# is covered with one of them missing


@dataclass(frozen=True)
class Point:
    """One key point with its rubric, compiled."""

    text: str
    concepts: tuple[Alias, ...]
    claim: Alias | None
    wrong: tuple[Alias, ...]
    numbers: tuple[Number, ...]
    known: tuple[Number, ...] = ()  # figures the question's key points state: never a wrong one

    @classmethod
    def of(cls, text: str, rubric: PointRubric, known: tuple[Number, ...] = ()) -> Point:
        return cls(
            text=text,
            concepts=tuple(Alias.of(c) for c in rubric.concepts),
            claim=Alias.of(rubric.claim) if rubric.claim else None,
            wrong=tuple(Alias.of(w, formulas=True) for w in rubric.wrong),
            numbers=rubric.numbers,
            known=known,
        )

    @property
    def needed(self) -> tuple[Alias, ...]:
        return self.concepts + ((self.claim,) if self.claim else ())

    def key(self) -> str:
        """What the key claims, shown beside a contradicting quote."""
        return (self.claim or self.concepts[0]).shown()


@dataclass(frozen=True)
class Verdict:
    """A point as the rubric reads an attempt: its state and the clause that decided it."""

    state: str  # COVERED, PARTLY, MISSED or CONTRADICTED
    evidence: str | None
    key: str | None = None


def verdict(
    point: Point, attempt: Attempt, right: Sequence[Alias] = (), side: str | None = None
) -> Verdict:
    """The state of ``point`` in ``attempt``, with the clause that decided it.

    ``right``: every concept and claim alias of the question, which can
    explain a clause that holds a wrong alternative's words; ``side``: the
    compared side the point is about, whose properties said of a rival
    side contradict it.
    """
    needed = [attempt.look(alias, side) for alias in point.needed]
    topic = {n for seen in needed for n in seen.holding}  # clauses about this point
    for alias in point.wrong:
        # A wrong claim is read in its words' order, close together:
        # "缓存后每步只算新 token 的 q" is not "缓存 Q".
        seen = attempt.look(alias, ordered=True)
        if seen.state != FOUND or attempt.explained(seen, right):
            continue
        if seen.size > 1 or seen.clause in topic:  # one word alone says little out of context
            return _contradicted(point, attempt.clauses[seen.clause])
    met: list[Clause] = []  # the clause of each requirement found
    missing = 0
    others = [alias for alias in right if alias not in point.needed]  # never its own words
    for alias, seen in zip(point.needed, needed, strict=True):
        if seen.state in (NEGATED, ELSEWHERE) and not attempt.explained(seen, others):
            return _contradicted(point, attempt.clauses[seen.clause], alias.shown())
        if seen.state == FOUND:
            met.append(attempt.clauses[seen.clause])
        else:
            missing += 1
    for number in point.numbers:
        said = [
            c for c in attempt.clauses if any(figures.matches(f, number) for f in _figs(c, number))
        ]
        if said:
            met.append(said[0])
            continue
        missing += 1
        for n in sorted(topic):
            clause = attempt.clauses[n]
            if any(_wrong_figure(f, point, number) for f in _figs(clause, number)):
                return _contradicted(point, clause)
    if not met:
        return Verdict(MISSED, None)
    total = len(met) + missing
    # A point of three requirements or more holds with all but one: a full answer names
    # what the point claims, rarely every word of it.
    held = not missing or (total >= ALL_BUT_ONE_FROM and missing == 1)
    return Verdict(COVERED if held else PARTLY, _clip(met[0].text))


def _contradicted(point: Point, clause: Clause, key: str | None = None) -> Verdict:
    """The point contradicted by ``clause``; ``key``: what it claims there (its claim by default)."""
    return Verdict(CONTRADICTED, _clip(clause.text), key or point.key())


def _wrong_figure(found: tuple[float, ...], point: Point, number: Number) -> bool:
    """A figure of ``number``'s family that no key point of the question states."""
    family = figures.family(number)
    others = [k for k in point.known if figures.family(k) == family]
    return not any(figures.matches(found, k) for k in (number, *others))


def _figs(clause: Clause, number: Number) -> list[tuple[float, ...]]:
    return figures.figures(clause.normal, number, normalised=True)


@dataclass(frozen=True)
class Rubric:
    """A question's rubric, compiled: its points, every right alias, the sides it compares."""

    points: tuple[Point, ...]
    right: tuple[Alias, ...]
    sides: Sides
    asked: Asked

    def grade(self, attempt: str) -> tuple[list[Verdict], Attempt]:
        read = Attempt(attempt, self.asked, self.sides)
        return [
            verdict(point, read, self.right, side)
            for point, side in zip(
                self.points, self.sides.of_point or _nones(self.points), strict=True
            )
        ], read


def compile_rubric(question: Question) -> Rubric:
    compiled = points(question)
    right = tuple(alias for point in compiled for alias in point.needed)
    compared = sides(question.question, question.key_points)
    return Rubric(compiled, right, compared, Asked.of(question.question))


def _nones(items: Sequence) -> tuple[None, ...]:
    return (None,) * len(items)


def points(question: Question) -> tuple[Point, ...]:
    """The question's key points with their rubric, compiled."""
    known = _known(question)
    return tuple(
        Point.of(t, r, known) for t, r in zip(question.key_points, question.rubric, strict=True)
    )


def _known(question: Question) -> tuple[Number, ...]:
    """Every figure the question states (its text, key points and rubric), per rubric unit family.

    A figure of the question is never a wrong one: correct answers quote them all.
    """
    texts = (question.question, *question.key_points)
    out: list[Number] = []
    for rubric in question.rubric:
        for number in rubric.numbers:
            out.append(number)
            unit = figures.expected(replace(number, value=1.0))[0]
            for text in texts:
                for found in figures.figures(text, number):
                    out.append(replace(number, value=found[0] / unit))
                for found in figures.figures(text, Number(1.0)):  # the bare figures too
                    out.append(replace(number, value=found[0] / unit))
    return tuple(out)


def alias_words(bank: Bank) -> set[str]:
    """Every word of every alias of the bank's rubric, as written (NFKC, lower case)."""
    out: set[str] = set()
    for question in bank.questions:
        for rubric in question.rubric:
            for alias in (*rubric.concepts, *filter(None, [rubric.claim]), *rubric.wrong):
                out.update(unicodedata.normalize("NFKC", alias).lower().replace("|", " ").split())
    return out


def _clip(text: str) -> str:
    return clip(text, EVIDENCE_CHARS)
