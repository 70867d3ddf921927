"""What every reader of a user's file produces: drafts that remember their place."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

EMPHASIS = r"(?:\*\*|__)"
CJK = re.compile(r"[\u3400-\u9fff]")
CHAPTER = re.compile(r"^第\s*(?P<n>[0-9零一二三四五六七八九十]+)\s*[章篇部]\s*[:：.、．\-—]*\s*")


@dataclass
class Draft:
    """A question as read from the file, before numbering and validation."""

    where: str  # "file:line" of the question
    question: str
    id: int | None = None
    chapter: str | None = None  # chapter title as written in the file
    section: int = 0  # Markdown heading count, so two headings with one title stay apart
    key_points: list[str] = field(default_factory=list)
    hint: str | None = None
    tags: list[str] = field(default_factory=list)
    problem: str | None = None  # set when the record itself is unusable


@dataclass
class Parsed:
    drafts: list[Draft] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    title: str | None = None


def strip_emphasis(text: str) -> str:
    return re.sub(EMPHASIS, "", text).strip()
