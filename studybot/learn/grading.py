"""Grading a quiz attempt against the question's key points: the grade and the offline grader.

Two graders give the same ``Grade``:

- offline, a question with a rubric is graded on it (``rubric``: what each
  point claims, found, partly found, missed or contradicted, with the clause
  that decided it); a question without one (an imported bank) gets the term
  estimate (``term_estimate``), and the grade says which (``grader``). The
  offline grader of a bank is built once per process (``offline``), and
  ``warm`` builds it ahead, in a thread, while the learner types;
- live, one side request through the model (``live_grade``), falling back
  to the offline grade when its reply cannot be used.

Questions without key points are graded against their reference answer
(an imported bank's), split into points; with neither, there is no grade.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from studybot.bank import Bank, Question
from studybot.bank.text import clip
from studybot.learn.marks import (
    CONTRADICTED,
    COVERED,
    CREDIT,
    MISSED,
    PARTLY,
    STATES,
    mean_credit,
)
from studybot.types import NONE_DISCARDED, Discarded, Usage

if TYPE_CHECKING:  # the grader's word lists load when a grade needs them (``warm``)
    from studybot.learn import rubric
    from studybot.learn.substitutes import Names
    from studybot.learn.term_estimate import TermEstimate

__all__ = ["CONTRADICTED", "COVERED", "CREDIT", "MISSED", "PARTLY", "STATES"]

OFFLINE, LIVE, FALLBACK = "offline", "live", "offline-fallback"
RUBRIC, TERM_ESTIMATE, MODEL = "rubric", "term estimate", "model"  # Grade.grader
BANKS_KEPT = 4  # offline graders kept per process (one per bank)


@dataclass(frozen=True)
class PointResult:
    """One key point of a graded attempt."""

    point: str
    state: str  # COVERED, PARTLY, MISSED or CONTRADICTED
    evidence: str | None = None  # the attempt's words that decided it (a quote)
    key: str | None = None  # a contradicted point: what the key claims, shown beside the evidence
    coverage: float | None = None  # offline term estimate: share of the needed weight held, 0-1
    mentioned: bool = False  # missed, its terms named without a statement ("mentioned only")

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
    discarded: Discarded = NONE_DISCARDED  # beside ``requests``: sent and thrown away (retries)
    note: str | None = None  # why a live grade fell back to the offline one
    grader: str = RUBRIC  # RUBRIC or TERM_ESTIMATE offline (and in a fallback), MODEL live

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
            replace(p, state=state, mentioned=p.mentioned and state == MISSED)
            if state != p.state
            else p
            for p, state in zip(self.points, states, strict=True)
        )
        return replace(self, points=points, score=score(points) if points else self.score)


def reference_points(question: Question) -> tuple[str, ...]:
    """What an attempt is graded against: the key points, else the reference split up."""
    if question.key_points:
        return question.key_points
    reference = question.reference or ""
    prose, code = _prose_and_code(reference)
    lines = [re.sub(r"^\s*(?:[-*+]|\d+[.、)）])\s*", "", line) for line in prose]
    points = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    if len(points) <= 1 and prose:
        # One paragraph: its sentences are the points.
        text = "\n".join(prose)
        points = [s.strip() for s in re.split(r"(?<=[。！？.!?；;])", text) if s.strip()]
    return tuple(points) or ((code,) if code else ())


_FENCE = re.compile(r"^\s*(?:`{3,}|~{3,})")


def _prose_and_code(reference: str) -> tuple[list[str], str]:
    """The lines outside fenced code, and the code: an attempt in words is not graded
    against ```` ``` ```` lines and loop bodies (the code is the point only when it is all)."""
    prose: list[str] = []
    code: list[str] = []
    fenced = False
    for line in reference.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        else:
            (code if fenced else prose).append(line)
    return prose, "\n".join(code).strip()


class OfflineGrader:
    """A bank's offline grader: the rubric where a question has one, else the term estimate.

    A question's rubric is compiled the first time it is graded; use
    ``offline(bank)``, which builds the grader once.
    """

    def __init__(self, bank: Bank) -> None:
        self.bank = bank
        self._points: dict[Question, rubric.Rubric] = {}
        self._names: Names | None = None  # every name the bank writes, read at the first grade
        self._estimate: TermEstimate | None = None
        self._lock = threading.Lock()

    def grade(self, question: Question, attempt: str) -> Grade:
        points = reference_points(question)
        if not points:
            return Grade(None, (), "this question has no key points to grade against", OFFLINE)
        grader = RUBRIC if question.rubric else TERM_ESTIMATE
        if not attempt.strip():
            results = tuple(PointResult(p, MISSED) for p in points)
            return Grade(0.0, results, advice(results, attempt), OFFLINE, grader=grader)
        if question.rubric:
            return self._on_rubric(question, attempt)
        return self._estimated(question, points, attempt)

    def _on_rubric(self, question: Question, attempt: str) -> Grade:
        verdicts, read = self._compiled(question).grade(attempt)
        results = tuple(
            PointResult(point, v.state, v.evidence, v.key, mentioned=v.mentioned)
            for point, v in zip(question.key_points, verdicts, strict=True)
        )
        restated = not read.clauses
        return Grade(score(results), results, advice(results, attempt, restated), OFFLINE)

    def compiled(self, question: Question) -> rubric.Rubric:
        """The question's rubric, compiled once (a question with one)."""
        return self._compiled(question)

    def _compiled(self, question: Question) -> rubric.Rubric:
        with self._lock:
            if question not in self._points:
                self._points[question] = self._kept(question) or self._compile(question)
            return self._points[question]

    def _kept(self, question: Question) -> rubric.Rubric | None:
        from studybot.learn import rubric_cache

        return rubric_cache.load(self.bank, question)

    def _compile(self, question: Question) -> rubric.Rubric:
        from studybot.learn import rubric, rubric_cache

        self._names = self._names or _names(self.bank)
        compiled = rubric.compile_rubric(question, self._names)
        rubric_cache.save(self.bank, question, compiled)
        return compiled

    def _estimated(self, question: Question, points: tuple[str, ...], attempt: str) -> Grade:
        from studybot.learn.term_estimate import TermEstimate

        with self._lock:
            if self._estimate is None:
                self._estimate = TermEstimate(self.bank, reference_points)
        marks = self._estimate.marks(question, points, attempt)
        if marks is None:  # nothing beyond the question's own words
            results = tuple(PointResult(p, MISSED, coverage=0.0) for p in points)
            line = advice(results, attempt, restated=True)
            return Grade(0.0, results, line, OFFLINE, grader=TERM_ESTIMATE)
        results = tuple(
            PointResult(p, state, coverage=share)
            for p, (state, share) in zip(points, marks, strict=True)
        )
        return Grade(
            score(results), results, advice(results, attempt), OFFLINE, grader=TERM_ESTIMATE
        )


def _names(bank: Bank) -> Names:
    """The names of the bank's key points, claims and sources (``substitutes``)."""
    from studybot.learn.substitutes import Names

    texts = [t for q in bank.questions for t in q.key_points]
    claims = [c for q in bank.questions for r in q.rubric for c in r.claims]
    cites = [s.cite for q in bank.questions for s in q.sources]
    return Names.of_bank(texts + [c.zh for c in claims], cites)


_graders: dict[Bank, OfflineGrader] = {}
_graders_lock = threading.Lock()


def offline(bank: Bank) -> OfflineGrader:
    """The bank's offline grader, built on first use and kept for the process."""
    with _graders_lock:  # a second caller waits for the first one's build
        grader = _graders.get(bank)
        if grader is None:
            if len(_graders) >= BANKS_KEPT:
                _graders.pop(next(iter(_graders)))
            grader = _graders[bank] = OfflineGrader(bank)
        return grader


def warm(bank: Bank) -> None:
    """Build the bank's offline grader now: call it in a thread while the learner types.

    The first grade after it is as fast as any other; without it, the first
    grade of the process pays for loading the grader's word lists (imported
    here, not before the first question is on screen).
    """
    from studybot.learn import rubric, term_estimate  # noqa: F401 - loaded now, used by the grade

    offline(bank)


def score(results: Sequence[PointResult]) -> float:
    """(covered + half the partly) / points; a contradicted point counts nothing."""
    return mean_credit([r.state for r in results])


def advice(results: Sequence[PointResult], attempt: str, restated: bool = False) -> str:
    """One line: what to do next, naming the first point not covered."""
    missed = [n for n, r in enumerate(results, start=1) if not r.covered]
    if not attempt.strip():
        return "No attempt: read the key points, then try it in your own words next time."
    if restated:
        return "That restates the question; answer it in your own words next time."
    if not missed:
        return "Every key point covered; add the numbers and trade-offs an interviewer asks next."
    wrong = [n for n, r in enumerate(results, start=1) if r.state == CONTRADICTED]
    if wrong:
        said = results[wrong[0] - 1]
        many = f"{len(wrong)} points contradict" if len(wrong) > 1 else "1 point contradicts"
        return f"{many} the key; start with point {wrong[0]}: {clip(said.key or said.point, 40)}"
    first = clip(results[missed[0] - 1].point, 40)  # Markdown: a code span is kept whole
    partly = sum(r.state == PARTLY for r in results)
    absent = len(missed) - partly  # missed outright (no point here is contradicted)
    counts = [f"{absent} missed"] if absent else []
    counts += [f"{partly} partly covered"] if partly else []
    return f"{' and '.join(counts)} of {len(results)}; start with point {missed[0]}: {first}"
