"""A study session: planned into segments and started, then run: answer, record, rate.

Every turn is committed before the next request, so ``resume`` picks up at
the first unanswered question of the first unfinished segment. The run
talks to the user only through a ``Listener`` (``study.listening``); the CLI
supplies one. The quiz steps (attempt drafts, confirmed marks, ratings, the
ratings a stopped run left out) are ``study.quizzing``.

Read, quiz and review sessions walk the segments (``study.loop``) with one
step, ``_Answering``; the session's mode picks a ``Policy`` (wait for an
attempt first? grade it? is a rating expected?). An interview walks them
with its own step (``study.interview``). The rules of resuming live in
``study.resuming``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from studybot.bank import Question
from studybot.bank.key import answer_text, has_answer
from studybot.channel.config import Settings
from studybot.costs import tokens
from studybot.errors import BadInput, ContextOverflow
from studybot.learn import grading, live_grade
from studybot.storage.store import SegmentRecord, SessionRecord, Store, Turn
from studybot.study import answers, loop, prompt, quizzing, resuming, segments
from studybot.study.conversation import Conversation
from studybot.study.listening import (  # noqa: F401 - the loop's vocabulary, named here too
    FOLLOW_UP,
    NEXT,
    QUIT,
    Action,
    AttemptInterrupted,
    Listener,
    Stopped,
)
from studybot.study.opening import Study  # noqa: F401 - what a run needs, named here too
from studybot.types import Messages

# Tokens kept free for the carried summary when projecting a segment's peak.
SUMMARY_RESERVE = 300


@dataclass(frozen=True)
class Policy:
    """How one mode treats a question; the loop is the same for all of them."""

    attempt_first: bool  # ask for the user's attempt before the answer is revealed
    grades: bool  # grade the attempt against the key points
    rating_expected: bool  # suggest a rating that Enter accepts (read mode: rating optional)


POLICIES = {
    "read": Policy(attempt_first=False, grades=False, rating_expected=False),
    "quiz": Policy(attempt_first=True, grades=True, rating_expected=True),
    "review": Policy(attempt_first=True, grades=True, rating_expected=True),
}


# An interview walks the same segments with its own step (study.interview).
MODES = (*POLICIES, "interview")


def start(
    study: Study,
    store: Store,
    questions: Sequence[Question],
    *,
    mode: str = "read",
    carried: str | None = None,
    selection: Mapping[str, Any] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> SessionRecord:
    """Plan the chosen questions into segments and create the session (no request is sent).

    ``carried`` is a summary the first segment starts from (a continuing run);
    ``selection`` is what the user chose (``study.selection.chosen``);
    ``extra``: settings of the mode kept with the session (an interview's follow-ups).
    """
    if mode not in MODES:
        raise BadInput(f"unknown study mode {mode!r}", hint="modes: " + ", ".join(MODES))
    if not questions:
        raise BadInput("no questions to study", hint="choose some with --from/--to or --chapter")
    prefix = prompt.system_prefix(study.bank, study.settings.prefix_style)
    parts = cut(
        questions,
        prefix,
        study.settings,
        answer_lengths(questions, study.settings, study.provider.live),
    )
    settings = study.settings
    session_id = store.new_session(
        bank=study.key,
        bank_title=study.bank.title,
        first_question=min(q.id for q in questions),
        last_question=max(q.id for q in questions),
        provider=study.provider.name,
        model=study.provider.model,
        base_url=settings.base_url if study.provider.live else "",
        wire_api=settings.wire_api,
        settings={
            "segment_min": settings.segment_min,
            "segment_max": settings.segment_max,
            "segment_budget": settings.segment_budget,
            "context_window": settings.context_window,
            "kv_model": settings.kv_model,
            "question_digests": resuming.question_digests(questions),
            **_engine_rule(settings),
            **grader_record(settings, study.provider.live),
            **(extra or {}),
        },
        prefix=prefix,
        segments=[p.question_ids for p in parts],
        mode=mode,
        summary_in=carried,
        selection=dict(selection) if selection else None,
    )
    return store.session(session_id)


def _engine_rule(settings: Settings) -> dict[str, Any]:
    """The cache rule a server named (llama.cpp's /props), kept for the session's reports."""
    if settings.source("cache_rule") != "server /props":
        return {}
    return {"cache_rule": settings.cache_rule, "cache_slots": settings.cache_slots}


def grader_record(settings: Settings, live: bool) -> dict[str, Any]:
    """The grader a live session's side requests go to, as its settings keep it ({} for none)."""
    from studybot.channel.grader import grader_settings

    side = grader_settings(settings) if live else None
    if side is None:
        return {}
    return {
        "grader": {"model": side.model, "base_url": side.base_url, "from": settings.side_origin}
    }


def cut(
    questions: Sequence[Question],
    prefix: str,
    settings: Settings,
    answers: Mapping[int, int] | int,
) -> list[segments.Segment]:
    """The segments a run cuts ``questions`` into (``studybot plan`` projects the same).

    ``answers`` are answer lengths in tokens: per question, or one figure.
    """
    question_tokens = {q.id: tokens.count(prompt.question_text(q)) for q in questions}
    peak = segments.peak_projection(tokens.count(prefix), SUMMARY_RESERVE, question_tokens, answers)
    return segments.segments(
        questions,
        minimum=settings.segment_min,
        maximum=settings.segment_max,
        budget=settings.segment_budget,
        peak=peak,
    )


def answer_lengths(
    questions: Sequence[Question], settings: Settings, live: bool, given: int | None = None
) -> dict[int, int] | int:
    """The answer tokens a cut projects, one figure or per question (``projected_answers``)."""
    length = projected_length(settings, live, given)
    if length is not None:
        return length
    return {
        q.id: tokens.count(answer_text(q)) if has_answer(q) else settings.answer_tokens
        for q in questions
    }


def projected_answers(
    questions: Sequence[Question], settings: Settings, live: bool, given: int | None = None
) -> dict[int, str]:
    """Each question's answer as run, plan and the interview plan project it.

    ``given`` (``--answer-tokens``) for every question; else, live, the
    expected ``answer_tokens``; offline, the answer key's own answer, and the
    live length where the key has none (a live resume answers it). A live
    model's words are unknown: a stand-in of exactly that many tokens (" x"
    is one token each) gives every count the right length.
    """
    length = projected_length(settings, live, given)
    stand_in = " x" * (settings.answer_tokens if length is None else length)
    if length is not None:
        return {q.id: stand_in for q in questions}
    return {q.id: answer_text(q) if has_answer(q) else stand_in for q in questions}


def projected_length(settings: Settings, live: bool, given: int | None) -> int | None:
    """One answer length for every question, or None: the offline answer key's own lengths."""
    if given is not None:
        return given
    return settings.answer_tokens if live else None


def run(study: Study, store: Store, session: SessionRecord, listener: Listener) -> SessionRecord:
    """Answer every unanswered question of ``session`` and write missing summaries."""
    answered = loop.begin(study, store, session, listener)
    policy = POLICIES.get(session.mode, POLICIES["read"])
    if policy.rating_expected and session.unrated:
        quizzing.missing_ratings(study, store, session, listener)
    if policy.grades:
        # The grader loads its word lists while the learner reads and types;
        # the first grade waits for the build only if it has not finished.
        listener.meanwhile(partial(grading.warm, study.bank))
    step = _Answering(study, store, session, listener, policy, answered)
    step.warned = any(turn.usage_suspect for turn in answered.values())
    try:
        loop.walk(study, store, session, listener, answered, step)
    except _Split:
        return run(study, store, store.session(session.id), listener)
    return store.session(session.id)


class _Split(Exception):
    """A question did not fit: its segment was split there, and the run starts over."""


@dataclass
class _Answering:
    """The step of read, quiz and review: answer the question (after an attempt), grade, rate."""

    study: Study
    store: Store
    session: SessionRecord
    listener: Listener
    policy: Policy
    answered: dict[int, Turn]  # every turn of the session, grown as answers arrive
    warned: bool = False  # a turn's reported usage looked wrong, and the user was told
    interview = False

    def finished(self) -> set[int]:
        return set(self.answered)

    def __call__(
        self, segment: SegmentRecord, conversation: Conversation, question: Question
    ) -> None:
        study, store, session, listener = self.study, self.store, self.session, self.listener
        if not study.provider.live and not has_answer(question):
            listener.unanswered_offline(question)  # no turn: a live resume answers it
            return
        step = _Step(study, store, session, segment, conversation, question, listener)
        try:
            messages = _guarded(step)
            listener.question_started(segment, question)
            attempt = None
            if self.policy.attempt_first:
                attempt = quizzing.read_attempt(store, session, question, listener)
            send = study.provider.answer
            turn = loop.main_turn(send, store, session, segment, question, messages, listener.text)
            listener.turn_recorded(turn, question)
        except ContextOverflow:
            if not conversation.history:
                raise  # the question does not fit even after the summary alone
            # The way past: this question starts a fresh segment from this one's summary.
            store.split_segment(session.id, segment.index, question.id)
            listener.segment_split(segment, question)
            raise _Split from None
        if turn.usage_suspect and not self.warned:
            self.warned = True
            listener.usage_suspect(turn)
        self.answered[question.id] = turn
        conversation.answered(question, turn.answer)
        result = None
        if self.policy.grades:
            result = _grade(step, attempt or "", grading.offline(study.bank))
        _after_answer(step, self.policy, attempt, result)


@dataclass(frozen=True)
class _Step:
    """One question of a segment: what answering, grading and rating it need."""

    study: Study
    store: Store
    session: SessionRecord
    segment: SegmentRecord
    conversation: Conversation  # the segment's main thread, grown as answers arrive
    question: Question
    listener: Listener


def _guarded(step: _Step) -> Messages:
    """The request for the question, or ContextOverflow before anything is asked or sent."""
    settings, question = step.study.settings, step.question
    messages = step.conversation.ask(question)
    local_prompt = tokens.prompt_tokens(messages)
    window = settings.context_window
    if local_prompt + settings.max_output_tokens > window:
        raise ContextOverflow(
            f"question {question.id} needs {local_prompt} prompt tokens + "
            f"{settings.max_output_tokens} for the answer, over the {window}-token window",
            hint="use smaller segments (--segment-max 5) or a model with a longer context",
        )
    return messages


def _grade(step: _Step, attempt: str, grader: grading.OfflineGrader) -> grading.Grade:
    """Grade the attempt, show it, and return the marks the learner confirms.

    The grader's estimate is saved first (a stop at the marks keeps it);
    the confirmed marks replace it, the estimate kept beside them.
    """
    session, question, store = step.session, step.question, step.store
    # A side request: it extends the main history but never enters it.
    messages = step.conversation.side(live_grade.grading_request(question, attempt))
    estimate = live_grade.judge(step.study.provider, grader, messages, question, attempt)
    record = answers.grade_record(session.id, question.id, attempt, estimate)
    store.record_grade(record)
    store.drop_draft(session.id, question.id)
    step.listener.graded(question, estimate)
    return quizzing.confirm(store, session, question, record, estimate, estimate, step.listener)


def _after_answer(
    step: _Step, policy: Policy, attempt: str | None, result: grading.Grade | None
) -> None:
    suggestion = quizzing.suggestion(result) if policy.rating_expected else None
    while True:
        action = step.listener.after_answer(step.question, suggestion)
        if action == QUIT:
            raise Stopped(step.session.id)
        if isinstance(action, int):
            quizzing.rate(
                step.study,
                step.store,
                step.session,
                step.question,
                action,
                attempt,
                result,
                step.listener,
            )
            return
        if action != FOLLOW_UP:
            return
        text = step.listener.follow_up_text(step.question)
        if text:
            _follow_up(step, text)


def _follow_up(step: _Step, text: str) -> None:
    session, question = step.session, step.question
    messages = step.conversation.follow_up(text)
    started = time.perf_counter()
    reply = step.study.provider.follow_up(
        messages, question=question, text=text, on_text=step.listener.text
    )
    latency_ms = (time.perf_counter() - started) * 1000
    follow_up = answers.follow_up(session.id, question.id, text, messages, reply, latency_ms)
    step.store.record_followup(follow_up)
    step.listener.follow_up_answered(follow_up)
