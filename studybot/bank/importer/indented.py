"""Questions written as indented lines: a file whose questions sit 4 spaces in.

Interview notes are often typed with each question indented under a topic
heading (``# 1. 深度学习相关`` over ``    GAN的原理``). Markdown reads those
lines as a code block, so no question would be seen. When the indented
(not fenced) blocks of a file read as questions — half their lines ask, and
twice as many asking lines sit in them as outside them — they are the file's
questions: their lines are read as if written at the margin. Real code
(``def f(x):``, ``x = 1``) never reads as questions, so it stays code.
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block
from studybot.bank.importer.draft import FENCE_ANY_INDENT
from studybot.bank.importer.markers import reads_as_question


def lifted(lines: list[str], blocks: list[Block]) -> list[Block]:
    """``blocks`` with each indented block that holds this file's questions read as a list
    of them, a line an item (``【检测】`` labels aside); unchanged when none does."""
    indented = [
        b for b in blocks if b.kind == "fence" and not FENCE_ANY_INDENT.match(lines[b.start])
    ]
    inside = [line.strip() for b in indented for line in lines[b.start : b.end] if line.strip()]
    asking = sum(1 for line in inside if reads_as_question(line))
    if asking < 3 or 2 * asking < len(inside):
        return blocks
    taken = {id(b) for b in indented}
    outside = sum(1 for b in blocks if id(b) not in taken for _ in _asking_lines(lines, b))
    if 2 * outside >= asking:  # most of the file's asking lines are indented
        return blocks
    return [_as_list(lines, b) if id(b) in taken else b for b in blocks]


_LABEL = re.compile(r"[【\[][^】\]]{1,20}[】\]]")  # "【检测】": a group's name, no question


def _asking_lines(lines: list[str], block: Block):
    return (i for i in range(block.start, block.end) if reads_as_question(lines[i].strip()))


def _as_list(lines: list[str], block: Block) -> Block:
    found = []
    for i in range(block.start, block.end):
        text = lines[i].strip()
        if text and not _LABEL.fullmatch(text):
            paragraph = Block("paragraph", i, i + 1, raw=text)
            found.append(Block("item", i, i + 1, number="", children=[paragraph]))
    # an ordered list of unnumbered items, all taken: each is a question, as a numbered item
    # in a list of questions is, and keeps no number ("GAN的原理" and "随机梯度下降" alike)
    return Block("ordered_list", block.start, block.end, children=found, taken=True)
