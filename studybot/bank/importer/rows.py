"""Tabular and JSON question files: CSV/TSV rows, JSON lists (nested too), JSONL lines.

Which key holds the question, the answer, the chapter, … is chosen once per
file by ``importer.keys`` (the usual names in Chinese and English, names in
other words read by their words, or ``--map``), printed, and every key left
out is named. A flashcard export (``importer.flashcards``) is a table whose
header lines name its columns; a table whose first row is a card has no header
(``importer.headerless``).
JSON holds its records at any depth (``importer.jsondoc``). Each record is placed at its line, found
in one pass over the text (``importer.jsonplaces``). A value Python cannot hold
(a lone surrogate, an id of thousands of digits) is a ``file:line`` problem.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from studybot.bank.importer import (
    choices,
    flashcards,
    headerless,
    htmltext,
    jsondoc,
    jsonlists,
    linecards,
    rubrics,
)
from studybot.bank.importer import keys as fields
from studybot.bank.importer.draft import Draft, Options, Parsed, Skipped, mend_surrogates, strings
from studybot.bank.importer.jsonplaces import lines as record_lines
from studybot.bank.importer.markers import PARAGRAPH_NUMBER, reads_as_question
from studybot.bank.importer.metadata import tag_word
from studybot.bank.importer.notes import without_note
from studybot.bank.importer.source import BigNumber, loads

MAX_ID = 2**63 - 1  # SQLite's largest integer
_SCALARS = (str, int, float, type(None))
_TOO_DEEP = "JSON nested too deeply to be a question list"
_TAG_SPLIT = re.compile(r"[,，|；;]")
_AS_HTML = "<br> and <div> are line breaks, &nbsp; a space"
# a row with nothing but "注：答案仅供参考" in it: a note on the table, not a question
_NOTE_ROW = re.compile(r"^\s*(?:注|备注|说明|声明|ps|p\.s\.|note|notes|nb)\s*[:：]", re.IGNORECASE)
# a lone surrogate comes only from a "\ud800" escape: records are searched only if there is one
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def read_csv(path: Path, text: str, options: Options) -> Parsed:
    return flashcards.topics(_table(path, text, ",", options))


def read_tsv(path: Path, text: str, options: Options) -> Parsed:
    """A ``front; back`` deck (``linecards``) too: a plain-text deck is read as a TSV is."""
    separator = flashcards.line_separator(text) if flashcards.header(text) is None else None
    if separator is not None:
        return flashcards.topics(linecards.read(path, text, separator, options))
    return flashcards.topics(_table(path, text, "\t", options))


def _table(path: Path, text: str, delimiter: str, options: Options) -> Parsed:
    out = Parsed()
    export = flashcards.header(text)
    skipped = 0  # the lines of a flashcard export's header
    if export is not None:
        delimiter = export.delimiter or delimiter
        for _ in range(export.lines):
            text = text.partition("\n")[2]
        skipped = export.lines
    titled = flashcards.title(text) if export is None else None  # "# My deck" over the cards
    if titled is not None and delimiter not in text.partition("\n")[0]:
        text, skipped = text.partition("\n")[2], 1
        out.notes.append(f"line 1 is the deck's title ({titled}): the chapter of every card")
    first = text.partition("\n")[0]
    if export is None and delimiter == "," and "," not in first:
        delimiter = next((d for d in ("\t", ";") if d in first), delimiter)
    # strict: a stray quote is an error here, not a cell that swallows the rest of the file
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    start = 1  # the line the record being read starts on
    try:
        header = next(reader, None)
        if header is None:
            out.fatal.append(f"{path}:{1 + skipped}: the file is empty")
            return out
        names = [name.strip().lstrip("\ufeff") for name in header]
        mapping = _choose(names, options.mapping)
        if export is None and "question" not in mapping.keys and sum(map(bool, names)) == 1:
            below = headerless.ahead(text, delimiter)[
                :1
            ]  # "大模型面试题整理;;;;" over the header: a title
            if below and "question" in fields.choose(below[0], options.mapping).keys:
                out.notes.append(
                    f"row 1 is a title ({' '.join(names).strip()}): the header is row 2"
                )
                header = next(reader)
                names = [name.strip() for name in header]
                mapping = _choose(names, options.mapping)
        rows: Iterator[list[str]] = reader
        said = ""  # how a headerless table's columns were read
        if export is not None:
            names = export.names(len(header))
            mapping = fields.choose(names, (*export.mapping(names), *options.mapping))
            out.notes.append("a flashcard export: its columns are named by its header lines")
            rows = itertools.chain([header], reader)
        elif "question" not in mapping.keys:
            below = headerless.ahead(text, delimiter)
            if not headerless.first_row_is_card(names, below):
                found = ", ".join(n for n in names if n) or "nothing"
                out.fatal.append(
                    f"{path}:1: no question column in the header "
                    f"(need question, 题目 or 问题; found {found})"
                )
                out.suggestions.append(fields.suggest_map(names))
                return out
            names, mapping, said = headerless.columns(header, below)  # the first row a card
            rows = headerless.rows(itertools.chain([header], reader), names)
        else:
            start = reader.line_num + 1
        if said:
            out.notes.append(said)
        else:
            _note_mapping(out, mapping, bool(export is None and choices.option_columns(names)))
        html = export is None and htmltext.written_as_html(text[:1_000_000])
        as_html = 0  # the rows with a cell read as HTML: the others are text
        for row in rows:
            where, start = f"{path}:{start + skipped}", reader.line_num + 1
            if not any(cell.strip() for cell in row):
                continue
            record = {name: row[i] if i < len(row) else "" for i, name in enumerate(names)}
            if export is not None:
                record = _note(record, export, mapping)
            elif html and (marked := {n for n, c in record.items() if htmltext.holds_markup(c)}):
                as_html += 1
                record = {n: flashcards.text_of(c) if n in marked else c for n, c in record.items()}
            draft = _draft(record, mapping, where, mend=False)  # UTF-8 text has no surrogates
            if sum(1 for cell in row if cell.strip()) == 1 and _NOTE_ROW.match(draft.question):
                out.skipped.append(Skipped(where, draft.question, "a note below the table", False))
                continue
            if export is not None and export.deck and not draft.chapter:
                draft.chapter = flashcards.deck(export.deck)  # "#deck:…": every note's deck
            draft.chapter = draft.chapter or titled
            out.add(draft)
        if as_html:
            out.notes.append(f"cells read as HTML in {as_html} row(s): {_AS_HTML}")
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):  # a quote opened and never closed
            limit = csv.field_size_limit()
            out.fatal.append(
                f"{path}:{start + skipped}: a cell longer than {limit:,} characters "
                "(a quote opened there and never closed?)"
            )
            out.suggestions.append(
                f"close the quote, or split the cell: a cell holds at most {limit:,} characters"
            )
        else:
            out.fatal.append(f"{path}:{start + skipped}: unreadable CSV: {exc}")
    return out


def _note(
    record: dict[str, str], export: flashcards.Export, mapping: fields.Mapping
) -> dict[str, str]:
    """A flashcard note's fields as text: HTML read, the deck's last part, tags by commas,
    a cloze's gaps shown and filled in as its answer."""
    roles = {export.names(len(record))[i]: role for i, role in export.roles.items()}
    out = {}
    for name, cell in record.items():
        cell = flashcards.text_of(cell) if export.html else cell
        role = roles.get(name)
        out[name] = flashcards.deck(cell) if role == "deck" else cell
        out[name] = flashcards.tags(cell) if role == "tags" else out[name]
    question = mapping.keys.get("question", ("",))[0]
    answer = mapping.keys.get("answer", ("",))[0]
    gaps = flashcards.cloze(out.get(question, ""), out.get(answer, ""))
    if gaps is not None:
        out[question] = gaps[0]
        out[answer or "answer"] = gaps[1]
    return out


