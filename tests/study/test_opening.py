"""The way in: ``open_study``, ``begin``, ``begin_review`` and ``reopen`` as a command calls them."""

from __future__ import annotations

import shutil
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from studybot import bank
from studybot.bank import Bank, Chapter
from studybot.channel.providers import OFFLINE_NOTICE
from studybot.errors import BadInput
from studybot.learn import review
from studybot.storage.store import DB_NAME, Store
from studybot.study import carry, opening, session

SHIPPED = Path(__file__).resolve().parents[2] / "questions"
KEY = "sk-opening-test-0123456789abcdef"
PAST = datetime(2024, 1, 2, 9, 0, tzinfo=UTC)  # ratings given then are due by now


def mini(edit: bool = False) -> Bank:
    """Six shipped questions as a small saved-bank shape; ``edit``: Q2 reworded, Q6 dropped."""
    questions = [
        replace(q, chapter=1 if q.id <= 3 else 2, rubric=()) for q in bank.load().select(1, 6)
    ]
    chapters = (Chapter(1, "注意力", 1, 3), Chapter(2, "缓存", 4, 6))
    if edit:
        questions = questions[:5]
        questions[1] = replace(questions[1], question=questions[1].question + "（改）")
        chapters = (chapters[0], Chapter(2, "缓存", 4, 5))
    return Bank("mini", "小题库", "zh-CN", chapters, tuple(questions))


class QuitAt(session.Listener):
    """Stops the session after the answer to ``question_id``."""

    def __init__(self, question_id: int) -> None:
        self.question_id = question_id

    def after_answer(self, question, suggestion):
        return session.QUIT if question.id == self.question_id else session.NEXT


def stopped_at(study: session.Study, choice: opening.Choice, question_id: int):
    begun = opening.begin(study, choice, quiz=False, fresh=True)
    with pytest.raises(session.Stopped):
        session.run(study, begun.store, begun.record, QuitAt(question_id))
    return begun.store.session(begun.record.id)


def test_no_bank_is_the_shipped_one_answered_offline_with_one_notice():
    study, notice = opening.open_study(opening.Options(flags={"segment_max": 6}))
    assert study.bank.name == "default" and study.key == "default"
    assert len(study.bank.questions) == 200
    assert study.provider.live is False
    assert notice == OFFLINE_NOTICE.format(
        var="TAOTOKEN_API_KEY", empty="", model=" and pass --model ID"
    )
    assert study.settings.segment_max == 6 and study.settings.source("segment_max") == "flag"


def test_a_saved_bank_is_opened_by_its_name():
    bank.save(mini(), "mini")
    study, _ = opening.open_study(opening.Options(bank="mini"))
    assert study.key == "mini" and study.bank.title == "小题库"
    assert [q.id for q in study.bank.questions] == [1, 2, 3, 4, 5, 6]
    with pytest.raises(BadInput, match="no bank named 'nope'"):
        opening.open_study(opening.Options(bank="nope"))


def test_a_bank_path_is_kept_resolved_so_the_session_resumes_from_anywhere(tmp_path, monkeypatch):
    shutil.copytree(SHIPPED, tmp_path / "mybank")
    monkeypatch.chdir(tmp_path)
    study, _ = opening.open_study(opening.Options(bank="mybank"))
    resolved = str((tmp_path / "mybank").resolve())
    assert study.key == resolved
    begun = opening.begin(study, opening.Choice(first=1, last=2), quiz=False, fresh=False)
    assert begun.record.bank == resolved
    monkeypatch.chdir(tmp_path.parent)
    again = opening.reopen(begun.store, begun.record.id, {})
    assert again.study.key == resolved and again.study.bank.get(1) == study.bank.get(1)


@pytest.mark.parametrize(
    ("choice", "message"),
    [
        (opening.Choice(), "nothing chosen to study"),
        (opening.Choice(first=9, last=3), "--from 9 is after --to 3"),
        (opening.Choice(first=1, last=3, chapters=(2,)), "cannot be combined"),
        (opening.Choice(first=195, last=210), "outside bank"),
        (opening.Choice(ids=(7, 999)), "999"),
    ],
)
def test_a_choice_that_names_nothing_studyable_writes_no_database(studybot_home, choice, message):
    study, _ = opening.open_study(opening.Options())
    with pytest.raises(BadInput, match=message):
        opening.begin(study, choice, quiz=False, fresh=False)
    assert not (studybot_home / DB_NAME).exists()


def test_a_weak_choice_with_nothing_rated_writes_no_database(studybot_home):
    study, _ = opening.open_study(opening.Options())
    with pytest.raises(BadInput, match="has been rated yet"):
        opening.begin(study, opening.Choice(weak=3), quiz=False, fresh=False)
    assert not (studybot_home / DB_NAME).exists()


def test_begin_plans_the_chosen_questions_into_a_new_session():
    study, _ = opening.open_study(opening.Options())
    begun = opening.begin(study, opening.Choice(chapters=(2,)), quiz=True, fresh=False)
    record = begun.record
    chapter = study.bank.chapter(2)
    assert (record.first_question, record.last_question) == (chapter.first, chapter.last)
    assert record.mode == "quiz" and record.answered == 0 and record.bank == "default"
    planned = [q for s in begun.store.segments(record.id) for q in s.question_ids]
    assert planned == list(range(chapter.first, chapter.last + 1))
    assert begun.carried is None and begun.store.sessions()[0].id == record.id


