"""A part's name, not a question: ``第3章 …``, ``一、…``, ``基础篇``, ``**第二部分 进阶**``,
``【一、Transformer 基础】``, ``=== Basics ===``, a note's ``① 一句话秒懂`` section, a book
chapter's numbered section (``## 6.1 capable —— 安全能力检查`` under ``# 6. BPF 工具``), a
title in capitals ending in a colon (``### Why This Is Useful:``, ``### How It Works:``), a
plain-text line numbered next after others alone (``6. 简历要点`` after ``5. 面试常见问题``), an
interview write-up's round or look back (``### 1. 一面``, ``### 2. 原因分析``), a name with a
number in it (``## 360 - 垃圾``), a section of terms (``## Terms used in machine learning``, ``## Glossary``, ``## 术语``): its
items name words to know, not questions."""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.draft import CHAPTER
from studybot.bank.importer.grouplabels import level_line
from studybot.bank.importer.markers import asks, clean, numbered, reads_as_question


def chapter_line(raw_line: str) -> bool:
    """A short line that names a part: ``**第二部分 进阶**``, ``【一、Transformer 基础】``,
    ``=== Basics ===`` (a banner needs no number), ``🟢 Easy: Foundations`` (a level)."""
    text = section_title(raw_line)
    if level_line(raw_line):  # "🟢 Easy: Foundations & Prompting"
        return True
    if _BANNER.fullmatch(plain(raw_line).strip()):
        return 0 < len(text) <= 40 and not asks(text)
    return (
        len(text) <= 30 and bool(CHAPTER.match(text)) and not asks(text) and not asking_item(text)
    )


def section_title(raw_line: str) -> str:
    """The text of a part's name, without the ``【…】`` or ``=== … ===`` around it."""
    text = plain(raw_line).strip()
    banner = _BANNER.fullmatch(text)
    if banner:
        return banner["text"]
    return text[1:-1].strip() if text.startswith("【") and text.endswith("】") else text


_BANNER = re.compile(r"(?P<mark>[=~#*\-]{2,})\s*(?P<text>[^=~#*\n]+?)\s*(?P=mark)")


def asking_item(text: str) -> bool:
    """``一、讲讲 RAG 的流程`` is an item of a list of questions, not a part's title."""
    match = CHAPTER.match(text)
    return bool(match and match["n2"] and reads_as_question(text[match.end() :]))


# "Why This Is Useful:", "How It Works:": every word capitalised, a colon after: a label
_COLON_TITLE = re.compile(r"(?:[A-Z][\w'’-]*\s+){1,6}[A-Z][\w'’-]*\s*[:：]")


def topic_title(text: str, card: bool = False) -> bool:
    """``第3章 …``, ``一、…``, ``基础篇``, ``① 一句话秒懂``: a part's name, not a question. A
    ``card`` (a heading at the level of the file's numbered card headings, numbered like them:
    ``#### 4、Nginx 四个组成部分 ####``) is no part for its ending 部分 alone."""
    text = clean(text)
    if asking_item(text):
        return False
    circled = "①" <= text[:1] <= "⑳" and not asks(text)  # "① 一句话秒懂": a note's section
    named = _NAMED_NUMBER.match(text)  # "360 - 垃圾": a name with a number in it, no label
    return (
        circled
        or bool(_WRITE_UP.match(text))
        or (named is not None and not reads_as_question(named["rest"]))
        or bool(_COLON_TITLE.fullmatch(text))
        or bool(CHAPTER.match(text))
        or (text.endswith(("篇", "章")) and not asks(text))
        or (text.endswith("部分") and not asks(text) and not card)
    )


