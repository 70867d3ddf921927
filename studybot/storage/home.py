"""Where studybot keeps its files: the database, imported banks, locks.

``STUDYBOT_HOME`` overrides the platform's user data folder (tests always set it).
"""

from __future__ import annotations

import os
from pathlib import Path


def home() -> Path:
    """The folder holding studybot's database and imported banks."""
    override = os.environ.get("STUDYBOT_HOME")
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("studybot", appauthor=False))
