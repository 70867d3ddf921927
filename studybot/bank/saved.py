"""Imported banks on disk: written in the canonical TOML format under STUDYBOT_HOME/banks.

A saved bank is ``bank.toml`` plus one ``NN-chapter.toml`` per chapter, the
same format as the shipped bank (docs/bank-format.md), so ``bank.load(name)``
reads it with the one loader; ``bank.save`` decides where and whether. The
TOML is written here by hand (the standard library reads TOML but does not
write it) and read back before it replaces anything, so a saved bank always
loads as it was imported.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import shutil
import tempfile
import tomllib
from pathlib import Path

from studybot.bank.format import IMPORTED_KEY_POINTS, Bank, Chapter, Question, load_folder
from studybot.bank.sources import Source
from studybot.bank.text import named
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
SNAPSHOT_FORMAT = 2  # of the JSON snapshot beside a saved bank; 2 keeps the sources


def write(
    loaded: Bank, target: Path, source: str | None = None, options: tuple[str, ...] = ()
) -> None:
    """Write ``loaded`` into the folder ``target``, replacing what is there.

    The new bank is written beside the old one (``.NAME.new-PID-TOKEN``),
    synced and read back; then the old folder steps aside
    (``.NAME.old-PID-TOKEN``) and the new one takes its name, two renames.
    A process killed at any point leaves the old bank, the new one, or the
    two folders that ``recover`` turns back into the new one at the next start.
    """
    root = target.parent
    root.mkdir(parents=True, exist_ok=True)
    recover(root)
    name = target.name
    staging = Path(tempfile.mkdtemp(prefix=f".{name}.new-{os.getpid()}-", dir=root))
    token = staging.name.rpartition("-")[2]
    try:
        written = files(loaded, source, options)
        every = {**written, SNAPSHOT: _snapshot(loaded, written)}
        needed = sum(len(text.encode("utf-8")) for text in every.values())
        _room_for(root, name, needed)
        try:
            for file_name, text in every.items():
                _write_synced(staging / file_name, text)
        except OSError as exc:  # the disk filled up while writing (or refused it)
            raise _not_written(root, name, needed, exc) from None
        _sync_folder(staging)
        copies = [load(staging, name)]
        if sum(len(t) for t in written.values()) <= _TOML_CHECKED:
            copies.append(load_folder(staging, name, key_points=IMPORTED_KEY_POINTS))
        for again in copies:
            if (again.title, again.chapters, again.questions) != (
                loaded.title,
                loaded.chapters,
                loaded.questions,
            ):
                raise StudybotError(f"the saved copy of {name!r} does not read back as imported")
        old = root / f".{name}.old-{os.getpid()}-{token}"
        if target.exists():
            target.rename(old)
        try:
            staging.rename(target)
        except OSError:
            if old.exists() and not target.exists():
                old.rename(target)
            raise
        _sync_folder(root)
        if old.exists():
            shutil.rmtree(old)
    finally:
        if staging.exists():
            shutil.rmtree(staging)


_LEFTOVER = re.compile(
    r"^\.(?P<name>[A-Za-z0-9_-]{1,64})\.(?P<kind>new|old)-(?P<pid>\d+)-(?P<token>\w+)$"
)


def recover(root: Path) -> None:
    """Finish or undo a replacement that a killed ``bank import`` left half done.

    A ``.NAME.new-…`` folder beside its ``.NAME.old-…`` means the old bank
    had stepped aside for a new one that was already written and read back:
    the new one takes the name. Any other leftover of a process that is
    gone (a half-written new bank, an old one not yet deleted) is removed.
    """
    try:
        entries = list(root.iterdir())
    except OSError:
        return
    leftovers = [(p, m) for p in entries if (m := _LEFTOVER.match(p.name))]
    leftovers.sort(key=lambda found: found[1]["kind"] != "new")  # a ready new bank first
    for path, match in leftovers:
        if _alive(int(match["pid"])) or not path.exists():
            continue
        target = root / match["name"]
        if match["kind"] == "new" and not target.exists():
            old = root / f".{match['name']}.old-{match['pid']}-{match['token']}"
            if old.exists():
                path.rename(target)
                continue
        if match["kind"] == "old" and not target.exists():
            path.rename(target)  # no new bank was ready: the old one comes back
            continue
        shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def _room_for(root: Path, name: str, needed: int) -> None:
    """StudybotError before a byte is written when the disk has less free space than needed."""
    try:
        free = shutil.disk_usage(root).free
    except OSError:
        return  # unknown: the writes say it if there is no room
    if free < needed:
        raise StudybotError(
            f"bank {name!r} needs {_size(needed)} and the disk holding {root} has "
            f"{_size(free)} free; nothing was written",
            hint="free some disk space, or set STUDYBOT_HOME to a folder on another disk",
        )


def _not_written(root: Path, name: str, needed: int, exc: OSError) -> StudybotError:
    """Writing the bank failed: the disk is full (say so), or the system's words."""
    kept = "any bank of that name is unchanged"
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return StudybotError(
            f"the disk holding {root} filled up while bank {name!r} ({_size(needed)}) was "
            f"written; {kept}",
            hint="free some disk space, or set STUDYBOT_HOME to a folder on another disk",
        )
    return StudybotError(
        f"cannot write bank {name!r} under {root}: {exc.strerror or exc}; {kept}",
        hint="check that folder's permissions and free space, or set STUDYBOT_HOME",
    )


