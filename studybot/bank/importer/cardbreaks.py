"""A deck of cards separated by ``---`` lines: each ``---`` a card break, no heading's underline.

Mochi's Markdown decks and hand-made ones like them write a card as its front, its back and
a ``---`` line after it (``What is X?`` / ``---`` / ``It is …`` / ``---``), often with a
block of the card's own fields between breaks (``card_id: yRFFIvgE``). To CommonMark a
``---`` right under a line of text underlines a heading (a setext heading), so a one-line
back would be read as a heading and lost. A file is such a deck when it has no ``#``
heading, four ``---`` lines or more, three in four of them with text right above and right
below, and a third or more of its cards (three at least) have a line that ends in a question
mark. Then ``unbroken`` reads
every ``---`` as a blank line, and a block of ``key: value`` fields alone between two
breaks too: the card's fields, not its text (line numbers stay true). A card's front is a
heading over its back, the answer: where there are blocks of fields, the first line after
each block; where there are none, the first line of each card.
"""

from __future__ import annotations

import re

from studybot.bank.importer.admonitions import unfenced
from studybot.bank.importer.draft import QUESTION_MARKS

_BREAK = re.compile(r" {0,3}-{3,}\s*")  # fullmatch: a thematic break made of dashes
_ATX = re.compile(r" {0,3}#{1,6}(?:\s|$)")  # match: a "#" heading
_FIELD = re.compile(r"[A-Za-z_][\w-]*:\s*\S*\s*")  # fullmatch: "card_id: yRFFIvgE"
_LEAST_BREAKS = 4


def unbroken(lines: list[str]) -> list[str]:
    """``lines`` with a deck's ``---`` breaks and its cards' fields blank (the module's
    docstring says when); else ``lines`` as they are."""
    outside = list(unfenced(lines))
    if any(_ATX.match(lines[i]) for i in outside):
        return lines
    breaks = [i for i in outside if _BREAK.fullmatch(lines[i])]
    if len(breaks) < _LEAST_BREAKS:
        return lines
    tight = sum(1 for i in breaks if _text_at(lines, i - 1) and _text_at(lines, i + 1, True))
    if 4 * tight < 3 * len(breaks):
        return lines
    cards: list[list[int]] = []  # the lines of text of each card's part between breaks
    fields: list[int] = []  # the lines of the blocks of fields
    after_fields: list[bool] = []  # whether a part comes right after a block of fields
    was_fields = False
    for start, end in zip([-1, *breaks], [*breaks, len(lines)], strict=True):
        text = [i for i in range(start + 1, end) if lines[i].strip()]
        is_fields = bool(text) and all(_FIELD.fullmatch(lines[i]) for i in text)
        if is_fields:
            fields.extend(text)
        elif text:
            after_fields.append(was_fields)
            cards.append(text)
        was_fields = is_fields
    asking = sum(
        1 for card in cards if any(lines[i].rstrip().endswith(QUESTION_MARKS) for i in card)
    )
    if asking < 3 or 3 * asking < len(cards):
        return lines
    # with blocks of fields, a front is the part after one; without, each part is a card
    fronts = {
        card[0] for card, front in zip(cards, after_fields, strict=True) if front or not fields
    }
    blank = {*breaks, *fields}
    return [
        "" if i in blank else f"## {line.strip()}" if i in fronts else line
        for i, line in enumerate(lines)
    ]


def _text_at(lines: list[str], index: int, end_too: bool = False) -> bool:
    """A line of text at ``index`` (before the first line: none; past the last: ``end_too``)."""
    if index < 0:
        return False
    if index >= len(lines):
        return end_too
    return bool(lines[index].strip())