def read_json(path: Path, text: str, options: Options) -> Parsed:
    out = Parsed()
    try:
        data = loads(text)
    except ValueError as exc:  # JSONDecodeError is a ValueError
        line = getattr(exc, "lineno", 1)
        out.fatal.append(f"{path}:{line}: JSON syntax error: {getattr(exc, 'msg', exc)}")
        return out
    except RecursionError:
        out.fatal.append(f"{path}:1: {_TOO_DEEP}")
        return out
    mend = bool(_ESCAPED_SURROGATE.search(text))
    return read_document(out, path, data, lambda paths: record_lines(text, paths), options, mend)


def read_document(
    out: Parsed,
    path: Path,
    data: Any,
    lines: Callable[[list[tuple[Any, ...]]], list[int]],
    options: Options,
    mend: bool = False,
) -> Parsed:
    """The records of a decoded JSON or YAML document; ``lines``: where each record starts."""
    asked = tuple(key for field, key in options.mapping if field == "question")
    try:
        found = jsondoc.locate(data, asked)
        text = jsondoc.text_key(data) if found is None and not asked else None
        if text is not None:  # {"sections": [{"questions": [{"text": …}]}]}: the text asks
            options = replace(options, mapping=(*options.mapping, ("question", text)))
            found = jsondoc.locate(data, (text,))
    except RecursionError:
        out.fatal.append(f"{path}:1: {_TOO_DEEP}")
        return out
    if found is None:
        problem, hints = jsonlists.refusal(f"{path}:1", data)
        out.fatal.append(problem)
        out.suggestions.extend(hints)
        return out
    title, paths, records = found
    out.title = title
    try:
        places: list[int] | None = lines(paths)
    except (RecursionError, ValueError):
        places = None
    if places is not None and len(places) != len(records):
        places = None
    _records(out, path, records, places, options, mend)
    return out


