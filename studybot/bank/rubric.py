"""The rubric of a key point: the claims an answer must make, and what saying them wrong looks like.

The types and the reader of ``[[questions.rubric]]`` tables and their
``[[questions.rubric.claims]]`` (docs/bank-format.md, "The rubric"); the
grader that reads them is ``learn.rubric``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

RUBRIC_KEYS = {"claims", "wrong"}
CLAIM_KEYS = {"subject", "relation", "object", "value", "opposite", "ordered", "zh", "en"}
NUMBER_KEYS = {"value", "unit", "tolerance"}
CLAIMS_PER_POINT = (1, 4)
DEFAULT_TOLERANCE = 0.05  # relative: 320 KiB accepts 304-336
# The keys of the first rubric format: a bank written for it gets one line saying what changed.
OLD_KEYS = {"concepts", "claim", "numbers"}


@dataclass(frozen=True)
class Number:
    """A figure a claim states: another value in its unit, said of its subject, contradicts it."""

    value: float
    unit: str | None = None  # "KiB", "倍", "%", ...; None: the bare number
    tolerance: float = DEFAULT_TOLERANCE  # relative to value


@dataclass(frozen=True)
class Claim:
    """One statement of a key point: what it is about, what it says of it, in which direction.

    Each part is an alias string: alternatives separated by ``|``, each
    alternative words that must all be in one clause of the answer.
    """

    subject: str  # what the claim is about ("参数量 | parameters")
    relation: str | None  # what it says of the subject, its polarity as written ("无关 | 不随 变")
    object: str | None = None  # about what, when the relation links two things ("头数 | heads")
    value: Number | None = None  # the figure it states of the subject
    opposite: str | None = None  # the relation reversed: said instead, it contradicts the claim
    ordered: bool = False  # the subject comes before the object ("先 top-k 后 温度")
    zh: str = ""  # the claim in one Chinese sentence: the key shown beside a contradiction
    en: str = ""  # ... and in English


@dataclass(frozen=True)
class PointRubric:
    """What an answer must say to hold one key point (docs/bank-format.md, "The rubric")."""

    claims: tuple[Claim, ...]  # 1-4 statements
    wrong: tuple[str, ...] = ()  # alias strings of known wrong claims about the point's subject


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
        if OLD_KEYS & set(table):
            problems.append(
                f"{here}: {', '.join(sorted(OLD_KEYS & set(table)))} belong to the first rubric "
                "format; write each claim as a [[questions.rubric.claims]] table "
                "(docs/bank-format.md, 'The rubric')"
            )
            continue
        for key in sorted(set(table) - RUBRIC_KEYS):
            problems.append(
                f"{here}: unknown key {key!r} (known: {', '.join(sorted(RUBRIC_KEYS))})"
            )
        claims = _claims(table.get("claims"), here, problems)
        wrong = table.get("wrong", [])
        if not _aliases(wrong, empty=True):
            problems.append(f"{here}: wrong must be a list of alias strings")
            wrong = []
        out.append(PointRubric(claims, tuple(wrong)))
    return tuple(out)


def _claims(raw: Any, here: str, problems: list[str]) -> tuple[Claim, ...]:
    fewest, most = CLAIMS_PER_POINT
    if not isinstance(raw, list) or not all(isinstance(c, dict) for c in raw):
        problems.append(
            f"{here}: claims must be {fewest}–{most} [[questions.rubric.claims]] tables"
        )
        return ()
    if not fewest <= len(raw) <= most:
        problems.append(f"{here}: {len(raw)} claims (need {fewest}–{most})")
    out = []
    for n, table in enumerate(raw, start=1):
        claim = _claim(table, f"{here} claim {n}", problems)
        if claim is not None:
            out.append(claim)
    return tuple(out)


def _claim(table: dict[str, Any], here: str, problems: list[str]) -> Claim | None:
    before = len(problems)
    for key in sorted(set(table) - CLAIM_KEYS):
        problems.append(f"{here}: unknown key {key!r} (known: {', '.join(sorted(CLAIM_KEYS))})")
    aliases = {}
    for key in ("subject", "relation", "object", "opposite"):
        value = table.get(key)
        if value is not None and not _aliases([value]):
            problems.append(f"{here}: {key} must be an alias string ('A | B c | …')")
        aliases[key] = value
    if aliases["subject"] is None:
        problems.append(f"{here}: a claim names its subject (what it is about)")
    value = None
    if "value" in table:
        found = _numbers([table["value"]], here, problems)
        value = found[0] if found else None
    if aliases["relation"] is None and "value" not in table:
        problems.append(
            f"{here}: a claim needs a relation or a value (what it says of its subject)"
        )
    ordered = table.get("ordered", False)
    if not isinstance(ordered, bool):
        problems.append(f"{here}: ordered must be true or false")
    elif ordered and aliases["object"] is None:
        problems.append(f"{here}: ordered needs an object (the subject comes before it)")
    for key in ("zh", "en"):
        text = table.get(key)
        if not isinstance(text, str) or not text.strip():
            problems.append(f"{here}: {key} must be the claim as one sentence")
    subject = aliases["subject"]
    if len(problems) > before or subject is None:  # a claim without its subject is a problem
        return None
    return Claim(
        subject=subject,
        relation=aliases["relation"],
        object=aliases["object"],
        value=value,
        opposite=aliases["opposite"],
        ordered=ordered,
        zh=table["zh"].strip(),
        en=table["en"].strip(),
    )


def _aliases(value: Any, empty: bool = False) -> bool:
    """True for a list of alias strings whose every ``|`` alternative has a word."""
    if not isinstance(value, list) or (not value and not empty):
        return False
    return all(
        isinstance(alias, str) and all(part.split() for part in alias.split("|")) for alias in value
    )


def _numbers(raw: Any, here: str, problems: list[str]) -> tuple[Number, ...]:
    if not isinstance(raw, list) or not all(isinstance(n, dict) for n in raw):
        problems.append(f"{here}: value must be a {{ value = …, unit = … }} table")
        return ()
    out: list[Number] = []
    for table in raw:
        for key in sorted(set(table) - NUMBER_KEYS):
            problems.append(f"{here}: value has unknown key {key!r}")
        value, unit = table.get("value"), table.get("unit")
        tolerance = table.get("tolerance", DEFAULT_TOLERANCE)
        if not isinstance(value, int | float) or isinstance(value, bool):
            problems.append(f"{here}: value must be a number, got {value!r}")
            continue
        if unit is not None and (not isinstance(unit, str) or not unit.strip()):
            problems.append(f"{here}: value unit must be non-empty text")
            continue
        if not isinstance(tolerance, int | float) or not 0 <= tolerance < 1:
            problems.append(f"{here}: value tolerance must be a fraction 0 ≤ t < 1")
            continue
        out.append(Number(float(value), unit.strip() if unit else None, float(tolerance)))
    return tuple(out)
