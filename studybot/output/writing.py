"""Writing an output file safely: all of it or the old file untouched.

``export -o`` and ``cache pack -o`` write through ``write_file``: a temporary
file renamed over the target, never a device, a folder or a dangling link,
and an existing file only with ``--force``.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from studybot.errors import BadInput


def write_file(path: Path, fill: Callable[[Path], None], *, force: bool = False) -> None:
    """Write ``path`` through ``fill`` atomically: all of it, or the old file untouched.

    ``fill`` writes a temporary file in the same folder, which then replaces
    the file in one rename, so a full disk or a crash never leaves a
    truncated file behind. An existing file is replaced only with ``force``.
    Only a regular file is ever replaced: a device, a FIFO or a folder is
    refused by name, and a symbolic link is written through to its file
    (the link stays; one to nothing is refused, never replaced).
    """
    target = writable_target(path, force=force)
    temporary: Path | None = None
    try:
        handle, name = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".part", dir=target.parent
        )
        os.close(handle)
        temporary = Path(name)
        fill(temporary)
        umask = os.umask(0)
        os.umask(umask)
        temporary.chmod(0o666 & ~umask)  # mkstemp makes 0600; notes are ordinary files
        os.replace(temporary, target)
        temporary = None
    except OSError as exc:
        raise BadInput(
            f"cannot write {path}: {exc.strerror or exc}", hint="choose a writable path with -o"
        ) from None
    finally:
        if temporary is not None:
            temporary.unlink(missing_ok=True)


OUTPUT_HINT = "choose a file name with -o, or -o - for standard output"


def writable_target(path: Path, *, force: bool) -> Path:
    """The regular file that writing ``path`` replaces: ``path``, or the file its link names."""
    try:
        found = path.stat()  # through any links
    except FileNotFoundError:
        if path.is_symlink():
            raise BadInput(
                f"{path} is a link to {os.readlink(path)}, which does not exist",
                hint="studybot never replaces a link: " + OUTPUT_HINT,
            ) from None
        return path  # a new file (a missing folder is said when the file is made)
    except OSError as exc:  # a link to itself, a path through a file, no permission
        raise BadInput(f"cannot write {path}: {exc.strerror or exc}", hint=OUTPUT_HINT) from None
    if not stat.S_ISREG(found.st_mode):
        raise BadInput(f"{path} is not a regular file ({_kind(found.st_mode)})", hint=OUTPUT_HINT)
    if not force:
        raise BadInput(
            f"{path} already exists", hint="pass --force to replace it, or choose another -o FILE"
        )
    return Path(os.path.realpath(path))


def _kind(mode: int) -> str:
    """What a path is, in words, when it is not a regular file."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def write_text(path: Path, text: str) -> None:
    """``text`` into ``path``, on the disk before returning."""
    with path.open("w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