def read_jsonl(path: Path, text: str, options: Options) -> Parsed:
    out = Parsed()
    records: list[tuple[str | None, Any]] = []
    places: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = loads(line)
        except ValueError as exc:
            out.problems.append(f"{path}:{number}: JSON syntax error: {getattr(exc, 'msg', exc)}")
            continue
        except RecursionError:
            out.problems.append(f"{path}:{number}: {_TOO_DEEP}")
            continue
        records.append((None, item))
        places.append(number)
        if len(records) > out.limit:
            break  # _records refuses the file at the first record past the limit
    _records(out, path, records, places, options, bool(_ESCAPED_SURROGATE.search(text)))
    return out


def _records(
    out: Parsed,
    path: Path,
    records: list[tuple[str | None, Any]],
    places: list[int] | None,
    options: Options,
    mend: bool,
) -> None:
    dicts = [item for _, item in records if isinstance(item, dict)]
    mapping = _choose([str(k) for item in dicts for k in item], options.mapping)
    mapping = rubrics.without_scores(mapping, dicts)  # "points": 8 is a score, no key points
    if dicts and "question" not in mapping.keys and not mapping.chat:
        where = f"{path}:{places[0] if places else 1}"
        keys = list(dict.fromkeys(str(k) for item in dicts for k in item))
        out.fatal.append(f"{where}: no key holds the questions (keys: {', '.join(keys)})")
        out.suggestions.append(fields.suggest_map(keys, dicts))
        return
    if dicts:
        rubric = rubrics.rubric_keys(dicts, mapping.keys.get("key_points", ()))
        _note_mapping(out, mapping, any(choices.options_of(item) for item in dicts), rubric)
        if rubric:
            out.notes.append(f"key points ← the criteria of {', '.join(map(repr, rubric))}")
    for index, (chapter, item) in enumerate(records):
        where = f"{path}:{places[index]}" if places else f"{path}:item {index + 1}"
        draft = _draft(item, mapping, where, mend)
        draft.chapter = draft.chapter or chapter
        own = PARAGRAPH_NUMBER.match(draft.question)  # "3. What is …?" as record 3: its number
        if own and own.group("n") == str(index + 1):
            draft.question = own.group("text")
        out.add(draft)


def _choose(keys: list[str], forced: tuple[tuple[str, str], ...]) -> fields.Mapping:
    """The mapping for ``keys``, a quiz's option columns (``option_a``, ``A``…) left out:
    they are its options (``choices``), never its answer."""
    columns = set(choices.option_columns(dict.fromkeys(keys)))
    forced = forced + choices.stem_keys(keys, forced)  # {title, text, opt}: the stem asks
    return fields.choose([key for key in keys if key not in columns], forced)


def _note_mapping(
    out: Parsed, mapping: fields.Mapping, quiz: bool = False, rubric: tuple[str, ...] = ()
) -> None:
    out.notes.append(f"read {mapping.line()}")
    read = (choices.OPTION_KEYS + choices.EXPLAIN_KEYS if quiz else ()) + rubric
    if quiz:
        out.notes.append("options shown under each question; the answer is the chosen option")
    tagged = [k for k in mapping.unused if fields.describing(k)]  # "company": tags
    unused = [k for k in mapping.unused if not fields.describing(k) and k.lower() not in read]
    if tagged:
        out.notes.append(f"as tags: {', '.join(repr(k) for k in tagged)}")
    if unused:
        out.notes.append(f"not used: {', '.join(repr(k) for k in unused)}")


