"""Numbered sub-items that Markdown reads as the text of the item above them.

``43. Neural network in simple Numpy.`` over ``    26. [E] Write the forward
pass…`` and ``    27. [M] Implement dropout…``: a list may interrupt a
paragraph only when it starts at 1, so CommonMark reads the sub-items,
numbered on from an earlier list, as more lines of the stem's paragraph.
Lines indented past the item's own marker that open with a number are such
sub-items: each is a question when it asks, or when most of them ask (a
numbered list of questions); the stem is one only when it asks itself.

Once a question's answer has begun (its steps listed), a sub-list further
down holds more questions only when one of its items asks with a question
mark or a marker (``- 追问：为什么…？``); ``- 是否存活：`` over a command and
``- **健康检查：…是否正常运行**`` go on with the answer (``more_questions``).

An interview write-up lists what was asked, mostly topics: a numbered run
(``1.`` … ``13.``) or a flat, top-level bullet list of short topics, one
item of which asks, is a list of questions, every item one (``asked_run``); so is
a list of bold topics, each over a link to its answer (``- **Optimizers**``). Under an item
that names a topic (``3. DeepFM``), paragraphs numbered in brackets that ask (``（1）…？``)
are its parts, each a question of its own (``topic_part``).
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block, link_target, plain
from studybot.bank.importer.digests import first_lines
from studybot.bank.importer.draft import ALL_BOLD
from studybot.bank.importer.markers import (
    PARAGRAPH_NUMBER,
    asks,
    asks_inside,
    clean,
    items,
    marker,
    numbered,
    reads_as_question,
)
from studybot.bank.importer.notes import arrow_answer
from studybot.bank.importer.wrapping import join, joined


def topic_part(block: Block) -> tuple[None, str] | None:
    """``（1）DeepFM 的模型结构？`` (or ``（2）谈谈你对它的理解``) in a paragraph of its own
    under an item that names a topic (``3. DeepFM``): a part asked of that topic, a question
    of its own; its lines below it are its answer."""
    first = plain(block.raw.split("\n", 1)[0]) if block.kind == "paragraph" else ""
    found = PARAGRAPH_NUMBER.match(first.strip())
    asked = found is not None and found["p"] is not None and reads_as_question(found["text"])
    return (None, found["text"].strip()) if found is not None and asked else None


_SUB_ITEM = re.compile(r"(?P<number>\d{1,4})[.)]\s+(?P<text>\S.*)")


def sub_items(lines: list[str], item: Block, paragraph: Block) -> list[tuple[int, str, str]]:
    """(line, number, text) of the numbered sub-items inside ``paragraph``'s lines, the stem's
    lines before them left out; [] when there are none."""
    indent = _indent(lines[item.start]) if item.start < len(lines) else 0
    found: list[tuple[int, str, str]] = []
    level = None  # the sub-items' own indentation: deeper numbered lines go on the one above
    for line in range(paragraph.start + 1, min(paragraph.end, len(lines))):
        raw = lines[line]
        sub = _SUB_ITEM.fullmatch(raw.strip())
        if sub and _indent(raw) > indent and (level is None or _indent(raw) <= level):
            level = _indent(raw) if level is None else level
            found.append((line, sub["number"], clean(plain(sub["text"]))))
        elif found and sub:  # "1. too high" under "…when the learning rate is:"
            at, number, text = found[-1]
            found[-1] = (at, number, f"{text}\n{plain(raw.strip())}")
        elif found and raw.strip():  # a line that goes on the sub-item above
            at, number, text = found[-1]
            found[-1] = (at, number, join(text, clean(plain(raw.strip()))))
        elif raw.strip():
            return []  # the stem's text goes on after its first line: no sub-items
    return found


def asking(found: list[tuple[int, str, str]]) -> list[tuple[int, str, str]]:
    """The sub-items that are questions: those that ask, or all when most of them do."""
    ask = [f for f in found if reads_as_question(f[2])]
    return found if 2 * len(ask) >= len(found) else ask


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


# "中文：…", "English: …": the same question in two languages, one a sub-item each
_LANGUAGE = re.compile(
    r"(?P<name>中文|英文|汉语|chinese|english|cn|en|zh)\s*[:：]\s*(?P<text>\S.*)", re.I | re.S
)


def under_label(block: Block) -> tuple[str, str | None] | None:
    """The question in the sub-items under a bare ``**问题：**`` label, and its translation
    as a hint: ``- 中文：…？`` over ``- English: …?`` is one question; None when no
    sub-item holds text, or when several ask (each is a question of its own)."""
    texts = _texts(block)
    if not texts or _several_asking(texts):
        return None
    first = _LANGUAGE.fullmatch(texts[0])
    if first is None or len(texts) == 1:
        return (first["text"] if first else texts[0]).strip(), None
    others = [t for t in texts[1:] if _LANGUAGE.fullmatch(t)]
    return first["text"].strip(), "\n".join(others) or None


def several_asking(block: Block) -> bool:
    """``**追问**：`` over ``- 如何…？`` and ``- 如何…？``: items that are a question each, no
    question and its translation."""
    return _several_asking(_texts(block))


def _several_asking(texts: list[str]) -> bool:
    return (
        bool(texts) and not _LANGUAGE.fullmatch(texts[0]) and sum(map(reads_as_question, texts)) > 1
    )


def _texts(block: Block) -> list[str]:
    texts = [clean(joined(p.raw)) for i in items(block) if (p := i.first_paragraph())]
    return [t for t in texts if t.strip()]


def more_questions(sub: Block, answered: bool) -> bool:
    """Whether the sub-list ``sub`` under a question holds questions of its own: an item that
    asks with a question mark or a marker, or items that read as questions and end in no
    full stop, half of the list at least (fewer, among points that state, are points too);
    once the question's answer has begun (``answered``), only items that ask with a question
    mark or a marker, half of them at least, not steps that merely read like one."""
    asking = [i for i in items(sub) if asks_inside([i])]
    firsts = [p.raw.split("\n")[0] for i in asking if (p := i.first_paragraph()) is not None]
    if any(marker(first) for first in firsts):
        return True
    asked = sum(asks(clean(plain(first))) for first in firsts)
    if not answered:  # "- When the model …, you've overfit it." among points: a point too
        read = [i for i in asking if not _stated(i)]
        return asked > 0 or (bool(read) and 2 * len(read) >= len(items(sub)))
    return asked > 0 and 2 * asked >= len(items(sub))  # one "…，何谈…？" among points: rhetoric


def _stated(item: Block) -> bool:
    """An item whose text ends in a full stop (``- When we want …, we use a test set.``)."""
    paragraph = item.first_paragraph()
    return paragraph is not None and plain(paragraph.raw).rstrip().endswith((".", "。"))


def asked_run(block: Block) -> bool:
    """A write-up's list of what was asked: a numbered run (``1.`` … ``13.``, no number
    skipped) or a flat bullet list of short topics, with an item that asks and none of the
    others a sentence or a label (``2. HMM原理`` before ``9. 项目是否有缺陷？``,
    ``- 连续子数组求和最大`` beside ``- seq2seq如何解决不等长问题``); a list numbered ``1.``
    each is a run, and a ``；`` that ends each item but the last is the list's punctuation."""
    listed = items(block)
    if len(listed) < 2:
        return False
    if all(_link_card(item) for item in listed):
        return True
    if block.kind == "ordered_list":
        numbers = [int(item.number or -9) for item in listed]
        lazy = len(set(numbers)) == 1  # "1. " each: Markdown numbers them on
        if not lazy and any(b != a + 1 for a, b in zip(numbers, numbers[1:], strict=False)):
            return False
    elif any(child.is_list for item in listed for child in item.children):
        return False  # an outline: its topics hold sub-items
    texts = [numbered(clean(t))[1] for t in first_lines(block)]
    asking = [reads_as_question(t) for t in texts]
    others = [t.rstrip() for t, a in zip(texts, asking, strict=True) if not a]
    if all(t.rstrip().endswith(_ITEM_END) for t in texts[:-1]):  # "1. 二分查找；" each
        others = [t.removesuffix(t[-1:]) if t.endswith(_ITEM_END) else t for t in others]
    said = any(t.endswith(SENTENCE_END) for t in others)  # "1. 先随机抽 10 题。": steps
    if block.kind == "bullet_list":
        said = said or any(len(t) > _TOPIC or _LABEL.search(t) for t in others)
    return any(asking) and not said


