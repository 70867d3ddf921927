"""What every reader of a user's file produces: drafts that remember their place.

It also holds the text rules that several readers share, each written once here
(emphasis, CJK text, Chinese numbers, a code fence, blank lines).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from studybot.bank.importer import source

EMPHASIS = r"(?:\*\*|(?<!_)__(?!_))"  # "____" is a blank to fill in, not bold
QUESTION_MARKS = ("?", "？")  # a line that ends in one asks (in English, in Chinese)
ALL_BOLD = re.compile(
    r"\s*(\*\*|__)(?:(?!\1).)+\1\s*", re.S
)  # fullmatch: "**Which …?**", bold end to end
CJK = re.compile(r"[\u3400-\u9fff]")  # Chinese text, the rare ideographs (Extension A) too
# the common ideographs only, as names, labels and units are matched (no rare character in them)
HAN_COMMON = r"\u4e00-\u9fff"
HAN_COMMON_CHAR = re.compile(rf"[{HAN_COMMON}]")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")  # a code fence's opening or closing line, its marks
# a fence at any indent, as in a list item's text or an answer's source: opened, not measured
FENCE_ANY_INDENT = re.compile(r"^\s*(?:```|~~~)")
_BLANK_LINES = re.compile(r"\n{3,}")
NOT_WORD = re.compile(r"\W+")  # what stands between words: spaces, punctuation, marks
WORD = re.compile(r"\w")  # a letter or a digit: text that names something, not marks alone
# "<~>", "<%>", "<=>": an operator's marks are text that names something, unlike "> ☞" or "---"
OPERATOR = re.compile(r"[<=+%&^@$\\]")
HINT_LABEL = r"(?:提示|hint)\s*[:：]"  # "提示：", "Hint:": what follows helps, it is no answer
# why an asking line is left: it is in a prose section beside the file's marked questions
PROSE_LEFT = "in a prose section beside the file's marked questions"
CN_DIGITS = "零一二三四五六七八九"  # 0–9, each at its value
CN_NUMBER = "[0-9零一二三四五六七八九十百]+"
# "第3章 …", "第一部分 …", "第二篇：…"; "部分" before "部" so "第一部分 基础" leaves "基础"
CHAPTER = re.compile(
    rf"^第\s*(?P<n>{CN_NUMBER})\s*(?:部分|章|篇|部|节|单元|讲)\s*[:：.、．\-—]*\s*"
    rf"|^(?P<n2>[一二三四五六七八九十]+)\s*[、.．]\s*"
    r"|^(?:part|chapter)\s+(?P<n3>\d+)\b\s*[:：.\-—]*\s*",
    re.IGNORECASE,
)


@dataclass
class Draft:
    """A question as read from the file, before numbering and validation."""

    where: str  # "file:line" of the question
    question: str
    id: int | None = None
    chapter: str | None = None  # chapter title as written in the file
    section: int = 0  # which heading started the chapter, so two headings with one title stay apart
    key_points: list[str] = field(default_factory=list)
    hint: str | None = None
    tags: list[str] = field(default_factory=list)
    problem: str | None = None  # set when the record itself is unusable
    label: str | None = None  # the source's own number as written ("4.1", "50")
    reference: str | None = None  # the answer below the question, Markdown, kept whole
    blocks: list[Any] = field(default_factory=list, repr=False)  # Markdown: the answer's blocks
    path: tuple[tuple[int, str], ...] = ()  # Markdown: (line, title) of each enclosing section
    also: list[str] = field(default_factory=list)  # "file:line" of other lines it holds (a hint)
    blanks: bool = False  # a cloze card: its "__" are blanks to fill in, no emphasis
    cell: bool = False  # a table cell: a "？（…）" tail stays in it, the table has its own answers


@dataclass(frozen=True)
class Skipped:
    """A line that looks like a question but was not taken, and why."""

    where: str
    text: str
    why: str
    counts: bool = True  # False for known noise (a table of contents): never a reason to refuse


def too_lossy(lost: int, questions: int) -> bool:
    """Whether ``lost`` question-like lines not taken are too many beside ``questions`` taken
    to import without --force."""
    return lost > max(2, questions // 10)


@dataclass(frozen=True)
class Options:
    """How to read a file: the user's ``--force``, ``--map`` and ``--level``."""

    force: bool = False  # mend or skip what has a problem instead of stopping
    mapping: tuple[tuple[str, str], ...] = ()  # (field, key or column) pairs from --map
    level: int | None = None  # Markdown: every heading of this level is a question


