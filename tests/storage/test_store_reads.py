"""The store's reads as callers rely on them: one session's view, cards, the review log, grades."""

from __future__ import annotations

import json

import pytest

from studybot.errors import SessionNotFound
from studybot.storage.store import (
    CardRow,
    FollowUp,
    GradeRecord,
    PointMark,
    ReviewEntry,
    Store,
    Turn,
    sha256,
)
from studybot.types import Usage

PREFIX = "系统前缀：只答本题。"


def new_session(store: Store, segments=((1, 2, 3), (4, 5)), prefix: str = PREFIX) -> int:
    ids = [q for part in segments for q in part]
    return store.new_session(
        bank="default",
        bank_title="题库",
        first_question=min(ids),
        last_question=max(ids),
        provider="offline",
        model="answer-key",
        base_url="",
        wire_api="chat",
        settings={"kv_model": "qwen2.5-7b"},
        prefix=prefix,
        segments=list(segments),
        summary_in="上一段：Q0",
        mode="quiz",
    )


def turn(session_id: int, question_id: int, segment: int = 0, prefix: str = PREFIX) -> Turn:
    return Turn(
        session_id=session_id,
        segment=segment,
        question_id=question_id,
        question=f"第 {question_id} 题",
        answer=f"答 {question_id}",
        prompt_tokens=100 * question_id,
        completion_tokens=10,
        cached_tokens=0,
        context_tokens=100 * question_id + 10,
        local_prompt_tokens=100 * question_id,
        local_completion_tokens=10,
        usage_source="local",
        latency_ms=1.5,
        prefix_sha256=sha256(prefix),
    )


def follow_up(session_id: int, question_id: int, text: str) -> FollowUp:
    return FollowUp(session_id, question_id, text, f"答：{text}", 50, 5, 0, 2.0)


def grade(session_id: int, question_id: int, **extra) -> GradeRecord:
    values = {
        "session_id": session_id,
        "question_id": question_id,
        "attempt": "我的作答",
        "score": 0.5,
        "points": (
            PointMark("要点一", "covered", "原话一"),
            PointMark("要点二", "partly", "原话二"),
            PointMark("要点三", "contradicted", "说反了"),
            PointMark("要点四", "missed"),
        ),
        "advice": "补上要点四",
        "source": "offline",
    }
    return GradeRecord(**{**values, **extra})


def entry(question_id, rating, at, grade, bank="default", session_id=None) -> ReviewEntry:
    return ReviewEntry(question_id, rating, grade, "作答", at, session_id, bank, "{}")


def card(question_id: int, due: str, bank: str = "default", reviews: int = 1) -> CardRow:
    return CardRow(bank, question_id, "{}", due, "learning", 3, reviews)


def review_fixed(store: Store, question_id, due, at, grade=None, bank="default", session_id=None):
    """A review through the store's one transaction, with a fixed schedule."""

    def schedule(before: CardRow | None):
        reviews = before.reviews + 1 if before else 1
        logged = entry(question_id, 3, at, grade, bank, session_id)
        return card(question_id, due, bank, reviews), logged

    return store.review(bank, question_id, schedule)


def test_a_view_holds_everything_stored_about_one_session(store):
    session_id = new_session(store)
    other = new_session(store, segments=((9,),))
    store.record_turn(turn(other, 9))
    for question_id in (2, 1, 4):
        store.record_turn(turn(session_id, question_id, segment=0 if question_id < 4 else 1))
    store.record_followup(follow_up(session_id, 2, "先问这个"))
    store.record_followup(follow_up(session_id, 1, "再问那个"))
    store.record_followup(follow_up(session_id, 2, "最后一个"))
    store.record_grade(grade(session_id, 1))
    store.set_summary(session_id, 0, "Q1：要点", Usage(400, 30, 256))
    later = "2026-01-02T00:00:00+00:00"
    review_fixed(
        store, 1, "2030-01-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00", 0.5, session_id=other
    )
    review_fixed(store, 1, "2030-01-01T00:00:00+00:00", later, 0.5, session_id=session_id)
    review_fixed(store, 2, "2030-01-01T00:00:00+00:00", later, 0.5, session_id=session_id)
    review_fixed(
        store,
        2,
        "2030-01-01T00:00:00+00:00",
        "2026-01-03T00:00:00+00:00",
        1.0,
        session_id=session_id,
    )
    view = store.view(session_id)
    assert view.record == store.session(session_id) and view.record.mode == "quiz"
    assert [t.question_id for t in view.turns] == [1, 2, 4]  # by question id
    assert [f.question for f in view.followups] == ["先问这个", "再问那个", "最后一个"]
    assert [f.question for f in view.followups_of(2)] == ["先问这个", "最后一个"]
    assert view.turn(4).segment == 1 and view.turn(3) is None and view.turn(9) is None
    assert [s.question_ids for s in view.segments] == [(1, 2, 3), (4, 5)]
    first, second = view.segments
    assert (first.summary_in, first.summary_out, first.summary_usage) == (
        "上一段：Q0",
        "Q1：要点",
        Usage(400, 30, 256),
    )
    assert (second.summary_in, second.summary_out, second.summary_usage) == ("Q1：要点", None, None)
    assert set(view.grades) == {1} and view.grades[1].advice == "补上要点四"
    assert {q: r.reviewed_at for q, r in view.reviews.items()} == {  # the latest of each
        1: later,
        2: "2026-01-03T00:00:00+00:00",
    }
    assert view.prefixes == {sha256(PREFIX): PREFIX}
    assert store.view(str(session_id)) == view  # an id typed on the command line