def _link_card(item: Block) -> bool:
    """``- **Optimizers**`` over ``[Optimizers](https://…)``: a topic and where its answer is."""
    paragraph = item.first_paragraph()
    lines = paragraph.raw.strip().split("\n") if paragraph is not None else []
    title = ALL_BOLD.fullmatch(lines[0].strip()) if lines else None
    return title is not None and len(lines) > 1 and link_target(lines[1].strip()) is not None


SENTENCE_END = ("。", "；", ";", ".", "！", "!")  # a statement's end, not a question's
_ITEM_END = ("；", ";")  # what ends every item of a list but the last: its punctuation
_TOPIC = 40  # characters: a bullet naming what was asked ("连续子数组乘积最大"), not a note
_LABEL = re.compile(r"[:：]")  # "双塔: 样本…", "How LDA Works:": a label and its notes


def follow_ups(block: Block) -> bool:
    """A list of marked questions only: ``- **Q：…？**`` items, each asking (an answer after
    an arrow aside)."""
    firsts = [p.raw.split("\n")[0] for i in items(block) if (p := i.first_paragraph())]
    found = [(line, marker(line)) for line in firsts]
    return bool(found) and all(
        f is not None and asks(clean(_asked(line, f[1]))) for line, f in found
    )


def _asked(raw: str, text: str) -> str:
    """What a follow-up asks: ``- *Q:JVM 怎么修?* → its answer`` asks ``JVM 怎么修?``."""
    arrow = arrow_answer(raw, text)
    return arrow[0] if arrow else text


def mostly_asking(block: Block) -> bool:
    """Half the items of ``block`` or more ask (or carry a marker)."""
    texts = first_lines(block)
    asking = sum(1 for t in texts if reads_as_question(numbered(clean(t))[1]) or marker(t))
    return bool(texts) and asking * 2 >= len(texts)


def answered_inside(block: Block) -> bool:
    """An item of ``block`` that asks holds its answer nested under it (``+ What is X?`` over
    ``  - X is …``): a list of questions with their answers, where an item that asks nothing
    over its own answer (``+ Strengths of KNN`` over its points) is one of them."""
    return any(
        len(item.children) > 1 and reads_as_question(numbered(clean(joined(first)))[1])
        for item in items(block)
        if (paragraph := item.first_paragraph()) and (first := paragraph.raw.split("\n")[0])
    )
