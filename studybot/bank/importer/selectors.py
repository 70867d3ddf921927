"""``--questions WHAT`` and ``--answers WHAT``: the user says where a file's questions sit.

The default reader decides by its rules what asks; a selector takes what
it names and nothing else:

- ``headings:N``: every heading of level N (``### …`` is 3);
- ``items``: every list item, at any depth; ``items:N``: the items of one
  depth (1 is a top-level list);
- ``bold``: every line (or list item) that starts in bold, the bold text
  the question and the rest of the line the start of its answer;
- ``lines``: every line that asks (a question mark, a question word, a
  task verb: the importer's own test);
- ``table:COLUMN``: the cells of that column (its name, or its number from
  1) in each table that has it;
- ``details``: the ``<summary>`` of every ``<details>``, its body the answer;
- ``cells``: each Markdown cell of a notebook, and each code cell whose first line is a
  comment that asks (``# Q1. …``), its first line the question and the rest, with the code
  cells after it, the answer.

The answer is what follows a question up to the next one (or a heading of
its level or above; a table row's answer is the rest of its row); with
``--answers none`` questions have none. Headings that are not questions
are chapters, except those inside a ``<details>`` answer box: they are
lines of that answer and end none. Lines that ask and are not taken are
listed with their line.
"""

from __future__ import annotations

import bisect
import re
import shlex
import textwrap
from dataclasses import dataclass
from pathlib import Path

from studybot.bank.importer import keys
from studybot.bank.importer.blocks import plain
from studybot.bank.importer.collapsible import template
from studybot.bank.importer.draft import Draft, Parsed, Skipped
from studybot.bank.importer.htmllists import residue
from studybot.bank.importer.layout import Layout, Line, layout, row_cells, table_header
from studybot.bank.importer.markers import clean, numbered, reads_as_question
from studybot.bank.importer.notebook import commented_question
from studybot.bank.importer.ratings import rating_columns
from studybot.bank.importer.source import loads
from studybot.errors import BadInput

CHOICES = "headings:N, items, items:N, bold, lines, table:COLUMN, details, cells"
_FORMS = re.compile(
    r"^(?:(?P<leveled>headings|items)(?::(?P<n>\d+))?|(?P<plain>bold|lines|details|cells)"
    r"|table:(?P<column>.+))$"
)
_SUMMARY = re.compile(r"<summary\b[^>]*>(?P<text>.*?)(?:</summary>|$)", re.IGNORECASE)
_DETAILS_TAG = re.compile(r"^\s*</?details\b[^>]*>\s*$", re.IGNORECASE)
_RULE = re.compile(r"^\s*(?:[-*_]\s*){3,}$")


@dataclass(frozen=True)
class Selector:
    """Where the questions of a file sit: ``headings:2``, ``items``, ``table:问题`` …"""

    what: str  # headings, items, bold, lines, table, details, cells
    number: int | None = None  # a heading level or a list depth
    column: str | None = None  # table:COLUMN

    def __str__(self) -> str:
        if self.what == "table":
            return f"table:{self.column}"
        return f"{self.what}:{self.number}" if self.number else self.what


def selector(text: str) -> Selector:
    """``--questions WHAT`` read, or BadInput naming the choices."""
    found = _FORMS.match(text.strip())
    if found is None:
        raise BadInput(
            f"--questions {text!r}: not a place questions can sit",
            hint=f"give one of {CHOICES} (for example --questions headings:3 or "
            "--questions items); see studybot bank import --help",
        )
    if found["leveled"]:
        number = int(found["n"]) if found["n"] else None
        if found["leveled"] == "headings" and number is None:
            raise BadInput(
                f"--questions {text!r}: say which heading level (1–6)",
                hint="for example --questions headings:3 for '### …' headings",
            )
        if number is not None and not 1 <= number <= (6 if found["leveled"] == "headings" else 16):
            raise BadInput(
                f"--questions {text!r}: no such {'heading level' if found['leveled'] == 'headings' else 'list depth'}",
                hint="headings go from 1 (#) to 6 (######); list depths from 1 (a top-level list)",
            )
        return Selector(found["leveled"], number)
    if found["plain"]:
        return Selector(found["plain"])
    return Selector("table", column=found["column"].strip())


