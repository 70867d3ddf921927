"""The preview that steers: where questions were found, what was left, the option that fixes it.

Every selector that has something to take in the file is run on it
(``headings:N`` for each level it has, ``items`` and ``items:N`` for each
depth, ``bold``, ``lines``, ``table:COLUMN``, ``details``, ``cells``) and
each reading is measured the same way as the one the user previewed:
the lines that ask and were taken, the questions that do not ask (a
section title taken as a question). A selector is named when it takes
clearly more asking lines, or leaves out non-asking ones, than the
reading previewed (at least ``_MARGIN`` lines, or 3% of its questions;
``_better`` says exactly when), or when it takes enough of the asking lines
listed as not taken that stand alone, losing nothing the previewed reading
keeps (``_takes_left`` says what); ``lines`` only so or when nothing was taken.

A sentence or sub-heading inside an answer that was taken and only reads
like a question ("When we declare …") is no line "not taken": it was
imported, as a line of that answer; a list item that does not end as a
sentence, or a line that ends in a question mark, is listed even there.
Nor is a line whose words were imported as a question (a table of
contents' entry that repeats one, a hard-wrapped question's second line).

A file that is a deck of ``<details>`` cards with topic summaries gets ``details``
(``importer.cards``).

A file whose questions are headings that do not ask (``## Case 3: 推理优化``
with its answer below) gains nothing by that measure; ``_sections`` names
``headings:N`` for it when the reading previewed takes headings nested in one
another's answers and level N's headings hold the file's answers instead. ``_follow_ups``
names it when the reading previewed takes follow-ups or labels inside an answer that level
N's reading keeps as answer text, losing no question and no answer (``importer.nested``).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from studybot.bank.importer import cards, leftitems, selectors, topics
from studybot.bank.importer.draft import Draft, LimitReached, Parsed, too_lossy
from studybot.bank.importer.layout import (
    KIND_NAMES,
    Layout,
    Line,
)
from studybot.bank.importer.markers import (
    reads_as_question,
)
from studybot.bank.importer.metadata import without_source
from studybot.bank.importer.nested import answered as _answered
from studybot.bank.importer.nested import asked as _asked
from studybot.bank.importer.nested import asked_lines as _asked_lines
from studybot.bank.importer.nested import asking as _asking
from studybot.bank.importer.nested import folded as _folded
from studybot.bank.importer.nested import held as _held
from studybot.bank.importer.nested import held_in as _held_in
from studybot.bank.importer.nested import laid_out as _laid_out
from studybot.bank.importer.nested import lines_taken as _lines_taken
from studybot.bank.importer.nested import nesting, under
from studybot.bank.importer.nested import within as _within
from studybot.bank.importer.notebook import cell_of, opens_cell
from studybot.bank.importer.topics import MARGIN as _MARGIN

_NUMBER_FIELD = re.compile(r"^\s*(?:[^:：\n]{0,24}[:：])?\s*[#\d.\-\s]*$")  # "No.: 12"


@dataclass(frozen=True)
class Reading:
    """What one way of reading the file takes."""

    option: str  # "--questions items", or "" for the importer's own rules
    questions: int
    asking: int  # asking lines of the file taken as questions
    non_asking: int  # questions taken whose text does not ask
    why: str = ""  # said instead of the asking counts when they are not why it is named
    answered: int = 0  # asking questions taken with an answer that is more than a number
    refused: bool = False  # leaves too many asking lines to import without --force
    gained: int = 0  # asking lines listed as not taken, standing on their own, that it takes
    lost: int = 0  # asking questions previewed with an answer whose answer it loses
    dropped: int = 0  # questions previewed that do not ask whose answer it loses
    split: int = 0  # asking lines listed inside an answer previewed that it takes, cutting it

    @property
    def score(self) -> int:
        return self.asking - self.non_asking

    @property
    def gives(self) -> int:
        """What a user gets: asking questions with a real answer, less what does not ask."""
        return self.answered - self.non_asking


@dataclass(frozen=True)
class Steer:
    """What the preview says about the reading it shows, and the one it would rather suggest."""

    found_in: tuple[tuple[str, int], ...]  # ("list items", 212), most first
    asking_lines: int  # lines of the file that ask
    missed: tuple[tuple[str, str], ...]  # (where, text) of each asking line not taken
    current: Reading
    others: tuple[Reading, ...]  # every selector tried, in the order tried
    better: Reading | None  # the option to suggest, if one reads the file clearly better
    left: tuple[tuple[str, str], ...] = ()  # (where, text) of list items no question holds
    kept: tuple[tuple[str, str], ...] = ()  # of ``missed``, those an answer taken holds as text


def reading(path: Path, text: str, kind: str, parsed: Parsed, option: str) -> Reading | None:
    """``parsed`` (read with ``option``) measured as ``analyse`` measures it, no other selector
    tried; None for records."""
    out = _laid_out(path, text, kind)
    if out is None:
        return None
    asking = _asking(out, parsed)
    return _measure(option, parsed, set(asking) - _held_in(asking, parsed))


def analyse(path: Path, text: str, kind: str, parsed: Parsed, option: str) -> Steer | None:
    """Measure ``parsed`` (read with ``option``) and every selector on the file; None for records."""
    out = _laid_out(path, text, kind)
    if out is None:
        return None
    by_where = {out.where(line.index): line for line in out.found}
    lines = _asking(out, parsed)
    held_in = _held_in(lines, parsed)
    asking = set(lines) - held_in
    current = _measure(option, parsed, asking)
    taken = _lines_taken(parsed.drafts)
    asked = "\n".join(_asked_lines(parsed.drafts))
    answers = "\n".join(_held(parsed.drafts))
    missed = tuple(
        (out.where(line.index), line.text)
        for line in out.found
        if out.where(line.index) in asking
        and out.where(line.index) not in taken
        and not _within(_folded(line.text), asked)
        and (opens_cell(out.where(line.index)) or not _answered(line, answers))
    )
    cells = {cell_of(draft.where) for draft in parsed.drafts}
    alone = {  # lines left that no answer taken holds, or in a cell no question taken opens
        where
        for where, text in missed
        if not _within(_folded(text), answers)
        or opens_cell(where)
        or (":cell " in where and cell_of(where) not in cells)
    }
    listed = {where for where, _ in missed}
    inside = listed - alone
    tried = {f"--questions {chosen}": got for chosen, got in _tried(path, text, kind, out)}
    others = tuple(
        _against(_measure(option, got, asking), got, parsed.drafts, alone, inside)
        for option, got in tried.items()
    )
    shown = [d for d in parsed.drafts if d.question.strip()]
    left = leftitems.left_items(out, parsed, asked, answers, listed)
    return Steer(
        found_in=_found_in(shown, by_where),
        asking_lines=len(asking),
        missed=missed,
        current=current,
        others=others,
        better=None  # notes cards read at their level: the asking lines are answers
        if parsed.cards
        else cards.suggested(out, parsed.drafts, current, others, tried)
        or _harmless(
            current,
            _better(current, [r for r in others if r.option != option])
            or _sections(out, parsed.drafts, others, tried)
            or _follow_ups(out, shown, others, tried, option)
            or topics.suggested(out, parsed.drafts, others),
        )
        or leftitems.suggested(current, others, tried, left)
        or topics.mixed(out, parsed.drafts, others),
        left=left,
        kept=tuple(m for m in missed if m[0] in inside)
        + tuple((w, by_where[w].text) for w in by_where if w in held_in),
    )


def _against(
    r: Reading, got: Parsed, previewed: list[Draft], alone: set[str], inside: set[str]
) -> Reading:
    """``r`` with the lines ``alone`` it takes, the answers previewed it loses (more than half
    their lines neither in its answers nor its questions) and those it cuts (``inside``)."""
    kept = _held(got.drafts) | _asked_lines(got.drafts)
    lost = dropped = 0
    for draft in previewed:
        lines = _held([draft])
        if draft.question.strip() and _answer(draft) and 2 * len(lines - kept) > len(lines):
            if reads_as_question(_asked(draft.question)):
                lost += 1
            else:
                dropped += 1
    taken = _lines_taken(got.drafts)
    return replace(
        r, gained=len(taken & alone), lost=lost, dropped=dropped, split=len(taken & inside)
    )


def _measure(option: str, parsed: Parsed, asking: set[str]) -> Reading:
    drafts = [d for d in parsed.drafts if d.question.strip()]  # an empty one is left, not taken
    taken = _lines_taken(drafts)
    asks = [reads_as_question(_asked(draft.question)) for draft in drafts]
    answered = sum(1 for draft, a in zip(drafts, asks, strict=True) if a and _answer(draft))
    refused = too_lossy(sum(1 for s in parsed.skipped if s.counts), len(drafts))
    return Reading(
        option,
        len(drafts),
        len(taken & asking),
        asks.count(False),
        answered=answered,
        refused=refused,
    )


def _answer(draft: Draft) -> bool:
    """Whether ``draft`` has an answer that says something: a numbering column (``No.: 12``)
    taken as the answer says nothing."""
    text = "\n".join([without_source("", draft.reference)[1] or "", *draft.key_points])
    return any(line.strip() and not _NUMBER_FIELD.match(line) for line in text.splitlines())


def _found_in(drafts: list[Draft], by_where: dict[str, Line]) -> tuple[tuple[str, int], ...]:
    counts: Counter[str] = Counter()
    for draft in drafts:
        line = by_where.get(draft.where)
        kind = line.kind if line else ("cell" if ":cell " in draft.where else "other")
        counts[kind] += 1
    named = []
    for kind, count in counts.most_common():
        one, many = KIND_NAMES.get(kind, ("other place", "other places"))
        named.append((one if count == 1 else many, count))
    return tuple(named)


def _tried(path: Path, text: str, kind: str, out: Layout):
    for chosen in selectors.candidates(out):
        try:
            if chosen.what == "cells":
                got = selectors.read(path, text, kind, chosen)
            else:
                got = selectors.take(out, chosen)
        except LimitReached:
            continue
        yield chosen, got


def _better(current: Reading, others: list[Reading]) -> Reading | None:
    """The reading to suggest, one that follows the file's structure and, by a margin:

    - takes more asking lines and no more questions that do not ask, or
    - takes no fewer asking lines and fewer that do not ask, while most of what it takes asks
      (taking less is no way to take fewer that do not ask);
    - gives more asking questions with a real answer less those that do not ask (``_gives``);

    the best of them by asking lines less non-asking ones. ``lines`` (every asking line,
    sub-questions inside answers too) is offered only when nothing else was taken.
    """
    margin = max(_MARGIN, current.questions * 3 // 100)

    def better(r: Reading) -> bool:
        more = r.asking >= current.asking + margin and r.non_asking <= current.non_asking
        cleaner = (
            r.asking >= current.asking
            and r.non_asking <= current.non_asking - margin
            and r.asking >= r.non_asking
        )
        return more or cleaner or _gives(r, current, margin)

    structural = [r for r in others if r.option != "--questions lines" and better(r)]
    structural += [r for r in others if _takes_left(r, current) and r not in structural]
    # what the user gets first; one that needs --force only where none that does not helps
    best = max(
        structural, key=lambda r: (not r.refused, r.gives, r.score, -r.questions), default=None
    )
    if best is None and current.questions == 0:
        best = next((r for r in others if r.option == "--questions lines" and r.asking), None)
    return best


def _takes_left(r: Reading, current: Reading) -> bool:
    """Whether ``r`` takes ``_MARGIN`` (and a tenth of the questions) of the lines not taken
    that stand alone (no answer holds them), with no fewer asking lines, no more that do not
    ask, no asking answer lost, no --force not needed before, and at most one title dropped
    per two lines gained and one answer cut in two (a follow-up inside it taken) per four."""
    margin = max(_MARGIN, current.questions // 10)
    return (
        r.gained >= margin
        and r.asking >= current.asking + margin
        and r.non_asking <= current.non_asking
        and r.lost == 0
        and 2 * r.dropped <= r.gained
        and 4 * r.split <= r.gained
        and (current.refused or not r.refused)
    )


def _harmless(current: Reading, r: Reading | None) -> Reading | None:
    """``r`` unless it harms: it takes more questions that do not ask than the reading
    previewed (section headings over list questions, an answer's sub-headings)."""
    if r is None or not current.questions:
        return r
    return None if r.non_asking > current.non_asking else r


def _gives(r: Reading, current: Reading, margin: int) -> bool:
    """Whether ``r`` gives the user clearly more asking questions with a real answer, less the
    questions that do not ask, by taking more asking lines or fewer that do not ask (answers
    alone are no reason), never by taking more that do not ask, nor by needing --force where
    the reading previewed does not; where it took nothing, any reading that gives more."""
    took = current.questions > 0
    return (
        (current.refused or not r.refused or not took)
        and (r.non_asking <= current.non_asking or not took)
        and (r.non_asking < current.non_asking or r.asking > current.asking)
        and r.answered >= r.non_asking
        and r.gives >= current.gives + margin
    )


def _sections(
    out: Layout, drafts: list[Draft], others: tuple[Reading, ...], tried: dict[str, Parsed]
) -> Reading | None:
    """``headings:N`` when the file reads as sections with their answers and the reading
    previewed does not (a reading that takes nothing has ``--level``'s hint): most questions it
    takes are headings, their sections hold under three quarters of the file's text (``#### 1.``
    points of a ``## Case 1`` taken, the problem left as a chapter), while level N (at least
    ``_MARGIN`` headings, none of them taken; the shallowest such level) has an answer under
    nine in ten of its headings, holds four fifths of the text and buries none of the asking
    questions previewed in its answers (``#### 怎么做？`` questions without answers, three
    ``###`` groups over them)."""
    headings = [h for h in out.found if out.section_heading(h)]
    taken = {draft.where for draft in drafts}
    text = [line.index for line in out.found if line.kind != "heading"]
    took = [h for h in headings if out.where(h.index) in taken]
    shown = [d for d in drafts if d.question.strip()]
    if (
        not took
        or 2 * len(took) < len(drafts)
        or 4 * len(under(took, headings, text)) >= 3 * len(text)
    ):
        return None
    for level in sorted({h.level for h in headings}):
        at = [h for h in headings if h.level == level]
        if len(at) < _MARGIN or any(h in took for h in at):
            continue
        held = under(at, headings, text)
        if 10 * len(set(held.values())) >= 9 * len(at) and 5 * len(held) >= 4 * len(text):
            option = f"--questions headings:{level}"
            reading = next((r for r in others if r.option == option), None)
            if option in tried and nesting(out, shown, tried[option].drafts).lost_asking:
                continue
            why = (
                f"{len(set(held.values()))} sections with an answer under level {level}'s headings"
            )
            return None if reading is None else replace(reading, why=why)
    return None


def _follow_ups(
    out: Layout,
    shown: list[Draft],
    others: tuple[Reading, ...],
    tried: dict[str, Parsed],
    option: str,
) -> Reading | None:
    """``headings:N`` when the reading previewed takes questions that sit inside another's
    answer there and that reading keeps as lines of it (``importer.nested`` says which):
    ``_MARGIN`` follow-ups, or as many sub-headings that do not ask with as many lines of text
    the reading previewed holds nowhere; it takes ``_MARGIN`` questions or more, takes or keeps
    every question previewed, loses no answer and needs no --force. Of several, the one that
    takes the most questions (the whole file under its title is no answer)."""
    named: list[Reading] = []
    for r in others:
        if not r.option.startswith("--questions headings:") or r.option == option:
            continue
        if r.lost or r.dropped or r.refused or r.questions < _MARGIN:
            continue
        found, kept = nesting(out, shown, tried[r.option].drafts), "kept as answer text"
        if found.lost:
            continue
        if found.follow_ups >= _MARGIN:
            named.append(replace(r, why=f"{found.follow_ups} follow-ups inside answers {kept}"))
        elif min(found.sub_headings, found.recovered) >= _MARGIN:
            named.append(replace(r, why=f"{found.sub_headings} labels inside sections {kept}"))
    return max(named, key=lambda r: r.questions, default=None)
