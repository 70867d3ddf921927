"""A file's list items that ask without a mark (``- 什么是 LoRA？``): where they far outnumber
the headings that ask, the file's questions are its items (``listed_questions``); a heading
that asks over an outline whose leaves mostly ask titles those questions (``outline_asks``)."""

from __future__ import annotations

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.markers import clean, marker, numbered, reads_as_question


def listed_questions(blocks: list[Block], than: int) -> bool:
    """More than ``than`` list items, at any depth, whose first line asks with no mark."""
    return _asking_items(blocks, than + 1) > than


def _asking_items(blocks: list[Block], upto: int, seen: int = 0) -> int:
    for block in blocks:
        if block.kind == "item":
            paragraph = block.first_paragraph()
            first = paragraph.raw.split("\n")[0] if paragraph is not None else ""
            if first and not marker(first) and reads_as_question(numbered(clean(plain(first)))[1]):
                seen += 1
        if block.children:
            seen = _asking_items(block.children, upto, seen)
        if seen >= upto:
            return seen
    return seen


def outline_asks(inner: list[Block]) -> bool:
    """A list right under a heading (nothing before it), read as an outline: two or more of
    its leaves, at any depth, ask, and most do (``- 一、为什么…？`` over ``  - 1.1 介绍一下…？``;
    a ``- ...`` placeholder is no leaf). A short answer before follow-ups is no outline."""
    listed = inner[0] if inner and inner[0].is_list else None
    if listed is None:
        return False
    leaves = [text for text in _leaves(listed) if text.strip(". …")]
    asking = sum(1 for text in leaves if reads_as_question(numbered(clean(text))[1]))
    return asking >= 2 and 2 * asking > len(leaves)


def _leaves(block: Block) -> list[str]:
    found = []
    for item in block.children:
        paragraph = item.first_paragraph()
        lists = [child for child in item.children if child.is_list]
        if paragraph is not None and not lists:
            found.append(plain(paragraph.raw.split("\n")[0]))
        for child in lists:
            found += _leaves(child)
    return found
