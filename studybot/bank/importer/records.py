"""Tabular and JSON question files: CSV/TSV rows, JSON lists, JSONL lines.

CSV/TSV need a header naming a question column (question/题目/问题) and may
have id/编号, chapter/章节, key_points/要点 (one per line, or split by ``|``
or ``；``), hint/提示, tags/标签 and a reference answer (reference/answer/参考答案). JSON holds a list of objects with the
same keys, or of strings, or an object with a ``questions`` list (and an
optional ``title``); JSONL holds one object or string per line.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

from studybot.bank.importer.draft import Draft, Parsed

FIELDS = {
    "question": "question",
    "questions": "question",
    "题目": "question",
    "问题": "question",
    "id": "id",
    "no": "id",
    "number": "id",
    "编号": "id",
    "题号": "id",
    "序号": "id",
    "chapter": "chapter",
    "章节": "chapter",
    "章": "chapter",
    "key_points": "key_points",
    "keypoints": "key_points",
    "key points": "key_points",
    "要点": "key_points",
    "hint": "hint",
    "提示": "hint",
    "tags": "tags",
    "标签": "tags",
    "reference": "reference",
    "answer": "reference",
    "答案": "reference",
    "参考答案": "reference",
}
TEXT_FIELDS = ("question", "id", "chapter", "hint", "reference")
LIST_FIELDS = ("key_points", "tags")
MAX_ID = 2**63 - 1  # SQLite's largest integer
_SCALARS = (str, int, float, type(None))
_TOO_DEEP = "JSON nested too deeply to be a question list"


def _table(path: Path, text: str, delimiter: str) -> Parsed:
    out = Parsed()
    first = text.partition("\n")[0]
    if delimiter == "," and "," not in first:
        delimiter = next((d for d in ("\t", ";") if d in first), delimiter)
    # strict: a stray quote is an error here, not a cell that swallows the rest of the file
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    start = 1  # the line the record being read starts on
    try:
        header = next(reader, None)
        if header is None:
            out.problems.append(f"{path}:1: the file is empty")
            return out
        columns = {index: field_name(name) for index, name in enumerate(header)}
        if "question" not in columns.values():
            found = ", ".join(name.strip() for name in header if name.strip()) or "nothing"
            out.problems.append(
                f"{path}:1: no question column in the header "
                f"(need question, 题目 or 问题; found {found})"
            )
            return out
        start = reader.line_num + 1
        for row in reader:
            where, start = f"{path}:{start}", reader.line_num + 1
            if not any(cell.strip() for cell in row):
                continue
            record = {name: row[i] if i < len(row) else "" for i, name in columns.items() if name}
            out.drafts.append(_draft(record, where))
    except csv.Error as exc:
        out.problems.append(f"{path}:{start}: unreadable CSV: {exc}")
    return out


def read_csv(path: Path, text: str) -> Parsed:
    return _table(path, text, ",")


def read_tsv(path: Path, text: str) -> Parsed:
    return _table(path, text, "\t")


def read_json(path: Path, text: str) -> Parsed:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return Parsed(problems=[f"{path}:{exc.lineno}: JSON syntax error: {exc.msg}"])
    except RecursionError:
        return Parsed(problems=[f"{path}:1: {_TOO_DEEP}"])
    out = Parsed()
    items = data
    if isinstance(data, dict):
        items = data.get("questions")
        title = data.get("title")
        out.title = title.strip() if isinstance(title, str) and title.strip() else None
    if not isinstance(items, list):
        out.problems.append(
            f'{path}:1: expected a list of questions, or an object with a "questions" list'
        )
        return out
    try:
        lines = _item_lines(text, len(items))
    except RecursionError:
        lines = None
    for index, item in enumerate(items):
        where = f"{path}:{lines[index]}" if lines else f"{path}:item {index + 1}"
        out.drafts.append(_draft(item, where))
    return out


def read_jsonl(path: Path, text: str) -> Parsed:
    out = Parsed()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            out.problems.append(f"{path}:{number}: JSON syntax error: {exc.msg}")
            continue
        except RecursionError:
            out.problems.append(f"{path}:{number}: {_TOO_DEEP}")
            continue
        out.drafts.append(_draft(item, f"{path}:{number}"))
    return out


def _item_lines(text: str, count: int) -> list[int] | None:
    """The line each item of the question list starts on; None if it cannot tell."""
    decoder = json.JSONDecoder()
    at = _skip(text, 0)
    if text.startswith("{", at):
        at = _skip(text, at + 1)
        while at < len(text) and text[at] == '"':
            key, at = decoder.raw_decode(text, at)
            at = _skip(text, _skip(text, at) + 1)  # past ":"
            if key == "questions":
                break
            _, at = decoder.raw_decode(text, at)
            at = _skip(text, at)
            at = _skip(text, at + 1) if text.startswith(",", at) else at
        else:
            return None
    if not text.startswith("[", at):
        return None
    lines: list[int] = []
    at = _skip(text, at + 1)
    while len(lines) < count and at < len(text) and text[at] != "]":
        lines.append(text.count("\n", 0, at) + 1)
        _, at = decoder.raw_decode(text, at)
        at = _skip(text, at)
        at = _skip(text, at + 1) if text.startswith(",", at) else at
    return lines if len(lines) == count else None


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def _draft(item: Any, where: str) -> Draft:
    if isinstance(item, str):
        return Draft(where, item)
    if not isinstance(item, dict):
        return Draft(where, "", problem=f"{where}: expected a question text or an object")
    record = {field_name(str(key)): value for key, value in item.items()}
    record.pop(None, None)
    if "question" not in record:
        found = ", ".join(map(str, item)) or "nothing"
        return Draft(where, "", problem=f"{where}: no question field (found {found})")
    wrong = [key for key in TEXT_FIELDS if not isinstance(record.get(key, ""), _SCALARS)]
    wrong += [key for key in LIST_FIELDS if not _text_or_texts(record.get(key))]
    if wrong:
        kinds = ", ".join(f"{key} is {type(record[key]).__name__}" for key in wrong)
        need = "text" if wrong[0] in TEXT_FIELDS else "text or a list of texts"
        return Draft(where, "", problem=f"{where}: {wrong[0]} must be {need} ({kinds})")
    draft = Draft(where, _scalar(record["question"]))
    raw_id = _scalar(record.get("id")).strip().lstrip("Qq")
    if raw_id.isdigit() and 0 < int(raw_id) <= MAX_ID:
        draft.label = str(int(raw_id))
    elif raw_id:
        draft.problem = (
            f"{where}: id must be a whole number from 1 to {MAX_ID}, got {record['id']!r}"
        )
    draft.chapter = _scalar(record.get("chapter")).strip() or None
    draft.key_points = _split_points(record.get("key_points"))
    draft.hint = _scalar(record.get("hint")).strip() or None
    draft.reference = _scalar(record.get("reference")).strip() or None
    tags = record.get("tags") or []
    tags = tags if isinstance(tags, list) else re.split(r"[,，|；;]", str(tags))
    draft.tags = [re.sub(r"\s+", "-", str(t).strip().lower()) for t in tags if str(t).strip()]
    return draft


def _text_or_texts(value: Any) -> bool:
    if isinstance(value, list):
        return all(isinstance(v, _SCALARS) for v in value)
    return isinstance(value, _SCALARS)


def field_name(name: str) -> str | None:
    return FIELDS.get(name.strip().lstrip("\ufeff").strip().lower())


def _scalar(value: Any) -> str:
    return "" if value is None else str(value)


def _split_points(value: Any) -> list[str]:
    if isinstance(value, list):
        parts = [_scalar(v) for v in value]
    else:
        text = _scalar(value)
        separator = next((s for s in ("\n", "|", "；") if s in text), None)
        parts = text.split(separator) if separator else [text]
    points = [
        re.sub(r"^\s*(?:[-*+•]|\d+\s*(?:[、．)）]|\.(?!\d)))\s*", "", p).strip() for p in parts
    ]
    return [p for p in points if p]
