"""Grading a quiz attempt against the question's key points.

Two graders give the same ``Grade``:

- offline, a transparent local estimate: each key point is reduced to its
  key terms (studybot.terms: term variants merged, latin words, symbols,
  numbers, CJK character bigrams), each term weighted by how rare it is
  across the bank's key points; a point's coverage is the share of the
  weight it needs that the attempt holds, shown per point, and the point is
  covered from ``COVERED_AT``, partly (counting half) from ``PARTLY_AT``;
- live, one side request (like a follow-up: it extends the main history but
  never enters it) whose reply must be JSON; a malformed reply is asked for
  once more, then the offline estimate is used and the grade says so (as
  when the side request itself fails).

Questions without key points are graded against their reference answer
(an imported bank's), split into points; with neither, there is no grade.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from studybot.bank import Bank, Question
from studybot.channel.providers.base import Provider
from studybot.costs import tokens
from studybot.errors import StudybotError
from studybot.learn.terms import terms
from studybot.types import Messages, Usage

ENOUGH = 18.0  # term weight that says a point (2-3 rare terms); long points need no more
COVERED_AT = 0.7  # share of a point's needed weight the attempt holds to cover it
PARTLY_AT = 0.25  # ... to cover it partly, which counts half
SPLIT = 0.5  # a term in k of the question's points weighs 1/sqrt(k) in each
LATIN_WEIGHT = 2.0  # technical words, symbols and numbers say more than a CJK bigram
QUESTION_WEIGHT = 0.25  # a term of the question itself: restating it proves little
OFFLINE, LIVE, FALLBACK = "offline", "live", "offline-fallback"
COVERED, PARTLY, MISSED, CONTRADICTED = "covered", "partly", "missed", "contradicted"
STATES = (COVERED, PARTLY, MISSED, CONTRADICTED)
CREDIT = {COVERED: 1.0, PARTLY: 0.5, MISSED: 0.0, CONTRADICTED: 0.0}


@dataclass(frozen=True)
class PointResult:
    """One key point of a graded attempt."""

    point: str
    state: str  # COVERED, PARTLY, MISSED or CONTRADICTED
    evidence: str | None = None  # the attempt's words that decided it (a quote)
    key: str | None = None  # a contradicted point: what the key claims, shown beside the evidence
    coverage: float | None = None  # offline term estimate: share of the needed weight held, 0-1

    @property
    def covered(self) -> bool:
        return self.state == COVERED

    @property
    def credit(self) -> float:
        """What the point adds to the score: 1 covered, 0.5 partly, 0 missed or contradicted."""
        return CREDIT[self.state]


@dataclass(frozen=True)
class Grade:
    score: float | None  # (covered + half the partly) / total, 0-1; None: nothing to grade
    points: tuple[PointResult, ...]
    advice: str  # one line
    source: str  # OFFLINE, LIVE or FALLBACK
    usage: Usage | None = None  # the side request(s), summed; None offline
    requests: int = 0  # side requests sent
    note: str | None = None  # why a live grade fell back to the estimate

    @property
    def covered(self) -> int:
        return sum(p.covered for p in self.points)

    @property
    def partly(self) -> int:
        return sum(p.state == PARTLY for p in self.points)

    @property
    def contradicted(self) -> int:
        return sum(p.state == CONTRADICTED for p in self.points)

    @property
    def total(self) -> int:
        return len(self.points)

    def with_states(self, states: Sequence[str]) -> Grade:
        """The grade with the learner's marks: the same points in ``states``, rescored."""
        points = tuple(
            replace(p, state=state) if state != p.state else p
            for p, state in zip(self.points, states, strict=True)
        )
        return replace(self, points=points, score=score(points) if points else self.score)


def reference_points(question: Question) -> tuple[str, ...]:
    """What an attempt is graded against: the key points, else the reference split up."""
    if question.key_points:
        return question.key_points
    reference = question.reference or ""
    lines = [re.sub(r"^\s*(?:[-*+]|\d+[.、)）])\s*", "", line) for line in reference.splitlines()]
    points = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    if len(points) <= 1 and reference.strip():
        # One paragraph: its sentences are the points.
        points = [s.strip() for s in re.split(r"(?<=[。！？.!?；;])", reference) if s.strip()]
    return tuple(points)


class OfflineGrader:
    """The local estimate; term weights come from how often a term appears across the bank.

    Per point: the attempt's share of the term weight the point needs, at
    most ``ENOUGH`` (an answer naming a point's rare terms covers it, however
    long the point is written). Terms of the question itself count
    ``QUESTION_WEIGHT``, and an attempt that adds nothing to them earns nothing.
    """

    def __init__(self, bank: Bank) -> None:
        # One document per key point: a term in every point of one question is still rare.
        documents = [set(terms(p)) for q in bank.questions for p in reference_points(q)]
        self.size = max(1, len(documents))
        self.frequency: Counter[str] = Counter(t for doc in documents for t in doc)

    def weight(self, term: str) -> float:
        rarity = math.log(1 + self.size / (1 + self.frequency[term]))
        return rarity * (LATIN_WEIGHT if term.isascii() else 1.0)

    def coverage(
        self,
        point: str,
        attempt_terms: Counter[str],
        asked: frozenset[str] = frozenset(),
        shared: Counter[str] | None = None,
    ) -> float:
        """Share of the weight ``point`` needs that the attempt holds (0-1).

        ``asked``: the question's terms; ``shared``: in how many of the
        question's points each term is, its weight split between them (a
        name every point repeats tells none of them apart).
        """
        weights = {
            t: self.weight(t)
            * (QUESTION_WEIGHT if t in asked else 1.0)
            / max(1, (shared or {}).get(t, 1)) ** SPLIT
            for t in terms(point)
        }
        need = min(sum(weights.values()), ENOUGH)
        if need == 0:
            return 0.0
        return min(1.0, sum(w for t, w in weights.items() if t in attempt_terms) / need)

    def grade(self, question: Question, attempt: str) -> Grade:
        points = reference_points(question)
        if not points:
            return Grade(None, (), "this question has no key points to grade against", OFFLINE)
        held, asked = terms(attempt), frozenset(terms(question.question))
        if not set(held) - asked:
            # Nothing beyond the question's own words (or nothing at all).
            results = tuple(PointResult(p, MISSED, coverage=0.0) for p in points)
            return Grade(0.0, results, advice(results, attempt, restated=bool(held)), OFFLINE)
        shared = Counter(t for p in points for t in set(terms(p)))
        results = []
        for point in points:
            share = round(self.coverage(point, held, asked, shared), 3)
            state = COVERED if share >= COVERED_AT else PARTLY if share >= PARTLY_AT else MISSED
            results.append(PointResult(point, state, coverage=share))
        return Grade(score(results), tuple(results), advice(results, attempt), OFFLINE)


