"""Grading a quiz attempt against the question's key points.

Two graders give the same ``Grade``:

- offline, a transparent local estimate: each key point is reduced to its
  key terms (latin words, numbers, CJK character bigrams), each term weighted
  by how rare it is across the bank's key points, and the point counts as
  covered when the attempt holds at least ``COVERED_AT`` of its weight;
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
from dataclasses import dataclass

from studybot import prompt, tokens
from studybot.bank import Bank, Question
from studybot.errors import StudybotError
from studybot.providers.base import Provider, Usage

COVERED_AT = 0.2  # share of a point's term weight the attempt must hold to cover it
LATIN_WEIGHT = 2.0  # technical words and numbers say more than a CJK bigram
OFFLINE, LIVE, FALLBACK = "offline", "live", "offline-fallback"

_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*|\d+(?:\.\d+)?")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
# Function characters: a bigram holding one says nothing about the topic.
_CJK_FILLER = set("的了是在和与及或等也都就而被把这那个一种们为以其之有要会能可对中上下")
_LATIN_FILLER = {"a", "an", "the", "of", "to", "in", "is", "are", "and", "or", "for", "on", "as"}


@dataclass(frozen=True)
class PointResult:
    point: str
    covered: bool


@dataclass(frozen=True)
class Grade:
    score: float | None  # covered / total, 0-1; None when there was nothing to grade against
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
    def total(self) -> int:
        return len(self.points)


def reference_points(question: Question) -> tuple[str, ...]:
    """What an attempt is graded against: the key points, else the reference split up."""
    if question.key_points:
        return question.key_points
    reference = getattr(question, "reference", None) or ""
    lines = [re.sub(r"^\s*(?:[-*+]|\d+[.、)）])\s*", "", line) for line in reference.splitlines()]
    points = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    if len(points) <= 1 and reference.strip():
        # One paragraph: its sentences are the points.
        points = [s.strip() for s in re.split(r"(?<=[。！？.!?；;])", reference) if s.strip()]
    return tuple(points)


def terms(text: str) -> Counter[str]:
    """Key terms of ``text``: lower-cased latin words and numbers, and CJK bigrams."""
    out: Counter[str] = Counter()
    for word in _LATIN.findall(text):
        word = word.lower()
        if word not in _LATIN_FILLER:
            out[word] += 1
    for run in _CJK_RUN.findall(text):
        for i in range(len(run) - 1):
            pair = run[i : i + 2]
            if not (set(pair) & _CJK_FILLER):
                out[pair] += 1
    return out


class OfflineGrader:
    """The local estimate; term weights come from how often a term appears across the bank."""

    def __init__(self, bank: Bank) -> None:
        documents = [set(terms(" ".join(reference_points(q)))) for q in bank.questions]
        self.size = max(1, len(documents))
        self.frequency: Counter[str] = Counter(t for doc in documents for t in doc)

    def weight(self, term: str) -> float:
        rarity = math.log(1 + self.size / (1 + self.frequency[term]))
        return rarity * (LATIN_WEIGHT if term.isascii() else 1.0)

    def coverage(self, point: str, attempt_terms: Counter[str]) -> float:
        """Share of ``point``'s term weight that the attempt holds (0-1)."""
        wanted = set(terms(point))
        total = sum(self.weight(t) for t in wanted)
        if total == 0:
            return 0.0
        return sum(self.weight(t) for t in wanted if t in attempt_terms) / total

    def grade(self, question: Question, attempt: str) -> Grade:
        points = reference_points(question)
        if not points:
            return Grade(None, (), "this question has no key points to grade against", OFFLINE)
        held = terms(attempt)
        results = tuple(PointResult(p, self.coverage(p, held) >= COVERED_AT) for p in points)
        return Grade(_score(results), results, advice(results, attempt), OFFLINE)


def _score(results: Sequence[PointResult]) -> float:
    return round(sum(r.covered for r in results) / len(results), 3)


def advice(results: Sequence[PointResult], attempt: str) -> str:
    """One line: what to do next, naming the first missed point."""
    missed = [n for n, r in enumerate(results, start=1) if not r.covered]
    if not attempt.strip():
        return "No attempt: read the key points, then try it in your own words next time."
    if not missed:
        return "Every key point covered; add the numbers and trade-offs an interviewer asks next."
    first = _clip(results[missed[0] - 1].point, 40)
    return f"Missed {len(missed)} of {len(results)}; start with point {missed[0]}: {first}"


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
    results = tuple(PointResult(p, covered[n]) for n, p in enumerate(points, start=1))
    return results, " ".join(advice_line.split())


def live(
    provider: Provider,
    offline: OfflineGrader,
    messages: prompt.Messages,
    question: Question,
    attempt: str,
) -> Grade:
    """Grade through the model with the side request ``messages`` (ending in ``grading_request``).

    An empty attempt is graded without a request: there is nothing to judge.
    """
    points = reference_points(question)
    if not points or not attempt.strip():
        return offline.grade(question, attempt)
    spent: list[Usage] = []
    problem = ""
    for _ in range(2):  # one retry on a malformed reply
        try:
            reply = provider.grade(messages, question=question)  # type: ignore[attr-defined]
        except StudybotError as exc:
            # The answer is saved already; a failed side request must not end the session.
            problem = f"the grading request failed: {exc.message}"
            break
        # "reported usage or local count", as for every other request
        spent.append(reply.usage or Usage(tokens.prompt_tokens(messages), tokens.count(reply.text)))
        try:
            results, line = parse(reply.text, points)
        except Malformed as exc:
            problem = f"the model's grade was malformed twice ({exc})"
            continue
        return Grade(_score(results), results, line, LIVE, _sum(spent), len(spent))
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
