"""The problems studybot explains to its user instead of printing a traceback.

Library code raises these; ``studybot.cli`` turns each into one line on
stderr, a hint, and the exit code the class names.
"""

from __future__ import annotations


class StudybotError(Exception):
    """A failure at run time that the user can act on (exit 1)."""

    exit_code = 1

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class BadInput(StudybotError):
    """Bad flags, files or settings given by the user (exit 2)."""

    exit_code = 2


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
