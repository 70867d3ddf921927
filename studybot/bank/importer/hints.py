"""A reader's hint screened before the preview names it.

A reader names an option when the file looks read another way
(``tables.suggest_level``: "--level 3 reads each of the 7 level-3 headings
as a question"). The preview names it only when that reading, measured as
``steer`` measures the one previewed, changes what is imported and harms
nothing the reading previewed gives: it takes no fewer of the file's asking
lines, gives no fewer asking questions an answer, and takes no question that
does not ask out of an answer previewed (an answer's ``### 核心区别``
sub-sections cut into questions). Headings that do not ask, over text the
reading previewed imported nowhere, it may take: that is what the hint is for.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

from studybot.bank.importer.draft import Draft, LimitReached, Parsed
from studybot.bank.importer.markers import reads_as_question
from studybot.bank.importer.nested import asked, folded, held, within
from studybot.bank.importer.steer import Reading
from studybot.errors import BankError

Analyse = Callable[[Parsed, str], Reading | None]  # a reading measured as the one previewed
ReadWith = Callable[[str, str], Parsed]  # ("--level", "3") -> what that option reads


def screened(
    suggestions: list[str],
    parsed: Parsed,
    current: Reading,
    read_with: ReadWith,
    measure: Analyse,
) -> tuple[str, ...]:
    """``suggestions`` less the ``--level``/``--questions`` hints whose reading harms."""
    return tuple(
        hint for hint in suggestions if not _harms(hint, parsed, current, read_with, measure)
    )


def _harms(
    hint: str, parsed: Parsed, current: Reading, read_with: ReadWith, measure: Analyse
) -> bool:
    words = hint.split(maxsplit=2)
    if len(words) < 2 or words[0] not in ("--level", "--questions"):
        return False  # --map and notes are no reading of this kind
    try:
        got = read_with(words[0], words[1])
    except (BankError, LimitReached, ValueError):
        return False  # it cannot be measured: the reader's word stands
    reading = measure(got, shlex.join(words[:2]))
    if reading is None:
        return False
    return (
        _same(got.drafts, parsed.drafts)
        or reading.asking < current.asking
        or reading.answered < current.answered
        or _cut(got.drafts, parsed.drafts)
    )


def _same(drafts: list[Draft], previewed: list[Draft]) -> bool:
    """Whether both readings import the same questions with the same answers."""

    def seen(ds: list[Draft]) -> list[tuple[str, str | None, list[str]]]:
        return [(d.question, d.reference, d.key_points) for d in ds if d.question.strip()]

    return seen(drafts) == seen(previewed)


def _cut(drafts: list[Draft], previewed: list[Draft]) -> bool:
    """Whether a question that does not ask is a line the answers previewed hold."""
    answers = "\n".join(held(previewed))
    return any(
        draft.question.strip()
        and not reads_as_question(asked(draft.question))
        and within(folded(asked(draft.question)), answers)
        for draft in drafts
    )
