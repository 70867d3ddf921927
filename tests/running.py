"""studybot as a user runs it, in a child process (not a test module)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def studybot(
    home: Path, *args: str, timeout: float = 60, loud: bool = False
) -> subprocess.CompletedProcess:
    """``studybot ARGS`` on ``home``; ``loud``: unexpected exceptions stay loud, as under pytest."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("STUDYBOT_")}
    if not loud:
        env.pop("PYTEST_CURRENT_TEST", None)
    env.update(PYTHONPATH=str(ROOT), STUDYBOT_HOME=str(home))
    return subprocess.run(
        [sys.executable, "-m", "studybot", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
