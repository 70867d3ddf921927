"""Which columns of a table fit the terminal: the least needed go first, never a cut header.

``show``, ``sessions``, ``progress`` and ``due`` drop columns the same way
(``--json`` keeps them all): a column is as wide as its widest cell or its
heading, a column that shrinks (a title, a question) counts only the cells
it keeps, and each column has two cells of padding. Piped (stdout is no
terminal), a table has room for every column and whole cells unless
``COLUMNS`` says a width (``room``), and its lines end without padding
(``print_table``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

PIPED_CELLS = 10_000  # the width of a table written to a pipe or a file: its full rows


def room(console: Any) -> int:
    """The cells a table may fill: the terminal's (or ``COLUMNS``), else full rows when piped."""
    if console.is_terminal or os.environ.get("COLUMNS", "").isdigit():
        return console.width
    return PIPED_CELLS


def print_table(console: Any, table: Any) -> None:
    """``table`` on ``console``; piped, at its full width, each line without trailing spaces."""
    if console.is_terminal:
        console.print(table)
        return
    width = console.width
    try:
        console.width = room(console)
        with console.capture() as captured:
            console.print(table)
    finally:
        console.width = width
    lines = captured.get().splitlines()
    console.file.write("".join(line.rstrip() + "\n" for line in lines))


def fitting(
    headings: Sequence[str],
    widest: Mapping[str, int],
    width: int,
    dropped_first: Sequence[str],
    padding: int = 2,
) -> list[str]:
    """``headings`` less those of ``dropped_first`` (in order) that must go to fit ``width``.

    ``widest``: the cells each column needs (its heading's included).
    """
    kept = list(headings)
    for heading in dropped_first:
        if sum(widest[h] + padding for h in kept) <= width:
            break
        if heading in kept:
            kept.remove(heading)
    return kept


def widest(headings: Sequence[str], rows: Sequence[Sequence[object]], most: Mapping[str, int]):
    """Each column's widest cell (or heading), in terminal cells, capped at ``most``."""
    from rich.cells import cell_len

    def cells(cell: object) -> int:
        return cell_len(cell.plain if hasattr(cell, "plain") else str(cell))

    return {
        h: min(max([cell_len(h), *(cells(row[i]) for row in rows)]), most.get(h, 10**6))
        for i, h in enumerate(headings)
    }


def cut(text: str, cells: int) -> str:
    """``text`` in at most ``cells`` terminal cells: whole when it fits, else cut at a word
    boundary (by cells within a long word) with "…" right after the last character kept."""
    from rich.cells import cell_len, chop_cells

    from studybot.cli.wrap import break_offsets

    if cell_len(text) <= cells:
        return text
    room = max(1, cells - 1)  # the ellipsis takes a cell
    offsets = break_offsets(text, room)
    head = text[: offsets[0]] if offsets else text
    if cell_len(head.rstrip()) < room // 2:  # a long word after a short one: cut it instead
        head = chop_cells(text, room)[0]
    return head.rstrip(" ,，;；:：·/-–—") + "…"


class Cut:
    """A table cell on one line, cut (``cut``) to the cells the table gives it."""

    def __init__(self, text: str, style: str = "") -> None:
        self.plain = text
        self.style = style

    def __rich_measure__(self, console, options):
        from rich.text import Text

        return Text(self.plain, no_wrap=True).__rich_measure__(console, options)

    def __rich_console__(self, console, options):
        from rich.text import Text

        yield Text(cut(self.plain, options.max_width), style=self.style, no_wrap=True)


def aligned(rows: Sequence[Sequence[str]], right: Sequence[int] = (), gap: str = "  ") -> list[str]:
    """Rows of cells as lines whose columns line up by display width (a CJK character takes
    two cells); the columns numbered in ``right`` are right-aligned. No trailing spaces."""
    from rich.cells import cell_len

    widths = [max(cell_len(row[i]) for row in rows) for i in range(len(rows[0]))] if rows else []

    def padded(i: int, cell: str) -> str:
        room = " " * (widths[i] - cell_len(cell))
        return room + cell if i in right else cell + room

    return [gap.join(padded(i, cell) for i, cell in enumerate(row)).rstrip() for row in rows]
