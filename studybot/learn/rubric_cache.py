"""Compiled rubrics kept on disk: a new process grades a question without compiling it again.

Compiling a question's rubric (its claims read into aliases, variants, lapses
and the bank's names) takes most of a first grade: 50–100 ms a question, a
fifth of `studybot grade` as a process. The compiled form is kept under
``STUDYBOT_HOME/cache/rubrics``, one file a question, in a folder named by
the bank's digest (the shipped bank's, ``bank.cached``) and by the code that
compiles it (each module's size and modification time, and Python's
version), so an edit of the bank or of that code compiles afresh. Only a bank loaded
through that cache has a digest; any other bank is compiled in each process,
as before.

The bank's names (each with the texts that write it) are the same for every
question: they are kept once, in ``names.pickle``, which each question's file
refers to. The files are pickles written by studybot into the user's own cache, read
the way Python reads its own bytecode caches: a file that cannot be read,
or does not hold what this module wrote, is passed over and compiled again.
A home that cannot be written keeps nothing.
"""

from __future__ import annotations

import hashlib
import io
import pickle
import sys
from pathlib import Path

from studybot.bank import Bank, Question
from studybot.learn.rubric import Rubric, cutter_of
from studybot.learn.substitutes import Names
from studybot.storage.home import replace_file

FORMAT = 2  # of the kept files; a change of what ``kept`` holds must change it
CODE = ("learn", "bank", ".")  # the folders of the modules a compiled rubric is made by
_code: str | None = None  # the grader's code fingerprint, read once a process


def load(bank: Bank, question: Question) -> Rubric | None:
    """The rubric ``save`` kept for ``question`` of ``bank``, or None (none kept, or not usable)."""
    folder = _folder(bank)
    if folder is None:
        return None
    try:
        with open(folder / f"{question.id}.pickle", "rb") as handle:
            kept = _Reader(handle, folder).load()
    except Exception:  # noqa: BLE001 - absent, damaged or from other code: compile instead
        return None
    if not (isinstance(kept, tuple) and len(kept) == 2 and kept[0] == question):
        return None
    points, right, sides, asked = kept[1]  # all but the word cutter, rebuilt at once
    return Rubric(points, right, sides, asked, cutter_of(question))


def save(bank: Bank, question: Question, compiled: Rubric) -> None:
    """Keep ``compiled``, the rubric of ``question``, for the next process."""
    parts = compiled.points, compiled.right, compiled.sides, compiled.asked
    folder = _folder(bank)
    if folder is None:
        return
    try:
        fresh = not folder.is_dir()
        writer = _Writer()
        replace_file(folder / f"{question.id}.pickle", writer.dumps((question, parts)))
        if writer.names is not None and _names.get(folder) is not writer.names:
            # written by each process that compiles: a damaged one mends
            replace_file(folder / NAMES, pickle.dumps(writer.names, PROTOCOL))
            _names[folder] = writer.names
        if fresh:  # a new bank or new code: the other folders' rubrics are of no use now
            _remove_others(folder)
    except (OSError, pickle.PicklingError):
        return  # a read-only home or a full disk: compiled in the next process too


# The bank's names (``substitutes.Names``: each name with every text of the bank that writes
# it) are the same in every question's rubric: kept once, in this file, and each question's
# file holds a reference to it, not a copy.
NAMES = "names.pickle"
PROTOCOL = pickle.HIGHEST_PROTOCOL
_names: dict[Path, Names] = {}  # folder -> its names, read once a process


class _Writer:
    def __init__(self) -> None:
        self.names: Names | None = None  # the bank's names, met while pickling

    def dumps(self, value) -> bytes:
        out = io.BytesIO()
        pickler = pickle.Pickler(out, PROTOCOL)
        pickler.persistent_id = self._reference  # type: ignore[method-assign]
        pickler.dump(value)
        return out.getvalue()

    def _reference(self, value) -> str | None:
        if type(value) is Names and (self.names is None or value is self.names):
            self.names = value  # one bank's names: any other Names is written out in full
            return NAMES
        return None


class _Reader(pickle.Unpickler):
    def __init__(self, handle, folder: Path) -> None:
        super().__init__(handle)
        self.folder = folder

    def persistent_load(self, pid):
        if pid != NAMES:
            raise pickle.UnpicklingError(f"unknown reference {pid!r}")
        if self.folder not in _names:
            names = pickle.loads((self.folder / NAMES).read_bytes())
            if type(names) is not Names:
                raise pickle.UnpicklingError("not a bank's names")
            _names[self.folder] = names
        return _names[self.folder]


def _folder(bank: Bank) -> Path | None:
    from studybot.bank import cached

    digest = cached.digest_of(bank)
    if digest is None:
        return None
    return cached.cache_dir() / "rubrics" / f"{digest[:16]}-{_fingerprint()}"


def _fingerprint() -> str:
    """The code a compiled rubric is made by, as it is now: each module's name, size and time."""
    global _code
    if _code is None:
        package = Path(__file__).resolve().parent.parent
        digest = hashlib.blake2b(f"{FORMAT}\0{sys.version_info[:2]}".encode(), digest_size=8)
        for path in sorted(p for part in CODE for p in (package / part).glob("*.py")):
            stat = path.stat()
            name = path.relative_to(package).as_posix()
            digest.update(f"{name}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
        _code = digest.hexdigest()
    return _code


def _remove_others(folder: Path) -> None:
    for other in folder.parent.iterdir():
        if other != folder and other.is_dir():
            for path in other.glob("*"):
                path.unlink(missing_ok=True)
            other.rmdir()
