"""A learner from a script, for quiz tests that need no terminal: the library loop, as ``run`` drives it.

A quiz refuses a stdin that is not a terminal (a piped attempt would be
graded and rated as if a person had typed it), so tests that are about
grading, storage or notes run the same loop through ``Scripted`` instead
of piping text into ``run --quiz``. The screen itself is tested in a
pseudo-terminal (tests/cli/test_terminal.py, tests/cli/test_quiz_screen.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from studybot.storage.store import Store
from studybot.study import opening, session


class Scripted(session.Listener):
    """Types ``attempts`` in order, changes the marks named in ``toggles`` (question id ->
    point numbers, each press cycles one mark), then gives ``ratings`` in order (NEXT when
    they run out). Records what the loop showed.
    """

    def __init__(
        self,
        attempts: Iterable[str] = (),
        ratings: Iterable[session.Action] = (),
        toggles: Mapping[int, Iterable[int]] | None = None,
    ) -> None:
        self.attempts = list(attempts)
        self.ratings = list(ratings)
        self.toggles = {q: list(n) for q, n in (toggles or {}).items()}
        self.grades: dict[int, Any] = {}  # question id -> the grade shown (the estimate)
        self.confirmed: dict[int, Any] = {}  # question id -> the marks confirmed
        self.suggestions: dict[int, int | None] = {}
        self.saved: list[tuple[int, int]] = []  # (question id, rating) as saved
        self.missing: list[int] = []  # questions asked for a rating an earlier run left out

    def attempt(self, question) -> str:
        return self.attempts.pop(0) if self.attempts else ""

    def graded(self, question, result) -> None:
        self.grades[question.id] = result

    def confirm_marks(self, question, result):
        from studybot.cli.reveal import cycled

        for number in self.toggles.get(question.id, []):
            result = cycled(result, number)
        self.confirmed[question.id] = result
        return result

    def rating_missing(self, question, result) -> None:
        self.missing.append(question.id)

    def after_answer(self, question, suggestion):
        self.suggestions[question.id] = suggestion
        return self.ratings.pop(0) if self.ratings else session.NEXT

    def rating_saved(self, question, rating: int, when: str) -> None:
        self.saved.append((question.id, rating))


def quiz(
    listener: session.Listener,
    *,
    ids: Iterable[int] = (),
    first: int | None = None,
    last: int | None = None,
    flags: Mapping[str, Any] | None = None,
):
    """A quiz of the chosen questions through the library loop, set up as ``run --quiz`` does it."""
    study, _notice = opening.open_study(opening.Options(flags=dict(flags or {})))
    choice = opening.Choice(first=first, last=last, ids=tuple(ids))
    begun = opening.begin(study, choice, quiz=True, fresh=True)
    return session.run(study, begun.store, begun.record, listener)


def resume(listener: session.Listener, session_id: int, flags: Mapping[str, Any] | None = None):
    """``resume SESSION`` through the library loop."""
    store = Store.open()
    reopened = opening.reopen(store, session_id, dict(flags or {}))
    return session.run(reopened.study, store, reopened.record, listener)
