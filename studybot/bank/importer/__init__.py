"""Reading a user's own question list into a Bank: Markdown, notebooks, CSV/TSV, JSON, JSONL.

Each reader (``markdown``, ``records``) turns its file into ``Draft``
questions that remember their place, plus the question-like lines it did
not take; the shared step here numbers them (``numbering``), groups them
into chapters and validates them with the canonical format's own rules
(``bankformat.parse_question``, ``check_questions``), except that key
points are optional. Hints in brackets (``（提示：…）``, ``(hint: …)``) are
taken out of the question text. Every problem names ``file:line``
(``file:cell N, line M`` in a notebook) and the first is raised as a
BankError (exit 2) with the count of the others. This package builds on
``bankformat`` only; the catalogue (``studybot.bank``) sits above it.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studybot.bank.format import (
    IMPORTED_KEY_POINTS,
    Bank,
    Chapter,
    Question,
    check_questions,
    parse_question,
)
from studybot.bank.importer import markdown, records
from studybot.bank.importer import numbering as numbers
from studybot.bank.importer.draft import (
    CHAPTER,
    CJK,
    Draft,
    Parsed,
    Skipped,
    chapter_number,
    strip_emphasis,
)
from studybot.errors import BankError

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
}

_HINT = re.compile(r"[（(【\[]\s*(?:提示|hint)\s*[:：]\s*(?P<text>.*?)\s*[）)】\]]", re.IGNORECASE)
_CN_DIGITS = "零一二三四五六七八九"

LOOKED_FOR = {
    "markdown": "numbered questions such as `1. …`, `Q1：…` or `### 1. …`",
    "notebook": "Markdown cells with numbered questions such as `1. …` or `Q1：…`",
    "csv": "rows under the header",
    "tsv": "rows under the header",
    "json": "a list of questions",
    "jsonl": "one question per line",
}

READERS: dict[str, Callable[[Path, str], Parsed]] = {
    "markdown": markdown.read_markdown,
    "notebook": markdown.read_notebook,
    "csv": records.read_csv,
    "tsv": records.read_tsv,
    "json": records.read_json,
    "jsonl": records.read_jsonl,
}


MAX_BYTES = 20 * 1024 * 1024  # a bank file bigger than this is not a question list
MAX_QUESTIONS = 20_000


@dataclass(frozen=True)
class Import:
    """What reading a file gave: the bank, the lines not taken, and how it was numbered."""

    source: str  # the file read
    bank: Bank
    skipped: tuple[Skipped, ...]  # question-like lines that were not taken, with why
    numbering: tuple[str, ...]  # notes when the source's numbers could not be kept

    @property
    def lost(self) -> tuple[Skipped, ...]:
        """The skipped lines that may be questions (a table of contents is not)."""
        return tuple(s for s in self.skipped if s.counts)

    @property
    def refused(self) -> bool:
        """Too many question-like lines were not taken to import without --force."""
        return len(self.lost) > max(2, len(self.bank.questions) // 10)


def read(path: Path | str, name: str | None = None) -> Bank:
    """A user's question file as a validated Bank, or BankError naming file:line."""
    return inspect(path, name).bank


def inspect(path: Path | str, name: str | None = None) -> Import:
    """Read ``path`` and report what was taken, what was not, and how it was numbered."""
    path = Path(path)
    text = _text(path)
    kind = kind_of(path, text)
    parsed = READERS[kind](path, text)
    if not parsed.drafts and not parsed.problems:
        parsed.problems.append(f"{path}:1: no questions found (looked for {LOOKED_FOR[kind]})")
    if len(parsed.drafts) > MAX_QUESTIONS:
        raise BankError(
            [f"{path}: {len(parsed.drafts):,} questions; a bank holds at most {MAX_QUESTIONS:,}"],
            hint="split the file and import each part under its own --name",
        )
    loaded, numbering = _bank(path, parsed, name or str(path))
    return Import(str(path), loaded, tuple(parsed.skipped), tuple(numbering))


def preview_data(report: Import) -> dict[str, Any]:
    """What ``bank import --preview`` shows (and prints with --json): stable keys."""
    loaded = report.bank

    def brief(question: Question) -> dict[str, Any]:
        return {"id": question.id, "label": question.label, "question": question.question}

    chapters = []
    for chapter in loaded.chapters:
        members = [q for q in loaded.questions if q.chapter == chapter.number]
        chapters.append(
            {
                "number": chapter.number,
                "title": chapter.title,
                "questions": len(members),
                "first": brief(members[0]),
                "last": brief(members[-1]),
            }
        )
    return {
        "file": report.source,
        "title": loaded.title,
        "chapters": chapters,
        "numbering": list(report.numbering),
        "not_taken": [
            {"where": s.where, "text": s.text, "why": s.why, "counts": s.counts}
            for s in report.skipped
        ],
        "totals": {
            "questions": len(loaded.questions),
            "chapters": len(loaded.chapters),
            "with_reference": sum(1 for q in loaded.questions if q.reference),
            "with_key_points": sum(1 for q in loaded.questions if q.key_points),
            "not_taken": len(report.lost),
        },
        "refused": report.refused,
    }


def kind_of(path: Path, text: str) -> str:
    """The reader for ``path``: by extension, else by a look at the content."""
    kind = KINDS.get(path.suffix.lower())
    if kind:
        return kind
    head = text.lstrip()
    if head.startswith("{"):
        return "notebook" if '"cells"' in head and '"cell_type"' in head else "json"
    if head.startswith("["):
        return "json"
    first = head.splitlines()[0] if head else ""
    if any(records.field_name(cell) == "question" for cell in first.split("\t")):
        return "tsv"
    if any(records.field_name(cell) == "question" for cell in first.split(",")):
        return "csv"
    return "markdown"


