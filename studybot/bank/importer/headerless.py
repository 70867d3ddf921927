"""A table without a header row: whether its first row is a card, and what its columns hold.

Anki's text exports without their ``#`` header lines, and many hand-made decks, start
with their first card. A first row is no header when none of its cells names a field
(``question``, ``answer``, ``front``, ``back``, ``问题``, ``答案`` …) and it reads as a
card: its first cell asks; or, in two columns or more, a cell holds more than a column's
name does (over 30 characters or 4 words, a question mark, or a colon with text after
it: ``Glossary: Blueprint``); or its first cell is a card's text above a first column
that mostly asks. Column 1 is then the front, asking or not, column 2 the back, and the
last of three or more columns the tags when each of its cells is Anki's tags (words
without spaces, ``facts exam-1``, ``LLM::training``, at most 8) and a tag comes back in
another row.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from collections import Counter
from collections.abc import Iterable, Iterator

from studybot.bank.importer import flashcards
from studybot.bank.importer import keys as fields
from studybot.bank.importer.markers import reads_as_question

AHEAD = 50  # rows looked at to tell a header row from a first card
_NAME_CHARACTERS = 30  # a column's name is shorter than this …
_NAME_WORDS = 4  # … and has no more words than this
# what a column's name never holds: a question mark, a colon or semicolon with text after it
_SENTENCE = re.compile(r"[?？!！]|[:：;；]\s*\S")
# Anki's tags: words without spaces ("exam-1", "LLM::training", "c++"), spaces between
_TAGS = re.compile(r"[\w.#&+/-]+(?:::[\w.#&+/-]+)*(?:\s+[\w.#&+/-]+(?:::[\w.#&+/-]+)*){0,7}")
_TAGS_NAME = "tags"


def ahead(text: str, delimiter: str) -> list[list[str]]:
    """The rows after the first (at most ``AHEAD``), for a look at what the file holds."""
    try:
        rows = csv.reader(io.StringIO(text[:1_000_000], newline=""), delimiter=delimiter)
        return list(itertools.islice(rows, 1, AHEAD + 1))
    except csv.Error:
        return []


def first_row_is_card(names: list[str], below: list[list[str]]) -> bool:
    """Whether a first row whose cells are ``names`` is a card, not a header (the module's
    docstring says when), ``below`` the rows after it."""
    if not names or any(map(fields.field_of, names)):
        return False
    if reads_as_question(names[0]):
        return True
    if sum(map(bool, names)) >= 2 and any(_more_than_a_name(name) for name in names):
        return True
    firsts = [row[0] for row in below if row and row[0].strip()]
    asking = sum(1 for text in firsts if reads_as_question(text))
    return len(names[0].strip()) >= 8 and len(firsts) >= 2 and 3 * asking >= 2 * len(firsts)


def _more_than_a_name(cell: str) -> bool:
    cell = cell.strip()
    words = len(cell.split())
    return len(cell) > _NAME_CHARACTERS or words > _NAME_WORDS or bool(_SENTENCE.search(cell))


def columns(first: list[str], below: list[list[str]]) -> tuple[list[str], fields.Mapping, str]:
    """The names of a headerless table's columns (``first`` its first row), the mapping
    they give, and the note that says how they were read."""
    width = max(len(first), *(len(row) for row in below)) if below else len(first)
    names = ["question", "answer", *(f"column {n}" for n in range(3, width + 1))][:width]
    said = ["column 1 is read as the question", "column 2 as the answer"][:width]
    if width >= 3 and _tags_column([first, *below], width - 1):
        names[-1] = _TAGS_NAME
        said.append(f"column {width} as tags")
    mapping = fields.choose(n for n in names if n in ("question", "answer", _TAGS_NAME))
    return names, mapping, f"no header row: {', '.join(said)}"


def _tags_column(rows: list[list[str]], index: int) -> bool:
    """Whether every cell of column ``index`` is Anki's tags, a tag in two rows or more."""
    cells = [row[index].strip() for row in rows if len(row) > index and row[index].strip()]
    if not cells or not all(_TAGS.fullmatch(cell) for cell in cells):
        return False
    counts = Counter(tag for cell in cells for tag in set(cell.split()))
    return len(cells) == 1 or max(counts.values()) >= 2


def rows(read: Iterable[list[str]], names: list[str]) -> Iterator[list[str]]:
    """``read``'s rows, the tags cell (when there is one) with its tags between commas."""
    if _TAGS_NAME not in names:
        yield from read
        return
    index = names.index(_TAGS_NAME)
    for row in read:
        if len(row) > index:
            row = [*row[:index], flashcards.tags(row[index]), *row[index + 1 :]]
        yield row
