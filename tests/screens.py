"""A studybot command drawn in a real pseudo-terminal of a given size, as a user's terminal
would receive it (tests of widths and wrapping)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect

ROOT = Path(__file__).resolve().parents[1]


def on_terminal(home: Path, command: tuple, columns: int, **env: str) -> str:
    """What ``studybot COMMAND`` writes to a ``columns``-wide terminal (exit 0 asserted)."""
    environment = {
        k: v for k, v in os.environ.items() if k not in ("PYTEST_CURRENT_TEST", "COLUMNS")
    }
    environment.update(PYTHONPATH=str(ROOT), STUDYBOT_HOME=str(home), **env)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "studybot", *command],
        env=environment,
        encoding="utf-8",
        timeout=60,
        dimensions=(40, columns),
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return child.before
