"""Where studybot keeps its files: the database, imported banks, locks.

``STUDYBOT_HOME`` overrides the platform's user data folder (tests always set it).
"""

from __future__ import annotations

import os
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