def _text(path: Path) -> str:
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise BankError(
                [f"{path}: {size / 2**20:.1f} MB; a question file may be at most 20 MB"],
                hint="split the file and import each part under its own --name",
            )
        data = path.read_bytes()
    except OSError as exc:
        raise BankError([f"{path}: cannot read ({exc.strerror or exc})"]) from None
    # UTF-8 text has no NUL bytes; UTF-16 has one in every ASCII character (a newline too)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data[:4096]:
        raise BankError(
            [f"{path}:1: the file is UTF-16 text, not UTF-8"],
            hint="save it as UTF-8 (Notepad: Save as → UTF-8; or iconv -f UTF-16 -t UTF-8)",
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise BankError(
            [f"{path}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x})"],
            hint="save the file as UTF-8 (Excel: “CSV UTF-8”; or iconv -f GBK -t UTF-8)",
        ) from None


def _bank(path: Path, parsed: Parsed, name: str) -> tuple[Bank, list[str]]:
    problems = list(parsed.problems)
    problems += [d.problem for d in parsed.drafts if d.problem]
    drafts = [d for d in parsed.drafts if not d.problem]
    for draft in drafts:
        _take_hint(draft)
    title = parsed.title or path.stem
    numbering = numbers.number(drafts)
    groups = _chapters(drafts, problems)
    chapters: list[Chapter] = []
    questions: list[Question] = []
    for number, (heading, members) in enumerate(groups, start=1):
        chapter = Chapter(
            number, _chapter_title(heading, number, title), members[0].id, members[-1].id
        )
        chapters.append(chapter)
        for draft in members:
            entry = {"id": draft.id, "question": draft.question, "key_points": draft.key_points}
            for key in ("tags", "hint", "reference", "label"):
                if getattr(draft, key):
                    entry[key] = getattr(draft, key)
            question = parse_question(
                entry, chapter, _at(draft.where), problems, IMPORTED_KEY_POINTS
            )
            if question is not None:
                questions.append(question)
    probes = [Question(d.id or 0, 0, d.question) for d in drafts]
    problems += check_questions(probes, [d.where for d in drafts])
    if problems:
        hint = f"see every problem with: studybot bank validate {shlex.quote(str(path))}"
        raise BankError(_in_file_order(path, problems), hint=hint)
    language = "zh-CN" if any(CJK.search(q.question) for q in questions) else "en"
    return Bank(name, title, language, tuple(chapters), tuple(questions)), numbering


def _in_file_order(path: Path, problems: list[str]) -> list[str]:
    """Problems sorted by their place in the file, so the first one reported is the first met."""
    prefix = str(path)

    def place(problem: str) -> tuple[int, int]:
        rest = problem[len(prefix) :] if problem.startswith(prefix) else ""
        match = re.match(r":(?:cell (\d+), line |item )?(\d+)", rest)
        return (int(match[1] or 0), int(match[2])) if match else (0, 0)

    return sorted(problems, key=place)


def _at(place: str) -> Callable[..., str]:
    """A ``where(key)`` for bank.parse_question: every field of a record is at its line."""
    return lambda key=None: place


def _take_hint(draft: Draft) -> None:
    """Move ``（提示：…）`` out of the question text; unwrap a hint written that way."""
    text = strip_emphasis(draft.question)
    match = _HINT.search(text)
    if match:
        draft.hint = draft.hint or match["text"].strip() or None
        text = (text[: match.start()] + text[match.end() :]).strip()
    draft.question = text
    wrapped = _HINT.fullmatch(draft.hint.strip()) if draft.hint else None
    if wrapped:
        draft.hint = wrapped["text"].strip() or None


def _chapters(drafts: list[Draft], problems: list[str]) -> list[tuple[str | None, list[Draft]]]:
    """Drafts grouped by chapter in file order; a chapter must be one run of rows."""
    groups: list[tuple[str | None, list[Draft]]] = []
    keys: list[tuple[int, str | None]] = []
    for draft in drafts:
        key = (draft.section, draft.chapter)
        if keys and keys[-1] == key:
            groups[-1][1].append(draft)
        elif key in keys:
            problems.append(
                f"{draft.where}: chapter {draft.chapter!r} appears again after "
                f"{keys[-1][1]!r} (keep a chapter's questions together)"
            )
        else:
            keys.append(key)
            groups.append((draft.chapter, [draft]))
    return groups


def _chapter_title(heading: str | None, number: int, bank_title: str) -> str:
    """``第3章 注意力`` as chapter 3 is titled ``注意力``; a bare number becomes ``第 N 章``.

    The part's own number is dropped only when it is the chapter's number, so
    a file that starts at ``第9章`` still shows the user its 9.
    """
    if not heading:
        return bank_title
    if heading.isdigit():
        return f"第 {heading} 章"
    match = CHAPTER.match(heading) or _NUMBERED_TITLE.match(heading)
    rest = heading[match.end() :].strip() if match else ""
    if match and rest and _chinese_number(chapter_number(match)) == number:
        return rest
    return heading


_NUMBERED_TITLE = re.compile(r"^(?P<n>\d+)\s*(?:[、．:：]|\.(?!\d))\s*")


def _chinese_number(text: str) -> int | None:
    """1–99 written as digits or as 一…九十九."""
    if text.isdigit():
        return int(text)
    tens, ten, ones = text.partition("十")
    if not ten:
        return _CN_DIGITS.index(text) if len(text) == 1 and text in _CN_DIGITS else None
    if len(tens) > 1 or len(ones) > 1 or not set(tens + ones) <= set(_CN_DIGITS):
        return None
    return (_CN_DIGITS.index(tens) if tens else 1) * 10 + (_CN_DIGITS.index(ones) if ones else 0)
