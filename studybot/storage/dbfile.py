"""Opening the SQLite file safely for several processes, and explaining what goes wrong.

Every connection waits up to ``BUSY_SECONDS`` for another process's write
instead of failing with "database is locked", and every write transaction
takes the write lock up front (``BEGIN IMMEDIATE``): a deferred transaction
that upgrades from read to write can fail at once under WAL, whatever the
timeout. SQLite's own errors become one message that names the file.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from studybot.errors import ConfigError, StudybotError

if TYPE_CHECKING:  # sqlite_utils (and the numpy it imports) loads when a store opens
    from sqlite_utils import Database

BUSY_SECONDS = 30.0  # how long a connection waits for another process's write lock


def connect(path: Path, *, write: bool = True) -> Database:
    """A Database on ``path``; ``write=False`` opens it read-only, and never creates it."""
    from sqlite_utils import Database

    if write:
        _prepare(path)
        conn = sqlite3.connect(str(path), timeout=BUSY_SECONDS)
    elif broken := _broken_link(path):
        raise ConfigError(broken, hint=LINK_HINT)
    elif path.exists():
        conn = _read_only(path)
    else:
        return Database(memory=True, execute_plugins=False)  # nothing studied, nowhere to write
    # No plugins: studybot uses none, and looking for them reads every installed package's
    # metadata (about 0.1 s before the first question).
    return Database(conn, execute_plugins=False)


def _read_only(path: Path) -> sqlite3.Connection:
    """The file opened for reading, in a folder that may be read-only.

    A WAL database read with ``mode=ro`` still needs its ``-shm`` file, which
    SQLite creates next to it; in a folder nobody may write that fails
    ("unable to open database file"). There the file is opened
    ``immutable``: no -shm, no locks. That is safe when no -wal file holds
    unmerged pages (a writer that closed cleanly left none); when one does,
    ``mode=ro`` reads it through the -shm that came with it, and only without
    one is it opened immutable, the pages still in the -wal unseen.
    """
    from urllib.parse import quote

    # the path's bytes, quoted: a folder name that is not UTF-8 (b"h\xfe") is %FE to SQLite
    uri = "file:" + quote(os.fsencode(path.absolute()))
    wal = path.with_name(path.name + "-wal")
    pending = wal.exists() and wal.stat().st_size > 0
    if os.access(path.parent, os.W_OK) or pending:
        try:
            conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=BUSY_SECONDS)
            conn.execute("select count(*) from sqlite_master").fetchone()  # opens it now
            return conn
        except sqlite3.OperationalError:
            if os.access(path.parent, os.W_OK):
                raise
    return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, timeout=BUSY_SECONDS)


def writable(path: Path) -> bool:
    folder = path.parent
    if path.exists():
        return os.access(path, os.W_OK) and os.access(folder, os.W_OK)
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return os.access(folder, os.W_OK)


HOME_HINT = "point STUDYBOT_HOME at a folder (it is created if missing)"
MOVE_HINT = "move it away (studybot then starts a new database there), or set STUDYBOT_HOME"
LINK_HINT = (
    "put back what it links to (a drive not mounted?), or remove the link "
    "(studybot then starts a new database there), or set STUDYBOT_HOME"
)


def home_problem(path: Path) -> str | None:
    """What keeps the database's folder from being a home, in words; None when nothing does."""
    folder = path.parent
    if folder.exists() and not folder.is_dir():
        return f"STUDYBOT_HOME {folder} is a file, not a folder"
    if path.exists() and not path.is_file():
        return f"the session database {path} is not a file"
    return _broken_link(path)


def home_hint(path: Path) -> str:
    """What to do about the problem ``home_problem`` found."""
    if path.parent.is_file():
        return HOME_HINT
    return LINK_HINT if path.is_symlink() else MOVE_HINT


def _broken_link(path: Path) -> str | None:
    """What is wrong with a database that is a link leading to no file; None otherwise.

    Followed, such a link would be a new, empty database somewhere else (or
    SQLite's "unable to open", which reads like a permission problem).
    """
    if not path.is_symlink():
        return None
    try:
        path.stat()
    except FileNotFoundError:
        return f"the session database {path} is a link to {os.readlink(path)}, which does not exist"
    except OSError as exc:  # a link to itself, or through a file
        return f"the session database {path} is a link that cannot be followed: {exc.strerror}"
    return None


