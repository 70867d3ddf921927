"""Markdown tables of questions, and the option to suggest when headings were not read.

A table is a list of questions when a column is named like one (``问题``,
``题目``, ``Question``, or the column ``--map question=COLUMN`` names); its
answer column (``答案``, ``Answer``; else the one column after the question's, or
one named like an answer) gives the answers and a number column
(``序号``, ``#``) the labels; a column of self-rating marks (``掌握程度`` with ``V_``,
``✓``/``✗``: ``ratings``) answers nothing. A table of one column whose header is a cell
like its rows (``| [**01. 什么是…？**](topic.md) |``), not a column's name, is a list of
questions written as a table: its cells that ask, and when most ask its numbered cells too,
are questions, the header among them; a link's text asks, its target answers nothing. A table
of anything else is not read, but its cells that ask are reported, with the ``--map`` that
would read them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from studybot.bank.importer import keys
from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.draft import Parsed
from studybot.bank.importer.markers import asks, clean, meta, numbered, reads_as_question
from studybot.bank.importer.parts import topic_title
from studybot.bank.importer.ratings import rating_columns
from studybot.bank.importer.resources import placeholder

if TYPE_CHECKING:  # the reader hands itself in; no import cycle at run time
    from studybot.bank.importer.state import ReaderState

_PIPE = re.compile(r"(?<!\\)\|")
_ANSWER_WORD = re.compile(r"答|answer", re.IGNORECASE)  # "简答", "Short answer"
_NUMBER_LIST = re.compile(r"[\d\s,，、.~/–—-]+")


def cells(line: str) -> list[str]:
    """The cells of a table row as written (outer pipes dropped, ``\\|`` kept)."""
    line = line.strip()
    line = line[1:] if line.startswith("|") else line
    line = line[:-1] if line.endswith("|") and not line.endswith("\\|") else line
    return [cell.strip() for cell in _PIPE.split(line)]


def read_table(reader: ReaderState, block: Block, path) -> None:
    """Questions from a table with a question column; else its asking cells are reported."""
    lines = reader.lines[block.start : block.end]
    if len(lines) < 3:
        return
    header = [plain(c) for c in cells(lines[0])]
    mapping = keys.choose(header, reader.options.mapping)
    column = _index(header, mapping.keys.get("question"))
    if column is not None and not reader.options.mapping and _numbers(lines[2:], column):
        column = None  # "| Topic | Questions |" with "1--3, 11, 15": which ones, not questions
    if column is None:
        if not _one_column(reader, block, lines, path):
            _report(reader, block, header, lines)
        return
    answer = _index(header, mapping.keys.get("answer"))
    if answer is None and not reader.options.mapping:
        answer = _next_cell(header, column, mapping.keys.values())
    if answer in rating_columns(header, [cells(line) for line in lines[2:]]):
        answer = None  # "| 问题 | 掌握程度 |" with "V_" in every row: for the reader to fill in
    number = _index(header, mapping.keys.get("id"))
    for offset, line in enumerate(lines[2:], start=2):
        row = cells(line)
        text = clean(plain(row[column])) if column < len(row) else ""
        if not text:
            continue
        label = row[number].strip() if number is not None and number < len(row) else None
        draft = reader._draft(
            block.start + offset, label if label and label.isdigit() else None, text, path
        )
        draft.cell = True
        if answer is not None and answer < len(row) and not placeholder(row[answer].strip("_* ")):
            draft.reference = row[answer].replace("<br>", "\n").strip()


def _one_column(reader: ReaderState, block: Block, lines: list[str], path) -> bool:
    """The questions of a one-column table as a list's (an empty cell beside one aside): each
    cell that asks, and every numbered one when most ask; the header is a cell when it asks or
    is numbered (``01. …``), as no column's name is. False when no cell asks."""
    rows = [(0, lines[0]), *enumerate(lines[2:], start=2)]
    filled = [(offset, [cell for cell in cells(line) if cell]) for offset, line in rows]
    if any(len(row) != 1 for _, row in filled):
        return False
    texts = [(offset, clean(plain(row[0]))) for offset, row in filled]
    if not (reads_as_question(texts[0][1]) or numbered(texts[0][1])[0] is not None):
        texts = texts[1:]  # "| Question list |": the column's name
    asking = [reads_as_question(text) for _, text in texts]
    if not any(asking):
        return False
    most = 2 * sum(asking) > len(texts)
    for (offset, text), asked in zip(texts, asking, strict=True):
        label, rest = numbered(text)
        if asked or (most and label is not None):
            reader._draft(block.start + offset, label, rest, path).cell = True
    return True


