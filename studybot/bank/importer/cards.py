"""Files that are a deck of ``<details>`` cards: the preview names ``--questions details``.

A file whose text sits in ``<details>`` blocks, each ``<summary>`` over its answer, is a
deck of cards even where most summaries name a topic (``<summary>DPO (Direct Preference
Optimization)</summary>``) and ask nothing; the bold sub-headings of an answer
(``**为什么要 TRPO？**``, ``**核心原理**``) are lines of it. The default reader takes the
summaries that ask and those sub-headings that read like questions; by the asking lines
alone that looks better than the summaries. The preview names ``details`` (``suggested``)
when the reading previewed takes under half the summaries and needs ``--force`` or takes
most of its questions inside the boxes (under two a box: more are a chapter's questions,
``<summary>基础篇</summary>`` over ``**1. 什么是…？**``), and ``details`` takes ``MARGIN`` or more cards
(nine in ten with an answer, nine in ten summaries told apart: not a repeated "查看问题"
label), whose boxes hold four fifths of the file's text, needing no ``--force``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from studybot.bank.importer.draft import Draft, Parsed
from studybot.bank.importer.layout import Layout
from studybot.bank.importer.topics import MARGIN

OPTION = "--questions details"


def suggested(
    out: Layout, drafts: list[Draft], current: Any, others: tuple, tried: dict[str, Parsed]
) -> Any:
    """``details`` with why, for a file that is a deck of cards (the module's docstring says
    when); None otherwise."""
    reading = next((r for r in others if r.option == OPTION), None)
    if reading is None or reading.refused or OPTION not in tried or current.option == OPTION:
        return None
    cards = [d for d in tried[OPTION].drafts if d.question.strip()]
    answered = sum(1 for d in cards if d.reference or d.key_points)
    named = len({d.question for d in cards})  # "<summary>查看问题</summary>" each time: a label
    if len(cards) < MARGIN or 10 * answered < 9 * len(cards) or 10 * named < 9 * len(cards):
        return None
    taken = [d for d in drafts if d.question.strip()]
    if 2 * len({d.where for d in taken} & {d.where for d in cards}) >= len(cards):
        return None  # the reading previewed takes the summaries: it reads the cards already
    text = [line.index for line in out.found if line.kind != "heading" and line.text]  # no tag
    boxed = sum(1 for index in text if index in out.boxed)
    if 5 * boxed < 4 * len(text):
        return None
    at = {out.where(index): index for index in out.boxed}
    inside = sum(1 for d in taken if d.where in at)
    if not (current.refused or 2 * inside > len(taken)) or inside >= 2 * len(cards):
        return None  # two or more questions a box: chapters over their questions
    return replace(reading, why=f"{len(cards)} <details> cards, {answered} with an answer")
