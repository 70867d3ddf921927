"""What a path is, in words, when it is not a regular file: one wording for the files
studybot reads (a bank to import, a config.toml), so each refusal names it the same way."""

from __future__ import annotations

import stat

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def not_regular(mode: int) -> str | None:
    """None for a regular file, else what it is ("a folder", "a named pipe (FIFO)", …)."""
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")
