"""Anki decks: an ``.apkg`` package and a CrowdAnki ``deck.json``, a note a question.

An ``.apkg`` is a zip holding the collection, an SQLite database
(``collection.anki21``, else ``collection.anki2``): each note's fields are
one text split by ``\\x1f``, their names come from its note type (the
``col.models`` JSON, or the ``fields`` table of newer collections), its deck
from its first card (``col.decks``, or the ``decks`` table) and its tags
are separated by spaces. A CrowdAnki export is a ``deck.json`` with the
note types (``note_models``, their ``flds``), the deck's ``notes`` (each
with ``fields``, ``tags`` and its ``note_model_uuid``) and sub-decks in
``children``. In both, the field named like a question (Front, Question,
正面, 问题 …; ``--map question=FIELD`` names another) is the question, else
the first; the one named like an answer, else the next, is the answer;
a cloze note asks its text with the gaps shown. Fields are HTML, read as
Markdown (``htmltext``); a deck ``LLM::训练`` is the chapter ``训练``. A note
with an empty question is listed as not taken, never dropped in silence.
"""

from __future__ import annotations

import io
import json
import sqlite3
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studybot.bank.importer import flashcards, source
from studybot.bank.importer.draft import Draft, Options, Parsed, Skipped
from studybot.bank.importer.htmltext import markdown_of
from studybot.bank.importer.keys import field_of
from studybot.bank.importer.markers import marker
from studybot.bank.importer.metadata import tag_word
from studybot.errors import BankError

COLLECTIONS = ("collection.anki21", "collection.anki2")  # the newest readable one first
_ZSTD = "collection.anki21b"  # Anki 2.1.50+: compressed; no reader here
_TOO_NEW_HINT = (
    "export the deck again from Anki with “Support older Anki versions” ticked "
    "(File → Export → Anki Deck Package)"
)


@dataclass(frozen=True)
class Note:
    """One note of a deck, its fields as stored (HTML) and named by its note type."""

    where: str  # "deck.apkg:note 3" or "deck.json:12"
    names: tuple[str, ...]  # the note type's field names, in order
    values: tuple[str, ...]  # the fields, in the same order
    deck: str
    tags: tuple[str, ...]


def crowdanki(text: str) -> bool:
    """Whether ``text`` is a CrowdAnki ``deck.json`` (a deck with its note types)."""
    head = text[:65536]
    return '"__type__"' in head and '"Deck"' in head and '"notes"' in text


def read_apkg(path: Path, data: bytes, options: Options) -> Parsed:
    """The notes of an Anki package as questions."""
    return drafts(path, list(_package_notes(path, data)), options)


def read_crowdanki(path: Path, text: str, options: Options) -> Parsed:
    """The notes of a CrowdAnki ``deck.json`` (and of its sub-decks) as questions."""
    try:
        deck = source.loads(text)
    except (ValueError, RecursionError) as exc:
        raise BankError([f"{path}: not a CrowdAnki deck ({exc})"]) from None
    if not isinstance(deck, dict):
        raise BankError([f"{path}: not a CrowdAnki deck (no deck object at the top)"])
    models: dict[str, tuple[str, ...]] = {}
    notes = list(_crowdanki_notes(path, deck, models, ""))
    out = drafts(path, notes, options)
    out.title = out.title or (str(deck["name"]).strip() if deck.get("name") else None)
    return out


def drafts(path: Path, notes: list[Note], options: Options) -> Parsed:
    """One question per note: its question field, answer field, deck and tags."""
    out = Parsed()
    if not notes:
        out.fatal.append(f"{path}: the deck holds no notes")
        return out
    forced = dict(options.mapping)
    chosen: dict[tuple[str, ...], tuple[int, int | None]] = {}
    for note in notes:
        if note.names not in chosen:
            chosen[note.names] = _roles(note.names, forced)
            asked, answered = chosen[note.names]
            told = f"answer ← {note.names[answered]!r}" if answered is not None else "no answer"
            out.notes.append(
                f"Anki note type with fields {', '.join(map(repr, note.names))}: "
                f"question ← {note.names[asked]!r}, {told}, chapter ← deck"
            )
        asked, answered = chosen[note.names]
        question = markdown_of(note.values[asked]) if asked < len(note.values) else ""
        answer = markdown_of(note.values[answered]) if answered is not None else ""
        gaps = flashcards.cloze(question, answer)
        question, answer = gaps if gaps else (question, answer)
        if not question.strip():
            out.skipped.append(Skipped(note.where, answer[:80], "a note with an empty question"))
            continue
        draft = Draft(note.where, " ".join(question.split("\n")).strip())
        numbered = marker(draft.question)  # studybot's own cards: "第 3 题：…"
        if numbered and numbered[0] and numbered[0].isdigit() and numbered[1]:
            draft.label, draft.question = numbered[0], numbered[1]
            draft.id = int(numbered[0])
        draft.reference = answer or None
        draft.chapter = flashcards.deck(note.deck) or None
        # Anki's tags keep their case (``ML``, ``LLM::Easy``); a bank's are lowercase words
        draft.tags = list(dict.fromkeys(tag_word(t) for t in note.tags))
        draft.tags = [t for t in draft.tags if t]
        out.add(draft)
    return out


