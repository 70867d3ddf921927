"""Files that are a deck of ``<details>`` cards: read as cards, or pointed to ``details``.

A file whose text sits in ``<details>`` blocks, each ``<summary>`` over its answer, is a
deck of cards even where most summaries name a topic (``<summary>DPO (Direct Preference
Optimization)</summary>``) and ask nothing; the bold sub-headings of an answer
(``**为什么要 TRPO？**``, ``**核心原理**``) are lines of it. The Markdown reader takes only
the summaries that ask, and sub-headings that read like questions. ``_deck`` says a file is
such a deck when the ``details`` reading takes ``MARGIN`` or more cards (nine in ten with
an answer, nine in ten summaries told apart: not a repeated "查看问题" label) whose boxes
hold four fifths of the file's text, while the other reading takes under half the
summaries and needs ``--force`` or takes most of its questions inside the boxes (under two
that ask a box: more are a chapter's, ``<summary>基础篇</summary>`` over
``**1. 什么是…？**``). The default import then reads the file as cards and says so
(``as_deck``); a preview read another way names ``--questions details`` (``suggested``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from studybot.bank.importer import selectors
from studybot.bank.importer.collapsible import DETAILS_TAG
from studybot.bank.importer.draft import Draft, Parsed, too_lossy
from studybot.bank.importer.layout import Layout, layout
from studybot.bank.importer.markers import reads_as_question
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
    found = _deck(out, drafts, current.refused, tried[OPTION].drafts)
    if found is None:
        return None
    return replace(reading, why=f"{found[0]} <details> cards, {found[1]} with an answer")


def as_deck(path: Path, text: str, kind: str, parsed: Parsed) -> Parsed | None:
    """The ``details`` reading of a file the default reader read (``parsed``) when the file is
    a deck of cards that reading does not take; None otherwise."""
    if kind != "markdown" or DETAILS_TAG.search(text) is None:  # no copy of a large file
        return None
    out = layout(path, text, kind)
    if isinstance(out, Parsed):
        return None
    cards = selectors.take(out, selectors.Selector("details"))
    if _refused(cards):
        return None
    found = _deck(out, parsed.drafts, _refused(parsed), cards.drafts)
    if found is None:
        return None
    cards.notes = [f"read as a deck of {found[0]} <details> cards (as --questions details reads)"]
    return cards


def _refused(parsed: Parsed) -> bool:
    shown = sum(1 for d in parsed.drafts if d.question.strip())
    return too_lossy(sum(1 for s in parsed.skipped if s.counts), shown)


def _deck(
    out: Layout, drafts: list[Draft], refused: bool, read: list[Draft]
) -> tuple[int, int] | None:
    """(cards, those with an answer) when ``read`` (the ``details`` reading) reads the file
    as a deck of cards and ``drafts`` (another reading, ``refused`` or not) does not."""
    cards = [d for d in read if d.question.strip()]
    answered = sum(1 for d in cards if d.reference or d.key_points)
    named = len({d.question for d in cards})  # "<summary>查看问题</summary>" each time: a label
    if len(cards) < MARGIN or 10 * answered < 9 * len(cards) or 10 * named < 9 * len(cards):
        return None
    taken = [d for d in drafts if d.question.strip()]
    if 2 * len({d.where for d in taken} & {d.where for d in cards}) >= len(cards):
        return None  # the other reading takes the summaries: it reads the cards already
    text = [line.index for line in out.found if line.kind != "heading" and line.text]  # no tag
    boxed = sum(1 for index in text if index in out.boxed)
    if 5 * boxed < 4 * len(text):
        return None
    at = {out.where(index) for index in out.boxed}
    inside = [d for d in taken if d.where in at]
    asking = sum(1 for d in inside if reads_as_question(d.question))
    if not (refused or 2 * len(inside) > len(taken)) or asking >= 2 * len(cards):
        return None  # two or more asking a box: chapters over their questions
    return len(cards), answered
