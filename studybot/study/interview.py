"""A mock interview: ask, listen (timed), probe what the answer missed (追问), then rate.

The interview walks the same segments as ``run`` (``study.loop``), with
the same byte-stable prefix and carried summaries; its step, per question:

1. **ask**: the main request asks the model to put the question as an
   interviewer would (offline: the bank's wording); its reply is the turn
   and the main thread's history. Nothing of the answer is shown;
2. **listen**: the learner's answer, timed, saved with its time, then
   graded (a live grading side request, or the rubric);
3. **probe**: up to ``followups`` probes, one at a time, aimed at the worst
   point not yet covered (``learn.probes``): made by a side request live,
   from the rubric offline; each answer is graded and may lift its point.

The learner's answers and the probes only ever travel in side requests:
the main history holds the interviewer's questions alone. Every answer and
probe is committed before the next request, so a resume (or a SIGKILL)
loses at most what was being typed; a question whose probes are not all
answered carries on where it stopped. At the end one screen confirms the
suggested FSRS ratings (``ratings``); a resume asks for those not saved.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial

from studybot.bank import Question
from studybot.costs import tokens
from studybot.errors import StudybotError
from studybot.learn import grading, live_grade
from studybot.learn import probes as probing
from studybot.storage.store import (
    InterviewAnswer,
    ProbeRecord,
    SegmentRecord,
    SessionRecord,
    Store,
    Turn,
)
from studybot.study import answers, loop, quizzing
from studybot.study.conversation import Conversation
from studybot.study.listening import Listener, Stopped
from studybot.study.opening import Study
from studybot.types import NONE_DISCARDED, Usage

DEFAULT_FOLLOWUPS = 2


class TimeUp(Stopped):
    """The interview's time box ran out: no new question starts; the session is resumable."""


@dataclass(frozen=True)
class Rated:
    """A question on the closing screen: its final grade and the rating it suggests."""

    question: Question
    result: grading.Grade
    suggestion: int  # 1-4


class InterviewListener(Listener):
    """What an interview tells the learner, on top of the loop's ``Listener``."""

    def question_resumed(self, segment: SegmentRecord, question: Question, turn: Turn) -> None:
        """A question asked before the session stopped, its answer or probes still to come."""
        self.question_started(segment, question)
        self.text(turn.answer)
        self.turn_recorded(turn, question)

    def answer_timed(self, question: Question, seconds: float, result: grading.Grade) -> None:
        """The answer is saved and graded (the grade is not shown until the feedback)."""

    def grade_noted(self, question: Question, note: str) -> None:
        """The grade has a note (a live grade that fell back to the offline grader, say)."""

    def probe_asked(self, question: Question, probe: ProbeRecord, of: int) -> None: ...

    def probe_answered(self, question: Question, probe: ProbeRecord) -> None: ...

    def ratings(self, rows: list[Rated]) -> dict[int, int] | None:
        """The ratings the learner confirms, question id -> 1-4; None: stop, saving none."""
        return {row.question.id: row.suggestion for row in rows}


def followups_of(session: SessionRecord) -> int:
    return int(session.settings.get("followups", DEFAULT_FOLLOWUPS))


def run(
    study: Study,
    store: Store,
    session: SessionRecord,
    listener: InterviewListener,
    *,
    time_up: Callable[[], bool] = lambda: False,
) -> SessionRecord:
    """Interview every question of ``session`` not yet done, then ask the missing ratings."""
    answered = loop.begin(study, store, session, listener)
    step = _Interviewing(
        study, store, session, listener, answered, time_up, grading.offline(study.bank)
    )
    # The grader loads its word lists while the learner reads and types the first answer.
    listener.meanwhile(partial(grading.warm, study.bank))
    loop.walk(study, store, session, listener, answered, step)
    ratings(study, store, store.session(session.id), listener)
    return store.session(session.id)


@dataclass
class _Interviewing:
    """The interview's step: ask the question (once), then listen, grade and probe."""

    study: Study
    store: Store
    session: SessionRecord
    listener: InterviewListener
    answered: dict[int, Turn]  # the questions asked so far, their turns
    time_up: Callable[[], bool]
    grader: grading.OfflineGrader
    done: dict[int, InterviewAnswer] = field(default_factory=dict)  # the answers saved so far
    interview = True

    def finished(self) -> set[int]:
        self.done = self.store.interview_answers(self.session.id)
        return {q for q, a in self.done.items() if a.finished}

    def __call__(
        self, segment: SegmentRecord, conversation: Conversation, question: Question
    ) -> None:
        study, store, session, listener = self.study, self.store, self.session, self.listener
        if question.id not in self.answered:
            if self.time_up():
                raise TimeUp(session.id)
            listener.question_started(segment, question)
            # The main request: the interviewer puts the question; the turn is saved at once.
            messages = conversation.ask(question)
            send = study.provider.pose
            turn = loop.main_turn(send, store, session, segment, question, messages, listener.text)
            listener.turn_recorded(turn, question)
            self.answered[question.id] = turn
            conversation.answered(question, turn.answer)
        else:  # asked before the session stopped: shown again, not asked again
            listener.question_resumed(segment, question, self.answered[question.id])
        step = _Question(study, store, session, conversation, question, listener, self.grader)
        step.interview(self.done.get(question.id), followups_of(session))


