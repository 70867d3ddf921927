"""What the Markdown reader reads besides Markdown text: notebook cells and front matter.

A Jupyter notebook's Markdown cells are read as one document, each line remembering
``file:cell N, line M``. A code cell is no question, unless its first line is a comment
that asks or is a numbered question's label (``# Q1. What is a decorator``,
``#Q2 Use cases``, ``# Question 3: …``, ``# Why …?``): that comment is a question, the
comments right under it the answer's text and the cell's code, with the code cells after
it up to the next Markdown cell or question, its answer, fenced (``code_lines``). A code
cell that holds Markdown typed into it (``markdown_typed``: it is no Python, and
two or more of its lines are Markdown headings, ``##### Q:2) Hooks``) is read as
the Markdown its author meant. A Markdown cell's ``##Problem 1``, no space after the
marks, is a heading, as Jupyter and Colab show it. YAML
front matter (``---`` … ``---`` at the top, as Hexo, Jekyll and Obsidian
write it) is no content: its lines are blanked, so line numbers stay true,
and its ``title`` can name the bank.

A cell that is one paragraph, a question (``写一下逻辑回归的表达式``), followed by a cell
that opens with a heading (``# 逻辑回归`` over ``## 1. 模型表达式`` …) is answered by that cell
whole (``answer_cell``): its headings are the answer's, no chapters and no questions.
A cell with no question mark right after a cell that only asks (``什么是 bias-variance
tradeoff？`` over ``我们首先来看一下数据…``) opens that question's answer (``explains``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from studybot.bank.importer.blocks import Block
from studybot.bank.importer.draft import QUESTION_MARKS, Draft, Parsed
from studybot.bank.importer.source import SURROGATE, loads

_HEADING = re.compile(r"^#{2,6}[ \t]+\S", re.MULTILINE)  # "##### Q:2) Hooks"; "# note" is code
# "##Problem 1": Jupyter and Colab show a heading with no space after its marks ("#tag" aside)
_UNSPACED = re.compile(r"^(?P<marks>#{2,6})(?=[^#\s])")
_MAGIC = re.compile(r"^[ \t]*[%!].*$", re.MULTILINE)
_COMMENT = re.compile(r"#+\s*(?P<text>\S.*?)\s*")  # fullmatch: a comment's line, its text
# "Q1. What is …", "Q2 Use cases of …", "Question 3: …": a numbered question's label
_QUESTION_LABEL = re.compile(
    r"(?:Q|Question)\s*(?P<n>\d+)\s*[.:)：]?\s+(?P<text>\S.*)", re.IGNORECASE
)
_FRONT_TITLE = re.compile(r"^title\s*:\s*(?P<title>.+?)\s*$", re.IGNORECASE)


def notebook_lines(path: Path, text: str) -> tuple[list[str], list[str], list[str]] | Parsed:
    """(lines, the place of each line, problems) of the Markdown cells, or a Parsed that failed."""
    try:
        data = loads(text)
    except ValueError as exc:
        line = getattr(exc, "lineno", 1)
        return Parsed(fatal=[f"{path}:{line}: not a readable notebook: {getattr(exc, 'msg', exc)}"])
    except RecursionError:
        return Parsed(fatal=[f"{path}:1: not a readable notebook: nested too deeply"])
    cells = data.get("cells") if isinstance(data, dict) else None
    if not isinstance(cells, list):
        return Parsed(fatal=[f'{path}:1: not a Jupyter notebook (no "cells" list)'])
    lines: list[str] = []
    places: list[str] = []
    problems: list[str] = []
    following = False  # a code cell after a question asked in a code cell's comment
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict):
            continue
        source_text = cell.get("source", "")
        source_text = (
            "".join(map(str, source_text)) if isinstance(source_text, list) else str(source_text)
        )
        code = cell.get("cell_type") == "code"
        typed = code and markdown_typed(source_text)
        asked = code and not typed and commented_question(source_text)
        following = asked or (following and code and not typed)  # up to the next question
        if cell.get("cell_type") != "markdown" and not (typed or following):
            continue
        if SURROGATE.search(source_text):  # a lone "\ud800": no character, cannot be saved
            problems.append(
                f"{path}:cell {number}: a lone surrogate (such as \\ud800) is not a character"
            )
            source_text = SURROGATE.sub("\ufffd", source_text)
        if following:  # the question in its comment, the cell's code its answer
            for line_number, line in code_lines(source_text, asked):
                lines.append(line)
                places.append(f"{path}:cell {number}, line {line_number}")
            continue
        for line_number, line in enumerate(source_text.splitlines(), start=1):
            lines.append(_UNSPACED.sub(r"\g<marks> ", line) if not code else line)
            places.append(f"{path}:cell {number}, line {line_number}")
        lines.append("")  # a cell boundary reads like a blank line
        places.append(f"{path}:cell {number}")
    return lines, places, problems


def commented_question(source: str) -> bool:
    """A code cell whose first line is a comment that asks or is a numbered question."""
    first = next((line for line in source.splitlines() if line.strip()), "")
    asking = _COMMENT.fullmatch(first.strip())
    return asking is not None and bool(
        _QUESTION_LABEL.fullmatch(asking["text"]) or asking["text"].endswith(QUESTION_MARKS)
    )


def code_lines(source: str, asked: bool) -> list[tuple[int, str]]:
    """A code cell as Markdown, each line with its line in the cell: where ``asked``, its
    first comment as the question (``#Q2 …`` as ``Q2. …``) and the comments right under it
    as the answer's text; the code fenced."""
    cell = source.splitlines()
    numbered = [(n, line) for n, line in enumerate(cell, start=1) if line.strip()]
    out: list[tuple[int, str]] = []
    if asked and numbered:
        (first, line), *numbered = numbered
        text = _COMMENT.fullmatch(line.strip())["text"]  # type: ignore[index]
        label = _QUESTION_LABEL.fullmatch(text)
        out += [(first, f"Q{label['n']}. {label['text']}" if label else text), (first, "")]
        while numbered and (comment := _COMMENT.fullmatch(numbered[0][1].strip())):
            out.append((numbered.pop(0)[0], comment["text"]))
        out.append((first, ""))
    if numbered:
        start, end = numbered[0][0], numbered[-1][0]
        out += [(start, "```python"), *((n, cell[n - 1]) for n in range(start, end + 1))]
        out += [(end, "```"), (end, "")]
    return out


def markdown_typed(source: str) -> bool:
    """A code cell's ``source`` is Markdown typed into it: it does not compile as Python
    (IPython's ``%magic`` and ``!shell`` lines aside) and two or more lines are headings."""
    if len(_HEADING.findall(source)) < 2:  # "## step 1" comments over code stay code
        return False
    try:
        compile(_MAGIC.sub("", source), "<cell>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return True
    return False


def title_line(lines: list[str]) -> int:
    """The line of a leading front matter's ``title`` (read before ``front_matter`` blanks
    it); 0 when there is none."""
    if not lines or lines[0].strip() != "---":
        return 0
    return next((i for i in range(1, min(len(lines), 200)) if _FRONT_TITLE.match(lines[i])), 0)


def front_matter_end(lines: list[str], within: int = 200) -> int | None:
    """The line that closes a leading YAML front matter (``---`` … ``---``), looked for
    ``within`` the file's first lines; None when there is none."""
    if not lines or lines[0].strip() != "---":
        return None
    return next(
        (i for i in range(1, min(len(lines), within)) if lines[i].strip() in ("---", "...")), None
    )


def front_matter(lines: list[str]) -> str | None:
    """Blank a leading YAML front matter block in ``lines``; its title, if it has one."""
    end = front_matter_end(lines)
    if end is None:
        return None
    title = None
    for i in range(end + 1):
        found = _FRONT_TITLE.match(lines[i])
        if found and title is None:
            title = found["title"].strip("'\"") or None
        lines[i] = ""
    return title


def opens_cell(where: str) -> bool:
    """A notebook cell's first line (``Explain about TypeI error:`` over its points): a cell
    starts anew."""
    return ":cell " in where and where.endswith(", line 1")


def explains(current: Draft, raw_lines: list[str], where: str) -> bool:
    """``raw_lines``, a paragraph at ``where``, opens the cell right after the one that asks
    ``current`` (nothing under it yet) and asks nothing: the answer's first lines."""
    asked = current.question.rstrip().endswith(QUESTION_MARKS) and not current.blocks
    return (
        asked
        and opens_cell(where)
        and ":cell " in current.where
        and not any(mark in line for line in raw_lines for mark in QUESTION_MARKS)
    )


def cell_of(where: str) -> str:
    """``FILE:cell 3`` of ``FILE:cell 3, line 2``: a notebook cell is a unit of its own."""
    return where.rsplit(", line ", 1)[0]


def answer_cell(
    blocks: list[Block], index: int, current: Any, where: Callable[[int], str]
) -> int | None:
    """Where the answer ends when ``blocks[index]``, a heading, opens the cell after one that
    holds only the question ``current`` (the module's docstring says when); None otherwise."""
    before = blocks[index - 1] if index else None
    opening = where(blocks[index].start)
    if current is None or before is None or before.kind != "paragraph" or not opens_cell(opening):
        return None
    asked = cell_of(where(before.start))
    if where(before.start) != current.where or asked != cell_of(where(before.end - 1)):
        return None
    if index > 1 and cell_of(where(blocks[index - 2].end - 1)) == asked:
        return None  # the question's cell holds more than the question
    end = index + 1
    while end < len(blocks) and cell_of(where(blocks[end].start)) == cell_of(opening):
        end += 1
    return end
