"""The bank catalogue: which bank a name means, which rules it follows, and where it lives.

A bank reference is the shipped bank (``None`` or ``"default"``), a folder
with ``bank.toml``, a question file of the user's own (read by the importer
on the fly), or the name of a bank saved by ``studybot bank import`` under
STUDYBOT_HOME/banks/NAME. The format itself (types, the TOML reader, the
bank-wide rules) is ``studybot.bankformat``; this module sits above both it
and the importer, so neither imports the other through here.
"""

from __future__ import annotations

import re
from pathlib import Path

from studybot.bank.format import (
    IMPORTED_KEY_POINTS,
    SHIPPED,
    SHIPPED_KEY_POINTS,
    Bank,
    Chapter,
    Question,
    check_questions,
    load_folder,
    normalise,
    parse_question,
)
from studybot.errors import BadInput, BankError

__all__ = [
    "IMPORTED_KEY_POINTS",
    "SHIPPED",
    "SHIPPED_KEY_POINTS",
    "Bank",
    "Chapter",
    "Question",
    "check_name",
    "check_questions",
    "folder_of",
    "imported_with",
    "is_question_file",
    "key_point_rule",
    "load",
    "load_folder",
    "names",
    "normalise",
    "parse_question",
    "save",
    "saved_root",
    "shipped_dir",
    "validate",
]

NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


def shipped_dir() -> Path:
    """The shipped bank: inside the wheel, or at the top of a source checkout."""
    package = Path(__file__).resolve().parents[1]
    for candidate in (package / "questions", package.parent / "questions"):
        if (candidate / "bank.toml").is_file():
            return candidate
    raise BankError(
        [f"the shipped question bank is missing (looked in {package / 'questions'})"],
        hint="reinstall studybot: pip install --force-reinstall studybot",
    )


def saved_root() -> Path:
    """Where imported banks live: STUDYBOT_HOME/banks/NAME."""
    from studybot.storage.home import home

    return home() / "banks"


def key_point_rule(folder: Path) -> tuple[int, int]:
    """(fewest, most) key points for the bank in ``folder``.

    A saved import is the user's own list and may have none (its reference
    answers or a live model answer it); any other folder is an answer key.
    """
    imported = folder.resolve().parent == saved_root().resolve()
    return IMPORTED_KEY_POINTS if imported else SHIPPED_KEY_POINTS


def load(ref: str | None = None) -> Bank:
    """The shipped bank (None), a bank folder, a question file, or an imported bank's name."""
    if ref in (None, "", SHIPPED):
        from studybot.bank import cached

        return cached.load(shipped_dir(), SHIPPED)
    path = Path(ref).expanduser()
    if path.is_file() and path.name == "bank.toml":
        path = path.parent
    if path.is_dir():
        return load_folder(path, name=str(path), key_points=key_point_rule(path))
    if path.exists():  # a file, or a FIFO or device the importer refuses with one clear line
        from studybot.bank import importer

        return importer.read(path)
    saved = saved_root() / ref
    if NAME.fullmatch(ref):
        _recover()
    if NAME.fullmatch(ref) and (saved / "bank.toml").is_file():
        from studybot.bank import saved as saved_banks

        return saved_banks.load(saved, ref)
    raise BadInput(
        f"no bank named {ref!r}",
        hint="give a folder with bank.toml, a question file, or a name from `studybot bank banks`",
    )


def folder_of(ref: str | None) -> Path | None:
    """The folder of TOML files that ``load(ref)`` reads (None: a question file, or no bank)."""
    if ref in (None, "", SHIPPED):
        return shipped_dir()
    path = Path(ref).expanduser()
    if path.is_file() and path.name == "bank.toml":
        return path.parent
    if path.is_dir() or path.exists():
        return path if path.is_dir() else None
    saved = saved_root() / ref
    return saved if NAME.fullmatch(ref) and (saved / "bank.toml").is_file() else None


def is_question_file(ref: str) -> bool:
    """True when ``ref`` names a user's question file (read by the importer), not a folder."""
    path = Path(ref).expanduser()
    return path.exists() and not path.is_dir() and path.name != "bank.toml"


def validate(ref: str | None = None) -> list[str]:
    """Every problem of a bank, as ``file:line: message`` or ``Q<id>: message``."""
    try:
        load(ref)
    except BankError as exc:
        return exc.problems
    return []


def names() -> list[str]:
    """The names of the saved (imported) banks, sorted."""
    root = saved_root()
    if not root.is_dir():
        return []
    _recover()
    return sorted(
        p.name for p in root.iterdir() if NAME.fullmatch(p.name) and (p / "bank.toml").is_file()
    )


def _recover() -> None:
    """Finish or undo a ``bank import --force`` that was killed half way (bank.saved)."""
    from studybot.bank import saved

    if saved_root().is_dir():
        saved.recover(saved_root())


def check_name(name: str) -> None:
    """BadInput unless ``name`` can name a saved bank (a folder and a --bank value)."""
    if not NAME.fullmatch(name):
        raise BadInput(
            f"bank name {name!r} is not allowed: use letters, digits, '-' and '_' (at most 64)",
            hint="for example: --name llm200",
        )
    if name == SHIPPED:
        raise BadInput(f"{name!r} is the shipped bank's name", hint="choose another --name")


def save(
    loaded: Bank,
    name: str,
    source: str | None = None,
    force: bool = False,
    options: tuple[str, ...] = (),
) -> Path:
    """Save ``loaded`` as the imported bank ``name``; its folder.

    An existing bank of that name is replaced only with ``force``. ``source``
    and the selectors it was read with (``options``) are kept with it, so
    importing the same file again reads it the same way (``imported_with``).
    """
    from studybot.bank import bulk, saved

    check_name(name)
    _recover()
    target = saved_root() / name
    if target.exists() and not force:
        raise BadInput(
            f"a bank named {name!r} already exists ({target})",
            hint="add --force to replace it, or choose another --name",
        )
    with bulk.steady():
        saved.write(loaded, target, source, options)
    return target


def imported_with(name: str) -> tuple[str, tuple[str, ...]] | None:
    """(the file, the selectors) the saved bank ``name`` was imported from; None if not known."""
    from studybot.bank import saved

    if not NAME.fullmatch(name) or name == SHIPPED:
        return None
    return saved.imported_with(saved_root() / name)
