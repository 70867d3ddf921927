"""Files whose questions are ``<details>`` summaries the default reading passes over.

Two shapes read the ``details`` way by default (``as_summaries``), with a note saying so:

- chapters over summary questions: the default reading takes the file's headings
  (``## 是什么``, ``## 常见误区``, most of them asking nothing) and swallows the
  ``<details><summary>…？</summary>`` blocks below one of them into its answer. When the
  summaries ask (at least two, nine in ten with an answer), more of them than the headings
  taken, and the default takes none of them, the summaries are the questions and the headings
  their chapters.
- a deck of summaries that do not all ask: the default reading takes only the summaries that
  ask (``<summary>如何定义重载函数？</summary>``) and drops the others
  (``<summary>默认实参重复声明</summary>``). When every question it takes is a summary (at
  least ``MARGIN``) and the others have an answer and differ from one another (no repeated
  ``<summary>Answer</summary>`` label, none inside another box), every summary is a question, provided the ``details``
  reading keeps each question the default takes word for word (not so a cloze deck's blanks).
"""

from __future__ import annotations

from pathlib import Path

from studybot.bank.importer import selectors
from studybot.bank.importer.collapsible import ANSWER_SUMMARY, DETAILS_TAG
from studybot.bank.importer.draft import Draft, Parsed, too_lossy
from studybot.bank.importer.layout import Layout, layout
from studybot.bank.importer.markers import reads_as_question
from studybot.bank.importer.topics import MARGIN

NOTE = "read the <details> summaries as the questions: {why}"


def as_summaries(path: Path, text: str, kind: str, parsed: Parsed) -> Parsed | None:
    """The ``details`` reading of a file the default reader read (``parsed``) when its
    questions are summaries that reading passes over (the module's docstring says when)."""
    if kind != "markdown" or DETAILS_TAG.search(text) is None:
        return None
    out = layout(path, text, kind)
    if isinstance(out, Parsed):
        return None
    read = selectors.take(out, selectors.Selector("details"))
    shown = [d for d in read.drafts if d.question.strip()]
    if not shown or too_lossy(sum(1 for s in read.skipped if s.counts), len(shown)):
        return None
    taken = [d for d in parsed.drafts if d.question.strip()]
    why = _chapters(out, taken, shown) or _deck(out, taken, shown)
    if why is None:
        return None
    read.notes = [*read.notes, NOTE.format(why=why)]
    return read


def _answered(draft: Draft) -> bool:
    return bool(draft.reference or draft.key_points)


def _chapters(out: Layout, taken: list[Draft], cards: list[Draft]) -> str | None:
    """Why the summaries are the questions under headings taken as questions; None if not."""
    asking = [d for d in cards if reads_as_question(d.question)]
    if len(asking) < 2 or 10 * sum(map(_answered, asking)) < 9 * len(asking):
        return None
    if {d.where for d in taken} & {d.where for d in cards}:
        return None  # the default reading takes summaries: it reads them already
    headings = {out.where(line.index) for line in out.found if line.kind == "heading"}
    if not taken or any(d.where not in headings for d in taken):
        return None
    heading_asks = sum(1 for d in taken if reads_as_question(d.question))
    if heading_asks >= len(asking) or 2 * heading_asks >= len(taken):
        return None
    return f"{len(asking)} of them ask, {len(taken) - heading_asks} of {len(taken)} headings do not"


def _deck(out: Layout, taken: list[Draft], cards: list[Draft]) -> str | None:
    """Why every summary is a question where the default takes only those that ask."""
    same = {(d.where, d.question) for d in cards}  # a cloze card ("…__…") reads otherwise
    if len(taken) < MARGIN or any((d.where, d.question) not in same for d in taken):
        return None
    took = {d.where for d in taken}
    others = [d for d in cards if d.where not in took]
    if not others or not all(map(_answered, others)):
        return None
    if any(ANSWER_SUMMARY.fullmatch(d.question) for d in others):
        return None  # "<summary>Answer</summary>": an answer box, not a question
    if {d.where for d in others} & _nested(out):
        return None  # "<summary>Show example</summary>" inside an answer: a line of it
    if 10 * len({d.question for d in cards}) < 9 * len(cards):
        return None  # "<summary>查看问题</summary>" each time: a label
    return f"{len(others)} that do not ask besides the {len(taken)} that do"


def _nested(out: Layout) -> set[str]:
    """Where the lines inside a ``<details>`` that is itself inside another one are."""
    inner, depth = set(), 0
    for index, line in enumerate(out.lines):
        deepest = depth
        for tag in DETAILS_TAG.finditer(line):
            depth = max(depth - 1, 0) if tag[1] else depth + 1
            deepest = max(deepest, depth)
        if deepest >= 2:
            inner.add(out.where(index))
    return inner