def _next_cell(header: list[str], column: int, named: Iterable[tuple[str, ...]]) -> int | None:
    """The column after the question's as its answer when it is the only other one
    (``| 问题 | 一句话答 |``) or is named like one (``简答``, ``Short answer``); never one
    named as something else (``| Question | Difficulty |``, ``| 问题 | 考察点 | 难度 |``)."""
    claimed = {name for names in named for name in names}
    others = [k for k, name in enumerate(header) if k != column and name not in claimed]
    following = column + 1
    name = header[following] if following < len(header) else ""
    if not name or name in claimed or keys.describing(name) is not None:
        return None
    return following if others == [following] or _ANSWER_WORD.search(name) else None


def _numbers(rows: list[str], column: int) -> bool:
    """Whether every cell of ``column`` holds numbers and ranges only."""
    found = [row[column] for row in map(cells, rows) if column < len(row) and row[column]]
    return bool(found) and all(_NUMBER_LIST.fullmatch(plain(cell)) for cell in found)


def _index(header: list[str], names: tuple[str, ...] | None) -> int | None:
    found = next((n for n in names or () if n in header), None)
    return header.index(found) if found is not None else None


def _report(reader: ReaderState, block: Block, header: list[str], lines: list[str]) -> None:
    asking = [0] * len(header)
    for offset, line in enumerate(lines[2:], start=2):
        row = [plain(c) for c in cells(line)]
        found = next((c for c in row if asks(c) and len(c) > 3), None)
        if found:
            reader._skip(
                block.start + offset, found, "a table row, not a heading, list item or Q1： line"
            )
        for k, cell in enumerate(row[: len(header)]):
            asking[k] += asks(cell)
    if any(asking):
        best = header[asking.index(max(asking))] or "COLUMN"
        reader.out.suggestions.append(
            f"--map question={best!s} reads the table column {best!r} as the questions"
        )


def suggest_level(out: Parsed, blocks: list[Block], level: int | None) -> None:
    """Suggest ``--level N`` when many headings with text under them (a part's name aside) were
    not questions, never when those headings are sections over lists of questions (``## 模块`` over
    ``**常见问题**`` and ``* 如何…？`` items): each would take a section as one question."""
    with_body: dict[int, int] = {}
    for index, block in enumerate(blocks):
        after = blocks[index + 1] if index + 1 < len(blocks) else None
        title = plain(block.raw)  # a part's name ("① 一句话秒懂") or notes ("## 总结") ask nothing
        named = block.kind == "heading" and (topic_title(title) or meta(title))
        if block.kind == "heading" and not named and after is not None and after.kind != "heading":
            with_body[block.level] = with_body.get(block.level, 0) + 1
    if not with_body:
        return
    best = max(with_body, key=lambda n: (with_body[n], n))
    deeper = level is not None and best > level  # sections of the answers ("### Answer")
    if best != level and not deeper and with_body[best] > max(2, len(out.drafts)):
        if _over_lists(blocks, best):  # the questions are the list items under them
            return
        # "--level 1" keeps the first "#" heading as the file's title: the selector takes all
        option = f"--level {best}" if best > 1 else "--questions headings:1"
        out.suggestions.append(
            f"{option} reads each of the {with_body[best]} level-{best} headings "
            "as a question, with the text under it as its answer"
        )


def _over_lists(blocks: list[Block], level: int) -> bool:
    """Whether most level-``level`` headings are over a list whose items mostly ask."""
    over = total = 0
    for index, block in enumerate(blocks):
        if block.kind != "heading" or block.level != level:
            continue
        total += 1
        end = next(
            (j for j in range(index + 1, len(blocks)) if blocks[j].kind == "heading"), len(blocks)
        )
        for inner in blocks[index + 1 : end]:
            firsts = [p.raw.split("\n")[0] for i in inner.children if (p := i.first_paragraph())]
            asking = sum(1 for first in firsts if reads_as_question(clean(plain(first))))
            if inner.is_list and asking >= 2 and 2 * asking > len(firsts):
                over += 1
                break
    return 2 * over > total
