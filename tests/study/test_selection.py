"""Choosing what to study: exactly one of range, chapters, tags, ids or weakest."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from studybot import bank
from studybot.bank.selection import parse_numbers
from studybot.errors import BadInput
from studybot.learn import review
from studybot.study import segments, selection

SHIPPED = bank.load()


def ids(questions) -> list[int]:
    return [q.id for q in questions]


def test_a_range_and_either_end_alone(store):
    assert ids(selection.choose(SHIPPED, store, first=3, last=6)) == [3, 4, 5, 6]
    assert ids(selection.choose(SHIPPED, store, first=197)) == [197, 198, 199, 200]
    assert ids(selection.choose(SHIPPED, store, last=2)) == [1, 2]


def test_chapters_come_whole_and_in_bank_order(store):
    chosen = selection.choose(SHIPPED, store, chapters=(4, 1))
    assert ids(chosen) == list(range(1, 9)) + list(range(40, 48))


def test_a_tag_selects_every_question_carrying_it(store):
    chosen = selection.choose(SHIPPED, store, tags=("kv-cache",))
    assert chosen and all("kv-cache" in q.tags for q in chosen)
    assert {23, 34} <= set(ids(chosen))
    assert ids(chosen) == sorted(ids(chosen))
    both = selection.choose(SHIPPED, store, tags=("kv-cache", "mla"))
    assert set(ids(chosen)) < set(ids(both))


def test_ids_are_deduplicated_and_sorted(store):
    assert ids(selection.choose(SHIPPED, store, ids=(76, 5, 34, 23, 5))) == [5, 23, 34, 76]


def test_weak_picks_the_lowest_mean_grades_of_seen_questions(store):
    at = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    for question_id, grade in ((30, 0.9), (12, 0.1), (50, 0.5), (7, 0.3)):
        review.record_review(
            store, bank="default", question_id=question_id, rating=3, grade=grade, now=at
        )
    assert ids(selection.choose(SHIPPED, store, weak=2)) == [7, 12]
    assert ids(selection.choose(SHIPPED, store, weak=10)) == [7, 12, 30, 50]
    with pytest.raises(BadInput, match="'mine' has been rated"):
        selection.choose(SHIPPED, store, weak=2, bank_key="mine")


def test_weak_with_nothing_seen_says_how_to_start(store):
    with pytest.raises(BadInput) as caught:
        selection.choose(SHIPPED, store, weak=5)
    assert "--quiz" in caught.value.hint


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "nothing chosen"),
        ({"first": 1, "last": 8, "chapters": (3,)}, "--from/--to and --chapter cannot be combined"),
        ({"tags": ("rag",), "weak": 3}, "--tag and --weak cannot be combined"),
        ({"chapters": (15,)}, "no chapter 15"),
        ({"ids": (5, 201, 0)}, "no question 0, 201"),
        ({"first": 190, "last": 210}, "outside bank"),
        ({"weak": 0}, "--weak 0"),
    ],
)
def test_bad_selections_name_the_problem(store, kwargs, message):
    with pytest.raises(BadInput, match=message) as caught:
        selection.choose(SHIPPED, store, **kwargs)
    assert caught.value.exit_code == 2
    assert caught.value.hint


def test_an_unknown_tag_suggests_close_ones_and_lists_what_exists(store):
    with pytest.raises(BadInput, match="kvcache") as caught:
        selection.choose(SHIPPED, store, tags=("kvcache",))
    assert "did you mean kv-cache" in caught.value.hint
    assert "rlhf" in caught.value.hint
    with pytest.raises(BadInput, match="no chapter 0") as caught:
        selection.choose(SHIPPED, store, chapters=(0,))
    assert "chapters are 1–14" in caught.value.hint


@pytest.mark.parametrize(
    ("text", "numbers"),
    [("5,23,34,76", (5, 23, 34, 76)), ("3", (3,)), ("1-3, 9", (1, 2, 3, 9))],
)
def test_number_lists(text, numbers):
    assert parse_numbers(text, "--ids") == numbers


@pytest.mark.parametrize("text", ["", "5,,6", "a", "9-3", "1-x"])
def test_bad_number_lists_name_the_flag(text):
    with pytest.raises(BadInput, match="--ids"):
        parse_numbers(text, "--ids")


def test_planner_cuts_non_contiguous_ids_along_chapters():
    # What a review or an --ids selection hands the planner: gaps, several chapters.
    chosen = selection.choose(
        SHIPPED, None, ids=(2, 4, 6, 7, 8, 21, 23, 25, 27, 30, 34, 36, 41, 43, 45, 46, 47)
    )
    parts = segments.segments(chosen)
    assert [i for p in parts for i in p.question_ids] == ids(chosen)
    chapter = {q.id: q.chapter for q in chosen}
    assert [[chapter[i] for i in p.question_ids] for p in parts] == [
        [1] * 5,
        [3] * 7,
        [4] * 5,
    ]


def test_a_tag_matches_whatever_its_case_in_an_imported_bank(store):
    from dataclasses import replace

    tagged = replace(
        SHIPPED,
        questions=tuple(
            replace(q, tags=("Favourite",)) if q.id in (88, 89) else q for q in SHIPPED.questions
        ),
    )
    assert ids(selection.choose(tagged, store, tags=("favourite",))) == [88, 89]
    assert ids(selection.choose(tagged, store, tags=("FAVOURITE",))) == [88, 89]
