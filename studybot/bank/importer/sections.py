"""Where a Markdown file's questions and chapters sit, from its sections.

- the heading level that holds the questions: the level where most headings
  ask (``question_level``);
- the chapter: the outermost section level that tells questions apart
  (``chapter_depth``);
- a quiz section, ``## 第 3 题`` over ``### 题目`` (or ``### Question``): the
  paragraph under that label is the question, what follows it in the
  section (options, ``<details>`` answer, explanation) its answer
  (``labelled``); the metadata above the label (``**类型：** 单选题``) is
  neither;
- under a heading that is a label alone (``### Q5)``), the text up to its code is
  the task, the rest its answer (``task_below``);
- a file that is one question, ``# 题目`` over a paragraph (a title above it at
  most) and sections that do not ask (``# 标准答案``, ``# 必答点``): the paragraph
  is the question, everything after it its answer (``one_question``);
- a heading that only says an answer follows (``## Answer guide``, ``### 答案``,
  ``#### Solution``) after a question in prose or a list: its section is that
  question's answer (``answer_heading``);
- under ``### 2、 …？``, a paragraph ``2.1 …？`` is the next question, not part of
  the answer (``sub_question``);
- a section that is only links into the file is a table of contents (``contents``);
- after the numbered questions at the question level (``## 3.``, ``## Q3.``), the headings at that level
  that neither ask nor have a number (``## Common Pitfalls``, ``## 总结``) close the
  file: no questions (``closing``);
- a list whose items each open with a heading (``1. ### What is …`` over its
  answer, indented) is those headings and what each item holds (``heading_items``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from studybot.bank.importer.blocks import Block, link_target, plain, section_end, source
from studybot.bank.importer.draft import Draft
from studybot.bank.importer.listed import listed_questions
from studybot.bank.importer.markers import (
    ANSWER_MARKER,
    clean,
    items,
    marker,
    meta,
    numbered,
    q_marker,
    reads_as_question,
)
from studybot.bank.importer.metadata import ANSWER_TITLE
from studybot.bank.importer.parts import topic_title
from studybot.bank.importer.resources import about_itself, faq
from studybot.bank.importer.wrapping import joined

# a heading that is a number alone ("## 3.", "### Q12"): its question text is lost
# "## 3.", "## Q5)", "## 第 3 题", "## 习题3": a number alone, no question text
NUMBER_ALONE = re.compile(r"(?:[Qq]\s*|习题\s*|例题\s*)?(?:第\s*)?\d{1,4}\s*题?\s*[.、．:：)）]?")
NO_TEXT, BODY_LEFT = "a numbered heading with no question text", "; the text under it is left out"
# a heading that only says a question is below it
_LABEL = re.compile(r"(?:题目|题干|问题|question|problem(?: statement)?)\s*[:：]?", re.IGNORECASE)


def heading_items(blocks: list[Block]) -> list[Block]:
    """``blocks`` with each list item that opens with a heading (``1. ### What is a prototype
    chain`` over its indented answer) read as that heading followed by the rest of the item,
    so the heading rules take it as any heading; the items around it stay lists (an answer's
    ``1. map`` … ``3. reduce`` run on into ``460. ### …`` in one list). The item's number is
    the heading's (``1. What is …``)."""
    out: list[Block] = []
    for block in blocks:
        if not block.is_list or not any(map(_opens_on_heading, block.children)):
            out.append(block)
            continue
        run: list[Block] = []  # the items since the last heading item
        for item in block.children:
            if not _opens_on_heading(item):
                run.append(item)
                continue
            if run:
                out.append(replace(block, start=run[0].start, end=run[-1].end, children=run))
                run = []
            heading, *rest = item.children
            if item.number and block.kind == "ordered_list":
                heading = replace(heading, raw=f"{item.number}. {heading.raw}")
            out.extend((heading, *rest))
        if run:
            out.append(replace(block, start=run[0].start, end=run[-1].end, children=run))
    return out


def _opens_on_heading(item: Block) -> bool:
    return bool(item.children) and item.children[0].kind == "heading"


def own_end(inner: list[Block]) -> int:
    """Where a section's own text ends: at its first sub-heading (the end when none)."""
    return next((j for j, b in enumerate(inner) if b.kind == "heading"), len(inner))


def contents(inner: list[Block]) -> bool:
    """A section that is only a list of links into the file itself (``- [Q01 · …](#q01)``), two
    or more: a table of contents under any name (``## 📑 本章目录``), no question."""
    own = inner[: own_end(inner)]
    anchors = [_anchor(item) for block in own if block.is_list for item in items(block)]
    lists = [b for b in own if b.kind != "hr"]
    return len(anchors) >= 2 and all(anchors) and all(b.is_list for b in lists)


def _anchor(item: Block) -> bool:
    paragraph = item.first_paragraph()
    target = link_target(paragraph.raw) if paragraph is not None else None
    return target is not None and target.startswith("#")


def answer_heading(block: Block) -> bool:
    return bool(ANSWER_TITLE.fullmatch(clean(plain(block.raw))))


def answer_label(block: Block, level: int) -> bool:
    """``## 答案`` right after the question ``## 1. …？``: its answer, at its own level."""
    return block.kind == "heading" and block.level == level and answer_heading(block)


def has_body(inner: list[Block]) -> bool:
    """Text under a heading: any block but a heading or a rule (``---`` alone under
    ``## ☕ Support the Author`` holds no answer), or a heading that is a link to read
    (``###### Medium: https://…`` under ``## L1 vs L2``: where its answer is)."""
    return any(b.kind not in ("heading", "hr") or _LINK_LINE.fullmatch(plain(b.raw)) for b in inner)


_LINK_LINE = re.compile(r"[^:：\n]{0,40}[:：]?\s*<?https?://\S+>?\s*")


def marks_inside(inner: list[Block]) -> bool:
    """Marked questions in a heading's own text (``**追问：…？**`` under ``### 追问链一``): the
    heading is their topic (as ``## 位置编码`` over ``- 为什么…？``), not a question."""
    own = inner[: own_end(inner)]
    return any(b.kind == "paragraph" and q_marker(b) and _asks(b) for b in own)


def _asks(block: Block) -> bool:
    found = marker(block.raw.split("\n")[0])
    return found is not None and reads_as_question(found[1])  # "**问题**: 简述…。" too


def opens_on_question(inner: list[Block]) -> bool:
    """A heading's section that starts with a question heading (``# Part B. 为什么…`` over
    ``## Q10. …？``): the heading names a part, it asks nothing itself."""
    first = inner[0] if inner else None
    if first is None or first.kind != "heading":
        return False
    return bool(
        marker(first.raw, heading=True) or reads_as_question(numbered(clean(plain(first.raw)))[1])
    )


def sub_question(block: Block, label: str | None) -> bool:
    """A paragraph that opens with a number under ``label`` (``2.1`` under ``2``) and asks."""
    if not label or not label.isdigit():
        return False
    first = plain(block.raw.split("\n", 1)[0])
    number, rest = numbered(first)
    return bool(number and number.startswith(label + ".") and reads_as_question(rest))


def labelled(inner: list[Block], lines: list[str]) -> tuple[Block, str, list[Block]] | None:
    """In the section of a heading that is a number alone (``## 第 3 题``), the paragraph
    under a ``### 题目`` label, its text, and the blocks after it (its answer).

    A list of choices right under the paragraph ("- A. …", "- B. …") is part of what
    is asked: a learner needs them to answer.
    """
    at = next((j for j, b in enumerate(inner[:-1]) if _label_heading(b)), None)
    if at is None or inner[at + 1].kind != "paragraph":
        return None
    asked = inner[at + 1]
    text = clean(joined(asked.raw))
    rest = inner[at + 2 :]
    if rest and rest[0].is_list and all(_choice(item) for item in rest[0].children):
        text += "\n" + source(lines, [rest[0]]).strip()
        rest = rest[1:]
    while rest and rest[-1].kind == "hr":  # the rule before the next question
        rest.pop()
    return asked, text, rest


def task_below(
    inner: list[Block], lines: list[str], bare: bool
) -> tuple[Block, str, list[Block]] | None:
    """Under a heading that is a label alone (``### Q5)``, ``### 1.``) at a ``bare`` level
    (``bare_levels``), the task: the text up to the first code block, rule, heading, bold
    label alone (``**Solution:**``) or answer's label (``正确答案：…`` after the options; its
    first paragraph where none comes), and the blocks after it (its answer); None when no
    paragraph opens the section."""
    if not bare:
        return None  # "## 3." among "## 2. 为什么…？": its question is lost, said so
    while inner and inner[0].kind == "paragraph" and link_target(inner[0].raw.strip("*_ ")):
        inner = inner[1:]  # "[CodingBat practice](https://…)" over the task: where it is from
    if not inner or inner[0].kind != "paragraph" or ANSWER_MARKER.match(inner[0].raw):
        return None  # "### Q51:" over "**Answer.** …": the question is lost, said so
    stop = next((j for j, b in enumerate(inner) if _task_end(b)), None)
    asked = inner[:stop] if stop is not None else inner[:1]
    if any(b.kind not in ("paragraph", "bullet_list", "ordered_list") for b in asked):
        asked = inner[:1]
    parts = [clean(joined(b.raw)) if b.kind == "paragraph" else source(lines, [b]) for b in asked]
    rest = inner[len(asked) :]
    while rest and rest[-1].kind == "hr":  # the rule before the next question
        rest.pop()
    return inner[0], "\n".join(p.strip() for p in parts if p.strip()), rest


def bare_levels(blocks: list[Block]) -> set[int]:
    """The heading levels whose numbered headings are all labels alone (``### Q5)``):
    there the task is the text below each, not a question whose text was lost."""
    bare: set[int] = set()
    worded: set[int] = set()
    for block in blocks:
        if block.kind == "heading":
            title = clean(plain(block.raw))
            if NUMBER_ALONE.fullmatch(title):
                bare.add(block.level)
            elif numbered(title)[0] is not None or marker(block.raw, heading=True):
                worded.add(block.level)
    return bare - worded


def _task_end(block: Block) -> bool:
    if block.kind == "paragraph" and ANSWER_MARKER.match(block.raw):
        return True
    return block.kind in ("fence", "hr", "heading") or bool(_BOLD_ALONE.fullmatch(block.raw))


_BOLD_ALONE = re.compile(r"\s*(?:\*\*|__)[^*_\n]{1,80}(?:\*\*|__)\s*")


def one_question(blocks: list[Block]) -> tuple[Block, str, list[Block]] | None:
    """In a file that holds one question, the paragraph under its ``# 题目`` (``# Question``)
    label, its text and the blocks after it (its answer); None in any other file."""
    headings = [j for j, b in enumerate(blocks) if b.kind == "heading"]
    labels = [j for j in headings if _label_heading(blocks[j])]
    if len(labels) != 1 or labels[0] + 1 >= len(blocks):
        return None
    at = labels[0]
    above = [blocks[j] for j in headings if j < at]
    titled = not above or (len(above) == 1 and above[0].level < blocks[at].level)
    asked = blocks[at + 1]
    if not titled or asked.kind != "paragraph":
        return None
    if any(asking_heading(blocks[j]) for j in headings if j > at):
        return None
    return asked, clean(joined(asked.raw)), blocks[at + 2 :]


_CHOICE = re.compile(r"^\s*[(（]?[A-Ha-h][.．、)）]\s*\S")


def _choice(item: Block) -> bool:
    first = item.first_paragraph()
    return first is not None and bool(_CHOICE.match(first.raw))


def _label_heading(block: Block) -> bool:
    return block.kind == "heading" and bool(_LABEL.fullmatch(clean(plain(block.raw))))


def question_level(blocks: list[Block]) -> int | None:
    """The heading level that holds this file's questions: where most headings ask. A level
    where few headings ask (one in four) holds none where the list items that ask outnumber
    its asking headings tenfold (``### [如何使用 X？](…)`` among a hundred article links of
    an outline whose bullets ask): the file's questions are its items.

    The headings under one that asks, most of which do not ask (``#### 关键要点``,
    ``#### 详细解析``, and a ``#### 如何保证不可变？`` among them, under ``### 8. …？``),
    are its answer's sections: they are not counted."""
    headings = [b for b in blocks if b.kind == "heading"]
    asking = [asking_heading(b) for b in headings]
    inside: set[int] = set()
    for at, block in enumerate(headings):
        if not asking[at] or at in inside:
            continue
        below = next(
            (j for j in range(at + 1, len(headings)) if headings[j].level <= block.level),
            len(headings),
        )
        if 2 * sum(asking[at + 1 : below]) < below - at - 1:
            inside.update(range(at + 1, below))
    counts: dict[int, int] = {}
    totals: dict[int, int] = {}
    for at, block in enumerate(headings):
        if at not in inside:
            totals[block.level] = totals.get(block.level, 0) + 1
        if asking[at] and at not in inside:
            counts[block.level] = counts.get(block.level, 0) + 1
    few = {level for level, n in counts.items() if 4 * n < totals[level]}
    if few and listed_questions(blocks, 10 * min(counts[level] for level in few)):
        counts = {level: n for level, n in counts.items() if level not in few}
    if not counts or max(counts.values()) < 2:
        return None
    return max(counts, key=lambda level: (counts[level], level))


def closing(blocks: list[Block], level: int | None) -> set[int]:
    """The first lines of the headings at ``level`` after a run of numbered ones that ask
    (two or more, three in four of the headings up to its end) that neither ask nor have a number: ``## 🚫 Common Pitfalls``,
    ``## 📌 Quick Mental Model`` after ``## 8. What happens if …?``."""
    at_level = [b for b in blocks if b.kind == "heading" and b.level == level]
    run = [j for j, b in enumerate(at_level) if _numbered_asking(b)]
    if len(run) < 2 or 4 * len(run) < 3 * (run[-1] + 1):  # the level's headings: a run
        return set()
    return {
        b.start for b in at_level[run[-1] + 1 :] if not _has_number(b) and not asking_heading(b)
    }


def _numbered_asking(block: Block) -> bool:
    return _has_number(block) and asking_heading(block)


def _has_number(block: Block) -> bool:
    """``## 3. …``, ``## 三、…`` or ``## Q3. …``: a heading with its own number."""
    if numbered(clean(plain(block.raw)))[0] is not None:
        return True
    mark = marker(block.raw, heading=True)
    return mark is not None and mark[0] is not None


def asking_heading(block: Block) -> bool:
    title = clean(plain(block.raw))
    if meta(title) or topic_title(title):
        return False
    return bool(marker(block.raw, heading=True) or reads_as_question(numbered(title)[1]))


def apart(blocks: list[Block], level: int | None) -> set[int]:
    """The first lines of the unnumbered level-``level`` headings in the sections where none
    of that level asks, when one section holds all that do: ``### Option 1: Manual Setup``
    under ``## Quick Start`` in a README whose questions are the ``### Q: …`` headings under
    ``## FAQ`` is no question."""
    groups: dict[int, list[Block]] = {}
    parent = -1
    for block in blocks:
        if block.kind != "heading" or level is None:
            continue
        if block.level < level:
            parent = block.start
        elif block.level == level:
            groups.setdefault(parent, []).append(block)
    asking = [group for group in groups.values() if any(map(asking_heading, group))]
    if len(groups) < 2 or len(asking) != 1:  # the questions are one section's (a FAQ)
        return set()
    return {  # "### 0.1.1 正态分布": a numbered topic is a notes card all the same
        b.start
        for group in groups.values()
        if not any(map(asking_heading, group))
        for b in group
        if numbered(clean(plain(b.raw)))[0] is None
    }


def chapter_depth(drafts: list[Draft]) -> int:
    """The outermost section level at which the questions fall into more than one section."""
    deepest = max((len(d.path) for d in drafts), default=0)
    for depth in range(deepest):
        keys = {d.path[depth][1] if len(d.path) > depth else None for d in drafts}
        if len(keys) > 1:
            return depth
    return 0


def question_lists(blocks: list[Block]) -> None:
    """The lists right under a ``## 8. 问答`` (``Q&A``, ``FAQ``, ``面试题``) heading: each
    top-level item is a question, its sub-items the answer (``taken``), unless the section
    asks about the collection itself."""
    for at, block in enumerate(blocks):
        title = numbered(clean(plain(block.raw)))[1] if block.kind == "heading" else ""
        if not (faq(title) or _QUESTIONS_TITLE.match(title)):
            continue
        inner = blocks[at + 1 : section_end(blocks, at)]
        if about_itself("\n".join(b.raw for b in inner)):
            continue
        for listed in inner:
            if listed.kind == "heading":
                break
            listed.taken = listed.taken or listed.is_list


_QUESTIONS_TITLE = re.compile(r"^(?:问答|面试问答|面试题|interview questions)$", re.IGNORECASE)
