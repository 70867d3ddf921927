r"""Labels and badges between bare questions: no answer to the question before them.

A file whose questions have no bodies yet keeps, between them, the topic labels
that group them (``- **QLoRA篇**`` above the QLoRA questions, a bullet that is
bold alone) and ends with a badge (``[![GitHub stars](https://img.shields.io/…)](…)``,
an image that is a link). When such signposts are all there is under a question,
the question has no answer; inside an answer with text of its own they stay. So is a short
line right over the numbered questions of its paragraph, with a blank line above it
(`` 安卓\`` over `` 2\. 介绍项目\``, ``手撕代码`` over ``15. …``): it names the group below it
(``group_label``).

A heading whose own text is only an answer still to write (``- [ ] TODO`` under ``## ELMO``)
names a question, unanswered, at any level (``unwritten``).

A list whose items but the last end in an enumeration comma (``- 是什么、``,
``- 为什么（动机）、`` … ``- 使用场景``) is one sentence set out as bullets (``enumeration``):
a template of what an answer covers, none of its items a question.
"""

from __future__ import annotations

import re
from itertools import takewhile

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.markers import reads_as_question
from studybot.bank.importer.resources import to_write

# "**QLoRA篇**", "__Adapter__": a bold phrase alone, short, neither asking nor a label with a colon
_BOLD_ALONE = re.compile(r"(?:\*\*|__)(?P<text>[^*_\n?？:：]{1,60})(?:\*\*|__)")
# "[![stars](https://img.shields.io/…)](https://github.com/…)", one or several on a line
_LINKED_IMAGES = re.compile(r"(?:\[!\[[^\]\n]{0,200}\]\([^)\s]{1,2000}\)\]\([^)\n]{1,2000}\)\s*)+")


_GROUP_LEAST = 16  # characters of a group's name: "安卓", "操作系统", "System design"
_SENTENCE_MARKS = "。，,.；;！!:：？?"


def group_label(raw_lines: list[str]) -> bool:
    r"""The lines of a paragraph before its first numbered question are one short name that
    is no sentence and asks nothing (`` 安卓\``): a label of the questions under it."""
    text = plain(raw_lines[0]).strip() if len(raw_lines) == 1 else ""
    short = 0 < len(text) <= _GROUP_LEAST and not any(m in text for m in _SENTENCE_MARKS)
    return short and not reads_as_question(text)


def _label_item(block: Block) -> bool:
    """A list whose items are bold phrases alone: ``- **QLoRA篇**``."""
    return block.is_list and all(_label(item) for item in block.children)


def _label(item: Block) -> bool:
    paragraph = item.first_paragraph()
    return (
        paragraph is not None
        and len(item.children) == 1
        and _BOLD_ALONE.fullmatch(paragraph.raw.strip()) is not None
    )


def _badge(block: Block) -> bool:
    return block.kind == "paragraph" and _LINKED_IMAGES.fullmatch(block.raw.strip()) is not None


def signposts_only(blocks: list[Block]) -> bool:
    """Everything under a question is a topic label or a badge: it has no answer."""
    return bool(blocks) and all(_label_item(b) or _badge(b) for b in blocks)


def unwritten(inner: list[Block]) -> bool:
    """A heading's own text, up to its first sub-heading, only says its answer is still to
    write (``- [ ] TODO``, ``待补充``): the heading names a question, at any level."""
    own = list(takewhile(lambda block: block.kind != "heading", inner))
    return bool(own) and all(map(_to_write, own))


def _to_write(block: Block) -> bool:
    if block.is_list:
        firsts = [item.first_paragraph() for item in block.children]
        return all(first is not None and to_write(plain(first.raw)) for first in firsts)
    return block.kind == "paragraph" and to_write(plain(block.raw))


_COMMAS = ("、", "，", ",", "；", ";")


def enumeration(block: Block) -> bool:
    """Three or more items of one line each, every one but the last ending in a comma (a
    numbered list's ``1. 二分查找；`` items are what was asked, one each)."""
    texts = []
    for item in block.children:
        paragraph = item.first_paragraph()
        if paragraph is None or len(item.children) != 1 or "\n" in paragraph.raw.strip():
            return False
        texts.append(paragraph.raw.strip())
    commas = _COMMAS[:3] if block.kind == "ordered_list" else _COMMAS
    return len(texts) >= 3 and all(t.endswith(commas) for t in texts[:-1])
