"""The rubric graded against itself: cases made from every claim, each with the mark it must get.

For every key point of a bank with a rubric (``cases``):

- ``own text``: the point's own text is ✓ on its point and ⚠ on none;
- ``reference``: the question's key points together grade 100%, no ⚠;
- ``zh`` / ``en``: each claim's Chinese and English sentence states that
  claim, and nothing of the question is ⚠;
- ``negated``: the claim's sentence with its relation negated (并非 before
  it), or its value changed, is ⚠ on the point;
- ``reversed``: ... with the opposite relation said instead (and, for an
  ordered claim, subject and object swapped) is ⚠;
- ``listed``: the claim's terms as a bare list, each in its shortest
  wording ("A，B，C" and "A、B、C"), earn nothing.

``run`` grades them all and returns what failed; ``bank validate
--self-test`` prints the counts, and the shipped bank's are held to zero
in CI.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from studybot.bank import Bank, Question
from studybot.learn import grading
from studybot.learn.claims import STATED, Claim
from studybot.learn.clauses import width
from studybot.learn.marks import CONTRADICTED, COVERED
from studybot.learn.rubric import Rubric

KINDS = ("own text", "reference", "zh", "en", "negated", "reversed", "listed")
NEGATION = "并非"


@dataclass(frozen=True)
class Case:
    """One attempt made from the rubric, and what it must get."""

    question: int
    point: int  # 1-based; 0 for the whole reference
    claim: int  # 1-based; 0 for a case about the point
    kind: str  # one of KINDS
    text: str


@dataclass(frozen=True)
class Failure:
    case: Case
    got: str  # what the grader did instead, in a few words


def run(bank: Bank) -> tuple[Counter[str], list[Failure]]:
    """Every case of the bank's rubric graded: the cases per kind, and those that failed."""
    grader = grading.offline(bank)
    counted: Counter[str] = Counter()
    failed: list[Failure] = []
    for question in bank.questions:
        if not question.rubric:
            continue
        compiled = grader.compiled(question)
        for case in cases(question, compiled):
            counted[case.kind] += 1
            problem = check(case, question, compiled)
            if problem:
                failed.append(Failure(case, problem))
    return counted, failed


def cases(question: Question, compiled: Rubric) -> Iterator[Case]:
    qid = question.id
    yield Case(qid, 0, 0, "reference", "\n".join(question.key_points))
    for p, (text, point) in enumerate(zip(question.key_points, compiled.points, strict=True), 1):
        yield Case(qid, p, 0, "own text", text)
        for c, claim in enumerate(point.claims, start=1):
            yield Case(qid, p, c, "zh", claim.zh)
            yield Case(qid, p, c, "en", claim.en)
            negated = _negated(claim, compiled)
            if negated:
                yield Case(qid, p, c, "negated", negated)
            reversed_ = _reversed(claim, compiled)
            if reversed_:
                yield Case(qid, p, c, "reversed", reversed_)
            for mark in ("，", "、"):
                yield Case(qid, p, c, "listed", mark.join(_terms(claim)))


def check(case: Case, question: Question, compiled: Rubric) -> str | None:
    """What is wrong with the grade of ``case`` (None: it got what it must)."""
    verdicts, _ = compiled.grade(case.text)
    alarms = [n for n, v in enumerate(verdicts, 1) if v.state == CONTRADICTED]
    if case.kind == "reference":
        short = [n for n, v in enumerate(verdicts, 1) if v.state != COVERED]
        return f"points {short} not ✓" if short else None
    point = verdicts[case.point - 1]
    if case.kind == "own text":
        if point.state != COVERED:
            return f"{point.state}"
        return f"⚠ on points {alarms}" if alarms else None
    said = point.said[case.claim - 1] if point.said else None
    if case.kind in ("zh", "en"):
        if alarms:
            return f"⚠ on points {alarms} ({verdicts[alarms[0] - 1].evidence})"
        return None if said and said.state == STATED else f"claim {said.state if said else '?'}"
    if case.kind in ("negated", "reversed"):
        return None if point.state == CONTRADICTED else f"{point.state}"
    # listed: the bare terms earn nothing
    return None if said is None or said.state != STATED else "stated by a bare list"


