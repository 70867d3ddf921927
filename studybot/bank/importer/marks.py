"""The line-level heuristics of the Markdown reader: question marks, numbers, key points.

``importer.markdown`` decides from the block structure where a question and
its answer are; these functions say what one block or line looks like.
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block, link_target, plain
from studybot.bank.importer.draft import CHAPTER, CJK

_SEP = r"[:：.、．)）]"
MARKER = re.compile(
    rf"^(?:(?:[Qq]|问题|题目)\s*(?P<n>\d+)|第\s*(?P<n2>\d+)\s*题)\s*(?P<sep>{_SEP})?\s*(?P<text>.*)$",
    re.DOTALL,
)
# "**12.** …": the bold closes right after the number ("**1、Megatron-LM**" is a label)
_BOLD_NUMBER = re.compile(rf"^\s*(?:\*\*|__)\s*\d+\s*{_SEP}?\s*(?:\*\*|__)")
NUMBER = re.compile(
    r"^(?P<n>\d{1,4}(?:\.\d{1,4})*)(?:\s*[、．:：)）]|\.(?!\d)|\s)\s*(?P<text>\S.*)$", re.DOTALL
)
PARAGRAPH_NUMBER = re.compile(
    r"^(?P<n>\d{1,4}(?:\.\d{1,4})*)\s*(?:[:：、．)）]|\.(?!\d))\s*(?P<text>\S.*)$"
)
HINT_LINE = re.compile(r"^(?:提示|hint)\s*[:：]\s*(?P<text>.+)$", re.IGNORECASE | re.DOTALL)
_INLINE_HINT = re.compile(r"[（(【\[]\s*(?:提示|hint)\s*[:：].*?[）)】\]]\s*$", re.IGNORECASE)
OPTIONS = re.compile(r"以下|下列|哪个|哪一|哪种|which of", re.IGNORECASE)
KEY_POINTS_MOST = 6
_POINT_CHARS = 300


def asks(text: str) -> bool:
    """True when ``text`` ends in a question mark (a bracketed hint after it aside)."""
    return _INLINE_HINT.sub("", text).rstrip().endswith(("？", "?"))


def marker(raw_line: str, heading: bool = False) -> tuple[str, str] | None:
    """(label, text) when a line starts with ``Q1：``/``第1题``/``**12.**``; headings need no separator."""
    bold = raw_line.lstrip().startswith(("**", "__"))
    text = plain(raw_line)
    match = MARKER.match(text)
    if match and (heading or bold or match["sep"]):
        return match["n"] or match["n2"], match["text"].strip()
    if _BOLD_NUMBER.match(raw_line) or (bold and asks(text)):
        numbered = NUMBER.match(text)
        if numbered:
            return numbered["n"], numbered["text"].strip()
    return None


def join(text: str, more: str) -> str:
    if not text:
        return more
    if CJK.search(text[-1:]) or CJK.search(more[:1]) or text[-1:] in "，。；：？！、":
        return text + more
    return f"{text} {more}"


def joined(raw: str) -> str:
    out = ""
    for line in raw.split("\n"):
        out = join(out, plain(line))
    return out


def items(block: Block) -> list[Block]:
    return [c for c in block.children if c.kind == "item"]


def q_marker(block: Block) -> bool:
    """A paragraph that starts ``Q7：…``/``第7题``: never part of the answer above it."""
    first = block.raw.split("\n")[0]
    return marker(first) is not None and MARKER.match(plain(first)) is not None


def chapter_line(block: Block) -> bool:
    """A short paragraph alone on its line that names a part: ``**第二部分 进阶**``."""
    text = plain(block.raw)
    return (
        "\n" not in block.raw and len(text) <= 30 and bool(CHAPTER.match(text)) and not asks(text)
    )


def asks_inside(blocks: list[Block]) -> bool:
    """True when a question lives among ``blocks``: an asking heading or item, or a marker."""
    for block in blocks:
        if block.kind == "heading":
            if asks(plain(block.raw)) or marker(block.raw, heading=True):
                return True
        elif block.kind == "paragraph":
            if marker(block.raw.split("\n")[0]):
                return True
        elif block.kind == "item":
            paragraph = block.first_paragraph()
            own = paragraph is not None and link_target(paragraph.raw) is None
            if own and (asks(joined(paragraph.raw)) or marker(paragraph.raw.split("\n")[0])):
                return True
            if asks_inside(block.children[1:] if paragraph else block.children):
                return True
        elif asks_inside(block.children):
            return True
    return False


def has_marker_items(block: Block) -> bool:
    for item in items(block):
        paragraph = item.first_paragraph()
        if paragraph is not None and marker(paragraph.raw.split("\n")[0]):
            return True
    return False


def reads_as_key_points(block: Block) -> bool:
    """A list that reads as key points: a few short items, plain text, no links alone."""
    listed = items(block)
    if not listed or len(listed) > KEY_POINTS_MOST:
        return False
    for item in listed:
        paragraph = item.first_paragraph()
        if paragraph is None or link_target(paragraph.raw) is not None:
            return False
        if len(joined(paragraph.raw)) > _POINT_CHARS:
            return False
        if any(not (c.is_list and reads_as_key_points(c)) for c in item.children[1:]):
            return False
    return True


def key_points_of(block: Block) -> list[str]:
    points = []
    for item in items(block):
        point = joined(item.first_paragraph().raw)
        for sub in (i for child in item.children[1:] for i in items(child)):
            point += ("" if point.endswith(("：", ":")) else "；") + joined(
                sub.first_paragraph().raw
            )
        points.append(point)
    return points
