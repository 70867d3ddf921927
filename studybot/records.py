"""What the store keeps of each reply, with its token usage.

A provider that reports usage is believed (``usage_source`` says so);
without a report the tokens are counted locally with ``studybot.tokens``,
and nothing counts as cached. One place turns replies into rows, so an
answer, a grade, a follow-up and a summary count tokens the same way.
"""

from __future__ import annotations

from studybot import grade as grading
from studybot import prompt, tokens
from studybot.bank import Question
from studybot.kv.turns import kv_model, turn_kv_bytes
from studybot.providers import Reply
from studybot.store import (
    FollowUp,
    GradeRecord,
    SegmentRecord,
    SessionRecord,
    SummaryUsage,
    Turn,
    sha256,
)


def turn(
    session: SessionRecord,
    segment: SegmentRecord,
    question: Question,
    messages: prompt.Messages,
    reply: Reply,
    latency_ms: float,
    local_prompt: int,
) -> Turn:
    """The row of one answer: the provider's reported usage wins, else local counts."""
    local_completion = tokens.count(reply.text)
    reported = reply.usage
    prompt_tokens = reported.prompt_tokens if reported else local_prompt
    completion_tokens = reported.completion_tokens if reported else local_completion
    context_tokens = prompt_tokens + completion_tokens
    return Turn(
        session_id=session.id,
        segment=segment.index,
        question_id=question.id,
        question=question.question,
        answer=reply.text,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        cached_tokens=reported.cached_tokens if reported else 0,
        context_tokens=context_tokens,
        local_prompt_tokens=local_prompt,
        local_completion_tokens=local_completion,
        usage_source="provider" if reported and session.provider != "offline" else "local",
        latency_ms=round(latency_ms, 1),
        finish_reason=reply.finish_reason,
        kv_bytes=turn_kv_bytes(kv_model(session.settings), context_tokens),
        prefix_sha256=sha256(messages[0]["content"]),
    )


def grade(session_id: int, question_id: int, attempt: str, result: grading.Grade) -> GradeRecord:
    """The row of one graded attempt; offline grading sends nothing and costs no tokens."""
    usage = result.usage
    return GradeRecord(
        session_id=session_id,
        question_id=question_id,
        attempt=attempt,
        score=result.score,
        points=tuple((p.point, p.covered) for p in result.points),
        advice=result.advice,
        source=result.source,
        prompt_tokens=usage.prompt_tokens if usage else 0,
        completion_tokens=usage.completion_tokens if usage else 0,
        cached_tokens=usage.cached_tokens if usage else 0,
        requests=result.requests,
    )


def follow_up(
    session_id: int,
    question_id: int,
    text: str,
    messages: prompt.Messages,
    reply: Reply,
    latency_ms: float,
) -> FollowUp:
    """The row of one follow-up question and its answer."""
    usage = reply.usage
    return FollowUp(
        session_id=session_id,
        question_id=question_id,
        question=text,
        answer=reply.text,
        prompt_tokens=usage.prompt_tokens if usage else tokens.prompt_tokens(messages),
        completion_tokens=usage.completion_tokens if usage else tokens.count(reply.text),
        cached_tokens=usage.cached_tokens if usage else 0,
        latency_ms=round(latency_ms, 1),
    )


def summary_usage(messages: prompt.Messages, reply: Reply) -> SummaryUsage:
    """The tokens of one summary request."""
    reported = reply.usage
    return SummaryUsage(
        prompt_tokens=reported.prompt_tokens if reported else tokens.prompt_tokens(messages),
        completion_tokens=reported.completion_tokens if reported else tokens.count(reply.text),
        cached_tokens=reported.cached_tokens if reported else 0,
    )
