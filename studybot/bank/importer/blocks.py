"""Markdown block structure, from markdown-it-py tokens: headings, paragraphs, lists, the rest.

The question rules (``importer.markdown``) work on these blocks instead of on
lines, so a ``1.`` inside an answer's list, a fenced block or a table is
never mistaken for a question. Every block keeps its 0-based line range, for
``file:line`` messages and to cut an answer out of the source unchanged.
"""

from __future__ import annotations

import functools
import re
import textwrap
from dataclasses import dataclass, field

from markdown_it import MarkdownIt

# bounded runs: a line of 100,000 "[" costs a linear scan, not a quadratic one
_IMAGE = re.compile(r"!\[[^\]\n]{0,300}\]\([^)\n]{0,2000}\)")
_LINK = re.compile(r"\[(?P<text>[^\]\n]{0,300})\]\([^)\n]{0,2000}\)")
_REF_LINK = re.compile(r"!?\[(?P<text>[^\]\n]{0,300})\]\[[^\]\n]{0,200}\]")
# HTML a reader does not see; ``</s>``, ``<think>``, ``<eos>`` and ``<|im_end|>`` are text
_HTML_TAG = re.compile(
    r"</?(?:a|abbr|aside|b|big|blockquote|br|center|code|dd|del|details|div|dl|dt|em|font"
    r"|h[1-6]|hr|i|img|ins|kbd|li|mark|ol|p|pre|small|span|strong|sub|summary|sup|table"
    r"|tbody|td|th|thead|tr|tt|u|ul)(?:\s[^>\n]{0,300})?/?>",
    re.IGNORECASE,
)
_EMPHASIS = re.compile(r"(\*\*|__|~~)")
_ITALIC = re.compile(r"(?<![\w*])\*(?![\s*])([^*\n]+?)(?<![\s*])\*(?![\w*])")
_LINK_TARGET = re.compile(r"!?\[[^\]\n]{0,300}\]\((?P<target>[^)\s]{0,2000})[^)\n]{0,2000}\)")


@dataclass
class Block:
    """One Markdown block; ``children`` for lists, list items and block quotes."""

    kind: str  # heading, paragraph, bullet_list, ordered_list, item, fence, table, html, quote, …
    start: int  # first line, 0-based
    end: int  # one past the last line
    level: int = 0  # a heading's level (1–6)
    raw: str = ""  # inline Markdown of a heading or paragraph, lines joined by "\n"
    number: str | None = None  # an ordered list item's own number
    children: list[Block] = field(default_factory=list)

    @property
    def is_list(self) -> bool:
        return self.kind in ("bullet_list", "ordered_list")

    def first_paragraph(self) -> Block | None:
        """A list item's own text: its first child, when that is a paragraph."""
        first = self.children[0] if self.children else None
        return first if first is not None and first.kind == "paragraph" else None


# only block structure is needed: inline content stays raw (it is read by the rules)
_PARSER = MarkdownIt("commonmark", {"html": True}).enable("table").disable(["inline", "text_join"])


def parse(text: str) -> list[Block]:
    """The top-level blocks of ``text``, parsed a part at a time (see ``_parts``)."""
    lines = text.split("\n")
    blocks: list[Block] = []
    for start, end in _parts(lines):
        blocks.extend(_parse("\n".join(lines[start:end]), start))
    return blocks


_PART_LINES = 5000  # a part is at least this long: markdown-it's tokens live one part at a time
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^#{1,6}(?:[ \t]|$)")
_RAW_HTML = re.compile(r"^ {0,3}<(?:!--|pre\b|script\b|style\b|textarea\b)", re.IGNORECASE)
_RAW_END = re.compile(r"-->|</(?:pre|script|style|textarea)>", re.IGNORECASE)


def _parts(lines: list[str]) -> list[tuple[int, int]]:
    """Line ranges that parse alone exactly as they parse in the whole text.

    A part ends before an ATX heading at column 0 after a blank line,
    outside a fence and raw HTML: such a heading ends every open block (a
    list, a quote, a paragraph), so nothing before it reaches past it.
    """
    parts, start = [], 0
    fence: str | None = None
    raw = False
    for number, line in enumerate(lines):
        if raw:
            raw = not _RAW_END.search(line)
            continue
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened[1][0] == fence[0] and len(opened[1]) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened[1]
            continue
        if _RAW_HTML.match(line):
            raw = not _RAW_END.search(line)
            continue
        if number - start >= _PART_LINES and _ATX.match(line) and not lines[number - 1].strip():
            parts.append((start, number))
            start = number
    parts.append((start, len(lines)))
    return parts


def _parse(text: str, offset: int) -> list[Block]:
    root = Block("root", offset, offset)
    stack = [root]
    in_table = False  # a table's rows and cells are not structure the rules need
    for token in _PARSER.parse(text):
        if token.map:
            start, end = token.map[0] + offset, token.map[1] + offset
        else:
            start = end = stack[-1].start
        kind = token.type.removesuffix("_open").removesuffix("_close")
        kind = _KINDS.get(kind, kind)
        if kind == "table":
            in_table = token.nesting == 1
            if in_table:
                stack[-1].children.append(Block("table", start, end))
        elif in_table:
            continue
        elif token.nesting == 1:
            block = Block(kind, start, end, number=token.info or None)
            if kind == "heading":
                block.level = int(token.tag[1])
            stack[-1].children.append(block)
            stack.append(block)
        elif token.nesting == -1:
            stack.pop()
        elif token.type == "inline":
            stack[-1].raw = token.content
        else:
            stack[-1].children.append(Block(kind, start, end))
    return root.children


_KINDS = {"list_item": "item", "blockquote": "quote", "html_block": "html", "code_block": "fence"}


@functools.lru_cache(maxsize=16384)  # the rules ask for the same line's text several times
def plain(raw: str) -> str:
    """Inline Markdown as the text a reader sees: links by their text; no images, emphasis, tags."""
    text = raw
    if "](" in text:
        text = _LINK.sub(lambda m: m["text"], _IMAGE.sub("", text))
    if "][" in text:
        text = _REF_LINK.sub(lambda m: m["text"], text)
    if "<" in text:
        text = _HTML_TAG.sub("", text)
    if "*" in text or "_" in text or "~" in text:
        text = _ITALIC.sub(r"\1", _EMPHASIS.sub("", text))
    return text.replace("\\", "").strip()


def link_target(raw: str) -> str | None:
    """The target of a line that is nothing but a link (``[点击查看答案](…)``), else None."""
    # one pass to find the links and one to see nothing else is there: no backtracking
    if "](" not in raw:
        return None
    targets = _LINK_TARGET.findall(raw)
    rest = _LINK_TARGET.sub("", raw).strip(" \t\n,，、|;；")
    return targets[-1] if targets and not rest else None


def source(lines: list[str], blocks: list[Block]) -> str:
    """The source text of ``blocks`` (consecutive), as written, less common indentation."""
    if not blocks:
        return ""
    start = min(b.start for b in blocks)
    end = max(b.end for b in blocks)
    return textwrap.dedent("\n".join(lines[start:end])).strip()
