"""The problems studybot explains to its user instead of printing a traceback.

Library code raises these; the one boundary (``studybot.launch.handle``)
turns each into one line on stderr, a hint, and the exit code it names::

    StudybotError            a failure at run time the user can act on   exit 1
    ├── ProviderError        the model channel failed; retrying did not fix it
    ├── ContextOverflow      a request would not fit the model's context window
    ├── Interrupted          Ctrl-C (or a hang-up) with the session saved   exit 130
    ├── Reported             a finding already on screen (lint, search, validate)
    └── BadInput             bad flags, files or settings               exit 2
        ├── BankError        a bank that cannot be read or does not validate
        ├── SessionNotFound  a session id the store does not know
        └── ConfigError      a setting that cannot work
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from studybot.types import Discarded

# The exit codes, each named once.
OK = 0
FAILURE = 1  # a failure at run time
USAGE = 2  # bad input: flags, files, settings
INTERRUPTED = 130  # 128 + SIGINT, what shells report for Ctrl-C

QUOTE_LIMIT = 80  # characters of a value quoted in a message; the rest is counted, not shown


def clip(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was (a 1 MB value stays a line)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` as a message quotes it: its repr (controls escaped), clipped."""
    return clip(repr(value), limit)


class StudybotError(Exception):
    """A failure at run time that the user can act on (exit 1)."""

    exit_code = FAILURE

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        # a provider's failure: the requests it sent in vain (a types.Discarded), so that a
        # caller who carries on (a side request's fallback) can still count them
        self.discarded: Discarded | None = None


class BadInput(StudybotError):
    """Bad flags, files or settings given by the user (exit 2)."""

    exit_code = USAGE


class BankError(BadInput):
    """A question bank that cannot be read or does not validate."""

    def __init__(self, problems: list[str], hint: str | None = None) -> None:
        first = problems[0] if problems else "the bank is empty"
        more = len(problems) - 1
        message = first if more <= 0 else f"{first} (and {more} more problem{'s' * (more > 1)})"
        super().__init__(message, hint)
        self.problems = problems


class SessionNotFound(BadInput):
    """A session id that the store does not know."""


class ConfigError(BadInput):
    """A setting that cannot work (bad URL, placeholder key, malformed file)."""


class ProviderError(StudybotError):
    """The model channel failed in a way retrying did not fix."""


class ContextOverflow(StudybotError):
    """A request would not fit the model's context window."""


class Interrupted(StudybotError):
    """The user stopped studybot mid-way (exit 130); the message says what was kept."""

    exit_code = INTERRUPTED


class Reported(StudybotError):
    """A command's finding, already on screen (lint found volatile bytes, search found nothing)."""

    def __init__(self, exit_code: int) -> None:
        super().__init__("")
        self.exit_code = exit_code