def _size(count: int) -> str:
    return f"{count / 2**20:,.1f} MB" if count >= 2**20 else f"{count / 2**10:,.0f} kB"


def _write_synced(path: Path, text: str) -> None:
    with path.open("w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())


def _sync_folder(folder: Path) -> None:
    """Make the names in ``folder`` durable (where the system can sync a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


SNAPSHOT = "bank.json"  # the same bank as JSON, read instead of the TOML while they agree
_TOML_CHECKED = 2 * 2**20  # TOML up to this size is also parsed back before it is used


def load(folder: Path, name: str) -> Bank:
    """The saved bank in ``folder``: from its snapshot while the TOML is as written, else the TOML.

    Python's TOML reader takes about a second per 2 MB; a bank of 20,000
    questions would take 15 s to open. The snapshot holds the same bank as
    JSON with a digest of the TOML files it was written with; a hand edit of
    the TOML changes the digest, and the TOML is read.
    """
    try:
        data = json.loads((folder / SNAPSHOT).read_text(encoding="utf-8"))
        if data.get("format") == SNAPSHOT_FORMAT and data.get("digest") == _digest(
            folder, data["files"]
        ):
            return _from_snapshot(data, name)
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return load_folder(folder, name, key_points=IMPORTED_KEY_POINTS)


def _snapshot(loaded: Bank, written: dict[str, str]) -> str:
    names = sorted(written)
    digest = hashlib.blake2b(digest_size=16)
    for file_name in names:
        digest.update(written[file_name].encode("utf-8"))
    data = {
        "format": SNAPSHOT_FORMAT,
        "files": names,
        "digest": digest.hexdigest(),
        "title": loaded.title,
        "language": loaded.language,
        "chapters": [[c.number, c.title, c.first, c.last] for c in loaded.chapters],
        "questions": [
            [
                q.id,
                q.chapter,
                q.question,
                list(q.key_points),
                list(q.tags),
                q.hint,
                q.reference,
                q.label,
                [[s.cite, s.ref, list(s.points)] for s in q.sources],
            ]
            for q in loaded.questions
        ],
    }
    return json.dumps(data, ensure_ascii=False)


def _digest(folder: Path, names: list[str]) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for file_name in names:
        digest.update((folder / file_name).read_bytes())
    return digest.hexdigest()


def _from_snapshot(data: dict, name: str) -> Bank:
    chapters = tuple(Chapter(*c) for c in data["chapters"])
    questions = tuple(
        Question(
            i,
            c,
            text,
            tuple(points),
            tuple(tags),
            hint,
            reference,
            label,
            sources=tuple(Source(cite, ref, tuple(backs)) for cite, ref, backs in sources),
        )
        for i, c, text, points, tags, hint, reference, label, sources in data["questions"]
    )
    return Bank(name, data["title"], data["language"], chapters, questions)


def files(loaded: Bank, source: str | None = None, options: tuple[str, ...] = ()) -> dict[str, str]:
    """File name -> TOML text: ``bank.toml`` and one file per chapter."""
    out = {"bank.toml": _index(loaded, source, options)}
    members: dict[int, list[Question]] = {c.number: [] for c in loaded.chapters}
    for question in loaded.questions:
        members.setdefault(question.chapter, []).append(question)
    for chapter in loaded.chapters:
        out[_chapter_file(chapter)] = _chapter(chapter, members[chapter.number])
    return out


def _chapter_file(chapter: Chapter) -> str:
    return f"{chapter.number:02d}-chapter.toml"


def _index(loaded: Bank, source: str | None, options: tuple[str, ...] = ()) -> str:
    lines = []
    if source:
        shown = " ".join(named(source).split())
        lines += [f"# Imported by `studybot bank import` from {shown}", ""]
    lines += [f"title = {_string(loaded.title)}", f"language = {_string(loaded.language)}"]
    if source:  # what a re-import of the same file reads it with (``imported_with``)
        listed = ", ".join(map(_string, options))
        lines += ["", "[imported]", f"file = {_string(named(source))}", f"options = [{listed}]"]
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


def _chapter(chapter: Chapter, questions: list[Question]) -> str:
    lines = [f"chapter = {chapter.number}"]
    for question in questions:
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
        for source in question.sources:  # where the points come from, kept with them
            points = ", ".join(map(str, source.points))
            lines += ["", "[[questions.sources]]", f"cite = {_string(source.cite)}"]
            lines += [f"ref = {_string(source.ref)}", f"points = [{points}]"]
    return "\n".join(lines) + "\n"


_TO_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f]')


def _string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    return '"' + _TO_ESCAPE.sub(_escape, text) + '"'


def _escape(match: re.Match[str]) -> str:
    ch = match[0]
    return _ESCAPES.get(ch) or f"\\u{ord(ch):04x}"


def imported_with(folder: Path) -> tuple[str, tuple[str, ...]] | None:
    """(the file, the selectors) a saved bank was imported from and with; None if not said."""
    try:
        with (folder / "bank.toml").open("rb") as opened:
            found = tomllib.load(opened).get("imported")
    except (OSError, tomllib.TOMLDecodeError):
        return None
    if not isinstance(found, dict) or not isinstance(found.get("file"), str):
        return None
    options = found.get("options")
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        options = []
    return found["file"], tuple(options)
