"""Imported banks on disk: written in the canonical TOML format under STUDYBOT_HOME/banks.

A saved bank is ``bank.toml`` plus one ``NN-chapter.toml`` per chapter, the
same format as the shipped bank (docs/bank-format.md), so ``bank.load(name)``
reads it with the one loader. The TOML is written here by hand (the
standard library reads TOML but does not write it) and read back before it
replaces anything, so a saved bank always loads as it was imported.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from studybot import bank
from studybot.bank import Bank, Chapter
from studybot.errors import BadInput, StudybotError

NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


def check_name(name: str) -> None:
    """BadInput unless ``name`` can name a saved bank (a folder and a --bank value)."""
    if not NAME.fullmatch(name):
        raise BadInput(
            f"bank name {name!r} is not allowed: use letters, digits, '-' and '_' (at most 64)",
            hint="for example: --name llm200",
        )
    if name == bank.SHIPPED:
        raise BadInput(f"{name!r} is the shipped bank's name", hint="choose another --name")


def save(loaded: Bank, name: str, source: str | None = None, force: bool = False) -> Path:
    """Write ``loaded`` as the saved bank ``name`` and return its folder.

    An existing bank of that name is replaced only with ``force``; until the
    new files have been written and read back, the old bank stays in place.
    """
    check_name(name)
    target = bank.saved_root() / name
    if target.exists() and not force:
        raise BadInput(
            f"a bank named {name!r} already exists ({target})",
            hint="add --force to replace it, or choose another --name",
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{name}.new-", dir=target.parent))
    try:
        for file_name, text in files(loaded, source).items():
            (staging / file_name).write_text(text, encoding="utf-8")
        again = bank.load_folder(staging, name, key_points=bank.IMPORTED_KEY_POINTS)
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
    return target


def names() -> list[str]:
    """The names of the saved (imported) banks, sorted."""
    root = bank.saved_root()
    if not root.is_dir():
        return []
    return sorted(
        p.name for p in root.iterdir() if NAME.fullmatch(p.name) and (p / "bank.toml").is_file()
    )


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
        if question.hint:
            lines.append(f"hint = {_string(question.hint)}")
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
