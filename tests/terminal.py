"""studybot in a real pseudo-terminal, as the terminal tests drive it (not a test module).

``spawn`` starts it under pexpect, offline unless a key is given; ``attempt``
types a quiz attempt; ``finish`` waits for the exit code; ``db`` opens the
test home's database; the prompts' ends a test waits for.
"""

from __future__ import annotations

import io
import os
import sqlite3
import sys

import pexpect

from studybot.storage.store import DB_NAME

PROMPT = "q stop: "  # the end of read mode's key prompt
MARKS = r"u h \? q: "  # the end of the marks step after a reveal
RATE = r"h \? q: "  # the end of quiz mode's rating prompt
LEFT = "\x1b[D"
RATINGS = "ratings ›"  # an interview's closing ratings prompt


def spawn(
    home, *args: str, key: str | None = None, columns: int = 160, rows: int = 40
) -> pexpect.spawn:
    """studybot in a pseudo-terminal of ``rows`` × ``columns``, offline unless ``key`` is given."""
    env = {k: v for k, v in os.environ.items() if k not in {"TAOTOKEN_API_KEY", "COLUMNS"}}
    env.pop("PYTEST_CURRENT_TEST", None)
    # A pty under test cannot answer prompt_toolkit's cursor-position query.
    env |= {"STUDYBOT_HOME": str(home), "PROMPT_TOOLKIT_NO_CPR": "1", "NO_COLOR": "1"}
    if key:
        env["TAOTOKEN_API_KEY"] = key
    child = pexpect.spawn(
        sys.executable,
        ["-m", "studybot", *args],
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(rows, columns),
    )
    child.logfile_read = io.StringIO()
    return child


def finish(child: pexpect.spawn) -> int:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def attempt(child: pexpect.spawn, lines: list[str], end: str = "\r") -> None:
    """Type a multi-line attempt; ``end`` closes it: Enter on an empty line, or Ctrl-D."""
    child.expect("think, then reveal")
    child.expect("›")
    for n, line in enumerate(lines):
        child.send(line)
        if n < len(lines) - 1:
            child.send("\r")
    child.send(end if end == "\x04" else "\r\r")


def db(home):
    return sqlite3.connect(home / DB_NAME)


def say(child: pexpect.spawn, text: str) -> None:
    """Type an interview answer at the next answer prompt; Enter twice sends it."""
    child.expect("Ctrl-C stops, your draft is kept")
    child.expect("›")
    child.send(text)
    child.send("\r\r")
