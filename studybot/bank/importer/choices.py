"""A quiz record's options: ``{"q": …, "options": [...], "answer": 1, "explain": …}``.

A table holds them a column each (``option_a``…``option_d``, ``A``…``D``,
``选项A``…, ``选项1``…; ``option_columns``), read as the record's options
(empty cells left out) and never as its answer; a numbered option's answer
(``2``) counts from 1. Several letters (``AC``, ``A,C``) pick several options.

A record's ``answers`` list beside a key that picks one of them
(``correct_answer: 1``, ``correct_option``) holds its options too.

The options stay with the question, lettered (a learner needs them to
answer); the answer names one of them (its index from 0, its letter, or its
text; a list of them for several), and the reference answer is that option's
text, the record's explanation (``explain``, ``explanation``, ``解析``) after
it. An index equal to the number of options counts from 1. An answer that
names no option is kept as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from studybot.bank.importer.keys import value

OPTION_KEYS = ("options", "choices", "opt", "opts", "选项")
EXPLAIN_KEYS = ("explain", "explanation", "explanations", "rationale", "sol", "解析", "解释")
_STEMS = ("text", "stem")  # a quiz's question beside its "title" (a short label)
_LETTERS = "ABCDEFGHIJ"
# a key that picks one of a record's "answers" (``correct_answer: 1``): those are its options
_PICKED_KEYS = ("correct_answer", "correct_answers", "correct_option", "correct_index")
_SEVERAL = re.compile(r"[A-J](?:[\s,，、;；/]*[A-J])+")


# an option's column: "option_a", "Choice B", "选项C", "选项 1", or a bare letter "A"
_COLUMN = re.compile(
    r"(?P<prefix>(?:option|choice|opt|选项|選項|선택지|보기)?)[\s_\-]*(?P<mark>[A-Ja-j]|[1-9])",
    re.IGNORECASE,
)


def option_columns(keys: Iterable[Any]) -> list[str]:
    """The keys that hold a quiz record's options a column each, in order (two or more with
    one prefix, lettered from A or numbered from 1; three or more bare letters), else []."""
    found: dict[str, list[tuple[str, str]]] = {}
    for key in keys:
        column = _COLUMN.fullmatch(str(key).strip())
        if column and (column["prefix"] or not column["mark"].isdigit()):
            found.setdefault(column["prefix"].lower(), []).append((str(key), column["mark"]))
    for prefix, columns in found.items():
        marks = "".join(mark.upper() for _, mark in columns)
        wanted = ("123456789" if marks[0].isdigit() else _LETTERS)[: len(marks)]
        if marks == wanted and len(marks) >= (2 if prefix else 3):
            return [key for key, _ in columns]
    return []


def options_of(item: dict[str, Any]) -> list[str] | None:
    """The record's options as texts (a list, an object ``{"A": …}``, or a column each),
    else None."""
    columns = option_columns(item)
    if columns:
        texts = [str(item[c]).strip() for c in columns if str(item[c] or "").strip()]
        return texts if len(texts) >= 2 else None
    found = next((item[k] for k in item if str(k).lower() in OPTION_KEYS), None)
    if found is None and any(str(k).lower() in _PICKED_KEYS for k in item):  # "answers": [...]
        found = next((item[k] for k in item if str(k).lower() == "answers"), None)
    if isinstance(found, dict):
        found = list(found.values())
    if not isinstance(found, list) or not 2 <= len(found) <= len(_LETTERS):
        return None
    if not all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in found):
        return None
    return [str(v).strip() for v in found]


def quiz(
    item: dict[str, Any], question: str, answer_keys: tuple[str, ...]
) -> tuple[str, str | None] | None:
    """(the question with its options, the reference answer) of a quiz record whose answer
    is under one of ``answer_keys`` (an explanation key is never the answer), else None."""
    options = options_of(item)
    if options is None:
        return None
    keys = [key for key in answer_keys if key.lower() not in EXPLAIN_KEYS]
    answer = next((found for key in keys if (found := value(item, key)) is not None), None)
    shown = question + "".join(f"\n- {_LETTERS[k]}. {option}" for k, option in enumerate(options))
    if isinstance(answer, str) and _SEVERAL.fullmatch(answer.strip()):
        answer = [letter for letter in answer.upper() if letter in _LETTERS]  # "AC", "A, C"
    if isinstance(answer, str) and answer.strip().isdigit() and _numbered(item):
        answer = int(answer) - 1  # "选项1"…: "2" is the second option
    picked = [_pick(options, one) for one in (answer if isinstance(answer, list) else [answer])]
    explain = next((item[k] for k in item if str(k).lower() in EXPLAIN_KEYS), None)
    if picked and all(k is not None for k in picked):
        chosen = "\n".join(options[k] for k in picked if k is not None)
    else:
        chosen = "" if answer is None else str(answer).strip()
    if isinstance(explain, list):  # "sol: [- first point, - second]"
        explain = "\n".join(str(part).strip() for part in explain if part is not None)
    parts = [chosen, str(explain).strip() if isinstance(explain, (str, int, float)) else ""]
    return shown, "\n\n".join(part for part in parts if part) or None


def stem_keys(keys: list[str], forced: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """For quiz records ``{title, text, opt, ans}``: question ← the stem (``text``), hint ←
    the title, unless ``--map`` names the question; else none."""
    folded = {key.strip().lower(): key for key in keys}
    stem = next((folded[k] for k in _STEMS if k in folded), None)
    if stem is None or any(field == "question" for field, _ in forced):
        return ()
    if not any(k in folded for k in OPTION_KEYS) or "title" not in folded:
        return ()
    hint = () if any(field == "hint" for field, _ in forced) else (("hint", folded["title"]),)
    return (("question", stem), *hint)


def _numbered(item: dict[str, Any]) -> bool:
    columns = option_columns(item)
    return bool(columns) and columns[0].strip()[-1:] == "1"


def _pick(options: list[str], answer: Any) -> int | None:
    """Which option ``answer`` names: an index (from 0), a letter, or the option's text."""
    if isinstance(answer, str):
        text = answer.strip().rstrip(".:：、)）")
        if text.isdigit():
            answer = int(text)
        elif len(text) == 1 and text.upper() in _LETTERS[: len(options)]:
            return _LETTERS.index(text.upper())
        else:
            return options.index(answer.strip()) if answer.strip() in options else None
    if isinstance(answer, bool) or not isinstance(answer, int):
        return None
    if 0 <= answer < len(options):
        return answer
    return answer - 1 if answer == len(options) else None
