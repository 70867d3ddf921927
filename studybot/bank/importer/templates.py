"""Headings at the question level that are a write-up's own sections, not questions.

A heading at the level where a file's questions are is a question when it has a body
(``### SwiGLU 激活函数`` among headings that ask: a notes card, ``### koa-body 原理``
among ``### …？``: a terse prompt). A title that comes back, not asking and with no
number, in several sections of a file whose headings at that level ask (``### 项目背景``,
``### 核心功能`` under each ``## 项目N``, between ``### 面试问题 N：…？``) is not: it is
the template each section fills in. Their first lines (``section_headings``) join the
headings the reader leaves as sections (``ReaderState.apart``).
"""

from __future__ import annotations

from collections import Counter

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.markers import clean, numbered
from studybot.bank.importer.sections import asking_heading


def section_headings(blocks: list[Block], level: int | None) -> set[int]:
    """The first lines of the unnumbered level-``level`` headings that do not ask and whose
    title comes back (a template's), where two or more headings at that level ask."""
    at_level = [b for b in blocks if b.kind == "heading" and b.level == level]
    asking = [b for b in at_level if asking_heading(b)]
    if len(asking) < 2:
        return set()
    left = [b for b in at_level if not asking_heading(b) and numbered(_title(b))[0] is None]
    titles = Counter(_title(b) for b in left)
    return {b.start for b in left if titles[_title(b)] >= 2}


def _title(block: Block) -> str:
    return clean(plain(block.raw))
