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

from studybot.bank.importer.draft import FENCE, outside_code, unescaped
from studybot.bank.importer.htmllists import markdown_lines

# bounded runs: a line of 100,000 "[" costs a linear scan, not a quadratic one
_IMAGE = re.compile(r"!\[[^\]\n]{0,300}\]\([^)\n]{0,2000}\)")
# a link's text may hold brackets once: "[[more]](…)", "[`[Basic]` 类型判断](…)"
_TEXT = r"(?:[^\[\]\n]|\[[^\[\]\n]{0,100}\]){0,300}"
_LINK = re.compile(rf"\[(?P<text>{_TEXT})\]\([^)\n]{{0,2000}}\)")
_REF_LINK = re.compile(r"(?<![A-Za-z0-9_\]])!?\[(?P<text>[^\]\n]{0,300})\]\[[^\]\n]{0,200}\]")
# HTML a reader does not see; ``</s>``, ``<think>``, ``<eos>`` and ``<|im_end|>`` are text
_HTML_TAG = re.compile(
    r"</?(?:a|abbr|aside|b|big|blockquote|br|center|code|dd|del|details|div|dl|dt|em|font"
    r"|h[1-6]|hr|i|img|ins|kbd|li|mark|ol|p|pre|small|span|strong|sub|summary|sup|table"
    r"|tbody|td|th|thead|tr|tt|u|ul)(?:\s[^>\n]{0,300})?/?>",
    re.IGNORECASE,
)
_EMPHASIS = re.compile(r"(\*\*|(?<!_)__(?!_)|~~)")  # "____" is a blank to fill in
_ITALIC = re.compile(r"(?<![\w*])\*(?![\s*])([^*\n]+?)(?<![\s*])\*(?![\w*])")
# "_text_" between spaces or punctuation; not "snake_case", TeX ("$x_i$", "\\sum_{j}") nor a
# one-letter variable ("at time _t_", kept as written)
_UNDERSCORED = re.compile(r"(?<![\w_$\\}])_(?![\s_])([^_$\\{}\n]{2,}?)(?<![\s_])_(?![\w_$])")
# Obsidian: "[[page]]", "[[page|shown]]" (not "[[src]](…)", a citation) and "==highlight=="
_WIKI = re.compile(r"\[\[(?P<page>[^\[\]|\n]{1,200})(?:\|(?P<shown>[^\[\]\n]{1,200}))?\]\](?!\()")
_HIGHLIGHT = re.compile(r"(?<![\w=])==(?=[^\s=])([^=\n]{1,300}?)(?<=[^\s=])==(?![\w=])")
_QUOTED = re.compile(r"^ {0,3}> ?", re.MULTILINE)
_LINK_TARGET = re.compile(rf"!?\[{_TEXT}\]\((?P<target>[^)\s]{{0,2000}})[^)\n]{{0,2000}}\)")


@dataclass(slots=True)
class Block:
    """One Markdown block; ``children`` for lists, list items and block quotes."""

    kind: str  # heading, paragraph, bullet_list, ordered_list, item, fence, table, html, quote, …
    start: int  # first line, 0-based
    end: int  # one past the last line
    level: int = 0  # a heading's level (1–6)
    raw: str = ""  # inline Markdown of a heading or paragraph, lines joined by "\n"
    number: str | None = None  # an ordered list item's own number
    children: list[Block] = field(default_factory=list)
    taken: bool = False  # every item is a question: indented lines, a Q&A section, "Tasks:"

    @property
    def is_list(self) -> bool:
        return self.kind in ("bullet_list", "ordered_list")

    def first_paragraph(self) -> Block | None:
        """A list item's own text: its first child, when that is a paragraph."""
        first = self.children[0] if self.children else None
        return first if first is not None and first.kind == "paragraph" else None