def _prepare(path: Path) -> None:
    """Create the folder and a private (0600) file; the key never lands here, answers do.

    An existing file keeps its mode: a user who made it read-only (0444) meant it,
    and a run that then fails must not have changed it.
    """
    problem = home_problem(path)
    if problem:
        raise ConfigError(problem, hint=home_hint(path))
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not path.exists():
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o600))
    except FileExistsError:
        pass  # another studybot created it a moment ago, 0600 too
    except OSError as exc:
        raise StudybotError(
            f"cannot open the session database {path}: {exc.strerror or exc}",
            hint="check the folder's permissions, or set STUDYBOT_HOME to a writable folder",
        ) from None


@contextmanager
def writing(db: Database) -> Iterator[Database]:
    """One short write transaction holding the write lock from its first statement."""
    if db.conn.in_transaction:  # already inside one: sqlite-utils nests with savepoints
        yield db
        return
    _begin_immediate(db)
    try:
        yield db
    except BaseException:
        if db.conn.in_transaction:
            db.conn.execute("ROLLBACK")
        raise
    db.conn.execute("COMMIT")


def enable_wal(db: Database) -> None:
    """Turn on WAL, waiting while another process writes (it may be turning it on too).

    Changing the journal mode answers "locked" at once, whatever the busy
    timeout, when another connection holds the write lock: two studybot
    processes opening a fresh home at the same moment meet exactly that.
    """
    _retried(db, db.enable_wal)


def _begin_immediate(db: Database) -> None:
    # The busy handler waits for a writer; SQLite still answers "locked" at once when it
    # sees a stale read snapshot, so that case is retried here until the same deadline.
    _retried(db, lambda: db.conn.execute("BEGIN IMMEDIATE"))


def _retried(db: Database, step: Callable[[], object]) -> None:
    """``step`` again and again while SQLite answers "locked", until ``BUSY_SECONDS``."""
    started = time.monotonic()
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as exc:
            waited = time.monotonic() - started
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            if waited > BUSY_SECONDS:
                raise _held(db, waited) from None
            time.sleep(0.05)


def _held(db: Database, waited: float) -> StudybotError:
    """The write lock stayed with another process past the deadline: say so, with the time."""
    rows = db.conn.execute("PRAGMA database_list").fetchall()
    path = next((row[2] for row in rows if row[1] == "main"), "") or "(in memory)"
    return StudybotError(
        f"waited {waited:.0f} s for another studybot process to finish writing the session "
        f"database {path}; it still held the write lock",
        hint="let the other run finish (or stop it), then try again; what was saved is kept",
    )


def explain(exc: sqlite3.Error, path: Path) -> StudybotError:
    """SQLite's error as one message naming the file and what to do."""
    text = str(exc)
    lower = text.lower()
    if "not a database" in lower or "malformed" in lower or "corrupt" in lower:
        return StudybotError(
            f"the session database {path} is damaged or not a studybot database ({text})",
            hint=f"move {path.name} away (keep it for recovery) and studybot starts a new one; "
            "`studybot doctor` runs SQLite's quick_check on it",
        )
    if "disk is full" in lower or "disk i/o" in lower:
        return StudybotError(
            f"cannot write the session database {path}: {text}",
            hint="free some disk space, then resume; what was saved before is kept",
        )
    if "readonly" in lower or "read-only" in lower or "unable to open" in lower:
        return StudybotError(
            f"cannot write the session database {path}: {text}",
            hint="check the folder's permissions, or set STUDYBOT_HOME to a writable folder; "
            "sessions, show and export still read a read-only home",
        )
    if "locked" in lower or "busy" in lower:
        # Writes wait their turn in ``writing``; what reaches here failed outside it.
        return StudybotError(
            f"SQLite refused to use the session database {path} while another studybot "
            f"process held it ({text})",
            hint="let the other run finish, then try again; what was saved is kept",
        )
    return StudybotError(f"the session database {path} failed: {text}")


# Less free space than this is a full disk: one run's -wal and -shm files need about that.
FULL_BELOW = 2**20


def full_disk(path: Path) -> str | None:
    """ "the disk holding FOLDER is full (N kB free)" when the database's disk has no room; else
    None (and None when the free space cannot be known)."""
    import shutil

    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return None
    if free >= FULL_BELOW:
        return None
    return f"the disk holding {folder} is full ({free // 1024:,} kB free)"


def quick_check(path: Path) -> str:
    """SQLite's ``PRAGMA quick_check`` on the file, read-only: "ok", or its first problem."""
    problem = home_problem(path)
    if problem:
        return problem
    if not path.exists():
        return "ok (not created yet)"
    try:
        conn = _read_only(path)
        try:
            rows = conn.execute("PRAGMA quick_check").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return str(exc)
    return str(rows[0][0]) if rows else "no answer"
