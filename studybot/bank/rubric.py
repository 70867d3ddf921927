"""The rubric of a key point: what an answer must say, and what saying the opposite looks like.

The types and the reader of ``[[questions.rubric]]`` tables
(docs/bank-format.md, "The rubric"); the grader that reads them is
``learn.grading``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

RUBRIC_KEYS = {"concepts", "claim", "wrong", "numbers"}
NUMBER_KEYS = {"value", "unit", "tolerance"}
CONCEPTS_PER_POINT = (1, 4)
DEFAULT_TOLERANCE = 0.05  # relative: 320 KiB accepts 304-336


@dataclass(frozen=True)
class Number:
    """A figure a key point states: an answer with another value in this unit contradicts it."""

    value: float
    unit: str | None = None  # "KiB", "倍", "%", ...; None: the bare number
    tolerance: float = DEFAULT_TOLERANCE  # relative to value


@dataclass(frozen=True)
class PointRubric:
    """What an answer must say to hold one key point (docs/bank-format.md, "The rubric").

    Each alias string lists alternatives separated by ``|``; an alternative is
    words that must all appear in one clause of the answer.
    """

    concepts: tuple[str, ...]  # 1-4 alias strings, each a thing the point claims
    claim: str | None = None  # the point's directional claim, as an alias string
    wrong: tuple[str, ...] = ()  # alias strings of claims that contradict the point
    numbers: tuple[Number, ...] = ()


def parse_rubric(
    raw: Any, points: int, question_id: int, where: Callable[..., str], problems: list[str]
) -> tuple[PointRubric, ...]:
    """A question's ``[[questions.rubric]]`` tables: one per key point, in order, or none."""
    if raw is None:
        return ()
    at = f"{where('rubric')}: Q{question_id} rubric"
    if not isinstance(raw, list) or not all(isinstance(r, dict) for r in raw):
        problems.append(f"{at} must be [[questions.rubric]] tables")
        return ()
    if len(raw) != points:
        problems.append(f"{at} has {len(raw)} tables for {points} key points (one per point)")
    out: list[PointRubric] = []
    for n, table in enumerate(raw, start=1):
        here = f"{where(f'rubric {n}')}: Q{question_id} rubric {n}"
        for key in sorted(set(table) - RUBRIC_KEYS):
            problems.append(
                f"{here}: unknown key {key!r} (known: {', '.join(sorted(RUBRIC_KEYS))})"
            )
        concepts = table.get("concepts")
        fewest, most = CONCEPTS_PER_POINT
        if not _aliases(concepts) or not fewest <= len(concepts) <= most:
            problems.append(f"{here}: concepts must be a list of {fewest}–{most} alias strings")
            concepts = []
        claim = table.get("claim")
        if claim is not None and not _aliases([claim]):
            problems.append(f"{here}: claim must be an alias string")
            claim = None
        wrong = table.get("wrong", [])
        if not _aliases(wrong, empty=True):
            problems.append(f"{here}: wrong must be a list of alias strings")
            wrong = []
        numbers = _numbers(table.get("numbers", []), here, problems)
        out.append(PointRubric(tuple(concepts), claim, tuple(wrong), numbers))
    return tuple(out)


def _aliases(value: Any, empty: bool = False) -> bool:
    """True for a list of alias strings whose every ``|`` alternative has a word."""
    if not isinstance(value, list) or (not value and not empty):
        return False
    return all(
        isinstance(alias, str) and all(part.split() for part in alias.split("|")) for alias in value
    )


def _numbers(raw: Any, here: str, problems: list[str]) -> tuple[Number, ...]:
    if not isinstance(raw, list) or not all(isinstance(n, dict) for n in raw):
        problems.append(f"{here}: numbers must be a list of {{ value = …, unit = … }} tables")
        return ()
    out: list[Number] = []
    for table in raw:
        for key in sorted(set(table) - NUMBER_KEYS):
            problems.append(f"{here}: number has unknown key {key!r}")
        value, unit = table.get("value"), table.get("unit")
        tolerance = table.get("tolerance", DEFAULT_TOLERANCE)
        if not isinstance(value, int | float) or isinstance(value, bool):
            problems.append(f"{here}: number value must be a number, got {value!r}")
            continue
        if unit is not None and (not isinstance(unit, str) or not unit.strip()):
            problems.append(f"{here}: number unit must be non-empty text")
            continue
        if not isinstance(tolerance, int | float) or not 0 <= tolerance < 1:
            problems.append(f"{here}: number tolerance must be a fraction 0 ≤ t < 1")
            continue
        out.append(Number(float(value), unit.strip() if unit else None, float(tolerance)))
    return tuple(out)
