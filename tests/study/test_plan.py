"""Segmentation: 5-8 questions, chapter-aware, token-aware, pure."""

from __future__ import annotations

import pytest

from studybot import bank
from studybot.bank import Question
from studybot.study import segments


def questions(*chapter_sizes: int) -> list[Question]:
    out, next_id = [], 1
    for chapter, size in enumerate(chapter_sizes, start=1):
        for _ in range(size):
            out.append(Question(next_id, chapter, f"第 {next_id} 题"))
            next_id += 1
    return out


def sizes(parts: list[segments.Segment]) -> list[int]:
    return [len(p.question_ids) for p in parts]


@pytest.mark.parametrize(
    ("chapters", "expected"),
    [
        ((11,), [6, 5]),
        ((20,), [7, 7, 6]),
        ((8,), [8]),
        ((5,), [5]),
        ((3,), [3]),
        ((1,), [1]),
        ((8, 11), [8, 6, 5]),
        ((4, 4), [8]),
        ((9,), [5, 4]),
    ],
)
def test_sizes_follow_chapters_and_stay_even(chapters, expected):
    assert sizes(segments.segments(questions(*chapters))) == expected


def test_segments_cover_the_range_once_in_order():
    qs = questions(8, 11, 20, 8)
    parts = segments.segments(qs)
    flat = [i for p in parts for i in p.question_ids]
    assert flat == [q.id for q in qs]
    assert [p.index for p in parts] == list(range(len(parts)))
    assert all(5 <= len(p.question_ids) <= 8 for p in parts)


def test_no_chapter_is_split_across_segments_when_sizes_allow():
    qs = questions(8, 11, 20, 8, 11, 14)
    for part in segments.segments(qs):
        chapters = {q.chapter for q in qs if q.id in part.question_ids}
        assert len(chapters) == 1, part


def test_the_whole_shipped_bank_cuts_into_5_to_8_without_splitting_chapters():
    shipped = bank.load()
    parts = segments.segments(shipped.questions)
    assert all(5 <= len(p.question_ids) <= 8 for p in parts)
    chapter = {q.id: q.chapter for q in shipped.questions}
    assert all(len({chapter[i] for i in p.question_ids}) == 1 for p in parts)


def test_a_segment_shrinks_when_its_projected_peak_passes_the_budget():
    qs = questions(8)
    peak = segments.peak_projection(
        prefix_tokens=300,
        summary_tokens=0,
        question_tokens={q.id: 40 for q in qs},
        answer_tokens=400,
    )
    assert sizes(segments.segments(qs, budget=10_000, peak=peak)) == [8]
    small = segments.segments(qs, budget=2_600, peak=peak)
    assert all(peak([q for q in qs if q.id in p.question_ids]) <= 2_600 for p in small)
    assert len(small) > 1


def test_peak_projection_counts_prefix_summary_and_every_turn():
    qs = questions(2)
    peak = segments.peak_projection(100, 50, {1: 10, 2: 20}, {1: 30, 2: 40})
    framing = segments.MESSAGE_OVERHEAD + 4 * segments.MESSAGE_OVERHEAD + segments.REQUEST_OVERHEAD
    assert peak(qs) == 100 + 50 + 10 + 30 + 20 + 40 + framing


def test_bad_sizes_are_rejected():
    with pytest.raises(ValueError):
        segments.segments(questions(8), minimum=6, maximum=5)
