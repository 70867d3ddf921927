"""Marked lines that make a file's questions marked, and circled sub-questions that do not.

``**①为什么需要归一化？**`` and ``**②有哪些形式？**`` in the section of a numbered heading
(``#### **1.LN 与 BN 的区别**``) ask the parts of what that heading asks: they never make the
file's headings a study note's sections, as ``Q1：…`` lines beside them would
(``marked_lines``).
"""

from __future__ import annotations

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.markers import clean, marker, numbered, reads_as_question


def marked_lines(blocks: list[Block], seen: int = 0, under: bool = False) -> int:
    """Marked lines (``Q1：…``), counted up to two: one ``Question: …`` alone in a write-up
    does not make a file's numbered items answers; nor do circled parts under a numbered
    heading (``under``)."""
    for block in blocks:
        if block.kind == "heading":
            under = numbered(clean(plain(block.raw)))[0] is not None
        if block.kind in ("heading", "paragraph"):
            heading = block.kind == "heading"
            lines = block.raw.split("\n")
            seen += sum(1 for ln in lines if marker(ln, heading) and not (under and circled(ln)))
        else:
            seen = marked_lines(block.children, seen, under)
        if seen >= 2:
            return seen
    return seen


def circled(raw_line: str) -> bool:
    """A line that opens with a circled number (``**①…？**``): a part of a question."""
    first = plain(raw_line).lstrip()[:1]
    return "①" <= first <= "⑳"


def circled_part(block: Block, label: str | None) -> bool:
    """A paragraph that opens with a circled number and asks (``**①为什么…？**``) under a
    numbered heading (``label``): the next question, its own text, not the heading's answer."""
    found = marker(block.raw.split("\n")[0]) if block.kind == "paragraph" and label else None
    return found is not None and circled(block.raw) and reads_as_question(found[1])
