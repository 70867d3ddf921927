"""Bank text cut short (a summary's line, a point quoted): at a clause end, never inside a formula.

Also the characters that show nothing (``SHOWS_NOTHING``), which the importer and the grader
both read as nothing.

A cut lands after the last clause or sentence mark (，。；：,;) in the
second half of the limit; failing that, before a Latin word it would split.
Never inside a code span (`…`) or a formula ($…$): a span that starts early
is kept whole, one that starts late is left out.
"""

from __future__ import annotations

import re

MARKS = "，。；：,;"  # in the order they are tried
SPANS = re.compile(r"`[^`]+`|\$[^$]+\$")
ELLIPSIS = "…"
# Characters that show nothing: zero-width space and non-joiner, the direction marks, word joiner
# and invisible operators, byte-order mark, soft hyphen, Mongolian vowel separator, combining
# grapheme joiner. The zero-width joiner (U+200D) is left to each reader: inside an emoji
# sequence it draws the emoji ("👩‍💻").
SHOWS_NOTHING = "\u200b\u200c\u200e\u200f\u2060-\u2064\ufeff\u00ad\u180e\u034f"


def clip(text: str, limit: int) -> str:
    """``text`` on one line, at most about ``limit`` characters, ``…`` where it was cut."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    spans = [m.span() for m in SPANS.finditer(text)]

    def inside(position: int) -> tuple[int, int] | None:
        return next(((a, b) for a, b in spans if a < position < b), None)

    head = text[:limit]
    for mark in MARKS:
        position = next(
            (p for p in range(len(head) - 1, limit // 2 - 1, -1) if head[p] == mark),
            -1,
        )
        if position >= limit // 2 and inside(position) is None:
            return text[:position] + ELLIPSIS
    cut = limit
    span = inside(cut)
    if span is not None:
        start, end = span
        cut = start if start >= limit // 2 else end
    elif cut < len(text) and _latin(text[cut - 1]) and _latin(text[cut]):
        start = cut
        while start > 0 and _latin(text[start - 1]):
            start -= 1
        cut = start if start >= limit // 2 else cut
    if cut >= len(text):
        return text
    return text[:cut].rstrip(" ，,；;：:") + ELLIPSIS


def _latin(char: str) -> bool:
    return char.isascii() and (char.isalnum() or char in "_-./")


def named(name: str) -> str:
    """A file name as text: its bytes that are not UTF-8 (kept by Python as lone surrogates,
    which no file or database can hold) shown as U+FFFD."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