def test_a_run_that_continues_the_last_one_starts_from_its_summary():
    study, _ = opening.open_study(opening.Options())
    first = opening.begin(study, opening.Choice(first=1, last=8), quiz=False, fresh=False)
    session.run(study, first.store, first.record, session.Listener())
    assert first.store.segments(first.record.id)[-1].summary_out is None  # nothing read it yet
    then = opening.begin(study, opening.Choice(first=9, last=14), quiz=False, fresh=False)
    written = first.store.segments(first.record.id)[-1].summary_out
    assert written and "Q1" in written  # written now, once, and kept
    assert then.carried == carry.Carried(first.record.id, written)
    assert then.store.segments(then.record.id)[0].summary_in == written
    # a fresh run, or one that leaves a gap, carries nothing
    fresh = opening.begin(study, opening.Choice(first=9, last=14), quiz=False, fresh=True)
    gap = opening.begin(study, opening.Choice(first=10, last=14), quiz=False, fresh=False)
    for begun in (fresh, gap):
        assert begun.carried is None
        assert begun.store.segments(begun.record.id)[0].summary_in is None


def test_an_unfinished_session_is_not_continued():
    study, _ = opening.open_study(opening.Options())
    stopped_at(study, opening.Choice(first=1, last=8), 3)
    then = opening.begin(study, opening.Choice(first=9, last=12), quiz=False, fresh=False)
    assert then.carried is None


def test_begin_review_is_none_when_nothing_is_due_and_creates_nothing():
    study, _ = opening.open_study(opening.Options())
    store = Store.open()
    assert opening.begin_review(study, store, None) is None
    review.record_review(store, bank="default", question_id=4, rating=3)  # due in 10 minutes
    assert opening.begin_review(study, store, None) is None
    assert store.sessions() == []


def test_begin_review_studies_the_due_questions_most_overdue_first():
    study, _ = opening.open_study(opening.Options())
    store = Store.open()
    for question_id, hours in ((40, 0), (7, 1), (12, 2)):
        review.record_review(
            store, bank="default", question_id=question_id, rating=1, now=PAST.replace(hour=hours)
        )
    review.record_review(store, bank="other", question_id=3, rating=1, now=PAST)
    record = opening.begin_review(study, store, None)
    assert record.mode == "review" and record.bank == "default"
    assert [q for s in store.segments(record.id) for q in s.question_ids] == [7, 12, 40]
    limited = opening.begin_review(study, store, 2)
    assert [q for s in store.segments(limited.id) for q in s.question_ids] == [7, 40]


def test_reopen_picks_the_newest_unfinished_session_and_keeps_its_channel():
    study, _ = opening.open_study(opening.Options())
    older = stopped_at(study, opening.Choice(first=1, last=6), 2)
    newer = stopped_at(study, opening.Choice(first=20, last=25), 21)
    done = opening.begin(study, opening.Choice(first=40, last=41), quiz=False, fresh=True)
    session.run(study, done.store, done.record, session.Listener())
    reopened = opening.reopen(done.store, None, {})
    assert reopened.record.id == newer.id
    assert reopened.study.provider.live is False and reopened.study.key == "default"
    assert reopened.notice and reopened.notice.startswith("offline: answering from")
    assert (reopened.edited, reopened.removed) == ([], [])
    assert "resumed" not in reopened.record.settings  # the same channel: nothing to record
    assert opening.reopen(done.store, older.id, {}).record.id == older.id
    with pytest.raises(BadInput, match="already complete"):
        opening.reopen(done.store, done.record.id, {})


def test_reopen_with_nothing_unfinished_is_bad_input():
    with pytest.raises(BadInput, match="no unfinished session"):
        opening.reopen(Store.open(), None, {})


def test_reopen_records_the_channel_a_session_continues_with(monkeypatch):
    study, _ = opening.open_study(opening.Options())
    stopped = stopped_at(study, opening.Choice(first=1, last=6), 2)
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    url = "http://127.0.0.1:9/api"  # nothing is sent on reopening
    reopened = opening.reopen(Store.open(), stopped.id, {"base_url": url, "model": "test-model"})
    assert reopened.study.provider.live is True and reopened.notice is None
    record = reopened.record
    assert (record.provider, record.model, record.base_url) == ("openai-compat", "test-model", url)
    (switch,) = record.settings["resumed"]
    assert switch["from_question"] == 3
    assert switch["before"] == {
        "provider": "offline",
        "model": "answer-key",
        "base_url": "",
        "wire_api": "chat",
    }
    assert Store.open().session(stopped.id) == record  # it is on the stored session


def test_reopen_names_questions_edited_since_the_start():
    bank.save(mini(), "mini")
    study, _ = opening.open_study(opening.Options(bank="mini"))
    stopped = stopped_at(study, opening.Choice(first=1, last=5), 1)
    bank.save(mini(edit=True), "mini", force=True)  # Q2 reworded; Q6 was not in the session
    reopened = opening.reopen(Store.open(), stopped.id, {})
    assert (reopened.edited, reopened.removed) == ([2], [])
    assert reopened.study.bank.get(2).question.endswith("（改）")


def test_reopen_names_a_removed_question_instead_of_failing_on_it():
    # ``Reopened.removed`` is what `resume` warns about ("not in the bank any more: Q6");
    # a bank keeps its ids contiguous, so a removed question is the session's last, unanswered.
    bank.save(mini(), "mini")
    study, _ = opening.open_study(opening.Options(bank="mini"))
    stopped = stopped_at(study, opening.Choice(first=1, last=6), 1)
    bank.save(mini(edit=True), "mini", force=True)
    reopened = opening.reopen(Store.open(), stopped.id, {})
    assert (reopened.edited, reopened.removed) == ([2], [6])
