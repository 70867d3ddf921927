"""The one segment walk: run, review and interview go through it, each with its own step.

A session's segments are walked in order: a segment already done (every
question finished, its summary written or not needed) is skipped; the
others get a ``Conversation`` rebuilt from the turns saved so far, the
per-question step for every question not yet finished, then a summary
that the next segment carries (the last segment's waits for a reader,
``study.carry``). What a step does with a question (answer it, quiz on
it, interview on it) is the only thing that differs between the modes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from studybot.bank import Question
from studybot.bank.key import summary_text
from studybot.costs import tokens
from studybot.errors import ContextOverflow
from studybot.storage.store import SegmentRecord, SessionRecord, Store, Turn
from studybot.study import answers, prompt
from studybot.study.conversation import Conversation, history
from studybot.study.listening import Listener
from studybot.study.opening import Study
from studybot.types import Messages, Reply, TextSink, Usage


class Step(Protocol):
    """What a mode does with each question of a segment."""

    interview: bool  # the main thread holds the interviewer's questions only

    def finished(self) -> set[int]:
        """The questions whose step is complete (read once per segment)."""
        ...

    def __call__(self, segment: SegmentRecord, conversation: Conversation, question: Question):
        """Take ``question`` through the mode's step; ``conversation`` grows with its turn."""
        ...


def begin(
    study: Study, store: Store, session: SessionRecord, listener: Listener
) -> dict[int, Turn]:
    """The turns saved so far; a provider that simulates its cache sees them again.

    A resumed session's first request would miss the simulated cache unless
    the provider has seen what this session sent before it was interrupted.
    """
    study.provider.notify = listener.notice
    study.provider.discard = listener.discarded
    answered = {turn.question_id: turn for turn in store.turns(session.id)}
    if answered:
        from studybot.study.recorded import session_requests

        sent = session_requests(store.view(session.id))
        study.provider.warm((r.messages, r.output) for r in sent)
    return answered


def walk(
    study: Study,
    store: Store,
    session: SessionRecord,
    listener: Listener,
    answered: dict[int, Turn],
    step: Step,
) -> None:
    """Every segment not yet done: ``step`` on each unfinished question, then its summary."""
    carried: str | None = None  # the summary just written, which the next segment starts from
    segments = store.segments(session.id)
    for segment in segments:
        if carried is not None:
            segment = replace(segment, summary_in=carried)
        # The last segment's summary is written only when a later run reads it.
        last = segment.index == segments[-1].index
        finished = step.finished()
        if (segment.summary_out is not None or last) and finished >= set(segment.question_ids):
            continue
        done_turns = [answered[q] for q in segment.question_ids if q in answered]
        conversation = Conversation(
            session.prefix,
            segment.summary_in,
            history(study.bank, done_turns),
            interview=step.interview,
        )
        for question_id in segment.question_ids:
            if question_id not in finished:
                step(segment, conversation, study.bank.get(question_id))
        if not last:
            carried = summarise(study, store, session, segment, conversation, listener)


def main_turn(
    send: Callable[..., Reply],
    store: Store,
    session: SessionRecord,
    segment: SegmentRecord,
    question: Question,
    messages: Messages,
    on_text: TextSink,
) -> Turn:
    """The main request for ``question`` (``send``: answer it, or pose it); the turn saved at once."""
    local_prompt = tokens.prompt_tokens(messages)
    started = time.perf_counter()
    reply = send(messages, question=question, on_text=on_text)
    latency_ms = (time.perf_counter() - started) * 1000
    turn = answers.turn(session, segment, question, messages, reply, latency_ms, local_prompt)
    store.record_turn(turn)
    return turn


def summarise(
    study: Study,
    store: Store,
    session: SessionRecord,
    segment: SegmentRecord,
    conversation: Conversation,
    listener: Listener,
) -> str:
    """Write and record ``segment``'s summary of its ``conversation`` (also used by ``carry``)."""
    messages = conversation.summary_request()
    questions = [q for q, _ in conversation.history]
    listener.summary_started(segment)
    try:
        reply = study.provider.summarise(messages, questions=questions, lines=prompt.SUMMARY_LINES)
    except ContextOverflow:
        # A session whose summary cannot be written could never complete: carry an
        # extractive summary of the key points instead (no request, no usage).
        reply = Reply(summary_text(questions, lines=prompt.SUMMARY_LINES), usage=Usage(0, 0))
    summary = prompt.clip_summary(reply.text)
    usage = answers.summary_usage(messages, reply)
    store.set_summary(session.id, segment.index, summary, usage, reply.discarded)
    listener.summary_made(segment, summary)
    return summary