# an interview write-up's rounds and its own look back: "### 1. 一面", "### 二面 - 总监面",
# "### HR面 - 15分钟", "### 2. 原因分析", "### Onsite (4 rounds)": the sections its questions sit in
_WRITE_UP = re.compile(
    r"^(?:\d{1,2}[.、)）]?\s*)?(?:(?:[一二三四五六七八九]|hr|HR|总监|主管|交叉|技术|终|加)面"
    r"|笔试|原因分析|自我分析|复盘|面试(?:总结|感受|体验|心得)"
    r"|(?:first|second|third|final|hr|phone|technical) (?:round|interview|screen)|onsite)"
    r"(?:\s*(?:[-—–:：(（]|\d).*)?$",
    re.IGNORECASE,
)
_NAMED_NUMBER = re.compile(r"^\d+\s+[-–—]\s+(?P<rest>\S.*)$")


def card_heading(block: Block, inner: list[Block], level: int | None) -> bool:
    """A numbered heading at the level of the file's question headings, or, in a file whose
    headings do not ask, one with no heading under it (``#### 4、Nginx 四个组成部分 ####``
    among ``#### 3、序列化 ####``): a card like its siblings, whatever its last word."""
    if numbered(clean(plain(block.raw)))[0] is None:
        return False
    if level is not None:
        return block.level == level
    return not any(b.kind == "heading" for b in inner)


def book_sections(blocks: list[Block]) -> set[int]:
    """The first lines of the headings numbered as sections of the title's chapter that do not
    ask (``## 6.1 capable …`` under ``# 6. BPF 工具：…``): a book's sections, not numbered cards."""
    titles = [b for b in blocks if b.kind == "heading" and b.level == 1]
    top = numbered(clean(plain(titles[0].raw)))[0] if len(titles) == 1 else None
    if not (top and top.isdigit()):
        return set()
    found = set()
    for block in blocks:
        if block.kind != "heading" or block.level == 1:
            continue
        label, rest = numbered(clean(plain(block.raw)))
        parts = (label or "").split(".")
        section = len(parts) > 1 and parts[0] == top and all(map(str.isdigit, parts))
        if section and not reads_as_question(rest):
            found.add(block.start)
    return found


def numbered_chapter(blocks: list[Block], block: Block) -> bool:
    """``6. 简历要点`` in plain text: a list of one item that asks nothing, numbered next after
    the lists of one such item above it (``1. 岗位定位`` … ``5. 面试常见问题``, three or more
    in all): a chapter's title, which ends the answer above it."""
    number = _chapter_number(block)
    if number is None or number < 3:
        return False
    above = [_chapter_number(b) for b in blocks if b.start < block.start]
    numbers = [n for n in above if n is not None]
    return numbers[-(number - 1) :] == list(range(1, number))


def _chapter_number(block: Block) -> int | None:
    """The number of a list that holds one item at the margin, a short title asking nothing."""
    listed = [c for c in block.children if c.kind == "item"]
    if block.kind != "ordered_list" or len(listed) != 1 or not (listed[0].number or "").isdigit():
        return None
    paragraph = listed[0].first_paragraph()
    title = clean(plain(paragraph.raw.split("\n")[0])) if paragraph else ""
    if not title or len(title) > _TITLE_MOST or reads_as_question(title):
        return None
    return int(listed[0].number or 0)


_TITLE_MOST = 30  # characters of a chapter's title: "学习路线（90天）"


# "## Terms used in machine learning", "## Key terms", "## Glossary", "## 术语表": words to know
_TERMS = re.compile(
    r"^(?:(?:key|basic|common|important)\s+)?(?:terms|terminology|glossary|vocabulary)\b"
    r"|^(?:常用|基本|常见|重要)?(?:术语|名词|概念)(?:表|列表|汇总)?$",
    re.IGNORECASE,
)


def glossary(path: tuple[tuple[int, str], ...]) -> bool:
    """Under a heading that names its list a glossary (``## Terms used in …``, ``## 术语``),
    the list's items are terms, not a run of questions: only the ones that ask are taken."""
    return bool(path) and bool(_TERMS.match(clean(plain(path[-1][1])).strip()))