# Nesting. Every container (a list item, a quote) a line is in is opened or continued by
# characters of its prefix: a marker, or indentation of at least one column per level. The
# parser sees each prefix cut to PREFIX_COLUMNS, so no line is nested deeper than that, and
# markdown-it never reaches its nesting limit (at which it drops the rest of the file); an
# item nested deeper becomes a sibling at the deepest level kept, read like any other.
PREFIX_COLUMNS = 64  # 16 levels of 4-space indentation, 32 of "- "
_NESTING = 4 * PREFIX_COLUMNS + 16  # markdown-it levels: 2 per list (list, item), 1 per quote
_PREFIX = re.compile(r"(?:[ \t>]|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))+")
# what a line's own text keeps of its indentation: more than this is no text a person wrote
# (a 10,000-level list repeats its indentation 10,000 times), and it stays linear
INDENT_COLUMNS = 1024

# only block structure is needed: inline content stays raw (it is read by the rules)
_PARSER = (
    MarkdownIt("commonmark", {"html": True, "maxNesting": _NESTING})
    .enable("table")
    .disable(["inline", "text_join"])
)


def source_lines(text: str) -> list[str]:
    """The lines of ``text`` with tabs expanded, indentation cut to ``INDENT_COLUMNS`` and
    MkDocs boxes (``??? question "…"``), ``###2、…`` headings and HTML lists read as the
    Markdown they stand for (``htmllists``)."""
    if "\t" in text or " " * INDENT_COLUMNS in text:
        # cut in the whole text first: its lines are never all in memory at full length
        text = _DEEP_INDENT.sub(lambda m: m[0].expandtabs(4)[:INDENT_COLUMNS], text)
        text = text.expandtabs(4)
    return markdown_lines(text.splitlines())


_DEEP_INDENT = re.compile(rf"^[ \t]{{{INDENT_COLUMNS // 4},}}", re.MULTILINE)  # a tab is up to 4


def _shallow(line: str) -> str:
    """``line`` as the parser sees it: its prefix of indentation and markers cut to
    PREFIX_COLUMNS (the last ones kept, from a space), its text as written."""
    if line[:1] not in _PREFIX_FIRST:
        return line
    prefix = _PREFIX.match(line)
    if prefix is None or prefix.end() <= PREFIX_COLUMNS:
        return line
    kept = prefix[0][-PREFIX_COLUMNS:]
    space = min((kept.find(c) for c in " \t" if c in kept), default=-1)  # no half marker
    return kept[space:] + line[prefix.end() :] if space >= 0 else line[prefix.end() :]


_PREFIX_FIRST = frozenset(" \t>-*+0123456789")
# a line that may have a prefix longer than PREFIX_COLUMNS (the characters _PREFIX is made of)
_DEEP_PREFIX = re.compile(rf"^[ \t>*+\-\d.)]{{{PREFIX_COLUMNS + 1}}}", re.MULTILINE)


def parse(text: str) -> list[Block]:
    """The top-level blocks of ``text``, a section at a time (see ``_sections``).

    A section that is nothing but ATX headings, plain paragraphs and one-line
    list items (``_plain``: most of a question bank) is read straight from
    its lines; the rest goes to markdown-it, in parts of at least
    ``_PART_LINES`` lines. Both give the same blocks (tests/bank/test_import_blocks.py).
    Each line's nesting is cut to ``PREFIX_COLUMNS`` first (``_shallow``).
    """
    lines = text.split("\n")
    if _DEEP_PREFIX.search(text):  # most files have no such line: no pass over every line
        lines = [_shallow(line) for line in lines]
    blocks: list[Block] = []
    waiting = None  # where the sections waiting for markdown-it start
    nul = "\0" in text  # markdown-it reads it as U+FFFD: left to it

    def flush(stop: int) -> None:
        nonlocal waiting
        if waiting is not None:
            blocks.extend(_parse("\n".join(lines[waiting:stop]), waiting))
            waiting = None

    for start, end in _sections(lines):
        simple = None if nul else _plain(lines, start, end)
        if simple is not None:
            flush(start)
            blocks.extend(simple)
        else:
            waiting = start if waiting is None else waiting
            if end - waiting >= _PART_LINES:
                flush(end)
    flush(len(lines))
    return blocks


