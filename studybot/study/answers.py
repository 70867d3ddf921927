"""What a reply becomes when it is saved: a Turn, a grade, a follow-up or a summary's usage.

The provider's usage is stored when it reported one, studybot's own count
beside it (``tokens.settle``); a reply that is not whole carries its flag
(``Reply.flag``), so no report can mistake it for a normal answer. The
requests sent for a reply and thrown away (``Reply.discarded``) are kept
beside the kept request's figures, never mixed into them: context n, KV
and the cache replay are about the request that was kept.
"""

from __future__ import annotations

from dataclasses import replace

from studybot.bank import Question
from studybot.costs import tokens
from studybot.costs.kv.turns import kv_model, turn_kv_bytes
from studybot.learn import grading
from studybot.storage.store import (
    FollowUp,
    GradeRecord,
    PointMark,
    SegmentRecord,
    SessionRecord,
    Turn,
    sha256,
)
from studybot.types import Messages, Reply, Usage


def turn(
    session: SessionRecord,
    segment: SegmentRecord,
    question: Question,
    messages: Messages,
    reply: Reply,
    latency_ms: float,
    local_prompt: int,
) -> Turn:
    """The saved turn for ``reply``: usage settled, cut or empty answers flagged."""
    counted = tokens.settle(
        reply.usage,
        messages,
        reply.text,
        from_provider=session.live,
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
        answer_flag=reply.flag,
        usage_suspect=int(counted.suspect),
        kv_bytes=turn_kv_bytes(kv_model(session.settings), counted.context_tokens),
        prefix_sha256=sha256(messages[0]["content"]),
        discarded=reply.discarded,
    )


def grade_record(
    session_id: int, question_id: int, attempt: str, result: grading.Grade
) -> GradeRecord:
    """The saved grade of an attempt; offline grading sends nothing and counts no tokens."""
    usage = result.usage
    return GradeRecord(
        session_id=session_id,
        question_id=question_id,
        attempt=attempt,
        score=result.score,
        points=_marks(result),
        advice=result.advice,
        source=result.source,
        prompt_tokens=usage.prompt_tokens if usage else 0,
        completion_tokens=usage.completion_tokens if usage else 0,
        cached_tokens=usage.cached_tokens if usage else 0,
        requests=result.requests,
        discarded=result.discarded,
    )


def confirmed(record: GradeRecord, marks: grading.Grade, estimate: grading.Grade) -> GradeRecord:
    """``record`` with the marks the learner confirmed, the grader's ``estimate`` kept beside.

    Marks equal to the estimate keep no estimate (nothing was changed).
    """
    points, guessed = _marks(marks), _marks(estimate)
    changed = points != guessed
    return replace(
        record,
        points=points,
        score=marks.score,
        estimate=guessed if changed else (),
        estimate_score=estimate.score if changed else None,
    )


def as_grade(record: GradeRecord) -> tuple[grading.Grade, grading.Grade]:
    """A stored grade as (the confirmed marks, the grader's estimate), to confirm again."""

    def made(marks: tuple[PointMark, ...], score: float | None) -> grading.Grade:
        points = tuple(grading.PointResult(m.point, m.state, m.evidence) for m in marks)
        return grading.Grade(score, points, record.advice, record.source)

    shown = made(record.points, record.score)
    return shown, made(record.estimate, record.estimate_score) if record.estimate else shown


def _marks(result: grading.Grade) -> tuple[PointMark, ...]:
    return tuple(PointMark(p.point, p.state, p.evidence) for p in result.points)


def follow_up(
    session_id: int,
    question_id: int,
    text: str,
    messages: Messages,
    reply: Reply,
    latency_ms: float,
) -> FollowUp:
    """The saved follow-up question and its answer, usage settled."""
    usage = tokens.settle(reply.usage, messages, reply.text).usage
    return FollowUp(
        session_id=session_id,
        question_id=question_id,
        question=text,
        answer=reply.text,
        prompt_tokens=usage.prompt_tokens,
        completion_tokens=usage.completion_tokens,
        cached_tokens=usage.cached_tokens,
        latency_ms=round(latency_ms, 1),
        discarded=reply.discarded,
    )


def summary_usage(messages: Messages, reply: Reply) -> Usage:
    """The settled usage of one summary request."""
    return tokens.settle(reply.usage, messages, reply.text).usage
