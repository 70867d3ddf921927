"""Reading a user's own question list into a Bank: Markdown, notebooks, CSV/TSV, JSON, JSONL.

The file is read safely (``source``: a regular file, at most 200 MB, UTF-8),
each reader (``markdown``, ``rows``) turns it into ``Draft`` questions
that remember their place, plus the question-like lines it did not take and
facts about the file (the key mapping used, keys not used); the shared step
(``assemble``) reports repeats and chapters that come back, numbers the
questions (``numbering``), groups them into chapters and validates them
with the canonical format's own rules, except that key points are
optional. A problem names ``file:line`` (``file:cell N, line M`` in a
notebook); problems stop the import unless ``force``. This package builds
on ``bankformat`` only; the catalogue (``studybot.bank``) sits above it.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studybot.bank import bulk
from studybot.bank.format import Bank, Question
from studybot.bank.importer import decks, flashcards, markdown, rows, selectors, source, steer
from studybot.bank.importer.assemble import assemble
from studybot.bank.importer.draft import LimitReached, Options, Parsed, Skipped
from studybot.bank.importer.keys import field_of, parse_map
from studybot.bank.importer.markers import reads_as_question
from studybot.errors import BankError

__all__ = [
    "Import",
    "command",
    "default_name",
    "inspect",
    "kind_of",
    "parse_map",
    "preview_data",
    "read",
    "report_data",
]

KINDS = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "markdown",
    ".ipynb": "notebook",
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".apkg": "apkg",
    ".colpkg": "apkg",
}

LOOKED_FOR = {
    "markdown": "questions: lines, headings or items that ask, `1. …`, `Q1：…`, `### 1. …`",
    "notebook": "Markdown cells with questions: lines that ask, `1. …`, `Q1：…`, `### 1. …`",
    "csv": "rows under the header",
    "tsv": "rows under the header",
    "json": "a list of questions",
    "jsonl": "one question per line",
    "apkg": "notes in the Anki collection",
    "crowdanki": "notes in the CrowdAnki deck",
}

READERS: dict[str, Callable[[Path, str, Options], Parsed]] = {
    "markdown": markdown.read_markdown,
    "notebook": markdown.read_notebook,
    "csv": rows.read_csv,
    "tsv": rows.read_tsv,
    "json": rows.read_json,
    "jsonl": rows.read_jsonl,
    "crowdanki": decks.read_crowdanki,
}
_ASKING_LINE = re.compile(r"[?？]\s*$", re.MULTILINE)
# What a file of each kind needs when none of it was taken.
NOTHING_FOUND = {
    "markdown": "a question is a heading, list item or line that asks (？, 为什么/如何/什么是…, "
    "what/why/how/explain…); with topics as headings, --level N takes each as one",
    "csv": "put one question per row under the header: question,answer (a header alone holds none)",
    "tsv": "put one question per row under the header: question<TAB>answer (a header alone "
    "holds none)",
    "json": 'give a list of questions: [{"question": "…", "answer": "…"}]',
    "jsonl": 'give one question per line: {"question": "…", "answer": "…"}',
}


@dataclass(frozen=True)
class Import:
    """What reading a file gave: the bank, the lines not taken, and what the file does."""

    source: str  # the file read
    bank: Bank
    skipped: tuple[Skipped, ...]  # question-like lines that were not taken, with why
    numbering: tuple[str, ...]  # notes when the source's numbers could not be kept
    notes: tuple[str, ...] = ()  # facts: the key mapping, keys not used, mended bytes
    repeats: tuple[str, ...] = ()  # each question asked again, imported once
    chapters: tuple[str, ...] = ()  # chapters that come back
    forced: tuple[str, ...] = ()  # problems that --force mended or left out
    suggestions: tuple[str, ...] = ()  # the option that would read more of the file
    options: tuple[str, ...] = ()  # the selectors it was read with: ("--questions", "items")
    steer: steer.Steer | None = None  # where questions were found, what was left, a better option

    @property
    def lost(self) -> tuple[Skipped, ...]:
        """The skipped lines that may be questions (a table of contents is not)."""
        return tuple(s for s in self.skipped if s.counts)

    @property
    def refused(self) -> bool:
        """Too many question-like lines were not taken to import without --force."""
        return len(self.lost) > max(2, len(self.bank.questions) // 10)


def read(path: Path | str, name: str | None = None, force: bool = False) -> Bank:
    """A user's question file as a validated Bank, or BankError naming file:line."""
    return inspect(path, name, force=force).bank