_PART_LINES = 5000  # a part is at least this long: markdown-it's tokens live one part at a time
_ATX = re.compile(r"^#{1,6}(?:[ \t]|$)")
_RAW_HTML = re.compile(r"^ {0,3}<(?:!--|pre\b|script\b|style\b|textarea\b)", re.IGNORECASE)
_RAW_END = re.compile(r"-->|</(?:pre|script|style|textarea)>", re.IGNORECASE)
_OPENERS = frozenset(" `~<#")  # the first characters of those three


def _sections(lines: list[str]) -> list[tuple[int, int]]:
    """Line ranges that parse alone exactly as they parse in the whole text.

    A section ends before an ATX heading at column 0 after a blank line,
    outside a fence and raw HTML: such a heading ends every open block (a
    list, a quote, a paragraph), so nothing before it reaches past it.
    """
    sections, start = [], 0
    fence: str | None = None
    raw = False
    for number, line in enumerate(lines):
        if raw:
            raw = not _RAW_END.search(line)
            continue
        if line[:1] not in _OPENERS:
            continue  # neither a fence, raw HTML nor a heading
        opened = FENCE.match(line)
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
        if number > start and _ATX.match(line) and not lines[number - 1].strip():
            sections.append((start, number))
            start = number
    sections.append((start, len(lines)))
    return sections


# -- sections that need no parser ---------------------------------------------------

_PLAIN_HEADING = re.compile(r"(#{1,6}) ")
_PLAIN_ITEM = re.compile(r"(?:[-*+]|(?P<number>\d{1,9})[.)]) (?=\S)")
# what may open a block other than a paragraph, or continue one: left to markdown-it
_NOT_PLAIN = re.compile(r"[\s#>`~\-*+_=|<\[:]|\d{1,9}[.)](?:\s|$)")


def _plain(lines: list[str], start: int, end: int) -> list[Block] | None:
    """The blocks of a section of headings, plain paragraphs and one-line list items.

    None when any line is something else (a fence, a quote, a table, an
    indented line, a line right under an item…): markdown-it reads it.
    """
    out: list[Block] = []
    at = start
    while at < end:
        line = lines[at]
        if _blank(line):
            at += 1
        elif line[0] == "#":
            heading = _heading(line)
            if heading is None:
                return None
            out.append(Block("heading", at, at + 1, level=heading[0], raw=heading[1]))
            at += 1
        elif _PLAIN_ITEM.match(line):
            found = _plain_list(lines, at, end)
            if found is None:
                return None
            out.append(found)
            at = found.end
        elif _plain_text(line):
            stop = at + 1
            while stop < end and _plain_text(lines[stop]):  # a blank, item or heading ends it
                stop += 1
            item = _PLAIN_ITEM.match(lines[stop]) if stop < end else None
            if item and item["number"] and int(item["number"]) != 1:
                return None  # "2. …" right under a paragraph continues it
            out.append(Block("paragraph", at, stop, raw="\n".join(lines[at:stop]).strip()))
            at = stop
        else:
            return None
    return out


def _plain_list(lines: list[str], first: int, end: int) -> Block | None:
    """One list of one-line items with one marker (``-``, ``*``, ``+``, ``1.`` or ``1)``);
    an item ends at the next text."""
    item = _PLAIN_ITEM.match(lines[first])
    if item is None:  # the caller saw an item there
        return None
    marker = item[0][-2]  # a bullet, or the "." or ")" after a number
    found: list[Block] = []
    at = first
    while True:
        text = lines[at][item.end() :]
        if not _plain_text(text):
            return None
        below = at + 1
        while below < end and not lines[below].strip(" \t"):
            below += 1
        after = lines[below] if below < end else None
        if after is not None and below == at + 1 and not _ends_item(after):
            return None  # a line right under an item continues it
        paragraph = Block("paragraph", at, at + 1, raw=text.strip())
        found.append(Block("item", at, below, number=item["number"], children=[paragraph]))
        following = _PLAIN_ITEM.match(after) if after is not None else None
        if following is None or following[0][-2] != marker:
            kind = "bullet_list" if found[0].number is None else "ordered_list"
            return Block(kind, first, below, children=found)
        item, at = following, below