@dataclass
class Parsed:
    """What a reader found: drafts, problems, lines not taken, and facts about the file."""

    drafts: list[Draft] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # stop the import unless --force
    fatal: list[str] = field(default_factory=list)  # stop it even with --force
    title: str | None = None
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # facts: the key mapping, keys not used
    suggestions: list[str] = field(default_factory=list)  # the option that would read more
    limit: int = field(default_factory=lambda: source.MAX_QUESTIONS)  # reading stops past it
    cards: int | None = None  # the level of the notes cards read (``topiccards``), if any

    def add(self, draft: Draft) -> Draft:
        """Keep ``draft``; LimitReached once there are more than ``limit``."""
        self.drafts.append(draft)
        if len(self.drafts) > self.limit:
            raise LimitReached(draft.where)
        return draft


class LimitReached(Exception):
    """More questions than a bank may hold: reading stopped at the first one past the limit."""


def strip_emphasis(text: str) -> str:
    return outside_code(text, lambda part: re.sub(EMPHASIS, "", part)).strip()


_CODE_SPAN = re.compile(r"(?<!`)(`{1,3})(?!`)[^\n]{0,500}?[^`\n]\1(?!`)")


# TeX between dollars ("$\\eta$", "$$\\sum_i x_i$$"): a backslash there is no Markdown escape
_MATH_SPAN = re.compile(r"(?<!\\)\$\$[^$]{1,2000}?\$\$|(?<!\\)\$[^$\n]{1,500}?\$")


def unescaped(text: str) -> str:
    """``text`` with Markdown's escaping backslashes dropped (``\\*`` is ``*``), but not
    inside math, which keeps its TeX as written (``$\\theta'$``)."""
    if "$" not in text:
        return text.replace("\\", "")
    parts, at = [], 0
    for span in _MATH_SPAN.finditer(text):
        parts += [text[at : span.start()].replace("\\", ""), span.group(0)]
        at = span.end()
    return "".join([*parts, text[at:].replace("\\", "")])


def one_blank_line(text: str) -> str:
    """``text`` with each run of empty lines made one."""
    return _BLANK_LINES.sub("\n\n", text)


def outside_code(text: str, change: Callable[[str], str]) -> str:
    """``change`` applied to the text between inline code spans, the spans kept as written
    (``<p>`` and ``__init__`` in backticks are code, not HTML or emphasis)."""
    if "`" not in text:
        return change(text)
    parts, at = [], 0
    for span in _CODE_SPAN.finditer(text):
        parts += [change(text[at : span.start()]), span.group(0)]
        at = span.end()
    return "".join([*parts, change(text[at:])])


def strict_cn_number(text: str) -> int | None:
    """1–99 written as digits or as 一…九十九; anything else is no number (a chapter's)."""
    if text.isdigit():
        return int(text)
    tens, ten, ones = text.partition("十")
    if not ten:
        return CN_DIGITS.index(text) if len(text) == 1 and text in CN_DIGITS else None
    if len(tens) > 1 or len(ones) > 1 or not set(tens + ones) <= set(CN_DIGITS):
        return None
    return (CN_DIGITS.index(tens) if tens else 1) * 10 + (CN_DIGITS.index(ones) if ones else 0)


_CN_VALUE = {c: n for n, c in enumerate(CN_DIGITS)}


def matched_cn_number(text: str) -> int:
    """A question's number as ``markers.NUMBER`` let it through, not checked again ("一二" → 12)."""
    if "十" not in text:
        return int("".join(str(_CN_VALUE[c]) for c in text))
    tens, _, ones = text.partition("十")
    return (_CN_VALUE.get(tens, 1) if tens else 1) * 10 + (_CN_VALUE.get(ones, 0) if ones else 0)


def chapter_number(match: re.Match[str]) -> str:
    """The number of a ``CHAPTER`` (or any pattern with a group ``n``) match, as written."""
    groups = match.groupdict()
    return groups.get("n") or groups.get("n2") or groups.get("n3") or ""


def mend_surrogates(draft: Draft, texts: Iterator[str] | list[str]) -> None:
    """A lone surrogate (JSON ``"\\ud800"``) is no character: a problem; mended to �."""
    if not any(source.SURROGATE.search(s) for s in texts):
        return
    draft.problem = draft.problem or (
        f"{draft.where}: a lone surrogate (such as \\ud800) is not a character; "
        "the text cannot be saved as it is"
    )
    for name in ("question", "chapter", "hint", "reference", "label"):
        text = getattr(draft, name)
        if text:
            setattr(draft, name, source.SURROGATE.sub("\ufffd", text))
    draft.key_points = [source.SURROGATE.sub("\ufffd", p) for p in draft.key_points]
    draft.tags = [source.SURROGATE.sub("\ufffd", t) for t in draft.tags]


def strings(value: Any) -> Iterator[str]:
    """Every string in a decoded JSON value, keys too."""
    stack = [value]
    while stack:
        current = stack.pop()
        if isinstance(current, str):
            yield current
        elif isinstance(current, dict):
            stack.extend(current.keys())
            stack.extend(current.values())
        elif isinstance(current, list):
            stack.extend(current)
