"""``--level N`` named by the preview when it reads the file plainly better.

The preview tries the importer's own rules with each heading level the file
has (``--level N``: that level's headings are the questions) and names one
when it dominates the reading previewed: it takes every asking question that
reading takes (the same lines), gives no fewer asking questions an answer,
needs no ``--force`` the reading previewed does not, and takes at least
``MARGIN`` fewer questions that do not ask, where the reading previewed takes
at most one such question in ten (section titles such as ``### Data
Pipeline`` taken as questions beside a file's real ones; where more do not
ask, they are the file's own terse questions: ``KV Cache``). Taking as much
and leaving only stray titles out is better whatever the file's size, so no
share of the questions is asked for, unlike the margins of ``steer``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from studybot.bank.importer.draft import Draft, LimitReached, Parsed
from studybot.bank.importer.markers import reads_as_question
from studybot.bank.importer.nested import asked, lines_taken
from studybot.bank.importer.steer import Reading, Steer
from studybot.bank.importer.topics import MARGIN

_HEADINGS = "--questions headings:"

Measure = Callable[[int], tuple[Parsed, Reading | None]]  # ``--level N`` read and measured


def dominates(r: Reading, current: Reading) -> bool:
    """Whether ``r`` takes as many asking lines as ``current``, answers as many, needs no new
    ``--force`` and leaves ``MARGIN`` of its questions that do not ask out."""
    return (
        r.asking >= current.asking
        and r.answered >= current.answered
        and r.non_asking <= current.non_asking - MARGIN
        and (current.refused or not r.refused)
    )


def suggested(found: Steer, previewed: list[Draft], measure: Measure) -> Steer:
    """``found`` with ``--level N`` as its suggestion where it names none and a level dominates
    the reading previewed, taking each of its asking questions (of several, the one that
    leaves the most titles out)."""
    current = found.current
    if found.better is not None or not MARGIN <= current.non_asking <= current.questions // 10:
        return found  # nothing to leave out: no level is read
    asking = {
        d.where for d in previewed if d.question.strip() and reads_as_question(asked(d.question))
    }
    levels = sorted(
        {int(r.option[len(_HEADINGS) :]) for r in found.others if r.option.startswith(_HEADINGS)}
    )
    best: Reading | None = None
    for level in levels:
        try:
            got, r = measure(level)
        except LimitReached:
            continue
        if r is None or not dominates(r, current) or asking - lines_taken(got.drafts):
            continue
        if best is None or r.non_asking < best.non_asking:
            why = f"{current.non_asking - r.non_asking} fewer questions that do not ask"
            best = replace(r, option=f"--level {level}", why=why)
    return found if best is None else replace(found, better=best)
