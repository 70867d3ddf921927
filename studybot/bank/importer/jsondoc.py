"""Where the questions are in a JSON document, and the line each one starts on.

A question file's JSON is a list of records or strings, an object holding
such a list under a usual key (``questions``, ``data``, ``items``, … at
any depth), a list of chapters each with its questions, or an object of
chapter → questions. ``locate`` finds them in the decoded data; ``lines``
walks the text once, decoding only what it steps over, to give each record
its line (linear in the size of the file: no counting from the top for
every record).
"""

from __future__ import annotations

import re
from typing import Any

from studybot.bank.importer.source import DECODER

_WS = re.compile(r"[ \t\r\n]*")
_CONTAINERS = (
    "questions", "items", "data", "records", "rows", "entries", "qa", "qas", "faq",
    "list", "results", "examples", "cards", "train", "题目", "问题", "题库",
)  # fmt: skip
_GROUPS = ("chapters", "sections", "categories", "topics", "parts", "units", "章节")
_GROUP_TITLE = ("title", "name", "chapter", "topic", "section", "category", "标题", "章节")


Groups = list[tuple[str | None, list[Any]]]


def locate(data: Any, depth: int = 0) -> tuple[str | None, list[Any], Groups] | None:
    """(title, path to the records, [(chapter, records)]) for a decoded JSON document.

    A path step is a key, ``"*"`` (every element of a list) or ``"**"`` (every
    value of an object), so ``_lines`` can find each record's line.
    """
    if isinstance(data, list):
        titled = [_group(item) for item in data]
        if data and all(titled):
            key = titled[0][1]
            if all(g[1] == key for g in titled):
                return None, ["*", key, "*"], [(g[0], g[2]) for g in titled]
        return None, ["*"], [(None, data)]
    if not isinstance(data, dict) or depth > 3:
        return None
    title = next(
        (
            v.strip()
            for k, v in data.items()
            if k in ("title", "name", "标题") and isinstance(v, str)
        ),
        None,
    )
    for key, value in data.items():
        if str(key).lower() in _CONTAINERS and isinstance(value, (list, dict)):
            inner = locate(value, depth + 1)
            if inner is not None:
                return inner[0] or title, [key, *inner[1]], inner[2]
    for key, value in data.items():
        if str(key).lower() in _GROUPS and isinstance(value, list):
            inner = locate(value, depth + 1)
            if inner is not None and len(inner[1]) > 1:
                return title, [key, *inner[1]], inner[2]
    lists = {k: v for k, v in data.items() if isinstance(v, list)}
    if lists and len(lists) == len(data) and all(_records_like(v) for v in lists.values()):
        return title, ["**", "*"], [(str(k), v) for k, v in lists.items()]
    return None


def _group(item: Any) -> tuple[str | None, str, list[Any]] | None:
    """(chapter title, key of its questions, its questions) for a chapter object, else None."""
    if not isinstance(item, dict):
        return None
    for key, value in item.items():
        if str(key).lower() in _CONTAINERS and isinstance(value, list):
            title = next((item[k] for k in _GROUP_TITLE if isinstance(item.get(k), str)), None)
            return title, key, value
    return None


def _records_like(value: list[Any]) -> bool:
    return all(isinstance(v, (str, dict)) for v in value)


def lines(text: str, steps: list[Any]) -> list[int]:
    """The line each record at ``steps`` starts on, in one pass over ``text``."""
    starts: list[int] = []
    _walk(text, _skip(text, 0), steps, starts)
    lines, line, previous = [], 1, 0
    for at in starts:
        line += text.count("\n", previous, at)
        lines.append(line)
        previous = at
    return lines


def _walk(text: str, at: int, steps: list[Any], starts: list[int]) -> int:
    """Record the starts of the values ``steps`` lead to; the end of the value at ``at``."""
    if not steps:
        starts.append(at)
        return _end(text, at)
    step, rest = steps[0], steps[1:]
    if step == "*" and text.startswith("[", at):
        at = _skip(text, at + 1)
        while not text.startswith("]", at):
            at = _skip(text, _walk(text, at, rest, starts))
            at = _skip(text, at + 1) if text.startswith(",", at) else at
        return at + 1
    if text.startswith("{", at):
        at = _skip(text, at + 1)
        while not text.startswith("}", at):
            key, at = DECODER.raw_decode(text, at)
            at = _skip(text, _skip(text, at) + 1)  # past ":"
            wanted = step == "**" or key == step
            at = _walk(text, at, rest, starts) if wanted else _end(text, at)
            at = _skip(text, at)
            at = _skip(text, at + 1) if text.startswith(",", at) else at
        return at + 1
    return _end(text, at)


def _end(text: str, at: int) -> int:
    """Where the JSON value starting at ``at`` ends."""
    return DECODER.raw_decode(text, at)[1]


def _skip(text: str, at: int) -> int:
    return _WS.match(text, at).end()