def candidates(out: Layout) -> list[Selector]:
    """The selectors that have something to take in this file: the preview tries each."""
    found = out.found
    levels = sorted({h.level for h in found if out.section_heading(h)})
    tried = [Selector("headings", level) for level in levels]
    depths = sorted({line.level for line in found if line.kind == "item"})
    if depths:
        tried.append(Selector("items"))
        tried += [Selector("items", depth) for depth in depths] if len(depths) > 1 else []
    if any(line.bold for line in found if line.kind in ("paragraph", "item")):
        tried.append(Selector("bold"))
    if any(line.kind == "html" and "<summary" in line.raw.lower() for line in found):
        tried.append(Selector("details"))
    columns: dict[str, None] = {}  # the columns with a cell that asks, in the order met
    for line in found:
        if line.kind == "table" and line.asks:
            header = table_header(out, line)
            for name, cell in zip(header, row_cells(line), strict=False):
                if name and reads_as_question(plain(cell).strip()):
                    columns.setdefault(name, None)
    tried += [Selector("table", column=name) for name in columns]
    if out.notebook:
        tried.append(Selector("cells"))
    tried.append(Selector("lines"))
    return tried


def answers(text: str | None) -> bool:
    """``--answers``: True for what follows each question (the default), False for ``none``."""
    if text is None or text.strip() in ("follow", "next"):
        return True
    if text.strip() == "none":
        return False
    raise BadInput(
        f"--answers {text!r}: not a way to find answers",
        hint="leave it out (the answer is what follows each question) or give --answers none",
    )


def read(path: Path, text: str, kind: str, chosen: Selector, with_answers: bool = True) -> Parsed:
    """The questions ``chosen`` takes from a Markdown file or notebook, with their answers."""
    if kind not in ("markdown", "notebook"):
        raise BadInput(
            f"{path}: --questions reads Markdown files and notebooks, not {kind.upper()}",
            hint="for records name the columns or keys: --map question=KEY,answer=KEY",
        )
    if chosen.what == "cells":
        if kind != "notebook":
            raise BadInput(
                f"{path}: --questions cells reads a Jupyter notebook (.ipynb)",
                hint="for Markdown try --questions headings:N, items or lines",
            )
        return _cells(path, text, with_answers)
    read_out = layout(path, text, kind)
    if isinstance(read_out, Parsed):
        return read_out
    parsed = take(read_out, chosen, with_answers)
    if not parsed.drafts:
        raise BadInput(f"{path}: --questions {chosen} finds nothing: {_has(read_out, chosen)}",
                       hint=f"preview the file without --questions to see what it holds: "
                       f"studybot bank import {shlex.quote(str(path))} --preview")  # fmt: skip
    return parsed


def _has(out: Layout, chosen: Selector) -> str:
    """What the file has of the kind ``chosen`` looks for."""
    found = out.found
    if chosen.what == "headings":
        levels = sorted({line.level for line in found if line.kind == "heading"})
        return (
            f"its headings are of level {', '.join(map(str, levels))}" if levels else "no headings"
        )
    if chosen.what == "items":
        depths = sorted({line.level for line in found if line.kind == "item"})
        return f"its lists go {max(depths)} deep" if depths else "no lists"
    if chosen.what == "table":
        headers = {tuple(table_header(out, line)) for line in found if line.kind == "table"}
        named = "; ".join(" | ".join(header) for header in sorted(headers))
        return f"no table has that column (columns: {named})" if headers else "no tables"
    return {"bold": "no line starts in bold", "details": "no <details> with a <summary>",
            "lines": "no line asks"}.get(chosen.what, "nothing of that kind")  # fmt: skip


