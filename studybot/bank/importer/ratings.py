"""Columns a reader fills in while studying, never a question's answer.

A checklist table often has a column to rate oneself or tick off
(``| # | 问题 | 掌握程度 | 结合项目 |`` with ``V_`` and ``Y/N`` in every row,
``| Question | Done |`` with ``✓``/``✗`` or nothing): a column whose cells
are all one short mark is such a column, as is one named for a rating
whose cells are all short.
"""

from __future__ import annotations

import re

from studybot.bank.importer.draft import WORD

_SHORT = 4  # "V_", "Y/N", "✓", "[ ]", "V1"; "[链接](a.md)" is longer: a link, an answer
_RATING_NAME = re.compile(
    r"掌握|熟练|自评|自测|打卡|进度|状态|完成|结合项目|rating|confidence|status|progress|done"
    r"|checked|reviewed|mastery",
    re.IGNORECASE,
)


def rating_columns(header: list[str], rows: list[list[str]]) -> set[int]:
    """The columns of a table (its header, its rows' cells as written) that only hold marks."""
    found = set()
    for column, name in enumerate(header):
        marks = [row[column].strip() if column < len(row) else "" for row in rows]  # as written
        filled = [mark for mark in marks if mark]
        if not rows or any(len(mark) > _SHORT for mark in filled):
            continue
        same = len(rows) >= 3 and len(filled) == len(rows) and len(set(filled)) == 1
        signs = not any(WORD.search(mark) for mark in filled)  # "✓", "✗", "-", nothing
        if same or signs or _RATING_NAME.search(name):
            found.add(column)
    return found