def test_a_view_keeps_every_prefix_its_turns_were_sent_with(store):
    session_id = new_session(store)
    store.record_turn(turn(session_id, 1))
    store.remember_prefix("改过的前缀")
    store.record_turn(turn(session_id, 2, prefix="改过的前缀"))
    store.record_turn(turn(session_id, 3, prefix="一个从未保存的前缀"))
    view = store.view(session_id)
    assert view.prefixes == {sha256(PREFIX): PREFIX, sha256("改过的前缀"): "改过的前缀"}
    assert view.record.prefix == PREFIX


@pytest.mark.parametrize("session_id", [99, "abc", None])
def test_a_view_of_an_unknown_session_is_session_not_found(store, session_id):
    new_session(store)
    with pytest.raises(SessionNotFound, match="no session") as raised:
        store.view(session_id)
    assert raised.value.exit_code == 2 and "studybot sessions" in raised.value.hint


def test_review_hands_the_stored_card_to_the_schedule_and_logs_each_rating(store):
    seen: list[CardRow | None] = []

    def schedule(before):
        seen.append(before)
        count = before.reviews + 1 if before else 1
        due = f"2026-0{count}-01T00:00:00+00:00"
        return card(7, due, reviews=count), entry(7, 3, f"2026-0{count}-01", 0.8)

    first = store.review("default", 7, schedule)
    second = store.review("default", 7, schedule)
    assert seen == [None, first]
    assert second.reviews == 2 and store.card("default", 7) == second
    assert [e.reviewed_at for e in store.reviews("default", 7)] == ["2026-01-01", "2026-02-01"]


def test_a_schedule_that_fails_leaves_neither_card_nor_log(store):
    review_fixed(store, 7, "2026-01-01T00:00:00+00:00", "2025-12-31T00:00:00+00:00")

    def broken(before):
        raise RuntimeError("the scheduler broke")

    with pytest.raises(RuntimeError):
        store.review("default", 7, broken)

    def half(before):
        return card(7, "2027-01-01T00:00:00+00:00", reviews=99), "not an entry"

    with pytest.raises(TypeError):
        store.review("default", 7, half)
    assert store.card("default", 7).reviews == 1
    assert len(store.reviews("default")) == 1


def test_cards_come_soonest_due_first_per_bank_or_all(store):
    review_fixed(store, 5, "2026-03-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00")
    review_fixed(store, 2, "2026-01-15T00:00:00+00:00", "2026-01-01T00:00:00+00:00")
    review_fixed(store, 9, "2026-01-15T00:00:00+00:00", "2026-01-01T00:00:00+00:00")
    review_fixed(store, 1, "2026-02-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00", bank="mine")
    assert [c.question_id for c in store.cards("default")] == [2, 9, 5]
    assert [(c.bank, c.question_id) for c in store.cards()] == [
        ("default", 2),
        ("default", 9),
        ("mine", 1),
        ("default", 5),
    ]
    assert store.cards("nobody") == [] and store.card("mine", 2) is None


def test_due_cards_are_those_due_by_then_most_overdue_first(store):
    review_fixed(store, 5, "2026-01-10T00:00:00+00:00", "2026-01-01T00:00:00+00:00")
    review_fixed(store, 3, "2026-01-02T00:00:00+00:00", "2026-01-01T00:00:00+00:00")
    review_fixed(store, 8, "2026-01-10T00:00:00+00:00", "2026-01-01T00:00:00+00:00")
    review_fixed(store, 1, "2026-02-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00")
    review_fixed(store, 4, "2026-01-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00", bank="mine")
    assert store.due_cards("default", "2026-01-10T00:00:00+00:00") == [3, 5, 8]  # due == at is due
    assert store.due_cards("default", "2026-01-09T23:59:59+00:00") == [3]
    assert store.due_cards("default", "2025-12-31T00:00:00+00:00") == []
    assert store.due_cards("mine", "2030-01-01T00:00:00+00:00") == [4]


