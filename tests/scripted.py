"""A learner from a script, for quiz tests that need no terminal: the library loop, as ``run`` drives it.

A quiz refuses a stdin that is not a terminal (a piped attempt would be
graded and rated as if a person had typed it), so tests that are about
grading, storage or notes run the same loop through ``Scripted`` instead
of piping text into ``run --quiz``. The screen itself is tested in a
pseudo-terminal (tests/cli/test_terminal.py, tests/cli/test_quiz_screen.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from studybot.storage.store import Store
from studybot.study import opening, session
from studybot.study.interview import InterviewListener


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


class ScriptedInterview(InterviewListener):
    """An interview's learner from a script: ``answers`` per question id, then each probe's
    answer in order from ``probe_answers`` (a fixed line when they run out); confirms the
    suggested ratings, changed by ``ratings`` (question id -> rating). Records what it heard.
    """

    def __init__(
        self,
        answers: Mapping[int, str],
        probe_answers: Iterable[str] = (),
        ratings: Mapping[int, int] | None = None,
    ) -> None:
        self.answers = dict(answers)
        self.probe_answers = list(probe_answers)
        self.changes = dict(ratings or {})
        self.probing = False  # the next attempt answers a probe
        self.asked: list[str] = []  # what the interviewer said, per question
        self.probes: list[str] = []
        self.suggested: dict[int, int] = {}
        self.saved: list[tuple[int, int]] = []
        self._said: list[str] = []

    def text(self, chunk: str) -> None:
        self._said.append(chunk)

    def turn_recorded(self, turn, question) -> None:
        self.asked.append(turn.answer)
        self.probing = False

    def attempt(self, question) -> str:
        if self.probing:
            return self.probe_answers.pop(0) if self.probe_answers else "我不太确定。"
        return self.answers.get(question.id, "")

    def answer_timed(self, question, seconds: float, result) -> None:
        self.probing = True

    def probe_asked(self, question, probe, of: int) -> None:
        self.probes.append(probe.question)
        self.probing = True

    def probe_answered(self, question, probe) -> None: ...

    def ratings(self, rows):
        self.suggested = {row.question.id: row.suggestion for row in rows}
        return {**self.suggested, **{q: r for q, r in self.changes.items() if q in self.suggested}}

    def rating_saved(self, question, rating: int, when: str) -> None:
        self.saved.append((question.id, rating))


def interview(
    listener: ScriptedInterview,
    *,
    ids: Iterable[int] = (),
    first: int | None = None,
    last: int | None = None,
    followups: int = 2,
    flags: Mapping[str, Any] | None = None,
):
    """An interview through the library loop, set up as ``studybot interview`` does it."""
    from studybot.study import interview as interviewing

    study, _notice = opening.open_study(opening.Options(flags=dict(flags or {})))
    choice = opening.Choice(first=first, last=last, ids=tuple(ids))
    begun = opening.begin(
        study, choice, quiz=True, fresh=True, mode="interview", extra={"followups": followups}
    )
    return interviewing.run(study, begun.store, begun.record, listener)


def learner_text(content: str, name: str) -> str:
    """The learner's text in a side request: the value in its one-line JSON object."""
    line = next(line for line in content.split("\n") if line.startswith(f'{{"{name}":'))
    return json.loads(line)[name]


def interviewer_reply(body: dict) -> str:
    """A local server's model for interviews: it puts questions, writes probes, grades in JSON.

    A grading request gets point 1 covered and the rest missed, unless the
    graded text holds 「补充」 (a probe answered well): then every point is covered.
    """
    last = (body.get("messages") or body.get("input"))[-1]["content"]
    if body.get("response_format") or (body.get("text") or {}).get("format"):
        count = int(re.search(r"n = 1\.\.(\d+)", last).group(1))
        said = learner_text(last, "attempt")
        full = "补充" in said
        points = [
            {"n": n, "state": "covered" if full or n == 1 else "missed", "evidence": said[:10]}
            if full or n == 1
            else {"n": n, "state": "missed", "evidence": ""}
            for n in range(1, count + 1)
        ]
        return json.dumps({"points": points, "advice": "把遗漏的要点补上。"}, ensure_ascii=False)
    if last.startswith("（面试官的追问"):
        point = re.search(r"请针对第 (\d+) 条要点", last).group(1)
        return f"第 {point} 条你没讲清楚：能具体说说吗？"
    if "总结" in last:
        return "\n".join(f"Q{n}：第 {n} 行结论" for n in range(1, 6))
    head = last.splitlines()[0][:14]
    return f"面试官：{head}——请你讲讲。"
