"""A question wrapped over lines: its parts joined as one line of text.

Lines join with a space, or with none beside CJK text or after Chinese
punctuation; a word a PDF's hyphenation cut at the end of a line (``ini-``
over ``tialized``) is joined whole. ``cut_short`` tells a line that breaks a
sentence off in the middle (``… and how is it used in`` over ``LLMs?``).
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import plain
from studybot.bank.importer.draft import CJK, QUESTION_MARKS

# a word cut at the end of a line by a PDF's hyphenation ("ini-" / "tialized")
_HYPHEN_BREAK = re.compile(r"[A-Za-z]{2}-$")
_CJK_ASKED = re.compile(
    r"[^。！；!;？?\n]{1,80}[？?]"
)  # the cut sentence, ended by its question mark


def join(text: str, more: str) -> str:
    if not text:
        return more
    if _HYPHEN_BREAK.search(text) and more[:1].islower():  # "fine-" over "tuning LLMs?"
        return text[:-1] + more
    if CJK.search(text[-1:]) or CJK.search(more[:1]) or text[-1:] in "，。；：？！、":
        return text + more
    return f"{text} {more}"


def joined(raw: str) -> str:
    out = ""
    for line in raw.split("\n"):
        out = join(out, plain(line))
    return out


def cut_short(previous: str, line: str) -> bool:
    """Whether ``previous`` (plain text) breaks off a Latin-script sentence that ``line`` (as
    written) goes on with: ``… (OOV)`` / ``… forget-`` / ``… used in`` over ``words?`` /
    ``ting?`` / ``LLMs?``, or any line that starts in lower case; a Chinese sentence cut off
    at a character whose next line ends it with a question mark, no sentence end before."""
    if CJK.search(previous[-1:]):  # "…的性能，而使" over "用均方误差…问题？…的利弊。"
        return _CJK_ASKED.match(plain(line)) is not None
    open_end = previous[-1:].isalnum() or previous.endswith(")") or _HYPHEN_BREAK.search(previous)
    goes_on = line[:1].islower() or line.endswith(QUESTION_MARKS)
    return bool(open_end) and goes_on
