"""The quiz steps of the loop: the attempt and its draft, the marks the learner confirms, the rating.

A quiz question goes: the attempt (kept as a draft on Ctrl-C, offered
again on resume) → the answer → the grade, saved as the grader's estimate →
the learner's marks, saved as the grade with the estimate beside it → a
rating, suggested by the confirmed grade. A session that stopped between a
grade and its rating asks the missing ratings first when it resumes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from studybot.bank import Question
from studybot.learn import grading, review
from studybot.storage.store import GradeRecord, SessionRecord, Store
from studybot.study import answers
from studybot.study.listening import QUIT, AttemptInterrupted, Listener, Stopped

if TYPE_CHECKING:  # session imports this module
    from studybot.study.session import Study


def read_attempt(
    store: Store, session: SessionRecord, question: Question, listener: Listener
) -> str:
    """The learner's attempt, from their kept draft if an earlier run stopped while they typed."""
    draft = store.draft(session.id, question.id)
    if draft:
        listener.draft_found(question, draft)
    try:
        return listener.attempt(question) or ""
    except AttemptInterrupted as stop:
        if stop.draft.strip():
            store.save_draft(session.id, question.id, stop.draft)
        raise


def confirm(
    store: Store,
    session: SessionRecord,
    question: Question,
    record: GradeRecord,
    shown: grading.Grade,
    estimate: grading.Grade,
    listener: Listener,
) -> grading.Grade:
    """The marks the learner confirms from ``shown``; saved as the grade when they change any."""
    marks = listener.confirm_marks(question, shown)
    if isinstance(marks, str):  # QUIT
        raise Stopped(session.id)
    if states(marks) != states(shown):
        store.record_grade(answers.confirmed(record, marks, estimate))
    return marks


def states(result: grading.Grade) -> tuple[str, ...]:
    return tuple(p.state for p in result.points)


def suggestion(result: grading.Grade | None) -> int:
    """The rating Enter takes: from the confirmed grade (Again with any contradicted point)."""
    if result is None:
        return review.suggest_rating(None)
    return review.suggest_rating(result.score, result.contradicted)


def rate(
    study: Study,
    store: Store,
    session: SessionRecord,
    question: Question,
    rating: int,
    attempt: str | None,
    result: grading.Grade | None,
    listener: Listener,
) -> None:
    scheduled = review.record_review(
        store,
        bank=session.bank,
        question_id=question.id,
        rating=rating,
        grade=result.score if result else None,
        attempt=attempt,
        session_id=session.id,
        settings=study.settings,  # desired retention, maximum interval
    )
    # record_review has committed: only now is the rating shown as saved.
    listener.rating_saved(question, rating, scheduled.interval)


def unrated(study: Study, store: Store, session: SessionRecord):
    """Each graded question of ``session`` not rated yet, as (question, grade), in asked order.

    A question the bank no longer holds is named by the text it was asked with.
    """
    grades, rated = store.grades(session.id), store.session_reviews(session.id)
    asked = {t.question_id: t for t in store.turns(session.id)}
    known = {q.id: q for q in study.bank.questions}
    for segment in store.segments(session.id):
        for question_id in segment.question_ids:
            record = grades.get(question_id)
            if record is None or question_id in rated:
                continue
            text = asked[question_id].question if question_id in asked else ""
            yield (
                known.get(question_id) or Question(id=question_id, chapter=0, question=text),
                record,
            )


def missing_ratings(study: Study, store: Store, session: SessionRecord, listener: Listener) -> None:
    """Ask for each graded, unrated question of ``session``, in the order they were asked.

    An earlier run stopped at "Rate recall" (Ctrl-C, a hang-up, ``q``): its
    turn and grade are saved, the rating is not. Enter takes the suggestion
    as usual; a follow-up needs the question's segment, so it is not offered.
    A question left unrated again (``NEXT``) is asked again on the next resume.
    """
    for question, record in unrated(study, store, session):
        shown, estimate = answers.as_grade(record)
        listener.rating_missing(question, shown)
        result = confirm(store, session, question, record, shown, estimate, listener)
        action = listener.after_answer(question, suggestion(result))
        if action == QUIT:
            raise Stopped(session.id)
        if isinstance(action, int):  # anything else leaves it unrated, asked next time
            rate(study, store, session, question, action, record.attempt, result, listener)
