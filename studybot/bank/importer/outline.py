"""An outline of questions with no answers: empty headings at the question level.

A list of interview questions kept as headings with nothing under them
(``### k8s和pod什么关系？`` over ``### k8s各种组件``) asks with most of them; the
terse prompts among them (``### docker预热``) are questions too, where their
siblings' form is the clue: almost every heading at that level is empty and most
of them ask (``outlined``).
"""

from __future__ import annotations

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.markers import clean, meta, numbered, reads_as_question
from studybot.bank.importer.parts import topic_title

_FEWEST = 6  # empty headings at the level, so that their form is a pattern


def outlined(blocks: list[Block], level: int | None) -> set[int]:
    """The first lines of the empty question-level headings that do not ask, in a file
    whose headings at that level are (all but one in ten) empty and most of them ask."""
    if level is None:
        return set()
    heads = [j for j, b in enumerate(blocks) if b.kind == "heading" and b.level == level]
    empty = [blocks[j] for j in heads if _empty(blocks, j)]
    if len(empty) < _FEWEST or 10 * len(empty) < 9 * len(heads):
        return set()
    asking = [b for b in empty if reads_as_question(_title(b))]
    if 2 * len(asking) <= len(empty):
        return set()
    return {
        b.start
        for b in empty
        if not reads_as_question(_title(b)) and not meta(_title(b)) and not topic_title(_title(b))
    }


def _title(block: Block) -> str:
    return numbered(clean(plain(block.raw)))[1]


def _empty(blocks: list[Block], at: int) -> bool:
    """Nothing under the heading: the next block, if any, is a heading as high or higher."""
    after = blocks[at + 1] if at + 1 < len(blocks) else None
    return after is None or (after.kind == "heading" and after.level <= blocks[at].level)
