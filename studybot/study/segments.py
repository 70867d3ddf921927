"""Cutting a range of questions into study segments.

A segment holds ``minimum``–``maximum`` questions (5–8 by default). Among
all ways to cut a range, the chosen one, in order of importance:

1. keeps every segment's projected peak context within the token budget;
2. has as few segments below the minimum as the range allows (a range
   shorter than the minimum is one segment; 9 questions cannot be 5–8s);
3. splits as few chapters across segments as possible;
4. uses as few segments as possible;
5. is as even as possible (11 → 6 + 5, 20 → 7 + 7 + 6).

Everything here is pure: the caller supplies the peak-context projection.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from studybot.bank import Question

# Framing tokens per message (start, role, newline, end) and per request
# (the reply primer); see studybot.tokens.
MESSAGE_OVERHEAD = 4
REQUEST_OVERHEAD = 3


@dataclass(frozen=True)
class Segment:
    index: int  # 0-based position in the session
    question_ids: tuple[int, ...]

    @property
    def first(self) -> int:
        return self.question_ids[0]

    @property
    def last(self) -> int:
        return self.question_ids[-1]


PeakProjection = Callable[[Sequence[Question]], int]


def peak_projection(
    prefix_tokens: int,
    summary_tokens: int,
    question_tokens: Mapping[int, int],
    answer_tokens: Mapping[int, int] | int,
) -> PeakProjection:
    """Projected context n of a segment's last request, answer included.

    n = prefix + carried summary + every question and answer of the
    segment (the last answer is the output still to come).
    """

    def answer(question_id: int) -> int:
        if isinstance(answer_tokens, int):
            return answer_tokens
        return answer_tokens[question_id]

    def peak(questions: Sequence[Question]) -> int:
        body = sum(question_tokens[q.id] + answer(q.id) + 2 * MESSAGE_OVERHEAD for q in questions)
        return prefix_tokens + MESSAGE_OVERHEAD + summary_tokens + body + REQUEST_OVERHEAD

    return peak


def segments(
    questions: Sequence[Question],
    minimum: int = 5,
    maximum: int = 8,
    budget: int | None = None,
    peak: PeakProjection | None = None,
) -> list[Segment]:
    """Cut ``questions`` (in order) into segments; see the module docstring."""
    if not questions:
        return []
    if not 1 <= minimum <= maximum:
        raise ValueError(f"segment sizes {minimum}..{maximum} are not a valid range")
    count = len(questions)
    if count < minimum and (budget is None or peak is None or peak(questions) <= budget):
        return [Segment(0, tuple(q.id for q in questions))]

    def cost(part: Sequence[Question]) -> tuple[int, int, int, int, int]:
        over = int(
            budget is not None and peak is not None and len(part) > 1 and peak(part) > budget
        )
        under = int(len(part) < minimum)
        splits = len({q.chapter for q in part}) - 1
        return (over, under, splits, 1, len(part) ** 2)

    # best[i]: cheapest way to cut questions[i:], and the size of its first segment.
    zero = (0, 0, 0, 0, 0)
    best: list[tuple[tuple[int, ...], int]] = [(zero, 0)] * (count + 1)
    for start in range(count - 1, -1, -1):
        choice: tuple[tuple[int, ...], int] | None = None
        for size in range(min(maximum, count - start), 0, -1):
            head = cost(questions[start : start + size])
            rest = best[start + size][0]
            total = tuple(a + b for a, b in zip(head, rest, strict=True))
            if choice is None or total < choice[0]:
                choice = (total, size)
        assert choice is not None
        best[start] = choice

    out: list[Segment] = []
    start = 0
    while start < count:
        size = best[start][1]
        out.append(Segment(len(out), tuple(q.id for q in questions[start : start + size])))
        start += size
    return out