def take(out: Layout, chosen: Selector, with_answers: bool = True) -> Parsed:
    """Questions from a file's layout: the lines ``chosen`` names, answers up to the next."""
    picked = [(line, question) for line in out.found if (question := _question(out, line, chosen))]
    parsed = Parsed(title=out.title)
    taken = {line.index for line, _ in picked}  # a heading inside an answer box: its text
    headings = [h for h in out.found if out.section_heading(h)]
    sections = [h for h in headings if h.index not in taken]
    if chosen.what == "headings":
        sections = [h for h in sections if h.level < (chosen.number or 7)]
    ones = [h for h in sections if h.level == 1]
    if len(ones) == 1 and (not picked or ones[0].index < picked[0][0].index):
        parsed.title = parsed.title or ones[0].text
        sections.remove(ones[0])
    chapter_level = min(
        (lvl for lvl in {h.level for h in sections} if sum(h.level == lvl for h in sections) > 1),
        default=None,
    )
    chapters = [h for h in sections if h.level == chapter_level]
    chapter_at = [h.index for h in chapters]
    ends = _Ends(headings, [line for line in out.found if line.kind == "item"])
    rated = _rated(out) if chosen.what == "table" else {}
    covered: list[tuple[int, int, int]] = []  # (question line, first answer line, stop)
    for number, (line, question) in enumerate(picked):
        following = picked[number + 1][0].index if number + 1 < len(picked) else len(out.lines)
        stop = _stop(out, ends, line, following, chosen)
        covered.append((line.index, line.index + 1, stop))
        draft = Draft(out.where(line.index), question)
        label, body = numbered(question)
        if label and body:
            draft.label, draft.question = label, body
        draft.question = clean(draft.question) or draft.question
        before = bisect.bisect_left(chapter_at, line.index)
        draft.chapter = chapters[before - 1].text if before else None
        if with_answers:
            draft.reference = _answer(out, line, chosen, stop, rated) or None
        parsed.add(draft)
    _not_taken(out, taken, covered, chosen, parsed)
    parsed.notes.append(
        f"read with --questions {chosen}{'' if with_answers else ', --answers none'}"
    )
    return parsed


def _question(out: Layout, line: Line, chosen: Selector) -> str:
    what = chosen.what
    if what == "headings":
        return line.text if line.kind == "heading" and line.level == chosen.number else ""
    if what == "items":
        wanted = line.kind == "item" and (chosen.number is None or line.level == chosen.number)
        return line.text if wanted else ""
    if what == "bold":
        bold = line.bold if line.kind in ("paragraph", "item") else None
        return plain(bold["text"]).strip() if bold else ""
    if what == "lines":
        return line.text if line.kind != "table" and line.asks else ""
    if what == "details":
        found = _SUMMARY.search(line.raw) if line.kind == "html" else None
        summary = plain(found["text"]).strip() if found else ""
        return "" if template(summary) else summary  # "<summary>title</summary>" to copy
    if what == "table" and line.kind == "table":
        column = _column(table_header(out, line), chosen.column or "")
        row = row_cells(line)
        return plain(row[column]).strip() if column is not None and column < len(row) else ""
    return ""


def _column(header: list[str], wanted: str) -> int | None:
    folded = [cell.casefold() for cell in header]
    if wanted.casefold() in folded:
        return folded.index(wanted.casefold())
    if wanted.isdigit() and 1 <= int(wanted) <= len(header):
        return int(wanted) - 1
    return None


class _Ends:
    """The lines that end an answer: headings, and list items (for a question that is one)."""

    def __init__(self, headings: list[Line], items: list[Line]) -> None:
        self.headings, self.heading_at = headings, [h.index for h in headings]
        self.items, self.item_at = items, [i.index for i in items]

    def first(self, lines: list[Line], at: list[int], after: int, before: int, level: int) -> int:
        """The first of ``lines`` after ``after`` and before ``before`` at ``level`` or above."""
        for next_at in range(bisect.bisect_right(at, after), len(lines)):
            line = lines[next_at]
            if line.index >= before:
                break
            if line.level <= level:
                return line.index
        return before


def _stop(out: Layout, ends: _Ends, line: Line, following: int, chosen: Selector) -> int:
    """Where the answer to ``line`` ends: the next question, a heading at its level or above,
    or (for a list item) the next item at its depth or above."""
    if line.kind == "table":
        return line.index + 1
    if chosen.what == "details":
        for index in range(line.index + 1, following):
            if out.lines[index].strip().lower().startswith("</details"):
                return index
    bound = chosen.number if chosen.what == "headings" and chosen.number else 7
    stop = ends.first(ends.headings, ends.heading_at, line.index, following, bound)
    if line.kind == "item":
        stop = ends.first(ends.items, ends.item_at, line.index, stop, line.level)
    return stop


