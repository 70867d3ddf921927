"""Question lists inside a section that is no question: a topic over its questions, a digest.

A heading whose first list mostly asks (``### 进程`` over ``- 什么是进程？``) is a topic,
and so is a digest's entry (``### 博客 1：Evaluating …``) whose list holds a label over
the questions it gives (``- **可转化面试题：**`` over ``  1. …？``): the heading is a
section title and the asking items its questions.
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.markers import asks, clean, items, reads_as_question
from studybot.bank.importer.wrapping import joined


def over_questions(inner: list[Block]) -> bool:
    """A list right under a heading whose items mostly ask, two or more, or an item of it that
    labels such a list: the heading is a topic."""
    for block in inner:
        if block.is_list:
            return _mostly_asking(block) or any(map(_labels_questions, items(block)))
    return False


def first_lines(block: Block) -> list[str]:
    """The text of each item's first line, for a look at what a list holds."""
    return [joined(p.raw.split("\n")[0]) for i in items(block) if (p := i.first_paragraph())]


def _mostly_asking(block: Block) -> bool:
    texts = first_lines(block)
    asking = sum(1 for t in texts if asks(clean(t)))
    return asking >= 2 and 2 * asking > len(texts)


def _labels_questions(item: Block) -> bool:
    """``- **可转化面试题：**`` over two or more sub-items that mostly ask (``…？请描述…。``
    too, a question mark inside): a label, not a question or a point."""
    own = item.first_paragraph()
    label = plain(own.raw).strip() if own is not None else ""
    if "\n" in label or not _QUESTIONS_LABEL.search(label):
        return False
    for child in item.children:
        texts = first_lines(child) if child.is_list else []
        asking = sum(1 for t in texts if "?" in t or "？" in t or reads_as_question(t))
        if asking >= 2 and 2 * asking > len(texts):
            return True
    return False


_QUESTIONS_LABEL = re.compile(r"(?:题|问题|题目|questions?)\s*[:：]$", re.IGNORECASE)
