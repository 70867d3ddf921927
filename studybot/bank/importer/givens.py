"""What a list of labelled questions asks without a question mark, and what a question gives.

- In a list of ``**Label**: …`` items whose labels ask nothing (``**Acme**: What is a view?``),
  where two or more items ask, an item of that shape that sets a task without a question
  mark (``**Acme**: Write a query to …``) is a question like them (``shaped``, ``label_task``).
- A sub-list under a question whose every item is a short key and a value wholly in inline
  code (``- Table: `orders```, ``- Columns: `id (integer), …```) is what the question gives:
  its hint, never its answer (``given``).
- An item that names a problem and ends there (``我们来一道有意思的编程题：``,
  ``一道概率题（没答好）``, ``A coding problem:``) over a code block nested right under it
  is a question: the code sets the problem, and it and what follows are the answer
  (``sets_problem``).
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.draft import Draft
from studybot.bank.importer.markers import asks, items, reads_as_question

# "**Acme**: …": a bold label, its colon, then the item's own words
_BOLD_LABEL = re.compile(
    r"^\s*(?:\*\*|__)(?P<label>[^*_\n]{1,40})(?:\*\*|__)\s*[:：]\s*(?P<rest>\S.*)$"
)
# "Table: `orders`", "- **Columns**: `id (integer), name (string)`": data the question gives
# "…编程题：", "…概率题（答的并不好）", "A coding problem:": it names a problem and stops there
_PROBLEM = re.compile(
    r"(?:题|\b(?:problem|exercise|puzzle))\s*[:：]?\s*(?:[（(][^）)\n]*[）)])?\s*[:：]?$", re.I
)
_GIVEN = re.compile(r"^\s*(?:\*\*)?[A-Za-z][\w ]{0,24}(?:\*\*)?\s*:\s*(?:`[^`\n]+`[\s,;]*)+$")


def _rest(raw_line: str) -> str | None:
    """The words after a bold label that asks nothing (``**Acme**: …``), else None."""
    found = _BOLD_LABEL.match(raw_line)
    if found is None or reads_as_question(plain(found["label"])):
        return None
    return plain(found["rest"]).strip()


def shaped(block: Block) -> bool:
    """Two or more of the list's items are a bold label over words that ask (``…?``)."""
    firsts = [item.first_paragraph() for item in items(block)]
    rests = [_rest(p.raw.split("\n")[0]) for p in firsts if p is not None]
    return sum(1 for rest in rests if rest is not None and asks(rest)) >= 2


def label_task(raw_line: str) -> bool:
    """``**Acme**: Write a query to …``: a label that asks nothing over a task that asks."""
    rest = _rest(raw_line)
    return rest is not None and reads_as_question(rest)


def sets_problem(text: str, rest: list[Block]) -> bool:
    """``text``, an item's words, names a problem that the code block right under it sets."""
    return bool(rest) and rest[0].kind == "fence" and bool(_PROBLEM.search(text.strip()))


def given(block: Block, lines: list[str]) -> str | None:
    """The data a question's sub-list ``block`` gives (its ``lines``), one item a line, else None."""
    if not block.is_list or not lines or not all(_GIVEN.match(line) for line in lines):
        return None
    return "\n".join(plain(line).strip() for line in lines)


def give(draft: Draft, block: Block, lines: list[str]) -> bool:
    """``draft``'s hint gains the data its sub-list ``block`` gives; False when it gives none."""
    data = given(block, lines)
    if data is not None:
        draft.hint = "\n".join(filter(None, [draft.hint, data]))
    return data is not None