def _negated(claim: Claim, compiled: Rubric) -> str | None:
    """The claim's statement with 并非 before its relation, or its value changed."""
    found = _relation_span(claim, compiled, claim.relation)
    if found is not None:
        text, start, _ = found
        if text[:start].rstrip().endswith(("是否", "是不是")):
            return None  # "检查字段是否齐全": a negation after 是否 still asks whether
        return text[:start] + NEGATION + text[start:]
    if claim.value is not None:
        known = next((p.known for p in compiled.points if claim in p.claims), ((), ()))
        return _wrong_value(claim, width(claim.zh), known)
    return None


def _reversed(claim: Claim, compiled: Rubric) -> str | None:
    """The claim's statement with its opposite relation said instead of its relation."""
    if claim.opposite is None:
        return None
    found = _relation_span(claim, compiled, claim.relation)
    if found is None:
        return None
    text, start, end = found
    return text[:start] + _written(claim.opposite.text.split("|")[0]) + text[end:]


def _relation_span(claim: Claim, compiled: Rubric, alias) -> tuple[str, int, int] | None:
    """The claim's sentence up to the clause that says its relation, and where it says it.

    Later clauses are left out: they may say the claim again in other words.
    """
    if alias is None:
        return None
    text = width(claim.zh)
    read = compiled.read(claim.zh)
    offset = 0
    for n, clause in enumerate(read.clauses):
        offset = text.find(clause.text, offset)
        for phrase in read.phrases(n, alias):
            if phrase.negated:
                continue
            start = clause.at[phrase.first]
            end = clause.at[min(phrase.last, len(clause.at) - 1)]
            if phrase.last >= len(clause.joined):
                end = len(clause.text)
            return text[: offset + len(clause.text)], offset + start, offset + end
    return None


WRONG_FACTORS = (3, 7, 0.1, 13)  # a claim's value times one of these is a wrong one


def _wrong_value(claim: Claim, text: str, known=((), ())) -> str | None:
    """``text`` with the claim's figure replaced by a wrong one no figure of the question is."""
    from studybot.learn import numbers, spelling
    from studybot.learn.statements import known_figure

    value = claim.value
    if value is None:
        return None  # only a claim with a value has a wrong one
    normal, where = spelling.normalise_mapped(text)
    for start, values in numbers.located(normal, value, normalised=True, bare=True):
        if not numbers.matches(values, value):
            continue
        at = where[start]
        digits = ""
        for char in text[at:]:
            if not (char.isdigit() or char in ".,"):
                break
            digits += char
        if not digits:
            return None
        written = float(digits.replace(",", ""))
        for factor in WRONG_FACTORS:
            wrong = written * factor
            scaled = tuple(v * factor for v in values)
            if not known_figure(scaled, known) and not numbers.matches(scaled, value):
                return text[:at] + f"{wrong:g}" + text[at + len(digits) :]
        return None
    return None


def _terms(claim: Claim) -> list[str]:
    """The claim's parts and relation as a keyword list names them: each one's shortest wording."""
    aliases = [claim.subject, claim.object, claim.relation]
    return [
        min((_written(part) for part in a.text.split("|") if part.split()), key=len)
        for a in aliases
        if a is not None
    ]


def _written(alternative: str) -> str:
    """An alias alternative as a person writes it: no spaces between Chinese words."""
    out = ""
    for word in alternative.split():
        joint = "" if out and _cjk(out[-1]) and _cjk(word[0]) else " "
        out = (out + joint + word) if out else word
    return out


def _cjk(char: str) -> bool:
    return "\u3400" <= char <= "\u9fff"


def summary(counted: Counter[str], failed: list[Failure]) -> list[str]:
    """One line per kind: cases and failures."""
    by_kind = Counter(f.case.kind for f in failed)
    return [
        f"{kind:<10} {counted[kind]:>6} cases  {by_kind[kind]:>5} failed"
        for kind in KINDS
        if counted[kind]
    ]


__all__ = ["KINDS", "Case", "Failure", "cases", "check", "run", "summary"]
