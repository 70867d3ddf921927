"""A quiz in a pseudo-terminal: the prompts' ends, the terminal, typing an attempt."""

from __future__ import annotations

import pexpect
import terminal

# The ends of the prompts, wherever a narrow terminal wraps them.
MARKS = r"u\s+h\s+\?\s+q: "  # the marks step
RATE = r"f\s+h\s+\?\s+q: "  # the rating prompt
ATTEMPT = r"think,\s+then\s+reveal;"  # the attempt prompt's help line


def quiz_terminal(home, *args: str, columns: int = 100, rows: int = 40) -> pexpect.spawn:
    return terminal.spawn(home, *args, columns=columns, rows=rows)  # everything sent, logged


def shown(child: pexpect.spawn) -> str:
    return child.logfile_read.getvalue()


def answer(child: pexpect.spawn, text: str = "", end: str = "\r\r") -> None:
    """Type an attempt at the next attempt prompt; Enter twice (or ``end``) sends it."""
    child.expect(ATTEMPT)
    child.expect("›")
    child.send(text)
    child.send(end)
