"""A Markdown file (or a notebook's Markdown cells) as the lines a selector can take.

Each line that holds text a reader sees is a ``Line``: a heading (its
level), a list item's own first line (its depth: 1 for a top-level list),
a paragraph line, a table row, an HTML line (``<summary>…</summary>``).
Fenced code and HTML comments hold none. ``asks`` is the importer's own
test of a line that reads like a question (``markers.reads_as_question``),
so the selectors, the preview's counts and the default reader agree on
what an asking line is. ``boxed`` holds the lines inside a closed
``<details>`` box: a heading there is a line of the answer it hides, never
a chapter nor the end of an answer, and no selector worth suggesting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from studybot.bank.importer.admonitions import unfenced
from studybot.bank.importer.blocks import Block, parse, plain, source_lines
from studybot.bank.importer.collapsible import DETAILS_TAG
from studybot.bank.importer.draft import Parsed
from studybot.bank.importer.labels import statement_label
from studybot.bank.importer.markers import asks, reads_as_question
from studybot.bank.importer.notebook import front_matter, notebook_lines
from studybot.bank.importer.parts import topic_title
from studybot.bank.importer.resources import see_also
from studybot.bank.importer.tables import cells

# the names a preview gives the places questions are found in, one and many
KIND_NAMES = {
    "heading": ("heading", "headings"),
    "item": ("list item", "list items"),
    "paragraph": ("line", "lines"),
    "table": ("table row", "table rows"),
    "html": ("summary", "summaries"),
    "cell": ("notebook cell", "notebook cells"),
}
_BOLD_START = re.compile(r"^\s*(?:\*\*|__)(?P<text>.+?)(?:\*\*|__)(?P<rest>.*)$")
_COMMENT = re.compile(r"^\s*<!--.*-->\s*$")


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the file that holds text, as the selectors see it."""

    index: int  # 0-based line of the file (of the notebook's Markdown, for a notebook)
    kind: str  # heading, item, paragraph, table, html
    raw: str  # its inline Markdown, markers and indentation gone
    level: int = 0  # a heading's level, a list item's depth (1 = top level), a row's header line
    text: str = field(init=False)  # as a reader sees it: no links, emphasis or tags
    asks: bool = field(init=False)  # reads like a question (a table row: one of its cells)

    def __post_init__(self) -> None:  # worked out once: every selector reads them
        text = plain(self.raw).strip()
        if self.kind == "table":
            asks = row_asks([plain(cell).strip() for cell in cells(self.raw)])
        elif self.kind == "heading":  # "④ 考试怎么考": a part's name
            asks = reads_as_question(text) and not topic_title(text)
        else:  # "**What to learn:** Use …", "[Why X](x.md) -- …": the question word asks nothing
            asks = reads_as_question(text) and not (statement_label(self.raw) or see_also(self.raw))
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "asks", asks)

    @property
    def bold(self) -> re.Match[str] | None:
        """``**What is X?** …``: the bold run the line starts with."""
        return _BOLD_START.match(self.raw)


@dataclass
class Layout:
    """The file's lines, where each is (``file:line``), and the lines that hold text."""

    lines: list[str]
    places: list[str]
    found: list[Line] = field(default_factory=list)
    title: str | None = None  # the front matter's title
    notebook: bool = False
    boxed: frozenset[int] = frozenset()  # lines inside a closed <details> … </details>
    blocks: list[Block] = field(default_factory=list)  # the blocks the lines were found in

    def where(self, index: int) -> str:
        return self.places[min(index, len(self.places) - 1)]

    def section_heading(self, line: Line) -> bool:
        """A heading outside any closed ``<details>`` (one inside is a line of its answer)."""
        return line.kind == "heading" and line.index not in self.boxed


def layout(path: Path, text: str, kind: str) -> Layout | Parsed:
    """The layout of a Markdown file or a notebook's Markdown cells (a Parsed when unreadable)."""
    if kind == "notebook":
        read = notebook_lines(path, text)
        if isinstance(read, Parsed):
            return read
        lines, places, _ = read
        lines = source_lines("\n".join(lines))
        out = Layout(lines, places, notebook=True)
    else:
        lines = source_lines(text)
        out = Layout(lines, [f"{path}:{n}" for n in range(1, len(lines) + 1)])
    out.title = front_matter(out.lines)
    out.boxed = _boxed(out.lines)
    out.blocks = parse("\n".join(out.lines))
    for block in out.blocks:
        _walk(block, out, 0)
    out.found.sort(key=lambda line: line.index)
    return out


def _walk(block: Block, out: Layout, depth: int) -> None:
    kind = block.kind
    if kind == "heading":
        out.found.append(Line(block.start, "heading", block.raw, block.level))
    elif kind == "paragraph":
        for offset, raw in enumerate(block.raw.split("\n")):
            out.found.append(Line(block.start + offset, "paragraph", raw.strip()))
    elif kind == "item":
        own = block.first_paragraph()
        rest = block.children
        if own is not None:
            first, *more = own.raw.split("\n")
            out.found.append(Line(own.start, "item", first.strip(), depth))
            for offset, raw in enumerate(more, start=1):
                out.found.append(Line(own.start + offset, "paragraph", raw.strip()))
            rest = block.children[1:]
        for child in rest:
            _walk(child, out, depth)
    elif block.is_list:
        for child in block.children:
            _walk(child, out, depth + 1)
    elif kind == "table":
        for index in range(block.start + 2, block.end):
            row = out.lines[index]
            if row.strip():
                out.found.append(Line(index, "table", row.strip(), block.start))
    elif kind == "html":
        for index in range(block.start, block.end):
            row = out.lines[index]
            if row.strip() and not _COMMENT.match(row):
                out.found.append(Line(index, "html", row.strip()))
    else:
        for child in block.children:  # a block quote's blocks
            _walk(child, out, depth)


def _boxed(lines: list[str]) -> frozenset[int]:
    """The lines between a ``<details>`` and the ``</details>`` that closes it (fenced code
    aside); a box never closed holds none."""
    inside: set[int] = set()
    depth, opened = 0, 0
    for index in unfenced(lines):
        for tag in DETAILS_TAG.finditer(lines[index]):
            if tag[1] == "":
                opened = index if depth == 0 else opened
                depth += 1
            elif depth:
                depth -= 1
                if depth == 0:
                    inside.update(range(opened + 1, index))
    return frozenset(inside)


def row_asks(row: list[str]) -> bool:
    """Whether a table row asks: a cell ends in a question mark, or its first cell that is no
    number reads as a question (``| 1 | 简述 X | … |``). The cells after a term describe it
    (``| 命中率 | 请求在缓存里找到的比例 |``, ``| 带宽 | 每秒能读写多少字节 |``): a glossary's
    row asks nothing."""
    first = next((cell for cell in row if cell and not cell.rstrip(".、").isdigit()), "")
    return any(asks(cell) for cell in row) or reads_as_question(first)


def table_header(out: Layout, line: Line) -> list[str]:
    """The header cells of the table ``line`` is a row of, as a reader sees them."""
    return [plain(c).strip() for c in cells(out.lines[line.level])]


def row_cells(line: Line) -> list[str]:
    return cells(line.raw)
