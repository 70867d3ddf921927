"""The study loop: start a session from a plan, then answer, record, summarise.

Every turn is committed before the next request, so ``resume`` picks up at
the first unanswered question of the first unfinished segment. The loop
talks to the user only through a ``Listener``; the CLI supplies one.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from studybot import plan, prompt, tokens
from studybot.bank import Bank, Question
from studybot.config import Settings
from studybot.errors import ContextOverflow
from studybot.kv.turns import kv_model, turn_kv_bytes
from studybot.providers.base import Provider, Reply, Usage
from studybot.store import (
    FollowUp,
    SegmentRecord,
    SessionRecord,
    Store,
    Turn,
    sha256,
)

# Tokens kept free for the carried summary when projecting a segment's peak.
SUMMARY_RESERVE = 300
NEXT, FOLLOW_UP, QUIT = "next", "follow-up", "quit"


class Stopped(Exception):
    """The user chose to stop; the session is saved and resumable."""


class Listener:
    """What the loop reports; every method is optional."""

    def question_started(self, segment: SegmentRecord, question: Question) -> None: ...

    def text(self, chunk: str) -> None: ...

    def turn_recorded(self, turn: Turn, question: Question) -> None: ...

    def after_answer(self, question: Question) -> str:
        return NEXT

    def follow_up_text(self, question: Question) -> str | None:
        return None

    def follow_up_answered(self, follow_up: FollowUp) -> None: ...

    def summary_made(self, segment: SegmentRecord, summary: str) -> None: ...

    def warning(self, message: str) -> None: ...


@dataclass(frozen=True)
class Study:
    """What a run needs besides the store: the bank, the provider, the settings."""

    bank: Bank
    provider: Provider
    settings: Settings


def start(
    study: Study, store: Store, first: int, last: int, bank_ref: str | None = None
) -> SessionRecord:
    """Plan the range into segments and create the session (no request is sent)."""
    questions = study.bank.select(first, last)
    prefix = prompt.system_prefix(study.bank)
    parts = cut(questions, prefix, study.settings, _answer_lengths(study, questions))
    settings = study.settings
    session_id = store.new_session(
        bank=bank_ref or study.bank.name,
        bank_title=study.bank.title,
        first_question=first,
        last_question=last,
        provider=study.provider.name,
        model=study.provider.model,
        base_url=settings.base_url if study.provider.name != "offline" else "",
        wire_api=settings.wire_api,
        settings={
            "segment_min": settings.segment_min,
            "segment_max": settings.segment_max,
            "segment_budget": settings.segment_budget,
            "context_window": settings.context_window,
            "kv_model": settings.kv_model,
        },
        prefix=prefix,
        segments=[p.question_ids for p in parts],
    )
    return store.session(session_id)


def cut(
    questions: Sequence[Question],
    prefix: str,
    settings: Settings,
    answers: Mapping[int, int] | int,
) -> list[plan.Segment]:
    """The segments a run cuts ``questions`` into (``studybot plan`` projects the same).

    ``answers`` are answer lengths in tokens: per question, or one figure.
    """
    question_tokens = {q.id: tokens.count(prompt.question_text(q)) for q in questions}
    peak = plan.peak_projection(tokens.count(prefix), SUMMARY_RESERVE, question_tokens, answers)
    return plan.segments(
        questions,
        minimum=settings.segment_min,
        maximum=settings.segment_max,
        budget=settings.segment_budget,
        peak=peak,
    )


def _answer_lengths(study: Study, questions: Sequence[Question]) -> dict[int, int] | int:
    if study.provider.name == "offline":
        from studybot.providers.offline import answer_text

        return {q.id: tokens.count(answer_text(q)) for q in questions}
    return study.settings.answer_tokens


def run(study: Study, store: Store, session: SessionRecord, listener: Listener) -> SessionRecord:
    """Answer every unanswered question of ``session`` and write missing summaries."""
    answered = {turn.question_id: turn for turn in store.turns(session.id)}
    if answered:
        # A provider that simulates its cache must see what this session sent
        # before it was interrupted, or its first resumed request would miss.
        from studybot.cache.recorded import session_requests

        study.provider.warm(r.messages for r in session_requests(store, session))
    warned = any(turn.usage_suspect for turn in answered.values())
    carried: str | None = None  # the summary just written, which the next segment starts from
    for segment in store.segments(session.id):
        if carried is not None:
            segment = replace(segment, summary_in=carried)
        if segment.summary_out is not None and all(q in answered for q in segment.question_ids):
            continue
        history = [
            (study.bank.get(q), answered[q].answer) for q in segment.question_ids if q in answered
        ]
        for question_id in segment.question_ids:
            if question_id in answered:
                continue
            question = study.bank.get(question_id)
            turn = _answer(study, store, session, segment, history, question, listener)
            if turn.usage_suspect and not warned:
                warned = True
                listener.warning(suspect_warning(turn))
            answered[question_id] = turn
            history.append((question, turn.answer))
            _after_answer(study, store, session, segment, history, question, listener)
        carried = _summarise(study, store, session, segment, history, listener)
    return store.session(session.id)


def _answer(
    study: Study,
    store: Store,
    session: SessionRecord,
    segment: SegmentRecord,
    history: list[tuple[Question, str]],
    question: Question,
    listener: Listener,
) -> Turn:
    messages = prompt.messages(session.prefix, segment.summary_in, history, question)
    local_prompt = tokens.prompt_tokens(messages)
    window = study.settings.context_window
    if local_prompt + study.settings.max_output_tokens > window:
        raise ContextOverflow(
            f"question {question.id} needs {local_prompt} prompt tokens + "
            f"{study.settings.max_output_tokens} for the answer, over the {window}-token window",
            hint="use smaller segments (--segment-max 5) or a model with a longer context",
        )
    listener.question_started(segment, question)
    started = time.perf_counter()
    reply = study.provider.complete(messages, question=question, on_text=listener.text)
    latency_ms = (time.perf_counter() - started) * 1000
    turn = _turn(session, segment, question, messages, reply, latency_ms, local_prompt)
    store.record_turn(turn)
    listener.turn_recorded(turn, question)
    return turn


def _turn(
    session: SessionRecord,
    segment: SegmentRecord,
    question: Question,
    messages: prompt.Messages,
    reply: Reply,
    latency_ms: float,
    local_prompt: int,
) -> Turn:
    counted = tokens.settle(
        reply.usage,
        messages,
        reply.text,
        from_provider=session.provider != "offline",
        local_prompt=local_prompt,
    )
    return Turn(
        session_id=session.id,
        segment=segment.index,
        question_id=question.id,
        question=question.question,
        answer=reply.text,
        prompt_tokens=counted.usage.prompt_tokens,
        completion_tokens=counted.usage.completion_tokens,
        cached_tokens=counted.usage.cached_tokens,
        context_tokens=counted.context_tokens,
        local_prompt_tokens=counted.local.prompt_tokens,
        local_completion_tokens=counted.local.completion_tokens,
        usage_source=counted.source,
        latency_ms=round(latency_ms, 1),
        finish_reason=reply.finish_reason,
        answer_flag=answer_flag(reply),
        usage_suspect=int(counted.suspect),
        kv_bytes=turn_kv_bytes(kv_model(session.settings), counted.context_tokens),
        prefix_sha256=sha256(messages[0]["content"]),
    )


def answer_flag(reply: Reply) -> str | None:
    """Why an answer is not whole: "empty", "truncated" (the token limit cut it), or None."""
    if not reply.text.strip():
        return "empty"
    if reply.finish_reason == "length":
        return "truncated"
    return None


def suspect_warning(turn: Turn) -> str:
    return (
        f"Q{turn.question_id}: the provider reported {turn.prompt_tokens} prompt tokens but the "
        f"request holds about {turn.local_prompt_tokens}; studybot keeps both and sizes the "
        "context from its own count (said once per session; `studybot show` marks such turns)"
    )


def _after_answer(
    study: Study,
    store: Store,
    session: SessionRecord,
    segment: SegmentRecord,
    history: list[tuple[Question, str]],
    question: Question,
    listener: Listener,
) -> None:
    while True:
        action = listener.after_answer(question)
        if action == QUIT:
            raise Stopped(session.id)
        if action != FOLLOW_UP:
            return
        text = listener.follow_up_text(question)
        if not text:
            continue
        messages = prompt.follow_up_messages(session.prefix, segment.summary_in, history, text)
        started = time.perf_counter()
        reply = study.provider.follow_up(
            messages, question=question, text=text, on_text=listener.text
        )
        usage = tokens.settle(reply.usage, messages, reply.text).usage
        follow_up = FollowUp(
            session_id=session.id,
            question_id=question.id,
            question=text,
            answer=reply.text,
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            cached_tokens=usage.cached_tokens,
            latency_ms=round((time.perf_counter() - started) * 1000, 1),
        )
        store.record_followup(follow_up)
        listener.follow_up_answered(follow_up)


def _summarise(
    study: Study,
    store: Store,
    session: SessionRecord,
    segment: SegmentRecord,
    history: list[tuple[Question, str]],
    listener: Listener,
) -> str:
    messages = prompt.summary_messages(session.prefix, segment.summary_in, history)
    reply = study.provider.summarise(messages, questions=[q for q, _ in history])
    summary = prompt.clip_summary(reply.text)
    usage: Usage = tokens.settle(reply.usage, messages, reply.text).usage
    store.set_summary(session.id, segment.index, summary, usage)
    listener.summary_made(segment, summary)
    return summary
