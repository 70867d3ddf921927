"""Lines that name a group of questions, never a question themselves, and the questions
they stand over:

- numbered labels (``1. Fundamentals``, ``2. Advance``) over the ``  - What is a p-value?``
  bullets that follow each, indented too little to nest under it: a list of their own;
- lettered lines (``a. 如何训练一个模型``, ``b. …``, one a line, under ``##### 2. 基础知识``)
  that mostly ask: a list of questions, the heading over them their section;
- an item that only says notes follow (``* Notes:`` over ``  * Use simple terms.``);
- a level line (``🟢 Easy: Foundations``) and the ``Focus: Can they …?`` line under it.
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.markers import clean, items, marker, numbered, reads_as_question

GROUP_LEFT = "a label that names the group of questions below it, not a question"
_BULLET = re.compile(r"^[ \t]{0,3}[-*+][ \t]+(?P<text>\S.*)$")
_SENTENCE_END = (".", "。", "!", "！", ";", "；")


def group_labels(lines: list[str], block: Block) -> list[tuple[int, str]] | None:
    """The lines and texts of ``block``'s items when it is a numbered list of labels (a few
    words each, asking nothing, nothing under them) right over bullets that mostly ask."""
    if block.kind != "ordered_list":
        return None
    labels = []
    for item in items(block):
        paragraph = item.first_paragraph()
        if paragraph is None or len(item.children) > 1 or "\n" in paragraph.raw.strip():
            return None
        if marker(paragraph.raw) is not None:  # "29. **问题：**": the question is below it
            return None
        text = numbered(clean(plain(paragraph.raw)))[1].strip().rstrip(":：")
        if not text or len(text.split()) > 4 or text.endswith(_SENTENCE_END):
            return None
        if reads_as_question(text):
            return None
        labels.append((paragraph.start, text))
    bullets = []
    for line in lines[block.end :]:
        found = _BULLET.match(line)
        if found is None:
            break
        bullets.append(found["text"])
    asking = sum(reads_as_question(numbered(clean(plain(text)))[1]) for text in bullets)
    return labels if labels and len(bullets) >= 2 and 2 * asking > len(bullets) else None


# "a. 如何训练一个模型", "j, 讲一下LSTM": a letter, then a dot (a comma by a slip) or a bracket
_LETTERED = re.compile(r"^[ \t]*(?P<letter>[a-z])[ \t]*[.,、)）][ \t]*(?P<text>\S.*)$")


def lettered_lists(blocks: list[Block]) -> list[Block]:
    """``blocks`` with each paragraph of lettered lines (``a. …``, ``b. …``, one a line, in
    order from ``a``) that mostly ask read as a list of them: each lettered line a question,
    the lines under it up to the next its answer. The heading over them is their section."""
    return [_as_list(block) or block for block in blocks]


def _as_list(block: Block) -> Block | None:
    if block.kind != "paragraph":
        return None
    found: list[Block] = []
    asking = 0
    for at, line in enumerate(block.raw.split("\n"), start=block.start):
        letter = _LETTERED.match(line)
        if letter is not None and ord(letter["letter"]) == ord("a") + len(found):
            asking += reads_as_question(clean(plain(letter["text"])))
            paragraph = Block("paragraph", at, at + 1, raw=letter["text"].strip())
            found.append(Block("item", at, at + 1, number="", children=[paragraph]))
        elif not found:
            return None
        else:  # the lines under a lettered one: its answer
            item = found[-1]
            item.children.append(Block("paragraph", at, at + 1, raw=line.strip()))
            item.end = at + 1
    if len(found) < 2 or 2 * asking <= len(found):
        return None
    return Block("ordered_list", block.start, block.end, children=found, taken=True)


_NOTE_LABEL = re.compile(r"(?:notes?|tips?|hints?|remarks?|备注|注意|提示|说明)\s*[:：]", re.I)
# "- 等等", "- etc.", "- ...": more of the same, unnamed
_FILLER = re.compile(r"(?:等等?|and\s+so\s+on|and\s+more|etc|\.{3}|…+|以此类推|其他|其它)\W*", re.I)


def notes_item(text: str) -> bool:
    """An item that only says notes follow (``* Notes:`` over ``  * Use simple terms.``), or
    that more of the same go unnamed (``- 等等``, ``- etc.``): never a question beside them."""
    return bool(_NOTE_LABEL.fullmatch(text.strip()) or _FILLER.fullmatch(text.strip()))


# "🟢 Easy: Foundations & Prompting", "🔴 高级": a level's colour and name over its questions
_LEVEL_LINE = re.compile(
    r"[🟢🟡🟠🔴🔵🟣⚪⚫]\s*(?:\*\*|__)?\s*(?:easy|medium|hard|advanced|beginner|intermediate"
    r"|expert|basic|初级|中级|高级|进阶|基础|简单|困难)(?![A-Za-z])[^?？\n]{0,60}",
    re.IGNORECASE,
)


def level_line(raw_line: str) -> bool:
    """A line that names a level of the questions below it (``🟢 Easy: Foundations``)."""
    return bool(_LEVEL_LINE.fullmatch(raw_line.strip()))


def level_titles(blocks: list[Block]) -> list[Block]:
    """``blocks`` with each paragraph that opens with a level line read as that line alone:
    the lines under it (``Focus: Can they …?``) say what the level tests, no question."""
    return [
        Block("paragraph", b.start, b.end, raw=b.raw.partition("\n")[0])
        if b.kind == "paragraph" and "\n" in b.raw and level_line(b.raw.partition("\n")[0])
        else b
        for b in blocks
    ]
