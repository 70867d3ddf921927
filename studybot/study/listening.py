"""What the study loop tells the learner, and what it hears back: the ``Listener``.

The loop (``study.session``) talks to the learner only through a Listener;
the CLI supplies one that draws a terminal, tests supply scripted ones. Its
answers are actions (``NEXT``, ``FOLLOW_UP``, ``QUIT`` or a rating 1-4) and,
after a graded reveal, the marks the learner confirmed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from studybot.bank import Question
from studybot.learn import grading
from studybot.storage.store import FollowUp, SegmentRecord, Turn

NEXT, FOLLOW_UP, QUIT = "next", "follow-up", "quit"
Action = str | int  # NEXT, FOLLOW_UP, QUIT, or a rating 1-4 (rate, then next)


class Stopped(Exception):
    """The user chose to stop; the session is saved and resumable."""


class AttemptInterrupted(KeyboardInterrupt):
    """Ctrl-C while the attempt was being typed; ``draft`` is what had been typed."""

    def __init__(self, draft: str) -> None:
        super().__init__()
        self.draft = draft


class Listener:
    """What the loop reports; every method is optional."""

    def meanwhile(self, work: Callable[[], None]) -> None:
        """``work`` to do in a thread while the learner reads and types (the grader's build).

        A terminal starts it once the first answer's editor is on screen, so
        that it never delays the first question; by default it starts now.
        """
        threading.Thread(target=work, daemon=True).start()

    def notice(self, text: str) -> None:
        """A one-line notice from the provider (a retry, a wait, a second try)."""

    def discarded(self) -> None:
        """The text streamed since this answer's request went out is dropped: the
        attempt was abandoned and the request goes again (a notice says why)."""

    def question_started(self, segment: SegmentRecord, question: Question) -> None: ...

    def draft_found(self, question: Question, draft: str) -> None:
        """An attempt at ``question`` was being typed when an earlier run stopped: start from it."""

    def attempt(self, question: Question) -> str | None:
        """The user's attempt before the reveal ("" = think, then reveal).

        Raise ``AttemptInterrupted`` to stop the session and keep a draft.
        """
        return ""

    def text(self, chunk: str) -> None: ...

    def turn_recorded(self, turn: Turn, question: Question) -> None: ...

    def graded(self, question: Question, result: grading.Grade) -> None: ...

    def confirm_marks(self, question: Question, result: grading.Grade) -> grading.Grade | str:
        """The marks the learner confirms, starting from ``result`` (or ``QUIT``)."""
        return result

    def rating_missing(self, question: Question, result: grading.Grade) -> None:
        """``question`` was graded in an earlier run that stopped before its rating."""

    def after_answer(self, question: Question, suggestion: int | None) -> Action:
        """What next; with a ``suggestion`` (quiz), Enter means that rating."""
        return NEXT

    def rating_saved(self, question: Question, rating: int, when: str) -> None: ...

    def follow_up_text(self, question: Question) -> str | None:
        return None

    def follow_up_answered(self, follow_up: FollowUp) -> None: ...

    def summary_started(self, segment: SegmentRecord) -> None: ...

    def summary_made(self, segment: SegmentRecord, summary: str) -> None: ...

    def segment_split(self, segment: SegmentRecord, question: Question) -> None:
        """``question`` overflowed the window: it starts a fresh segment after a summary."""

    def usage_suspect(self, turn: Turn) -> None:
        """The first turn of the session whose reported usage cannot be right."""

    def unanswered_offline(self, question: Question) -> None: ...
