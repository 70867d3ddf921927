"""Markdown files and Jupyter notebooks: questions, their answers and chapters.

The block structure comes from markdown-it-py (``importer.blocks``); the
rules on top of it, in the order they are tried:

- a heading is a question when it carries a marker (``### Q4 …``), asks
  (ends in ``？``/``?``), or is numbered (``### 1.…``, ``#### 1.1 …``) with
  no question under it; everything below it up to the next heading of its
  level (sub-headings such as ``#### 2.1 Prefix LM`` included) is its answer.
  Other headings, and ``第一部分 …``/``一、…``/``Part 2`` lines, are sections;
- a paragraph line with a marker (``Q1：…``, ``**Q1：**…``, ``第1题：…``,
  ``**12.** …``) starts a question; the blocks below it up to the next
  question or heading are its answer. In a file with no markers, a numbered
  line (``1、…``) does too;
- a list item is a question when it asks, or is numbered (``1. …``,
  ``- 4.1 …``) in a file with no markers and has no question below it; a
  bullet that only names a topic is not, and neither is a link alone
  (``[点击查看答案](…)``, a table of contents);
- an answer that is one short list (≤ 6 plain items) gives the key points;
  any other answer is kept whole as the reference answer (Markdown); a
  ``提示：…`` paragraph is the hint; options under ``以下…哪个…？`` stay in the
  question text;
- the chapter is the outermost section level that tells questions apart; the
  first ``# …`` heading before any question is the bank's title;
- a notebook's Markdown cells are read as one document, ``file:cell N, line M``.

A question-like line that none of this takes is reported with why.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from studybot.bank.importer.blocks import Block, link_target, parse, plain, source
from studybot.bank.importer.draft import CHAPTER, Draft, Parsed, Skipped
from studybot.bank.importer.marks import (
    HINT_LINE,
    NUMBER,
    OPTIONS,
    PARAGRAPH_NUMBER,
    asks,
    asks_inside,
    chapter_line,
    has_marker_items,
    items,
    join,
    joined,
    key_points_of,
    marker,
    q_marker,
    reads_as_key_points,
)


def read_markdown(path: Path, text: str) -> Parsed:
    return _Reader(text, lambda line: f"{path}:{line + 1}").read()


def read_notebook(path: Path, text: str) -> Parsed:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return Parsed(problems=[f"{path}:{exc.lineno}: not a readable notebook: {exc.msg}"])
    except RecursionError:
        return Parsed(problems=[f"{path}:1: not a readable notebook: nested too deeply"])
    cells = data.get("cells") if isinstance(data, dict) else None
    if not isinstance(cells, list):
        return Parsed(problems=[f'{path}:1: not a Jupyter notebook (no "cells" list)'])
    lines: list[str] = []
    places: list[str] = []
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "markdown":
            continue
        source_text = cell.get("source", "")
        source_text = (
            "".join(map(str, source_text)) if isinstance(source_text, list) else str(source_text)
        )
        for line_number, line in enumerate(source_text.splitlines(), start=1):
            lines.append(line)
            places.append(f"{path}:cell {number}, line {line_number}")
        lines.append("")  # a cell boundary reads like a blank line
        places.append(f"{path}:cell {number}")
    return _Reader("\n".join(lines), lambda line: places[min(line, len(places) - 1)]).read()


def _section_end(blocks: list[Block], index: int) -> int:
    level = blocks[index].level
    for later in range(index + 1, len(blocks)):
        if blocks[later].kind == "heading" and blocks[later].level <= level:
            return later
    return len(blocks)


class _Reader:
    def __init__(self, text: str, where: Callable[[int], str]) -> None:
        self.lines = text.expandtabs(4).splitlines()
        self.blocks = parse("\n".join(self.lines))
        self.where = where
        self.out = Parsed()
        self.strong = self._has_markers(self.blocks)
        self.listed: set[int] = set()  # id() of the drafts taken from list items

    def read(self) -> Parsed:
        self._walk(self.blocks, ())
        depth = _chapter_depth(self.out.drafts)
        for draft in self.out.drafts:
            if len(draft.path) > depth:
                line, draft.chapter = draft.path[depth]
                draft.section = line + 1
            self._finish(draft)
        return self.out

    # -- structure --------------------------------------------------------------------

    def _walk(self, blocks: list[Block], path: tuple[tuple[int, str], ...]) -> None:
        current: Draft | None = None  # the question whose answer the next blocks are
        index = 0
        while index < len(blocks):
            block = blocks[index]
            if block.kind == "heading":
                index = self._heading(blocks, index, path)
                current = None
                continue
            if block.kind == "paragraph" and chapter_line(block):
                end = next(
                    (j for j in range(index + 1, len(blocks)) if blocks[j].kind == "heading"),
                    len(blocks),
                )
                # "**第三章 …**" inside "## 第二部分 …" is the next part, not a sub-part
                outer = path[:-1] if path and CHAPTER.match(path[-1][1]) else path
                self._walk(blocks[index + 1 : end], (*outer, (block.start, plain(block.raw))))
                index, current = end, None
                continue
            if block.kind == "paragraph":
                current = self._paragraph(block, path, current)
            elif block.is_list:
                current = self._list(block, path, current)
            elif current is not None:
                current.blocks.append(block)
            elif block.kind == "quote":
                self._walk(block.children, path)  # "> Q1：…" outside any answer
            elif block.kind == "table":
                self._skip_table(block)
            index += 1

    def _heading(self, blocks: list[Block], index: int, path: tuple[tuple[int, str], ...]) -> int:
        block = blocks[index]
        end = _section_end(blocks, index)
        title = plain(block.raw)
        untitled = self.out.title is None and not self.out.drafts and not path
        if block.level == 1 and untitled and not asks(title):
            self.out.title = title
            return index + 1
        inner = blocks[index + 1 : end]
        found = self._heading_question(block, inner)
        if found is None:
            self._walk(inner, (*path, (block.start, title)))
            return end
        draft = self._draft(block.start, *found, path)
        # "Q7：" below the answer, or "### 4. …" under "## 3. …", starts the next question;
        # "#### 3.1 …" is part of the answer
        stop = next((j for j, b in enumerate(inner) if _next_question(b)), len(inner))
        draft.blocks.extend(inner[:stop])
        if stop < len(inner):
            self._walk(inner[stop:], path)
        return end

    def _heading_question(self, block: Block, inner: list[Block]) -> tuple[str | None, str] | None:
        text = plain(block.raw)
        if CHAPTER.match(text):
            return None
        found = marker(block.raw, heading=True)
        if found:
            return found
        numbered = NUMBER.match(text)
        label, rest = (numbered["n"], numbered["text"].strip()) if numbered else (None, text)
        if asks(rest) or (label is not None and not asks_inside(inner)):
            return label, rest
        return None

    def _paragraph(self, block: Block, path, current: Draft | None) -> Draft | None:
        raw_lines = block.raw.split("\n")
        starts: list[tuple[int, str | None, str]] = []  # (line in paragraph, label, text)
        for k, raw_line in enumerate(raw_lines):
            found = marker(raw_line)
            if found is None and not self.strong:
                numbered = PARAGRAPH_NUMBER.match(plain(raw_line))
                found = (numbered["n"], numbered["text"]) if numbered else None
            if found is not None:
                starts.append((k, *found))
        if not starts:
            if current is not None:
                current.blocks.append(block)
            else:
                self._skip_lines(block, raw_lines, path)
            return current
        if starts[0][0] > 0 and current is not None:
            current.blocks.append(Block("paragraph", block.start, block.start + starts[0][0]))
        bounds = [s[0] for s in starts[1:]] + [len(raw_lines)]
        for (k, label, text), stop in zip(starts, bounds, strict=True):
            current = self._draft(block.start + k, label, text, path)
            body = k + 1
            # "**Q3：**" alone takes the line below; indented lines continue the text
            while body < stop and (not current.question or self._indented(block.start + body)):
                current.question = join(current.question, plain(raw_lines[body]))
                body += 1
            if body < stop:
                current.blocks.append(Block("paragraph", block.start + body, block.start + stop))
        return current

    def _list(self, block: Block, path, current: Draft | None) -> Draft | None:
        if current is not None and self.strong and not has_marker_items(block):
            current.blocks.append(block)  # a marked question's answer, numbered or not
            return current
        taken = self._items(block, path)
        # a list item's answer is inside the item: a list after it is not that answer
        if taken is None and current is not None and id(current) not in self.listed:
            current.blocks.append(block)
            return current
        return taken or current

    def _items(self, block: Block, path) -> Draft | None:
        """Questions among the items of a list (and their sub-lists); the last one taken."""
        last: Draft | None = None
        for item in items(block):
            paragraph = item.first_paragraph()
            if paragraph is None:
                continue
            rest = item.children[1:]
            label, text, found = self._item_text(block, item, paragraph)
            below = any(asks_inside([child]) for child in rest)
            target = link_target(paragraph.raw)
            if target is not None and (target.startswith("#") or not (found or asks(text))):
                if found or asks(text) or label is not None:
                    why = "a table-of-contents link" if target.startswith("#") else "a link only"
                    self._skip(paragraph.start, text, why, counts=False)
                for child in rest:
                    if child.is_list:
                        last = self._items(child, path) or last
                continue
            if found or asks(text) or (label is not None and not below and not self.strong):
                last = self._draft(paragraph.start, label, text, path)
                self.listed.add(id(last))
                for child in rest:
                    if child.is_list and any(asks_inside([c]) for c in items(child)):
                        last = self._mixed(child, last, path)
                    else:
                        last.blocks.append(child)
                continue
            if label is not None and not below:
                self._skip(
                    paragraph.start, text, "a numbered item in a file whose questions are marked"
                )
            for child in rest:
                if child.is_list:
                    last = self._items(child, path) or last
        return last

    def _mixed(self, sub: Block, parent: Draft, path) -> Draft:
        """A question's sub-list: asking items are questions, the others its points."""
        points = Block(sub.kind, sub.start, sub.end)
        points.children = [i for i in items(sub) if not asks_inside([i])]
        if points.children:
            parent.blocks.append(points)
        asking = Block(sub.kind, sub.start, sub.end)
        asking.children = [i for i in items(sub) if asks_inside([i])]
        return self._items(asking, path) or parent

    def _item_text(self, block: Block, item: Block, paragraph: Block):
        first, *more = paragraph.raw.split("\n")
        found = marker(first)
        if found:
            label, text = found
        else:
            numbered = NUMBER.match(plain(first))
            label, text = (numbered["n"], numbered["text"]) if numbered else (None, plain(first))
            if label is None and block.kind == "ordered_list" and not self.strong:
                label = item.number
        for line in more:
            text = join(text, plain(line))
        return label, text.strip(), found is not None

    # -- recording --------------------------------------------------------------------

    def _draft(self, line: int, label: str | None, text: str, path) -> Draft:
        draft = Draft(self.where(line), text.strip(), label=label, path=path)
        self.out.drafts.append(draft)
        return draft

    def _skip(self, line: int, text: str, why: str, counts: bool = True) -> None:
        self.out.skipped.append(Skipped(self.where(line), text, why, counts))

    def _skip_lines(self, block: Block, raw_lines: list[str], path) -> None:
        for k, raw_line in enumerate(raw_lines):
            text = plain(raw_line)
            if asks(text) and len(text) > 3:
                self._skip(
                    block.start + k, text, "a question mark in a paragraph, not under a question"
                )
            elif self.strong and PARAGRAPH_NUMBER.match(text):
                self._skip(
                    block.start + k, text, "a numbered line in a file whose questions are marked"
                )

    def _skip_table(self, block: Block) -> None:
        for line in range(block.start, block.end):
            cells = [plain(c) for c in self.lines[line].strip().strip("|").split("|")]
            asking = next((c for c in cells if asks(c) and len(c) > 3), None)
            if asking:
                self._skip(line, asking, "a table row, not a heading, list item or Q1： line")

    def _indented(self, line: int) -> bool:
        return line < len(self.lines) and self.lines[line][:1].isspace()

    def _finish(self, draft: Draft) -> None:
        """Hint, options, key points and the reference answer from the blocks below a question."""
        blocks = [b for b in draft.blocks if not _comment(self.lines, b)]
        draft.blocks = []
        first = blocks[0] if blocks else None
        hint = HINT_LINE.match(plain(first.raw)) if first and first.kind == "paragraph" else None
        if hint and "\n" not in first.raw and draft.hint is None:
            draft.hint = hint["text"].strip()
            blocks.pop(0)
        if blocks and blocks[0].is_list and OPTIONS.search(draft.question):
            options = [joined(p.raw) for i in items(blocks.pop(0)) if (p := i.first_paragraph())]
            draft.question += "".join(f"\n- {option}" for option in options)
        if blocks and blocks[0].is_list and reads_as_key_points(blocks[0]):
            draft.key_points = key_points_of(blocks[0])
            if len(blocks) == 1:
                return
        reference = source(self.lines, blocks)
        draft.reference = reference or None

    def _has_markers(self, blocks: list[Block]) -> bool:
        for block in blocks:
            if block.kind in ("heading", "paragraph"):
                heading = block.kind == "heading"
                if any(marker(line, heading) for line in block.raw.split("\n")):
                    return True
            elif self._has_markers(block.children):
                return True
        return False


def _next_question(block: Block) -> bool:
    if block.kind == "paragraph":
        return q_marker(block)
    if block.kind != "heading":
        return False
    numbered = NUMBER.match(plain(block.raw))
    whole = numbered is not None and "." not in numbered["n"]
    return marker(block.raw, heading=True) is not None or (whole and asks(numbered["text"]))


def _comment(lines: list[str], block: Block) -> bool:
    """An HTML comment on its own: a note to the author, not part of an answer."""
    return block.kind == "html" and source(lines, [block]).startswith("<!--")


def _chapter_depth(drafts: list[Draft]) -> int:
    """The outermost section level at which the questions fall into more than one section."""
    deepest = max((len(d.path) for d in drafts), default=0)
    for depth in range(deepest):
        keys = {d.path[depth] if len(d.path) > depth else None for d in drafts}
        if len(keys) > 1:
            return depth
    return 0