@dataclass(frozen=True)
class _Question:
    """One interview question after it was asked: the answer, its grade, the probes."""

    study: Study
    store: Store
    session: SessionRecord
    conversation: Conversation  # the main thread, the question's turn last
    question: Question
    listener: InterviewListener
    grader: grading.OfflineGrader

    def interview(self, saved: InterviewAnswer | None, followups: int) -> None:
        session, question, store = self.session, self.question, self.store
        if saved is None:
            attempt, seconds = self._listen()
            chapter = self.study.bank.chapter(question.chapter)
            saved = InterviewAnswer(
                session.id,
                question.id,
                question.chapter,
                chapter.title if chapter else "",
                attempt,
                round(seconds, 1),
            )
            store.record_answer(saved)
            store.drop_draft(session.id, question.id)
            estimate = self._graded(attempt)
            record = answers.grade_record(session.id, question.id, attempt, estimate)
            store.record_grade(record)
            self.listener.answer_timed(question, round(seconds, 1), estimate)
            current = first = estimate  # as graded, kept here: not read back
        else:  # answered before the session stopped: its grade (probes may have lifted it)
            record = store.grades(session.id)[question.id]
            current, first = answers.as_grade(record)
        asked = [p for p in store.probes(session.id) if p.question_id == question.id]
        while len(asked) < followups or (asked and asked[-1].answer is None):
            probe = asked[-1] if asked and asked[-1].answer is None else None
            if probe is None:
                chosen = probing.targets(
                    self.grader, question, saved.attempt, current, {p.point for p in asked}
                )
                if not chosen:
                    break
                probe = self._probe(saved.attempt, current, chosen[0], len(asked) + 1)
                store.record_probe(probe)
                asked.append(probe)
            self.listener.probe_asked(question, probe, followups)
            answered, current = self._answer(probe, saved.attempt, current)
            store.record_grade(answers.confirmed(record, current, first))
            store.drop_draft(session.id, question.id)
            asked[-1] = answered
            self.listener.probe_answered(question, answered)
        store.finish_answer(session.id, question.id)

    def _listen(self) -> tuple[str, float]:
        """The learner's answer (from a kept draft, if any) and the seconds it took."""
        started = time.monotonic()
        text = quizzing.read_attempt(self.store, self.session, self.question, self.listener)
        return text, time.monotonic() - started

    def _graded(self, text: str) -> grading.Grade:
        """``text`` graded against the question: a live side request, or the rubric."""
        messages = self.conversation.side(live_grade.grading_request(self.question, text))
        result = live_grade.judge(self.study.provider, self.grader, messages, self.question, text)
        if result.note:
            self.listener.grade_noted(self.question, result.note)
        return result

    def _probe(self, attempt: str, current: grading.Grade, target, n: int) -> ProbeRecord:
        """The probe aimed at ``target``: the model's (a side request) or the rubric's."""
        question = self.question
        text, source, usage, latency = probing.offline_text(target), probing.RUBRIC, None, 0.0
        thrown = NONE_DISCARDED
        # A provider that declines (the answer key) returns None: the rubric asks.
        messages = self.conversation.side(probing.request(question, attempt, current, target))
        started = time.perf_counter()
        try:
            reply = self.study.provider.probe(messages, question=question)
        except StudybotError as exc:  # the answer is saved: a failed probe is no stop
            self.listener.notice(
                f"the probe request failed ({exc.message}); asking from the rubric"
            )
            reply, thrown = None, exc.discarded or NONE_DISCARDED
            latency = (time.perf_counter() - started) * 1000
        if reply is not None:  # sent, whatever came back: its requests count
            latency = (time.perf_counter() - started) * 1000
            read = reply.text[: probing.PROBE_READ_CHARS]  # the local count stops there too
            usage = tokens.settle(reply.usage, messages, read).usage
            thrown = reply.discarded
        if reply is not None and reply.text.strip():
            text, cut = probing.model_text(reply.text)
            if cut:
                self.listener.notice(cut)
            source = probing.MODEL
        return ProbeRecord(
            session_id=self.session.id,
            question_id=question.id,
            n=n,
            point=target.point,
            state_before=target.state,
            question=text,
            source=source,
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            cached_tokens=usage.cached_tokens if usage else 0,
            latency_ms=round(latency, 1),
            discarded=thrown,
        )

    def _answer(
        self, probe: ProbeRecord, attempt: str, current: grading.Grade
    ) -> tuple[ProbeRecord, grading.Grade]:
        """The learner's answer to ``probe``, graded; the probe saved answered, the grade lifted."""
        text, seconds = self._listen()
        target = probing.Target(probe.point, "", probe.state_before, None)
        after = self._graded(probing.graded_text(target, attempt, text))
        alone = self.grader.grade(self.question, text)  # the rubric's reading, no request
        lifted = probing.lifted(current, probe.point, after, alone)
        usage = after.usage or Usage(0, 0)
        answered = replace(
            probe,
            answer=text,
            seconds=round(seconds, 1),
            state_after=lifted.points[probe.point - 1].state if lifted.points else None,
            grade_prompt_tokens=usage.prompt_tokens,
            grade_completion_tokens=usage.completion_tokens,
            grade_cached_tokens=usage.cached_tokens,
            grade_discarded=after.discarded,
        )
        self.store.record_probe(answered)
        return answered, lifted


def ratings(
    study: Study, store: Store, session: SessionRecord, listener: InterviewListener
) -> None:
    """The closing screen: every graded, unrated question with its suggestion; saved as confirmed."""
    rows, attempts = [], {}
    for question, record in quizzing.unrated(study, store, session):
        result, _ = answers.as_grade(record)
        rows.append(Rated(question, result, quizzing.suggestion(result)))
        attempts[question.id] = record.attempt
    if not rows:
        return
    chosen = listener.ratings(rows)
    if chosen is None:
        raise Stopped(session.id)
    for row in rows:
        rating = chosen.get(row.question.id)
        if rating is None:
            continue
        attempt = attempts[row.question.id]
        quizzing.rate(study, store, session, row.question, rating, attempt, row.result, listener)
