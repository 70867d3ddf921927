"""Where studybot keeps its files: the database, imported banks, locks, caches.

``STUDYBOT_HOME`` overrides the platform's user data folder (tests always set it).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from studybot.errors import ConfigError


def home() -> Path:
    """The folder holding studybot's database and imported banks."""
    override = os.environ.get("STUDYBOT_HOME")
    if override:
        try:
            return Path(override).expanduser()
        except RuntimeError:  # "~someone/…" for a user this system does not know
            raise ConfigError(
                f"STUDYBOT_HOME {override!r} starts with a home folder that does not exist",
                hint="set STUDYBOT_HOME to a folder path, e.g. ~/studybot",
            ) from None
    import platformdirs

    return Path(platformdirs.user_data_dir("studybot", appauthor=False))


def replace_file(path: Path, data: bytes) -> None:
    """Put ``data`` in ``path`` whole: written beside it, then renamed into its place.

    A reader sees the old file or the new one, never a part; a full disk or a
    crash leaves no temporary file behind. Raises OSError when it cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
