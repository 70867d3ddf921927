"""Headings at the question level that are a write-up's own sections, not questions.

A heading at the level where a file's questions are is a question when it has a body
(``### SwiGLU 激活函数`` among headings that ask: a notes card, ``### koa-body 原理``
among ``### …？``: a terse prompt). A title that comes back, not asking and with no
number, in several sections of a file whose headings at that level ask (``### 项目背景``,
``### 核心功能`` under each ``## 项目N``, between ``### 面试问题 N：…？``) is not: it is
the template each section fills in, unless its own text only says its answer is still to
write (``### 基本原理`` over ``- [ ] TODO`` under each ``## Model``: a question). Their first lines (``section_headings``) join the
headings the reader leaves as sections (``ReaderState.apart``). So do, in a file whose
questions at that level are explicit Q-numbered cards (``## Q7. How …?``, ``### 题目 1：…？``,
three at least), the headings before them that neither ask nor carry a Q number
(``## 1. High Level Architecture``, ``## Layer 4: Serving`` in a notebook's notes cells before
its interview cell) and the numbered notes headings there even when they ask
(``### 1.1 什么是 Tool Use？``): ``uncarded``. A file of one question under a heading that
only says so (``## 题目`` over its asking paragraph, ``## Question``) has that heading as its
question's card: the title above it and the headings after it, at its level or below, are
sections, the ones after it parts of its answer (``## 一、…？``, ``## 记忆要点``: ``one_question``).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from studybot.bank.importer.blocks import Block, plain, section_end
from studybot.bank.importer.markers import MARKER, asks, clean, numbered, reads_as_question
from studybot.bank.importer.sections import asking_heading
from studybot.bank.importer.signposts import unwritten


def section_headings(blocks: list[Block], level: int | None) -> set[int]:
    """The first lines of the unnumbered level-``level`` headings that do not ask and whose
    title comes back (a template's), where two or more headings at that level ask."""
    at_level = [b for b in blocks if b.kind == "heading" and b.level == level]
    asking = [b for b in at_level if asking_heading(b)]
    if len(asking) < 2:
        return set()
    left = [b for b in at_level if not asking_heading(b) and numbered(_title(b))[0] is None]
    where = {id(b): k for k, b in enumerate(blocks)}  # a "- [ ] TODO" body: a question to answer
    left = [b for b in left if not unwritten(blocks[where[id(b)] + 1 :])]
    titles = Counter(_title(b) for b in left)
    return {b.start for b in left if titles[_title(b)] >= 2}


def _title(block: Block) -> str:
    return clean(plain(block.raw))


CARDS_LEAST = 3  # Q-numbered headings that ask, making a level's headings cards
_CARD_NAME = re.compile(r"[^\d\s]{1,12}\s*\d{1,3}")  # "卡片 1": a card whose question is inside


def uncarded(blocks: list[Block], level: int | None) -> set[int]:
    """Where three or more headings at ``level`` ask with a Q number (``## Q1. How …?``): the
    first lines of the headings before the first of them, at that level, that neither ask nor
    carry a Q number (nor name a card, ``### 卡片 1``), and of the headings in their sections
    that carry none and end in no question mark (``### Why we need this:``); a heading there
    with a section number (``### 1.1 什么是 Tool Use？``) is the notes' own, asking or not."""
    headings = [b for b in blocks if b.kind == "heading" and level and b.level >= level]
    cards = q_cards(blocks, level)
    if not cards:
        return set()
    found: set[int] = set()
    notes = False  # inside the section of such a heading
    for block in headings[: headings.index(cards[0])]:  # after a card, its answer's parts
        title = clean(plain(block.raw))
        unmarked = _q_text(block) is None
        outline = unmarked and numbered(title)[0] is not None  # "### 1.1 什么是 X？": notes
        if block.level == level:
            notes = (outline or not asking_heading(block)) and not _CARD_NAME.fullmatch(title)
        if notes and unmarked and (outline or not asks(title)):
            found.add(block.start)
    return found


def q_cards(blocks: list[Block], level: int | None) -> list[Block]:
    """The headings at ``level`` that ask with a Q number (``### Q1: …？``), when there are
    ``CARDS_LEAST`` or more; else none."""
    at_level = [b for b in blocks if b.kind == "heading" and level and b.level == level]
    cards = [b for b in at_level if reads_as_question(_q_text(b) or "")]
    return cards if len(cards) >= CARDS_LEAST else []


def _q_text(block: Block) -> str | None:
    """The text after a heading's Q number (``Q7.``, ``题目 3：``), None without one."""
    found = MARKER.match(plain(block.raw).strip())
    return found["text"] if found is not None and (found["n"] or found["n2"]) else None


# a heading that only says a question is below it: "## 题目", "## Question:"
_QUESTION_LABEL = re.compile(r"(?:题目|问题|题干|question|the question|problem)\s*[:：]?", re.I)


@dataclass(frozen=True)
class OneQuestion:
    """Where a one-question file's question is (its label heading's level) and its sections."""

    level: int
    parts: set[int]  # the first lines of the headings after the label: its answer's parts
    titles: set[int]  # those of the headings above it: the file's title, no question


def one_question(blocks: list[Block]) -> OneQuestion | None:
    """The file's one question under a heading that only labels it (``## 题目``), when that
    heading is the file's only such one and one paragraph, nothing else, is its section."""
    headings = [k for k, b in enumerate(blocks) if b.kind == "heading"]
    labels = [k for k in headings if _QUESTION_LABEL.fullmatch(_title(blocks[k]))]
    if len(labels) != 1:
        return None
    at = labels[0]
    label = blocks[at]
    own = [b for b in blocks[at + 1 : section_end(blocks, at)] if b.kind != "hr"]
    if len(own) != 1 or own[0].kind != "paragraph":  # "## 题目" over "1、…？" "2、…？": a list
        return None
    end = next((k for k in headings if k > at and blocks[k].level < label.level), len(blocks))
    parts = {blocks[k].start for k in headings if at < k < end}
    titles = {blocks[k].start for k in headings if k < at and blocks[k].level < label.level}
    return OneQuestion(label.level, parts, titles)
