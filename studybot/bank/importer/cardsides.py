"""A card's two sides labelled: ``Front: …`` over ``Back: …``, ``正面：…`` over ``背面：…``.

Plain-text cards (``卡片1`` / ``正面：列表推导式`` / ``背面：…``) name the side each line
holds; the front is the question, asking or not, and the back its answer. ``unlabelled``
rewrites such a pair before parsing, a line for a line, as the ``Q：`` / ``A：`` lines the
reader takes as a question and its answer, so every place still names the file's own line.
A short line with a number right over the front (``卡片2``, ``Card 12``) names the card:
it is no part of the answer above it. A front label counts only with a back label after it, before the next front, heading or
fence; a lone ``Front:`` (``Front: React, Back: Node`` on one line, a résumé's
``Front:``) stays as written. Lines inside fenced code stay as written.
"""

from __future__ import annotations

import re

from studybot.bank.importer.admonitions import unfenced

# "Front: …", "**正面**：…", "正面:…": the side a line holds, then its text
_SIDE = re.compile(
    r"^(?P<indent>[ \t]{0,3})(?:\*\*|__)?(?P<side>front|back|正面|背面)(?:\*\*|__)?[ \t]*[:：]"
    r"(?:\*\*|__)?[ \t]*(?P<text>\S.*)?$",
    re.IGNORECASE,
)
_FRONTS = ("front", "正面")
_NAME_LENGTH = 20  # a card's name over its front is no longer than this


def unlabelled(lines: list[str]) -> list[str]:
    """``lines`` with each front and back label pair as ``Q：`` and ``A：`` lines."""
    sides = {n: found for n in unfenced(lines) if (found := _SIDE.match(lines[n]))}
    if not sides:
        return lines
    out = list(lines)
    front: int | None = None
    for index in range(len(lines)):
        found = sides.get(index)
        if lines[index].startswith("#") or lines[index].lstrip().startswith(("```", "~~~")):
            front = None  # a heading or a fence ends the card
        elif found is not None and found["side"].lower() in _FRONTS:
            front = index
        elif found is not None and front is not None:
            out[front] = _as(sides[front], "Q")
            out[index] = _as(found, "A")
            if front and _card_name(lines[front - 1]):
                out[front - 1] = ""  # "卡片2" over the front names the card: no answer's text
            front = None
    return out


def _card_name(line: str) -> bool:
    """Whether ``line`` names a card by its number (``卡片2``, ``Card 12``): short, a digit in
    it, no colon."""
    text = line.strip()
    return (
        0 < len(text) <= _NAME_LENGTH
        and any(c.isdigit() for c in text)
        and not (set(text) & set(":："))
    )


def _as(found: re.Match[str], marker: str) -> str:
    """The line ``found`` matched, with ``marker`` in place of its side's label."""
    return f"{found['indent']}{marker}：{found['text'] or ''}".rstrip()
