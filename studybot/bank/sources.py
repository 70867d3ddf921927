"""Where a question's key points come from: ``[[questions.sources]]``, read and checked.

Each source names the part of a paper, docs page or release note that holds
a fact (``cite``), a reference a learner can follow (``ref``: an arXiv id, a
DOI or an https:// address) and the key points resting on it (``points``,
1-based). A bank whose ``bank.toml`` says ``sources = "required"`` (the shipped
one) must give every question a source and tie every point that states a
number, a version or a date to one (docs/bank-format.md, "Sources"); an
imported bank may have none.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

SOURCE_KEYS = {"cite", "ref", "points"}
REQUIRED = "required"
# arXiv:2303.11366 (new ids, with an optional version) or arXiv:cs/0112017 (old ones)
ARXIV = re.compile(r"arXiv:(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?/\d{7})(v\d+)?")
DOI = re.compile(r"doi:10\.\d{4,9}/\S+")
URL = re.compile(r"https://[^\s/$.?#][^\s]*")
# A point that states a figure, a version or a date: any digit does ("截至 2025 年 12 月", "v3").
STATES_A_FIGURE = re.compile(r"\d")


@dataclass(frozen=True)
class Source:
    cite: str  # the work and the part that holds the fact: section, table, docs heading
    ref: str  # arXiv:ID, doi:…, or an https:// address
    points: tuple[int, ...] = ()  # the key points (1-based) resting on it; () for the whole


def well_formed(ref: str) -> bool:
    return any(p.fullmatch(ref) for p in (ARXIV, DOI, URL))


def parse_sources(
    raw: Any, points: int, question_id: int, where: Callable[..., str], problems: list[str]
) -> tuple[Source, ...]:
    """The ``[[questions.sources]]`` tables of one question; problems appended as file:line."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(s, dict) for s in raw):
        problems.append(
            f"{where('sources')}: Q{question_id} sources must be [[questions.sources]] tables"
        )
        return ()
    sources: list[Source] = []
    for n, entry in enumerate(raw, start=1):
        which = f"{where(f'sources {n}')}: Q{question_id} source {n}"
        for key in sorted(set(entry) - SOURCE_KEYS):
            problems.append(f"{which}: unknown key {key!r} (known: cite, points, ref)")
        cite, ref, numbers = entry.get("cite"), entry.get("ref"), entry.get("points", [])
        if not isinstance(cite, str) or not cite.strip():
            problems.append(f"{which}: cite must name the work and its part (section, table)")
            continue
        if not isinstance(ref, str) or not well_formed(ref.strip()):
            problems.append(
                f"{which}: ref {ref!r} is not arXiv:ID, doi:10.… or an https:// address"
            )
            continue
        if not isinstance(numbers, list) or not all(
            isinstance(p, int) and not isinstance(p, bool) for p in numbers
        ):
            problems.append(f"{which}: points must be a list of key point numbers, e.g. [3, 4]")
            continue
        outside = [p for p in numbers if not 1 <= p <= points]
        if outside:
            problems.append(
                f"{which}: points {', '.join(map(str, outside))} out of range "
                f"(the question has {points} key points)"
            )
            continue
        sources.append(Source(" ".join(cite.split()), ref.strip(), tuple(numbers)))
    return tuple(sources)


def check_rule(index_path: Any, rule: Any, questions: Sequence[Any]) -> list[str]:
    """Problems with bank.toml's ``sources`` rule: an unknown one, or what a required one lacks."""
    if rule not in (None, REQUIRED, "optional"):
        return [f'{index_path}: sources = {rule!r}: use "required" or "optional"']
    return check_required(questions) if rule == REQUIRED else []


def check_required(questions: Sequence[Any]) -> list[str]:
    """What a bank that requires sources lacks: a question without any, a figure not tied to one."""
    problems: list[str] = []
    for question in questions:
        at = f"Q{question.id}"
        if not question.sources:
            problems.append(f"{at}: no [[questions.sources]] (this bank requires them)")
            continue
        tied = {p for source in question.sources for p in source.points}
        untied = [
            n
            for n, point in enumerate(question.key_points, start=1)
            if STATES_A_FIGURE.search(point) and n not in tied
        ]
        if untied:
            which = ", ".join(map(str, untied))
            problems.append(
                f"{at}: key point(s) {which} state a figure or a date but no source lists them "
                "(add them to a source's points)"
            )
    return problems


def lines(sources: Sequence[Source]) -> list[str]:
    """One line per source, numbered, with the points it backs: how every view lists them."""
    out = []
    for n, source in enumerate(sources, start=1):
        backs = f" — 要点 {', '.join(map(str, source.points))}" if source.points else ""
        out.append(f"来源 [{n}] {source.cite} · {source.ref}{backs}")
    return out