def test_the_review_log_is_read_oldest_first_per_bank_and_question(store):
    for at in ("2026-01-01", "2026-01-02"):
        review_fixed(store, 4, "2026-02-01T00:00:00+00:00", at, grade=1.0)
    review_fixed(store, 2, "2026-02-01T00:00:00+00:00", "2026-01-03", grade=0.0)
    review_fixed(store, 4, "2026-02-01T00:00:00+00:00", "2026-01-04", bank="mine")
    assert [(e.question_id, e.reviewed_at) for e in store.reviews("default")] == [
        (4, "2026-01-01"),
        (4, "2026-01-02"),
        (2, "2026-01-03"),
    ]
    assert [e.reviewed_at for e in store.reviews("default", 4)] == ["2026-01-01", "2026-01-02"]
    assert [e.bank for e in store.reviews("mine")] == ["mine"]


def test_review_stats_average_the_graded_ratings_and_name_the_last(store):
    review_fixed(store, 4, "2026-02-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00", grade=1.0)
    review_fixed(store, 4, "2026-02-01T00:00:00+00:00", "2026-01-05T00:00:00+00:00", grade=0.5)
    review_fixed(store, 4, "2026-02-01T00:00:00+00:00", "2026-01-03T00:00:00+00:00")  # not graded
    review_fixed(store, 6, "2026-02-01T00:00:00+00:00", "2026-01-02T00:00:00+00:00")  # never graded
    review_fixed(
        store, 4, "2026-02-01T00:00:00+00:00", "2026-01-09T00:00:00+00:00", 0.0, bank="mine"
    )
    stats = store.review_stats("default")
    assert set(stats) == {4, 6}
    assert stats[4].mean_grade == pytest.approx(0.75)  # ungraded ratings do not count as 0
    assert stats[4].last_reviewed == "2026-01-05T00:00:00+00:00"
    assert stats[6].mean_grade is None and stats[6].last_reviewed == "2026-01-02T00:00:00+00:00"


def test_grades_keep_each_points_state_evidence_and_the_graders_estimate(store):
    session_id = new_session(store)
    estimate = (
        PointMark("要点一", "covered", "原话一"),
        PointMark("要点二", "missed"),
        PointMark("要点三", "contradicted", "说反了"),
        PointMark("要点四", "missed"),
    )
    store.record_grade(grade(session_id, 1, estimate=estimate, estimate_score=0.25))
    store.record_grade(grade(session_id, 2, score=1.0, points=(PointMark("唯一", "covered"),)))
    saved = store.grades(session_id)
    assert set(saved) == {1, 2}
    first = saved[1]
    assert [(m.point, m.state, m.evidence) for m in first.points] == [
        ("要点一", "covered", "原话一"),
        ("要点二", "partly", "原话二"),
        ("要点三", "contradicted", "说反了"),
        ("要点四", "missed", None),
    ]
    assert first.estimate == estimate and first.estimate_score == 0.25 and first.changed
    assert [m.covered for m in first.points] == [True, False, False, False]
    assert saved[2].estimate == () and not saved[2].changed and saved[2].created
    # grading the same question again replaces the grade
    store.record_grade(grade(session_id, 1, score=0.75, points=estimate))
    again = store.grades(session_id)[1]
    assert again.score == 0.75 and again.points == estimate and again.estimate == ()
    assert store.grades(new_session(store)) == {}


def test_grades_saved_before_states_were_kept_read_as_covered_or_missed(store):
    session_id = new_session(store)
    old_points = [{"point": "要点一", "covered": True}, {"point": "要点二", "covered": False}]
    store.db.table("grades").insert(
        {
            "session_id": session_id,
            "question_id": 3,
            "attempt": "旧的作答",
            "score": 0.5,
            "points": json.dumps(old_points, ensure_ascii=False),
            "advice": "",
            "source": "offline",
            "prompt_tokens": 0,
            "completion_tokens": 0,
            "cached_tokens": 0,
            "requests": 0,
            "created": "2025-06-01T00:00:00+00:00",
        }
    )
    (old,) = store.grades(session_id).values()
    assert old.points == (PointMark("要点一", "covered"), PointMark("要点二", "missed"))
    assert old.estimate == () and old.estimate_score is None and not old.changed
    assert old.attempt == "旧的作答" and old.score == 0.5
