"""The canonical bank format: the types, the folder reader and the bank-wide rules.

A bank is a folder with ``bank.toml`` and one TOML file per chapter
(docs/bank-format.md). Reading names ``file:line`` for each problem: banks are
hand-written. Which bank a name means, and which rules it follows, is
``studybot.bank``'s job (the catalogue); the importer builds on this module only.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studybot.bank.rubric import PointRubric, parse_rubric
from studybot.bank.sources import Source, check_rule, parse_sources
from studybot.errors import BadInput, BankError, quoted

SHIPPED = "default"
TABLES = ("rubric", "sources")  # the [[questions.…]] tables under a question
QUESTION_KEYS = {"id", "question", "key_points", "tags", "hint", "reference", "label", *TABLES}
# (fewest, most) key points per question. The shipped bank is the answer key
# users study from; an imported bank is the user's own list and may have none
# (a live model answers it then).
SHIPPED_KEY_POINTS = (3, 7)
IMPORTED_KEY_POINTS = (0, 7)


@dataclass(frozen=True)
class Question:
    id: int
    chapter: int
    question: str
    key_points: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    hint: str | None = None
    reference: str | None = None  # an imported bank's reference answer, Markdown, kept whole
    label: str | None = None  # the source's own number when it differs from id, e.g. "4.1"
    rubric: tuple[PointRubric, ...] = ()  # one per key point, or none (graded by a term estimate)
    sources: tuple[Source, ...] = ()  # where the points come from (bank.sources)


@dataclass(frozen=True)
class Chapter:
    number: int
    title: str
    first: int  # first question id
    last: int  # last question id, inclusive


@dataclass(frozen=True)
class Bank:
    name: str  # "default" for the shipped bank, else the imported name or a path
    title: str
    language: str
    chapters: tuple[Chapter, ...]
    questions: tuple[Question, ...]

    @property
    def first(self) -> int:
        return self.questions[0].id

    @property
    def last(self) -> int:
        return self.questions[-1].id

    def get(self, question_id: int) -> Question:
        for question in self.questions:
            if question.id == question_id:
                return question
        raise BadInput(
            f"question {question_id} is not in bank {self.name!r}",
            hint=f"this bank has questions {self.first}–{self.last}",
        )

    def chapter(self, number: int) -> Chapter | None:
        return next((c for c in self.chapters if c.number == number), None)

    def select(self, first: int, last: int) -> tuple[Question, ...]:
        """Questions first..last inclusive, or BadInput naming what is wrong."""
        if first > last:
            raise BadInput(
                f"--from {first} is after --to {last}",
                hint=f"swap them: --from {last} --to {first}",
            )
        if first < self.first or last > self.last:
            raise BadInput(
                f"range {first}–{last} is outside bank {self.name!r} ({self.first}–{self.last})",
                hint="see `studybot bank list` for the numbers",
            )
        return tuple(q for q in self.questions if first <= q.id <= last)


def load_folder(folder: Path, name: str, key_points: tuple[int, int] = SHIPPED_KEY_POINTS) -> Bank:
    problems: list[str] = []
    index_path = folder / "bank.toml"
    parsed = _parse(index_path, problems)
    if parsed is None:
        raise BankError(problems, hint="fix the file and run `studybot bank validate`")
    index, index_lines = parsed
    chapters = _chapters(index_path, index, index_lines, problems)
    questions: list[Question] = []
    for chapter, file_name in chapters:
        questions.extend(_chapter_questions(folder / file_name, chapter, key_points, problems))
    questions.sort(key=lambda q: q.id)
    problems.extend(check_questions(questions))
    problems.extend(check_rule(index_path, index.get("sources"), questions))
    if not questions and not problems:
        problems.append(f"{index_path}: the bank has no questions")
    if problems:
        raise BankError(problems, hint="run `studybot bank validate` to see every problem")
    return Bank(
        name=name,
        title=str(index.get("title", name)),
        language=str(index.get("language", "zh-CN")),
        chapters=tuple(c for c, _ in chapters),
        questions=tuple(questions),
    )


def check_questions(
    questions: Sequence[Question], places: Sequence[str] | None = None
) -> list[str]:
    """Bank-wide rules: ids unique and contiguous from the first, no duplicate texts.

    Each problem starts ``Q<id>: ``, or ``<place>: Q<id>: `` when the caller
    says where each question came from (``places[i]``, e.g. ``file:line``).
    """
    problems: list[str] = []
    texts: dict[str, int] = {}
    seen_at: dict[int, str] = {}  # id -> where it was first used
    expected = questions[0].id if questions else 1
    for index, question in enumerate(questions):
        place = places[index] if places is not None else None
        at = f"{place}: Q{question.id}" if place else f"Q{question.id}"
        if question.id in seen_at:
            problems.append(
                f"{at}: number {question.id} is used twice (also {seen_at[question.id]})"
            )
        elif question.id > expected:
            gap = f"{expected}" if question.id == expected + 1 else f"{expected}–{question.id - 1}"
            problems.append(
                f"{at}: expected question {expected} here (ids must be contiguous; {gap} missing)"
            )
        elif question.id < expected:
            problems.append(f"{at}: expected question {expected} here (out of order)")
        seen_at.setdefault(question.id, f"at {place}" if place else "earlier")
        expected = max(expected, question.id + 1)
        key = normalise(question.question)
        if key in texts:
            problems.append(f"{at}: same question as Q{texts[key]}")
        elif key:
            texts[key] = question.id
    return problems


# \w is a letter, a number or "_": what is left of a text once punctuation and spaces go
_NOT_LETTER_OR_NUMBER = re.compile(r"[\W_]+")


def normalise(text: str) -> str:
    """Text with case, spaces and punctuation removed, for duplicate checks."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _NOT_LETTER_OR_NUMBER.sub("", folded)