def inspect(
    path: Path | str,
    name: str | None = None,
    force: bool = False,
    mapping: tuple[tuple[str, str], ...] = (),
    level: int | None = None,
    questions: str | None = None,
    answers: str | None = None,
    steering: bool = False,
) -> Import:
    """Read ``path`` and report what was taken, what was not, and what the file does.

    ``questions``/``answers`` are the user's selectors (``importer.selectors``);
    with ``steering`` every selector is also tried and measured (``importer.steer``).
    """
    chosen = selectors.selector(questions) if questions is not None else None
    with_answers = selectors.answers(answers)
    with bulk.steady():  # a great many small objects, no cycles
        return _inspect(
            Path(path), name, Options(force, mapping, level), chosen, with_answers, steering
        )


def _inspect(
    path: Path,
    name: str | None,
    options: Options,
    chosen: selectors.Selector | None,
    with_answers: bool,
    steering: bool,
) -> Import:
    force = options.force
    data = source.read_bytes(path)
    text = ""
    mended: list[str] = []  # notes on mended bytes (a deck is read as bytes: none)
    try:
        if KINDS.get(path.suffix.lower()) == "apkg" or data.startswith(b"PK\x03\x04"):
            if chosen is not None:  # a deck's notes are its questions: --map names the field
                selectors.read(path, "", "apkg", chosen)
            kind = "apkg"
            parsed = decks.read_apkg(path, data, options)
        else:
            text, mended = source.decode(path, data, force)
            kind = kind_of(path, text)
            if kind in ("markdown", "notebook"):
                _count_before_parsing(path, text)
            if chosen is not None:
                parsed = selectors.read(path, text, kind, chosen, with_answers)
            else:
                parsed = READERS[kind](path, text, options)
    except LimitReached:
        raise source.too_many(path) from None
    hint = parsed.suggestions[0] if parsed.suggestions else None
    if not parsed.drafts and not parsed.fatal:
        hint = _steer_hint(path, text, kind, parsed) or hint  # the selector that takes most
    if parsed.fatal:
        hint = hint or f"see every problem with: studybot bank validate {shlex.quote(str(path))}"
        raise BankError(parsed.fatal, hint=hint)
    if not parsed.drafts:
        hint = (
            hint
            or _steer_hint(path, text, kind, parsed)
            or NOTHING_FOUND.get(kind, NOTHING_FOUND["markdown"])
        )
        raise BankError(
            [f"{path}:1: no questions found (looked for {LOOKED_FOR[kind]})"], hint=hint
        )
    if not with_answers and chosen is None:
        for draft in parsed.drafts:
            draft.reference, draft.key_points = None, []
    used = _options_used(chosen, with_answers)
    found = steer.analyse(path, text, kind, parsed, " ".join(used)) if steering else None
    done = assemble(path, parsed, name or str(path), force)
    return Import(
        str(path),
        done.bank,
        tuple(parsed.skipped),
        tuple(done.numbering),
        notes=(*mended, *parsed.notes),
        repeats=tuple(done.repeats),
        chapters=tuple(done.chapters),
        forced=tuple(done.forced),
        suggestions=tuple(parsed.suggestions),
        options=used,
        steer=found,
    )


def _steer_hint(path: Path, text: str, kind: str, parsed: Parsed) -> str | None:
    """When nothing was taken: the selector that takes the most of the file, as a hint."""
    found = steer.analyse(path, text, kind, parsed, "")
    better = found.better if found else None
    if better is None:
        return None
    return (
        f"try {better.option}: {better.questions} questions, "
        f"{better.why or f'{better.non_asking} non-asking'} "
        f"(studybot bank import {shlex.quote(str(path))} {better.option} --preview)"
    )


def _options_used(chosen: selectors.Selector | None, with_answers: bool) -> tuple[str, ...]:
    used = ("--questions", str(chosen)) if chosen is not None else ()
    return used + (() if with_answers else ("--answers", "none"))


def _count_before_parsing(path: Path, text: str) -> None:
    """Refuse a Markdown file with more asking lines than a bank holds, before parsing it."""
    for count, _ in enumerate(_ASKING_LINE.finditer(text), start=1):
        if count > source.MAX_QUESTIONS:
            raise source.too_many(path)


def preview_data(report: Import, name: str | None = None) -> dict[str, Any]:
    """What ``bank import --preview`` shows (and prints with --json): stable keys."""
    loaded = report.bank

    def brief(question: Question) -> dict[str, Any]:
        return {"id": question.id, "label": question.label, "question": question.question}

    chapters = []
    members: dict[int, list[Question]] = {}
    for question in loaded.questions:
        members.setdefault(question.chapter, []).append(question)
    for chapter in loaded.chapters:
        own = members.get(chapter.number, [])
        chapters.append(
            {
                "number": chapter.number,
                "title": chapter.title,
                "questions": len(own),
                "first": brief(own[0]),
                "last": brief(own[-1]),
            }
        )
    facts = report_data(report, name)
    return {
        "file": report.source,
        "title": loaded.title,
        "chapters": chapters,
        **{key: facts[key] for key in ("numbering", "notes", "repeats", "chapters_again")},
        "problems": facts["problems"],
        "not_taken": facts["not_taken_lines"],
        "suggestions": facts["suggestions"],
        "totals": {
            "questions": len(loaded.questions),
            "chapters": len(loaded.chapters),
            "with_reference": sum(1 for q in loaded.questions if q.reference),
            "with_key_points": sum(1 for q in loaded.questions if q.key_points),
            "not_taken": len(report.lost) + len(_asking_left(report)),
            "repeats": len(report.repeats),
            "problems": len(report.forced),
        },
        "refused": report.refused,
        **{key: facts[key] for key in ("options", "steer", "command")},
    }


