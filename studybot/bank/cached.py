"""The shipped bank read once: a JSON copy in studybot's cache folder, used while the TOML is unchanged.

Python's TOML reader and the bank's checks take most of `studybot grade`'s
time: the shipped bank with its rubric is about 2 MB of TOML. The first
load writes the checked bank as JSON under ``STUDYBOT_HOME/cache``, named by
a digest of the TOML files; a later load whose files have that digest reads
the JSON (a few milliseconds). An edit of the TOML changes the digest, and
the TOML is read and checked again. A cache that cannot be written (a
read-only home, a full disk) or read (damaged) is passed over: the TOML is
the bank.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from studybot.bank.format import Bank, Chapter, Question, load_folder
from studybot.bank.rubric import Claim, Number, PointRubric
from studybot.bank.sources import Source
from studybot.storage.home import home, replace_file

FORMAT = 2  # of the JSON copy; a change of the types below must change it
_memo: dict[str, Bank] = {}  # digest -> the bank, for a process that loads it again


def load(folder: Path, name: str) -> Bank:
    """The bank in ``folder``: from the cache while its TOML files are as cached, else the TOML."""
    digest = _digest(folder, name)
    if digest in _memo:
        return _memo[digest]
    path = cache_dir() / f"bank-{digest}.json"
    try:
        loaded = _decode(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        loaded = load_folder(folder, name=name)
        _write(path, loaded)
    _memo[digest] = loaded
    return loaded


def digest_of(bank: Bank) -> str | None:
    """The digest ``bank`` was loaded under in this process, or None (a bank not loaded here)."""
    return next((digest for digest, kept in _memo.items() if kept is bank), None)


def _digest(folder: Path, name: str) -> str:
    digest = hashlib.blake2b(f"{FORMAT}\0{name}\0".encode(), digest_size=16)
    for path in sorted(folder.glob("*.toml")):
        digest.update(path.name.encode("utf-8") + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_dir() -> Path:
    return home() / "cache"


def _write(path: Path, loaded: Bank) -> None:
    """Write the JSON copy beside nothing else of its kind: older copies go."""
    try:
        replace_file(path, json.dumps(_encode(loaded), ensure_ascii=False).encode("utf-8"))
        for old in path.parent.glob("bank-*.json"):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        return  # a read-only home or a full disk: the TOML is read next time too


def _encode(loaded: Bank) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "name": loaded.name,
        "title": loaded.title,
        "language": loaded.language,
        "chapters": [[c.number, c.title, c.first, c.last] for c in loaded.chapters],
        "questions": [_question(q) for q in loaded.questions],
    }


def _question(q: Question) -> list:
    rubric = [[[_claim(c) for c in point.claims], list(point.wrong)] for point in q.rubric]
    sources = [[s.cite, s.ref, list(s.points)] for s in q.sources]
    return [q.id, q.chapter, q.question, list(q.key_points), list(q.tags), q.hint,
            q.reference, q.label, rubric, sources]  # fmt: skip


def _claim(c: Claim) -> list:
    value = [c.value.value, c.value.unit, c.value.tolerance] if c.value else None
    return [c.subject, c.relation, c.object, value, c.opposite, c.ordered, c.zh, c.en]


def _decode(data: dict[str, Any]) -> Bank:
    if data["format"] != FORMAT:
        raise ValueError("another format")
    questions = tuple(
        Question(
            id=i,
            chapter=chapter,
            question=text,
            key_points=tuple(points),
            tags=tuple(tags),
            hint=hint,
            reference=reference,
            label=label,
            rubric=tuple(
                PointRubric(tuple(_decode_claim(c) for c in claims), tuple(wrong))
                for claims, wrong in rubric
            ),
            sources=tuple(Source(cite, ref, tuple(backs)) for cite, ref, backs in sources),
        )
        for i, chapter, text, points, tags, hint, reference, label, rubric, sources in data[
            "questions"
        ]
    )
    chapters = tuple(Chapter(*c) for c in data["chapters"])
    return Bank(data["name"], data["title"], data["language"], chapters, questions)


def _decode_claim(raw: list) -> Claim:
    subject, relation, obj, value, opposite, ordered, zh, en = raw
    number = Number(value[0], value[1], value[2]) if value else None
    return Claim(subject, relation, obj, number, opposite, ordered, zh, en)
