"""One process at a time per session: an advisory lock file under STUDYBOT_HOME.

``fcntl.flock`` is released by the kernel when its process dies, however it
dies (SIGKILL included), so a stale lock can never block a resume; the pid
written inside is only there to name the other process in the message.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from studybot.errors import BadInput


class SessionBusy(BadInput):
    """Another process is studying this session right now."""


@contextmanager
def session_lock(home: Path, session_id: int) -> Iterator[None]:
    """Hold session ``session_id`` for this process; SessionBusy (exit 2) when another has it."""
    folder = home / "locks"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = folder / f"session-{session_id}.lock"
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
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