def _asking_left(report: Import) -> list[tuple[str, str]]:
    """The asking lines not taken besides those listed with why: the preview lists both, and
    its Total counts both."""
    listed = {s.where for s in report.lost}
    return [m for m in (report.steer.missed if report.steer else ()) if m[0] not in listed]


def report_data(report: Import, name: str | None = None) -> dict[str, Any]:
    """The facts of a reading that ``--preview --json`` and ``import --json`` both carry."""
    found = report.steer
    return {
        "numbering": list(report.numbering),
        "notes": list(report.notes),
        "repeats": list(report.repeats),
        "chapters_again": list(report.chapters),
        "problems": list(report.forced),
        "not_taken_lines": [
            {"where": s.where, "text": s.text, "why": s.why, "counts": s.counts}
            for s in report.skipped
        ],
        "suggestions": list(report.suggestions),
        "options": list(report.options),
        "steer": None if found is None else _steer_data(found),
        "command": command(report, name),
    }


def _steer_data(found: steer.Steer) -> dict[str, Any]:
    def reading(r: steer.Reading) -> dict[str, Any]:
        return {
            "option": r.option,
            "questions": r.questions,
            "asking": r.asking,
            "non_asking": r.non_asking,
            **({"why": r.why} if r.why else {}),
        }

    return {
        "found_in": dict(found.found_in),
        "asking_lines": found.asking_lines,
        "asking_not_taken": [{"where": where, "text": text} for where, text in found.missed],
        "taken": reading(found.current),
        "readings": [reading(r) for r in found.others],
        "suggestion": reading(found.better) if found.better else None,
    }


def command(report: Import, name: str | None = None) -> str:
    """The command that imports what the preview showed (``--force`` where it would refuse)."""
    name = name or default_name(report.source)
    words = ["studybot", "bank", "import", report.source, "--name", name, *report.options]
    if report.refused:
        words.append("--force")
    return shlex.join(words)


def default_name(path: str) -> str:
    """A bank name made from a file's name, in the letters a name may have: ``LLM 200.md`` → ``LLM-200``."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", Path(path).stem).strip("-")[:64]
    return stem or "imported"


def _cards(text: str) -> bool:
    """Lines of ``question<TAB>answer``: every line (of the first 200) has one tab and
    most of them ask before it."""
    lines = [line for line in text[:262144].splitlines()[:200] if line.strip()]
    if len(lines) < 2 or any(line.count("\t") != 1 for line in lines):
        return False
    asking = sum(1 for line in lines if reads_as_question(line.split("\t")[0]))
    return 3 * asking >= 2 * len(lines)


def kind_of(path: Path, text: str) -> str:
    """The reader for ``path``: by extension, else by a look at the content."""
    if flashcards.header(text) is not None:  # a flashcard export, whatever its extension
        return "csv" if path.suffix.lower() == ".csv" else "tsv"
    kind = KINDS.get(path.suffix.lower())
    if kind == "markdown" and path.suffix.lower() == ".txt" and _cards(text):
        return "tsv"  # Anki's "Cards in Plain Text": question TAB answer, a line each
    if kind == "json" and decks.crowdanki(text):
        return "crowdanki"
    head = text[:65536].lstrip()
    if kind:
        return kind
    if head.startswith("{"):
        if decks.crowdanki(text):
            return "crowdanki"
        if '"cells"' in head and '"cell_type"' in head:
            return "notebook"
        first = head.partition("\n")[0].rstrip()
        return "jsonl" if first.endswith("}") and "\n{" in head else "json"
    if head.startswith("["):
        return "json"
    first = head.splitlines()[0] if head else ""
    if first.startswith("#"):
        return "markdown"  # "# Interview Questions" is a heading, not a header row
    for delimiter, kind in (("\t", "tsv"), (",", "csv")):
        cells = first.split(delimiter)
        named = any(field_of(cell) == "question" for cell in cells)
        if named and (len(cells) > 1 or first.strip().lower() in ("question", "问题", "题目")):
            return kind
    if _cards(text):
        return "tsv"
    return "markdown"
