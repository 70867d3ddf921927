"""An assessment's records: their rubric is their key points, their scores are no key points.

An exam written as data gives each question a score (``points: 8``) and a
rubric, the criteria a grader checks (``rubric: [{criterion: …, points: 2,
keywords: […]}]``, or a list of texts). The criteria are what a good answer
covers: the record's key points, where it names none itself. A key named
like key points whose every value is a number is the score, not used.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from studybot.bank.importer.keys import KEY_GAPS, Mapping

# keys that hold the criteria a grader checks, compared with their gaps folded
_RUBRIC = (
    "rubric", "rubrics", "criteria", "grading", "grading criteria", "marking scheme",
    "scoring", "scoring rubric", "评分标准", "评分细则", "评分要点",
)  # fmt: skip
_FOLDED = {KEY_GAPS.sub(" ", name) for name in _RUBRIC}
# where a criterion object keeps its words, most usual first
_CRITERION = ("criterion", "criteria", "description", "text", "point", "item", "name", "标准")


def rubric_key(item: Any) -> str | None:
    """The key of a record's rubric (``rubric``, ``criteria``, ``评分标准``), else None."""
    if not isinstance(item, dict):
        return None
    for key, value in item.items():
        if KEY_GAPS.sub(" ", str(key).strip().lower()) in _FOLDED and criteria_of(value):
            return str(key)
    return None


def criteria(item: Any) -> list[str]:
    """The criteria of a record's rubric, a text each, in the order written."""
    key = rubric_key(item)
    return criteria_of(item[key]) if key is not None else []


def criteria_of(value: Any) -> list[str]:
    """A rubric's criteria: its texts, or the words of each of its objects."""
    if not isinstance(value, list):
        return []
    out = []
    for entry in value:
        if isinstance(entry, dict):
            entry = next(
                (entry[k] for k in _CRITERION if isinstance(entry.get(k), str)),
                next((v for v in entry.values() if isinstance(v, str)), None),
            )
        if isinstance(entry, str) and entry.strip():
            out.append(" ".join(entry.split()))
    return out


def rubric_keys(records: list[dict[str, Any]], points: tuple[str, ...]) -> tuple[str, ...]:
    """The rubric keys (lower case) read as key points: none where a key names key points
    (``points`` in ``points``) and a record holds text there."""
    if any(
        not _number(item.get(k)) and item.get(k) is not None for item in records for k in points
    ):
        return ()
    found = (rubric_key(item) for item in records)
    return tuple(dict.fromkeys(key.lower() for key in found if key is not None))


def without_scores(mapping: Mapping, records: list[dict[str, Any]]) -> Mapping:
    """``mapping`` with the keys of key points whose every value is a number (``points: 8``,
    a score) moved to the keys not used."""
    points = mapping.keys.get("key_points", ())
    scored = tuple(k for k in points if all(_number(r[k]) for r in records if k in r))
    if not scored or "." in "".join(scored):
        return mapping
    kept = {f: keys for f, keys in mapping.keys.items() if f != "key_points"}
    left = tuple(k for k in points if k not in scored)
    kept |= {"key_points": left} if left else {}
    return replace(mapping, keys=kept, unused=(*mapping.unused, *scored))


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
