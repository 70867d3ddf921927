"""Imported banks on disk: written in the canonical TOML format under STUDYBOT_HOME/banks.

A saved bank is ``bank.toml`` plus one ``NN-chapter.toml`` per chapter, the
same format as the shipped bank (docs/bank-format.md), so ``bank.load(name)``
reads it with the one loader; ``bank.save`` decides where and whether. The
TOML is written here by hand (the standard library reads TOML but does not
write it) and read back before it replaces anything, so a saved bank always
loads as it was imported.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from studybot.bank.format import IMPORTED_KEY_POINTS, Bank, Chapter, load_folder
from studybot.errors import StudybotError

_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


def write(loaded: Bank, target: Path, source: str | None = None) -> None:
    """Write ``loaded`` into the folder ``target``, replacing what is there.

    Until the new files have been written and read back, the old bank stays in place.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    name = target.name
    staging = Path(tempfile.mkdtemp(prefix=f".{name}.new-", dir=target.parent))
    try:
        for file_name, text in files(loaded, source).items():
            (staging / file_name).write_text(text, encoding="utf-8")
        again = load_folder(staging, name, key_points=IMPORTED_KEY_POINTS)
        if (again.title, again.chapters, again.questions) != (
            loaded.title,
            loaded.chapters,
            loaded.questions,
        ):
            raise StudybotError(f"the saved copy of {name!r} does not read back as imported")
        if target.exists():
            old = target.with_name(f".{name}.old-{os.getpid()}")
            target.rename(old)
            try:
                staging.rename(target)
            except OSError:
                old.rename(target)
                raise
            shutil.rmtree(old)
        else:
            staging.rename(target)
    finally:
        if staging.exists():
            shutil.rmtree(staging)


def files(loaded: Bank, source: str | None = None) -> dict[str, str]:
    """File name -> TOML text: ``bank.toml`` and one file per chapter."""
    out = {"bank.toml": _index(loaded, source)}
    for chapter in loaded.chapters:
        out[_chapter_file(chapter)] = _chapter(loaded, chapter)
    return out


def _chapter_file(chapter: Chapter) -> str:
    return f"{chapter.number:02d}-chapter.toml"


def _index(loaded: Bank, source: str | None) -> str:
    lines = []
    if source:
        lines += [f"# Imported by `studybot bank import` from {' '.join(source.split())}", ""]
    lines += [f"title = {_string(loaded.title)}", f"language = {_string(loaded.language)}"]
    for chapter in loaded.chapters:
        lines += [
            "",
            "[[chapters]]",
            f"number = {chapter.number}",
            f"title = {_string(chapter.title)}",
            f"file = {_string(_chapter_file(chapter))}",
            f"first = {chapter.first}",
            f"last = {chapter.last}",
        ]
    return "\n".join(lines) + "\n"


def _chapter(loaded: Bank, chapter: Chapter) -> str:
    lines = [f"chapter = {chapter.number}"]
    for question in loaded.questions:
        if question.chapter != chapter.number:
            continue
        lines += ["", "[[questions]]", f"id = {question.id}"]
        lines.append(f"question = {_string(question.question)}")
        if question.key_points:
            lines += ["key_points = [", *(f"  {_string(p)}," for p in question.key_points), "]"]
        if question.tags:
            lines.append(f"tags = [{', '.join(map(_string, question.tags))}]")
        for key in ("hint", "label", "reference"):
            value = getattr(question, key)
            if value:
                lines.append(f"{key} = {_string(value)}")
    return "\n".join(lines) + "\n"


def _string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'