def _rated(out: Layout) -> dict[int, set[int]]:
    """Each table's columns of self-rating marks (``ratings``), by its header's line."""
    rows: dict[int, list[Line]] = {}
    for line in out.found:
        if line.kind == "table":
            rows.setdefault(line.level, []).append(line)
    return {
        at: rating_columns(table_header(out, found[0]), [row_cells(row) for row in found])
        for at, found in rows.items()
    }


def _answer(
    out: Layout, line: Line, chosen: Selector, stop: int, rated: dict[int, set[int]]
) -> str:
    if line.kind == "table":
        header, row = table_header(out, line), row_cells(line)
        row = ["" if n in rated.get(line.level, ()) else cell for n, cell in enumerate(row)]
        column = _column(header, chosen.column or "")
        mapping = keys.choose(header)
        answer = _column(header, (mapping.keys.get("answer") or ("",))[0])
        if answer is not None and answer != column and answer < len(row):
            return row[answer].replace("<br>", "\n").strip()
        number = _column(header, (mapping.keys.get("id") or ("",))[0])  # "#": a label
        rest = [
            f"{name}: {cell}"
            for n, (name, cell) in enumerate(zip(header, row, strict=False))
            if n not in (column, number)
        ]
        return "\n".join(part for part in rest if part.split(": ", 1)[1].strip())
    head = ""
    if chosen.what == "bold" and line.bold:
        head = line.bold["rest"].strip().lstrip(":：-–— ").strip()
    if chosen.what == "details":
        found = _SUMMARY.search(line.raw)
        head = line.raw[found.end() :].strip() if found else ""
    body = [
        row
        for row in out.lines[line.index + 1 : stop]
        if not _DETAILS_TAG.match(row) and not _RULE.match(row) and not residue(row)
    ]
    text = textwrap.dedent("\n".join(body)).strip()
    return "\n\n".join(part for part in (head, text) if part)


def _not_taken(
    out: Layout,
    taken: set[int],
    covered: list[tuple[int, int, int]],
    chosen: Selector,
    parsed: Parsed,
) -> None:
    """Every line that asks and is neither taken nor inside an answer (where it stays, as
    text; the preview lists those too), with why."""
    starts = [first for _, first, _ in covered]
    for line in out.found:
        if line.index in taken or not line.asks:
            continue
        at = bisect.bisect_right(starts, line.index) - 1
        if at < 0 or line.index >= covered[at][2]:
            why = f"asks; --questions {chosen} does not take it"
            parsed.skipped.append(Skipped(out.where(line.index), line.text, why))


def _cells(path: Path, text: str, with_answers: bool) -> Parsed:
    """Each Markdown cell a question (its first line), the cells up to the next its answer."""
    try:
        data = loads(text)
    except (ValueError, RecursionError) as exc:
        return Parsed(fatal=[f"{path}:1: not a readable notebook: {exc}"])
    cells = data.get("cells") if isinstance(data, dict) else None
    if not isinstance(cells, list):
        return Parsed(fatal=[f'{path}:1: not a Jupyter notebook (no "cells" list)'])
    parsed = Parsed(notes=["read with --questions cells"])
    current: Draft | None = None
    answer: list[str] = []

    def close() -> None:
        if current is not None and with_answers:
            current.reference = "\n\n".join(part for part in answer if part) or None

    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict):
            continue
        body = cell.get("source", "")
        body = "".join(map(str, body)) if isinstance(body, list) else str(body)
        asked = cell.get("cell_type") == "code" and commented_question(body)  # "# Q1. …"
        if (cell.get("cell_type") == "markdown" or asked) and body.strip():
            first, _, rest = body.strip().partition("\n")
            question = clean(plain(first.lstrip("#").strip()))
            if question:
                close()
                current = parsed.add(Draft(f"{path}:cell {number}", question))
                answer = [f"```\n{rest.strip()}\n```" if asked and rest.strip() else rest.strip()]
                continue
        if current is not None and body.strip():
            fenced = cell.get("cell_type") == "code"
            answer.append(f"```\n{body.strip()}\n```" if fenced else body.strip())
    close()
    return parsed