def _roles(names: tuple[str, ...], forced: dict[str, str]) -> tuple[int, int | None]:
    """Which field asks and which answers: ``--map``, else their names, else the first two."""
    by_field: dict[str, int] = {}
    for index, name in enumerate(names):
        field = field_of(name)
        if field in ("question", "answer") and field not in by_field:
            by_field[field] = index
    for field in ("question", "answer"):
        if field in forced and forced[field] in names:
            by_field[field] = names.index(forced[field])
    asked = by_field.get("question", 0)
    rest = [i for i in range(len(names)) if i != asked]
    answered = by_field.get("answer", rest[0] if rest else None)
    return asked, answered


def _package_notes(path: Path, data: bytes) -> Iterator[Note]:
    try:
        package = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise BankError(
            [f"{path}: not an Anki package (an .apkg is a zip file)"],
            hint="export the deck from Anki with File → Export → Anki Deck Package",
        ) from None
    names = set(package.namelist())
    inside = next((name for name in COLLECTIONS if name in names), None)
    if inside is None or (_ZSTD in names and inside == "collection.anki2"):
        if _ZSTD in names:
            raise BankError(
                [f"{path}: the deck is in the newest Anki format (compressed), not read here"],
                hint=_TOO_NEW_HINT,
            )
        raise BankError([f"{path}: no Anki collection inside the package"], hint=_TOO_NEW_HINT)
    info = package.getinfo(inside)
    if info.file_size > source.MAX_BYTES:
        raise BankError([f"{path}: the collection inside is larger than a question file may be"])
    with tempfile.TemporaryDirectory(prefix="studybot-apkg-") as folder:
        copy = Path(folder) / "collection.sqlite"
        with package.open(info) as stream, copy.open("wb") as out:
            while chunk := stream.read(2**20):
                out.write(chunk)
        try:
            yield from _collection_notes(path, copy)
        except sqlite3.DatabaseError as exc:
            raise BankError([f"{path}: the collection inside cannot be read ({exc})"]) from None


def _collection_notes(path: Path, database: Path) -> Iterator[Note]:
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        models, decks = _models_and_decks(db)
        first_deck = dict(db.execute("SELECT nid, did FROM cards ORDER BY nid, ord DESC"))
        rows = db.execute("SELECT id, mid, flds, tags FROM notes ORDER BY id")
        for number, (nid, mid, flds, tags) in enumerate(rows, start=1):
            values = tuple(str(flds).split("\x1f"))
            names = models.get(mid) or tuple(f"field {n}" for n in range(1, len(values) + 1))
            deck = decks.get(first_deck.get(nid), "")
            yield Note(f"{path}:note {number}", names, values, deck, tuple(str(tags).split()))
    finally:
        db.close()


def _models_and_decks(db: sqlite3.Connection) -> tuple[dict[int, tuple[str, ...]], dict[Any, str]]:
    """Field names per note type and deck names, from the ``col`` JSON or newer tables."""
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    models: dict[int, tuple[str, ...]] = {}
    decks: dict[Any, str] = {}
    if "fields" in tables and "decks" in tables:  # schema 15+: a table each
        for ntid, name in db.execute("SELECT ntid, name FROM fields ORDER BY ntid, ord"):
            models[ntid] = (*models.get(ntid, ()), str(name))
        for did, name in db.execute("SELECT id, name FROM decks"):
            decks[did] = str(name).replace("\x1f", "::")
    if not models:
        raw_models, raw_decks = db.execute("SELECT models, decks FROM col").fetchone()
        for mid, model in (json.loads(raw_models or "{}") or {}).items():
            ordered = sorted(model.get("flds", []), key=lambda f: f.get("ord", 0))
            models[int(mid)] = tuple(str(f.get("name", "")) for f in ordered)
        for did, deck in (json.loads(raw_decks or "{}") or {}).items():
            decks[int(did)] = str(deck.get("name", ""))
    return models, decks


def _crowdanki_notes(
    path: Path, deck: dict[str, Any], models: dict[str, tuple[str, ...]], parent: str
) -> Iterator[Note]:
    for model in deck.get("note_models") or []:
        if isinstance(model, dict):
            fields = sorted(model.get("flds") or [], key=lambda f: f.get("ord", 0))
            models[str(model.get("crowdanki_uuid"))] = tuple(str(f.get("name", "")) for f in fields)
    name = str(deck.get("name") or "")
    full = f"{parent}::{name}" if parent and name else name or parent
    for index, note in enumerate(deck.get("notes") or [], start=1):
        if not isinstance(note, dict) or not isinstance(note.get("fields"), list):
            continue
        values = tuple(str(v) for v in note["fields"])
        names = models.get(str(note.get("note_model_uuid"))) or tuple(
            f"field {n}" for n in range(1, len(values) + 1)
        )
        tags = tuple(str(t) for t in note.get("tags") or [])
        yield Note(f"{path}:{full or 'deck'}, note {index}", names, values, full, tags)
    for child in deck.get("children") or []:
        if isinstance(child, dict):
            yield from _crowdanki_notes(path, child, models, full)