LONG_NUMBER = re.compile(r"\d{4300}")


def _parse(path: Path, problems: list[str]) -> tuple[dict[str, Any], list[str]] | None:
    """The TOML data of ``path`` and its lines (for line numbers), read once."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        problems.append(f"{path}: file not found")
        return None
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(f"{path}: cannot read ({exc})")
        return None
    import tomllib  # a cached bank needs no TOML reader

    try:
        return tomllib.loads(text), text.splitlines()
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        where = f"{path}:{match.group(1)}" if match else str(path)
        reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        problems.append(f"{where}: TOML syntax error: {reason}")
        return None
    except ValueError:  # tomllib turns digits into an int: Python refuses over 4,300 of them
        line = next((n for n, t in enumerate(text.splitlines(), 1) if LONG_NUMBER.search(t)), 0)
        problems.append(f"{path}:{line}: a number too long to read (over 4,300 digits)")
        return None
    except RecursionError:
        problems.append(f"{path}: arrays or tables nested too deeply to read")
        return None


def _chapters(
    path: Path, index: dict[str, Any], text_lines: list[str], problems: list[str]
) -> list[tuple[Chapter, str]]:
    lines = _table_lines(text_lines, "chapters")
    raw = index.get("chapters")
    if not isinstance(raw, list) or not raw:
        problems.append(f"{path}:1: no [[chapters]] tables")
        return []
    chapters: list[tuple[Chapter, str]] = []
    for position, entry in enumerate(raw):
        where = f"{path}:{lines[position] if position < len(lines) else 1}"
        try:
            chapter = Chapter(
                number=_int(entry, "number"),
                title=_text(entry, "title"),
                first=_int(entry, "first"),
                last=_int(entry, "last"),
            )
            file_name = _text(entry, "file")
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
            continue
        if chapter.number != position + 1:
            problems.append(f"{where}: chapter {chapter.number} should be numbered {position + 1}")
        if chapter.first > chapter.last:
            problems.append(
                f"{where}: chapter {chapter.number} has first {chapter.first} > last {chapter.last}"
            )
        if chapters and chapter.first != chapters[-1][0].last + 1:
            problems.append(
                f"{where}: chapter {chapter.number} starts at {chapter.first}, "
                f"expected {chapters[-1][0].last + 1}"
            )
        chapters.append((chapter, file_name))
    return chapters


def _chapter_questions(
    path: Path, chapter: Chapter, key_points: tuple[int, int], problems: list[str]
) -> list[Question]:
    parsed = _parse(path, problems)
    if parsed is None:
        return []
    data, text_lines = parsed
    if data.get("chapter") != chapter.number:
        problems.append(
            f"{path}:1: chapter = {data.get('chapter')!r}, bank.toml says {chapter.number}"
        )
    raw = data.get("questions")
    if not isinstance(raw, list) or not raw:
        problems.append(f"{path}:1: no [[questions]] tables")
        return []
    headers = _table_lines(text_lines, "questions")
    questions: list[Question] = []
    previous = chapter.first - 1
    for position, entry in enumerate(raw):
        start = headers[position] if position < len(headers) else 1
        end = headers[position + 1] if position + 1 < len(headers) else len(text_lines) + 1

        def where(key: str | None = None, start: int = start, end: int = end) -> str:
            return f"{path}:{_key_line(text_lines, start, end, key)}"

        question = parse_question(entry, chapter, where, problems, key_points)
        if question is None:
            continue
        if not chapter.first <= question.id <= chapter.last:
            problems.append(
                f"{where('id')}: Q{question.id} is outside chapter {chapter.number} "
                f"({chapter.first}–{chapter.last})"
            )
        elif question.id <= previous:
            problems.append(f"{where('id')}: Q{question.id} is out of order (after Q{previous})")
        previous = max(previous, question.id)
        questions.append(question)
    ids = {q.id for q in questions}
    missing = [n for n in range(chapter.first, chapter.last + 1) if n not in ids]
    if missing:
        shown = ", ".join(map(str, missing[:5])) + (" …" if len(missing) > 5 else "")
        problems.append(f"{path}:1: chapter {chapter.number} is missing question(s) {shown}")
    return questions


def parse_question(
    entry: Any,
    chapter: Chapter,
    where: Callable[..., str],
    problems: list[str],
    key_points: tuple[int, int] = SHIPPED_KEY_POINTS,
) -> Question | None:
    """One ``[[questions]]`` table, or an imported record, as a Question.

    ``where(key)`` names the place of ``key`` (``file:line``). Problems are
    appended to ``problems``; None means the entry cannot be used.
    """
    if not isinstance(entry, dict):
        problems.append(f"{where()}: a question must be a table")
        return None
    for key in sorted(set(entry) - QUESTION_KEYS):
        problems.append(
            f"{where(key)}: unknown key {key!r} (known: {', '.join(sorted(QUESTION_KEYS))})"
        )
    try:
        question_id = _int(entry, "id")
    except ValueError as exc:
        problems.append(f"{where('id')}: {exc}")
        return None
    before = len(problems)
    text = entry.get("question")
    if not isinstance(text, str) or not text.strip():
        problems.append(f"{where('question')}: Q{question_id} has no question text")
    fewest, most = key_points
    points = entry.get("key_points", [] if fewest == 0 else None)
    if not isinstance(points, list) or not all(isinstance(p, str) and p.strip() for p in points):
        problems.append(
            f"{where('key_points')}: Q{question_id} key_points must be a list of non-empty strings"
        )
        points = []
    elif not fewest <= len(points) <= most:
        need = f"{fewest}–{most}" if fewest else f"at most {most}"
        problems.append(
            f"{where('key_points')}: Q{question_id} has {len(points)} key points (need {need})"
        )
    tags = entry.get("tags", [])
    if not isinstance(tags, list) or not all(
        isinstance(t, str) and t == t.strip().lower() and t for t in tags
    ):
        problems.append(f"{where('tags')}: Q{question_id} tags must be a list of lowercase words")
        tags = []
    optional: dict[str, str | None] = {}
    for key in ("hint", "reference", "label"):
        value = entry.get(key)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            problems.append(f"{where(key)}: Q{question_id} {key} must be non-empty text")
        optional[key] = value.strip() if isinstance(value, str) and value.strip() else None
    rubric = parse_rubric(entry.get("rubric"), len(points), question_id, where, problems)
    if len(problems) > before:
        return None
    sources = parse_sources(entry.get("sources"), len(points), question_id, where, problems)
    return Question(
        id=question_id,
        chapter=chapter.number,
        question=str(text).strip(),  # text checked above
        key_points=tuple(p.strip() for p in points),
        tags=tuple(tags),
        rubric=rubric,
        sources=sources,
        **optional,
    )


def _table_lines(lines: Sequence[str], name: str) -> list[int]:
    """1-based line numbers of each ``[[name]]`` header, in order."""
    pattern = re.compile(rf"^\s*\[\[\s*{re.escape(name)}\s*\]\]")
    return [n for n, line in enumerate(lines, start=1) if pattern.match(line)]


def _key_line(lines: Sequence[str], start: int, end: int, key: str | None) -> int:
    if key is not None and key.split()[0] in TABLES:
        # "rubric" is the first [[questions.rubric]] table, "rubric 3" the third.
        table, wanted = key.split()[0], int(key.split()[1]) if " " in key else 1
        header = re.compile(rf"^\s*\[\[\s*questions\s*\.\s*{table}\s*\]\]")
        seen = 0
        for number in range(start, min(end, len(lines) + 1)):
            if header.match(lines[number - 1]):
                seen += 1
                if seen == wanted:
                    return number
        return start
    if key is not None:
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
        for number in range(start, min(end, len(lines) + 1)):
            if pattern.match(lines[number - 1]):
                return number
    return start


def _int(entry: dict[str, Any], key: str) -> int:
    value = entry.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{key} must be an integer, got {quoted(value)}")
    if not -(2**63) <= value < 2**63:  # what SQLite stores; a longer one cannot even be printed
        raise ValueError(f"{key} must fit in 64 bits, got a {value.bit_length():,}-bit number")
    return value


def _text(entry: dict[str, Any], key: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{key} must be non-empty text, got {quoted(value)}")
    return value
