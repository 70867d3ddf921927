"""A file whose cards are bold numbered lines, numbered in turn: ``**1. …**``, ``**2. …**`` ….

Where three or more bold lines alone, each over its answer, are numbered in turn from 1 with
one mark (``**1. Bert 的目标是什么？**``, ``**2. Bert 的结构**``, ``**3. 输入**``), the file's
cards are its bold numbered lines: one numbered 1 with that mark, alone in its paragraph,
starts another run of them (``**1.Transformer 的结构**`` under a heading of its own, the
space after ``1.`` or not), a question whether it asks or not, as ``**56. …**`` right after
question 55 is the next one.
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block
from studybot.bank.importer.decorations import bold_line
from studybot.bank.importer.markers import PARAGRAPH_NUMBER

RUN_LEAST = 3  # bold lines numbered in turn from 1 that make them the file's cards


def run_mark(blocks: list[Block]) -> str | None:
    """The mark after the numbers (``.`` of ``**2. …**``) of a run of ``RUN_LEAST`` or more
    bold lines alone numbered in turn from 1, each with a block under it; else None."""
    mark, last, run = None, 0, 0
    for block, after in zip(blocks, blocks[1:], strict=False):
        text = bold_line(block.raw.split("\n", 1)[0]) if block.kind == "paragraph" else None
        number = PARAGRAPH_NUMBER.match(text) if text else None
        if number is None or not number["n"] or not number["n"].isdigit():
            continue
        sign = number_mark(number)
        answered = bold_line(after.raw.split("\n", 1)[0]) is None or after.kind != "paragraph"
        if int(number["n"]) == 1 or sign != mark or int(number["n"]) != last + 1:
            mark, run = sign, 0
        if answered and (run or int(number["n"]) == 1):
            last, run = int(number["n"]), run + 1
            if run >= RUN_LEAST:
                return mark
        else:
            run = 0
    return None


def number_mark(number: re.Match[str]) -> str:
    """What follows a ``PARAGRAPH_NUMBER``'s number: ``.`` of ``12. …``, ``)`` of ``1) …``."""
    return number[0][: number.start("text")].strip().lstrip("0123456789")
