"""Markdown files and Jupyter notebooks: numbered questions, chapters from headings.

- a question starts at ``Q1：…``, ``Q1: …``, ``**Q1：**…``, ``第1题：…``,
  ``### 1. …`` or ``### Q1 …``; when the file has none of those, at an
  unindented numbered line ``1. …`` / ``1、…``. The number is the id;
- ``- …`` bullets below a question are its key points (deeper bullets are
  joined to the point above); a ``提示：…`` line is its hint; other prose
  below it (an answer) is ignored, and so are fenced code blocks;
- ``## …`` headings (and ``第N章`` headings at any level) start chapters;
  the first other ``# …`` heading before any question is the bank's title;
- a notebook's Markdown cells are read as one document, ``file:cell N, line M``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

from studybot.importer.draft import CHAPTER, CJK, EMPHASIS, Draft, Parsed, strip_emphasis

_SEP = r"[:：.、．)）]"
# "Q12：…", "**Q12:** …", "### Q12 …", "第12题：…"; needs a heading, bold or separator.
_Q_LINE = re.compile(
    rf"^(?P<head>#{{1,6}}\s+)?(?P<bold>{EMPHASIS})?\s*"
    rf"(?:(?:[Qq]|问题|题目)\s*(?P<n>\d+)|第\s*(?P<n2>\d+)\s*题)"
    rf"\s*{EMPHASIS}?\s*(?P<sep>{_SEP})?\s*{EMPHASIS}?\s*(?P<text>.*)$"
)
# "### 12. …" (level 3+, so "## 1. 导论" stays a chapter) and "**12.** …".
_NUMBERED_HEAD = re.compile(
    rf"^(?:#{{3,6}}\s+{EMPHASIS}?|{EMPHASIS})\s*(?P<n>\d+)\s*(?:[:：、．)）]|\.(?!\d))"
    rf"\s*{EMPHASIS}?\s*(?P<text>.*)$"
)
# "12. …" / "12、…" at the start of a line: a question only in files with no stronger marker.
_PLAIN = re.compile(r"^(?P<n>\d+)\s*(?:[、．)）]|\.(?!\d))\s*(?P<text>.*)$")
_HEADING = re.compile(r"^(?P<level>#{1,6})\s+(?P<text>.*?)\s*#*\s*$")
_ENGLISH_CHAPTER = re.compile(r"^(?:chapter|part)\s+\d+\b", re.IGNORECASE)
_BULLET = re.compile(r"^(?P<indent>\s*)(?:[-*+•]|\d+\s*(?:[、．)）]|\.(?!\d)))\s+(?P<text>\S.*)$")
_HINT_LINE = re.compile(r"^(?:>\s*)?(?:提示|hint)\s*[:：]\s*(?P<text>.+)$", re.IGNORECASE)


def read_markdown(path: Path, text: str) -> Parsed:
    return _markdown_lines(
        (f"{path}:{number}", line) for number, line in enumerate(text.splitlines(), start=1)
    )


def read_notebook(path: Path, text: str) -> Parsed:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return Parsed(problems=[f"{path}:{exc.lineno}: not a readable notebook: {exc.msg}"])
    cells = data.get("cells") if isinstance(data, dict) else None
    if not isinstance(cells, list):
        return Parsed(problems=[f'{path}:1: not a Jupyter notebook (no "cells" list)'])
    lines: list[tuple[str, str]] = []
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "markdown":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        for line_number, line in enumerate(source.splitlines(), start=1):
            lines.append((f"{path}:cell {number}, line {line_number}", line))
        lines.append(("", ""))  # a cell boundary reads like a blank line
    return _markdown_lines(lines)


def _markdown_lines(numbered: Iterable[tuple[str, str]]) -> Parsed:
    lines = [(where, line.expandtabs(4)) for where, line in numbered]
    strong = any(_strong_start(line) for _, line in lines)
    out = Parsed()
    chapter: str | None = None
    section = 0
    current: Draft | None = None
    joins = False  # an indented line continues the question text
    point_indent = 0
    fenced = False
    for where, line in lines:
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced:
            continue
        found = _question_start(line, strong)
        if found is not None:
            number, text = found
            current = Draft(where, text, id=number, chapter=chapter, section=section)
            out.drafts.append(current)
            joins = True
            continue
        heading = _HEADING.match(line)
        if heading:
            level, title = len(heading["level"]), heading["text"].strip("*_ ")
            if level == 2 or CHAPTER.match(title) or _ENGLISH_CHAPTER.match(title):
                chapter, section, current = title, section + 1, None
            elif level == 1 and out.title is None and not out.drafts:
                out.title = title
            continue
        if current is None:
            continue
        if not stripped:
            joins = False
            continue
        hint = _HINT_LINE.match(stripped)
        bullet = _BULLET.match(line)
        if hint and current.hint is None:
            current.hint = hint["text"].strip()
        elif bullet:
            indent = len(bullet["indent"])
            if current.key_points and indent > point_indent:
                last = current.key_points[-1]
                current.key_points[-1] = last + ("" if last.endswith(("：", ":")) else "；")
                current.key_points[-1] += bullet["text"].strip()
            else:
                current.key_points.append(bullet["text"].strip())
                point_indent = indent
        elif joins and not strip_emphasis(current.question):
            current.question = stripped  # "**Q3：**" alone on its line, the text right below
        elif joins and line[:1].isspace():
            current.question = _join(current.question, stripped)
            continue
        joins = False
    return out


def _question_start(line: str, strong: bool) -> tuple[int, str] | None:
    """(number, text) when ``line`` starts a question; plain ``1.`` only if not ``strong``."""
    found = _strong_start(line)
    if found is None and not strong:
        match = _PLAIN.match(line)
        found = (int(match["n"]), match["text"]) if match else None
    return found


def _strong_start(line: str) -> tuple[int, str] | None:
    match = _Q_LINE.match(line)
    if match and (match["head"] or match["bold"] or match["sep"]):
        return int(match["n"] or match["n2"]), match["text"]
    match = _NUMBERED_HEAD.match(line)
    return (int(match["n"]), match["text"]) if match else None


def _join(text: str, more: str) -> str:
    if CJK.search(text[-1:]) or CJK.search(more[:1]) or text[-1:] in "，。；：？！、":
        return text + more
    return f"{text} {more}"