def score(results: Sequence[PointResult]) -> float:
    """(covered + half the partly) / points; a contradicted point counts nothing."""
    return round(sum(r.credit for r in results) / len(results), 3)


def advice(results: Sequence[PointResult], attempt: str, restated: bool = False) -> str:
    """One line: what to do next, naming the first point not covered."""
    missed = [n for n, r in enumerate(results, start=1) if not r.covered]
    if not attempt.strip():
        return "No attempt: read the key points, then try it in your own words next time."
    if restated:
        return "That restates the question; answer it in your own words next time."
    if not missed:
        return "Every key point covered; add the numbers and trade-offs an interviewer asks next."
    first = _clip(results[missed[0] - 1].point, 40)
    partly = sum(r.state == PARTLY for r in results)
    left = f"{len(missed)} of {len(results)} not covered" + (
        f" ({partly} partly)" if partly else ""
    )
    return f"{left}; start with point {missed[0]}: {first}"


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "…"


# -- live -----------------------------------------------------------------------

_ASK = """请给用户对上面这道题的作答评分，不要重新作答。
参考要点：
{points}

用户的作答：
<<<
{attempt}
>>>

逐条判断作答是否覆盖了每个参考要点（意思对即可，不要求原文）。只输出一个 JSON 对象，格式：
{{"points": [{{"n": 1, "covered": true}}, ...], "advice": "一句话建议"}}
points 必须按 n = 1..{count} 各出现一次。"""


class Malformed(ValueError):
    """A grading reply that is not the JSON object asked for."""


def grading_request(question: Question, attempt: str) -> str:
    points = reference_points(question)
    listed = "\n".join(f"{n}. {p}" for n, p in enumerate(points, start=1))
    return _ASK.format(points=listed, attempt=attempt.strip(), count=len(points))


def parse(text: str, points: Sequence[str]) -> tuple[tuple[PointResult, ...], str]:
    """The strict reading of a grading reply: every point once, booleans, one advice line."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise Malformed(f"not JSON ({exc.msg})") from None
    if not isinstance(data, dict) or not isinstance(data.get("points"), list):
        raise Malformed("no points list")
    covered: dict[int, bool] = {}
    for item in data["points"]:
        n = item.get("n") if isinstance(item, dict) else None
        flag = item.get("covered") if isinstance(item, dict) else None
        if not isinstance(n, int) or not isinstance(flag, bool) or n in covered:
            raise Malformed("a point without an integer n and a boolean covered")
        covered[n] = flag
    if sorted(covered) != list(range(1, len(points) + 1)):
        raise Malformed(f"points numbered {sorted(covered)}, expected 1..{len(points)}")
    advice_line = data.get("advice")
    if not isinstance(advice_line, str) or not advice_line.strip():
        raise Malformed("no advice")
    results = tuple(
        PointResult(p, COVERED if covered[n] else MISSED) for n, p in enumerate(points, start=1)
    )
    return results, " ".join(advice_line.split())


def judge(
    provider: Provider,
    offline: OfflineGrader,
    messages: Messages,
    question: Question,
    attempt: str,
) -> Grade:
    """Grade through the provider with the side request ``messages`` (ending in ``grading_request``).

    A provider that declines (the answer key) leaves it to the local
    estimate; an empty attempt is graded without a request: there is nothing to judge.
    """
    points = reference_points(question)
    if not points or not attempt.strip():
        return offline.grade(question, attempt)
    spent: list[Usage] = []
    problem = ""
    for _ in range(2):  # one retry on a malformed reply
        try:
            reply = provider.grade(messages, question=question)
        except StudybotError as exc:
            # The answer is saved already; a failed side request must not end the session.
            problem = f"the grading request failed: {exc.message}"
            break
        if reply is None:
            return offline.grade(question, attempt)
        spent.append(tokens.settle(reply.usage, messages, reply.text).usage)
        try:
            results, line = parse(reply.text, points)
        except Malformed as exc:
            problem = f"the model's grade was malformed twice ({exc})"
            continue
        return Grade(score(results), results, line, LIVE, _sum(spent), len(spent))
    fallback = offline.grade(question, attempt)
    note = f"{problem}; showing the offline estimate"
    return Grade(
        fallback.score,
        fallback.points,
        fallback.advice,
        FALLBACK,
        _sum(spent),
        len(spent),
        note=note,
    )


def _sum(usages: Sequence[Usage]) -> Usage | None:
    if not usages:
        return None
    return Usage(
        prompt_tokens=sum(u.prompt_tokens for u in usages),
        completion_tokens=sum(u.completion_tokens for u in usages),
        cached_tokens=sum(u.cached_tokens for u in usages),
    )
