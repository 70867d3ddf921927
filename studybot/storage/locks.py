"""One process at a time per session: an advisory lock file beside the database.

``fcntl.flock`` is released by the kernel when its process dies, however it
dies (SIGKILL included), so a stale lock can never block a resume; the pid
written inside is only there to name the other process in the message.
The lock sits beside the database's real file, not in the home: two homes
that share one database through a link hold the same session's lock.
"""

from __future__ import annotations

import errno
import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from studybot.errors import BadInput, StudybotError


class SessionBusy(BadInput):
    """Another process is studying this session right now."""


@contextmanager
def session_lock(database: Path, session_id: int) -> Iterator[None]:
    """Hold one session of ``database`` for this process; SessionBusy (exit 2) when another has it."""
    path = lock_path(database, session_id)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            other = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            raise SessionBusy(
                f"session {session_id} is being studied in another process (pid {other})",
                hint=f"finish or stop that one first, then: studybot resume {session_id}",
            ) from None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError as exc:  # a full disk: nothing of this session could be saved either
            raise unwritable(path, exc) from None
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def lock_path(database: Path, session_id: int) -> Path:
    """The lock file of one session: ``locks/`` beside the file ``database`` finally names.

    A database of another name (a home's link to ``shared.db``) names its
    locks after itself, so two databases in one folder never share one.
    """
    from studybot.storage.store import DB_NAME

    real = Path(os.path.realpath(database))
    owner = "" if real.name == DB_NAME else f"{real.name}-"
    return real.parent / "locks" / f"{owner}session-{session_id}.lock"


def unwritable(path: Path, exc: OSError) -> StudybotError:
    """The lock file could not be written: a full disk said as such, else the system's words."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return StudybotError(
            f"the disk holding {path.parent} is full: no space left to write {path.name}",
            hint="free some disk space, then resume; what was saved before is kept",
        )
    return StudybotError(
        f"cannot write the session lock {path}: {exc.strerror or exc}",
        hint="check that folder's permissions and free space, "
        "or set STUDYBOT_HOME to a writable folder",
    )