def _ends_item(line: str) -> bool:
    """Another item, or a heading: what ends an item from the line right under it."""
    return bool(_PLAIN_ITEM.match(line)) or (line[0] == "#" and _heading(line) is not None)


def _blank(line: str) -> bool:
    return not line.strip(" \t")


def _heading(line: str) -> tuple[int, str] | None:
    """(level, text) of an ATX heading with text and no closing ``#``s."""
    found = _PLAIN_HEADING.match(line)
    if found is None:
        return None
    text = line[found.end() :].strip()
    return (found.end() - 1, text) if text and not text.endswith("#") else None


def _plain_text(line: str) -> bool:
    """A line that can only be a paragraph's text: ``**bold**`` first is, ``- ``, ``>``… are not."""
    if line.startswith("**"):
        return line[2:3] not in ("", " ", "\t", "*")
    return bool(line) and not _NOT_PLAIN.match(line)


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


@functools.lru_cache(maxsize=1 << 18)  # the rules ask for the same line's text several times
def plain(raw: str) -> str:
    """Inline Markdown as the text a reader sees: links by their text; no images, emphasis, tags."""
    text = raw
    if "[[" in text:
        text = _WIKI.sub(lambda m: m["shown"] or m["page"], text)
    if "==" in text:
        text = _HIGHLIGHT.sub(r"\1", text)
    if "](" in text:
        text = _LINK.sub(lambda m: m["text"], _IMAGE.sub("", text))
    if "][" in text:
        text = _REF_LINK.sub(lambda m: m["text"], text)
    if "<" in text:  # "`<p>`" is code, shown as written
        text = outside_code(text, lambda part: _HTML_TAG.sub("", part))
    if "*" in text or "_" in text or "~" in text:
        text = outside_code(text, lambda part: _UNDERSCORED.sub(r"\1", _EMPHASIS.sub("", part)))
        text = _ITALIC.sub(r"\1", text)
    return unescaped(text).strip()


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
    text = textwrap.dedent("\n".join(lines[start:end]))
    if all(_QUOTED.match(line) for line in text.split("\n") if line.strip()):
        text = textwrap.dedent(_QUOTED.sub("", text))  # an answer inside a quote (a callout)
    return text.strip()


def drawn_rule(block: Block) -> bool:
    """``━━━━━━`` or ``＝＝＝``: a rule drawn with characters, as ``---`` is one."""
    return block.kind == "paragraph" and bool(_RULE.fullmatch(block.raw.strip()))


_RULE = re.compile(r"[━─═—–\-=＝_*~～·•]{3,}")


def section_end(blocks: list[Block], index: int) -> int:
    """Where the section of the heading ``blocks[index]`` ends: the next heading as high."""
    level = blocks[index].level
    for later in range(index + 1, len(blocks)):
        if blocks[later].kind == "heading" and blocks[later].level <= level:
            return later
    return len(blocks)


def navigation(block: Block) -> bool:
    """A link within the page (``**[⬆ back to top](#top)**``) or a footnote (``[^1]: …``)."""
    if block.kind != "paragraph":
        return False
    target, raw = link_target(block.raw.strip("*_ ")), block.raw.lstrip()
    return (target is not None and target.startswith("#")) or (raw[:2] == "[^" and "]:" in raw[:44])


def html_comment(lines: list[str], block: Block) -> bool:
    """An HTML comment on its own: a note to the author, not part of an answer."""
    return block.kind == "html" and source(lines, [block]).startswith("<!--")