# -- one record ------------------------------------------------------------------------


def _draft(item: Any, mapping: fields.Mapping, where: str, mend: bool = True) -> Draft:
    if isinstance(item, list) and 1 <= len(item) <= 2 and all(isinstance(v, str) for v in item):
        item = {"question": item[0], "answer": item[1] if len(item) > 1 else None}
        mapping = fields.choose(item)
    if isinstance(item, str):
        draft = Draft(where, item)
        mend_surrogates(draft, [item])
        return draft
    if not isinstance(item, dict):
        return Draft(where, "", problem=f"{where}: expected a question text or an object")
    record = {field: mapping.get(item, field) for field in mapping.keys}
    if mapping.chat:
        turns = fields.chat_turns(item)
        if turns:
            record["question"], record["answer"] = turns
    if mapping.with_input and isinstance(item.get("input"), str) and item["input"].strip():
        task, given = str(record.get("question") or ""), item["input"].strip()
        # "Answer the following interview question." over "What is X?": the input asks
        plain_task = not reads_as_question(task) and reads_as_question(given)
        record["question"] = given if plain_task else f"{task}\n\n{given}"
    answer = record.get("answer")
    if isinstance(answer, list) and answer and all(isinstance(v, _SCALARS) for v in answer):
        record["answer"] = fields.listed_answer(answer)
    if record.get("question") is None:
        found = ", ".join(map(str, item)) or "nothing"
        return Draft(where, "", problem=f"{where}: no question in this record (found {found})")
    draft = Draft(where, "")
    wrong = [
        f for f in ("question", "id", "chapter", "hint", "answer") if not _scalar_ok(record, f)
    ]
    wrong += [f for f in ("key_points", "tags") if not _text_or_texts(record.get(f))]
    if wrong:
        kinds = ", ".join(f"{f} is {type(record[f]).__name__}" for f in wrong)
        need = "text or a list of texts" if wrong[0] in ("key_points", "tags") else "text"
        draft.problem = f"{where}: {wrong[0]} must be {need} ({kinds})"
        for f in wrong:
            record[f] = None
    draft.question = without_note(_scalar(record.get("question")).strip())
    draft.label = _label(record.get("id"), draft, where)
    draft.chapter = _scalar(record.get("chapter")).strip() or None
    draft.key_points = fields.split_points(record.get("key_points")) or rubrics.criteria(item)
    draft.hint = _scalar(record.get("hint")).strip() or None
    draft.reference = _scalar(record.get("answer")).strip() or None
    if asked := choices.quiz(item, draft.question, mapping.keys.get("answer", ())):
        draft.question, draft.reference = asked  # "options" and "answer": 1, the option's text
    tags = record.get("tags") or []
    tags = tags if isinstance(tags, list) else _TAG_SPLIT.split(str(tags))
    tags = [*tags, *fields.named_by(record.get("id")), *fields.record_tags(item)]
    draft.tags = [tag_word(str(t)) for t in tags if str(t).strip()]
    if mend:
        mend_surrogates(draft, strings(item))
    return draft


def _label(raw: Any, draft: Draft, where: str) -> str | None:
    text = _scalar(raw).strip().lstrip("Qq#")
    if not text:
        return None
    if len(text) <= 19 and text.isdigit() and 0 < int(text) <= MAX_ID:
        return str(int(text))
    shown = f"{text[:12]}… ({len(text):,} digits)" if len(text) > 24 else repr(raw)
    kind = "number" if isinstance(raw, (int, BigNumber)) else "text"
    if kind == "text" and not text.isdigit():  # "ml_fund_001", "q-017": a name, kept as a tag
        return None
    draft.problem = draft.problem or (
        f"{where}: id must be a whole number from 1 to {MAX_ID}, got {kind} {shown}"
    )
    return None


def _scalar_ok(record: dict[str, Any], field: str) -> bool:
    return isinstance(record.get(field), _SCALARS)


def _text_or_texts(value: Any) -> bool:
    if isinstance(value, list):
        return all(isinstance(v, _SCALARS) for v in value)
    return isinstance(value, _SCALARS)


def _scalar(value: Any) -> str:
    return "" if value is None else str(value)
