"""What decorates a question and is no part of it (level marks), and bold lines as its questions.

A difficulty or frequency mark before or after a question (``👶``, ``‍⭐️`` with a
zero-width joiner and a variation selector, ``🚀``, ``🔥``, ``[easy]``/``[hard]``,
``（高频）``) and an arrow in front (``↳``) are dropped from its text (``without_marks``); the ones with a meaning
everybody reads alike become tags (``mark_tags``: ``difficulty:easy``,
``frequency:high``). A file whose lines standing alone in bold mostly ask
(``**What is X? 👶**``) has its questions there (``bold_questions``): each such
line (``bold_line``, its text) is a question, answered by what follows up to the next.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.metadata import difficulty_tag

_SELECTORS = "\ufe0e\ufe0f"  # "⭐️" is a star and a selector, "\u200d⭐️" a joiner before them


_LEVEL = "👶⭐🌟🚀🔥"  # marks of a question's level or frequency, in front of it too
_POINTERS = "↳↪➤▶►▸"  # "↳ What is …": an arrow that points to a question below another
_FRONT = _LEVEL + _POINTERS + _SELECTORS + "\u200d"  # what may stand in front of a question


def emoji(ch: str) -> bool:
    # a backtick (Sk) opens or closes code: "like ```d = {…}```" keeps it
    return unicodedata.category(ch) in ("So", "Sk", "Cf") and ch not in "°±×÷`" or ch in _SELECTORS


def undecorated(text: str) -> str:
    """``text`` without the marks in front of it (``📌 ``, ``✅ ``, ``▶``)."""
    start = 0
    while start < len(text) and (
        emoji(text[start]) or text[start] in _FRONT or text[start].isspace()
    ):
        start += 1
    return text[start:]


# "L1 🔥×15 Q01 · …", "✍ H01 · …", "N1 · …": a card's level and frequency badges and its id
# before a separator label the question after it; its level ("L1") is a tag
_BADGED = re.compile(
    r"^(?:(?P<level>L[1-9])\s+)?(?:(?:[A-Z]\d{1,2}|[^\w\s·|｜]{1,3}(?:\s*[×xX]\s*\d{1,3})?)\s+)*"
    r"(?:[^\w\s·|｜]{1,2}\s*)?[A-Z]{1,2}\d{1,4}\s*[·|｜]\s*(?=\S)"
)


def _separated(raw_line: str) -> bool:
    return any(separator in raw_line for separator in "·|｜")


def without_badges(text: str) -> str:
    """``L1 🔥×15 Q01 · 什么是 GAE？`` → ``什么是 GAE？``."""
    found = _BADGED.match(text)
    return text[found.end() :] if found else text


def without_marks(text: str) -> str:
    """``text`` without the symbols (and a stray `` *``) at its end and an emoji mark in front."""
    end = len(text)
    while end and (text[end - 1].isspace() or emoji(text[end - 1]) or text[end - 2 : end] == " *"):
        end -= 1
    start = 0  # "📁 实现文件" keeps its folder: only a level's mark goes in front
    while start < end and text[start] in _FRONT:
        start += 1
    if start and start < end and text[start].isspace():  # "🔥 What is …": a mark, not a word
        return text[start:end].lstrip()
    return text[:end]


# "… [hard]", "…？【中等】", "…？（初级）", "…？（高频）" at the end of the question's line
_TAIL = re.compile(
    r"[\[【(（]\s*(?:(?P<level>[初中高]级)|(?P<mark>easy|medium|hard|简单|中等|困难|高频|常考|必考))"
    r"\s*[\]】)）][\s*_`]*$",
    re.IGNORECASE,
)


def mark_tags(raw_line: str) -> list[str]:
    """``difficulty:hard`` from a line that ends ``… [hard]``, ``frequency:high`` from ``（高频）``,
    ``level:初级`` from ``（初级）``, ``level:l1`` from a card's badge (``L1 🔥×15 Q01 · …``)."""
    badged = _BADGED.match(plain(raw_line).lstrip("#-*+> \t")) if _separated(raw_line) else None
    level = [f"level:{badged['level'].lower()}"] if badged and badged["level"] else []
    found = _TAIL.search(raw_line[-40:])
    if found is None:
        return level
    if found["level"]:  # "…？（初级）": the level the question is for
        return [*level, f"level:{found['level']}"]
    mark = found["mark"].lower()
    if mark in ("高频", "常考", "必考"):
        return [*level, "frequency:high"]
    return [*level, difficulty_tag(mark)]


def without_tail_mark(text: str) -> str:
    """``什么是 Z？（中级）`` → ``什么是 Z？``: the mark ``mark_tags`` made a tag leaves the text."""
    return _TAIL.sub("", text).rstrip() if _TAIL.search(text[-40:]) else text


_BOLD_LINE = re.compile(r"^(?:\*\*|__)(?P<text>[^*_\n](?:.*?[^\s*_])?)(?:\*\*|__)[^\w*_]*$")


def bold_line(raw_line: str) -> str | None:
    """The text of a line that is bold alone and no label (``**Note:**`` is one)."""
    found = _BOLD_LINE.match(raw_line.strip())
    if found is None:
        return None
    text = without_marks(plain(found["text"]))
    return text if text and not text.endswith((":", "：")) and len(text) <= 200 else None


def bold_questions(blocks: list[Block], asks: Callable[[str], bool]) -> bool:
    """Three or more paragraphs open with a bold line alone, two in three of them asking."""
    lines = [
        found
        for block in blocks
        if block.kind == "paragraph"
        and (found := bold_line(block.raw.split("\n", 1)[0])) is not None
    ]
    return len(lines) >= 3 and 3 * sum(1 for t in lines if asks(t)) >= 2 * len(lines)
