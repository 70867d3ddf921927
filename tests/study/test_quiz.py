"""Quiz and review sessions through the library loop, none without a terminal, the selection
flags of run, the resume rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from scripted import Scripted, quiz

from studybot import bank
from studybot.channel import config
from studybot.channel.providers.offline import OfflineProvider
from studybot.errors import BadInput
from studybot.storage.store import Store
from studybot.study import opening, resuming, session


def test_a_scripted_quiz_saves_attempts_grades_and_ratings(invoke):
    learner = Scripted(["自注意力要算 n×n 的分数矩阵，随 n² 增长", ""], ratings=[2])
    quiz(learner, ids=(5, 6))
    assert learner.saved == [(5, 2)] and learner.grades[5].source == "offline"
    data = json.loads(invoke("show", "1", "--json").stdout)
    assert data["mode"] == "quiz"
    assert [(t["question_id"], t["rating"]) for t in data["turns"]] == [(5, 2), (6, None)]
    assert data["turns"][1]["attempt"] == "" and data["turns"][1]["grade"] == 0.0
    assert data["status"] == "stopped at Q6"  # Q6 is graded but not rated: resume asks for it


@pytest.mark.parametrize(
    "args", [["run", "--ids", "5,6", "--quiz"], ["run", "--ids", "5", "--quiz", "--json"]]
)
def test_a_quiz_on_a_stdin_that_is_not_a_terminal_stops_and_writes_nothing(invoke, args):
    result = invoke(*args, input="我的作答\n\n3\n")
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: a quiz needs you at a terminal")
    assert "Hint: run it in a terminal" in result.stderr
    assert result.stderr.count("\n") == 2  # one line and a hint
    assert json.loads(invoke("sessions", "--json").stdout) == []


def test_a_review_or_a_resumed_quiz_without_a_terminal_stops_and_writes_nothing(invoke):
    quiz(Scripted(ratings=[1]), ids=(5, 6))  # Q5 rated Again (due at once), Q6 left unrated
    from studybot.storage.store import Store

    store = Store.open()
    store.db.execute("update cards set due = '2000-01-01T00:00:00+00:00'")
    store.db.conn.commit()
    before = json.loads(invoke("sessions", "--json").stdout)
    result = invoke("review", input="\n\n3\n")
    assert result.exit_code == 2 and "a review needs you at a terminal" in result.stderr
    result = invoke("resume", "1", input="\n3\n")
    assert result.exit_code == 2 and "a quiz needs you at a terminal" in result.stderr
    assert json.loads(invoke("sessions", "--json").stdout) == before
    assert [r.rating for r in store.reviews("default")] == [1]


def test_read_mode_is_unchanged_without_a_terminal(invoke):
    result = invoke("run", "--from", "1", "--to", "3", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["mode"] == "read"
    assert all(t["attempt"] is None and t["rating"] is None for t in data["turns"])
    assert data["grading_usage"] is None


@pytest.mark.parametrize(
    ("args", "ids"),
    [
        (["--chapter", "1"], list(range(1, 9))),
        (["--ids", "76,5,23,34"], [5, 23, 34, 76]),
        (["--tag", "kv-cache", "--segment-max", "8"], None),
    ],
)
def test_run_takes_one_selection_instead_of_a_range(invoke, args, ids):
    result = invoke("run", *args, "--json")
    assert result.exit_code == 0, result.stderr
    answered = [t["question_id"] for t in json.loads(result.stdout)["turns"]]
    if ids is None:  # a tag: every question carrying it, in bank order
        loaded = bank.load()
        ids = [q.id for q in loaded.questions if "kv-cache" in q.tags]
        assert ids
    assert answered == ids


def test_review_with_nothing_due_says_so_and_exits_0(invoke):
    result = invoke("review")
    assert result.exit_code == 0
    assert "Nothing is due for review" in result.stdout
    assert "--quiz" in result.stdout

    quiz(Scripted(ratings=[4]), ids=(5,))
    result = invoke("review", "--limit", "3")
    assert result.exit_code == 0
    assert "Nothing is due for review; the next one is due in" in result.stdout


def test_review_limit_must_be_positive(invoke):
    assert invoke("review", "--limit", "0").exit_code == 2


def offline_study() -> session.Study:
    loaded = bank.load()
    return session.Study(loaded, OfflineProvider(loaded), config.load())


class QuitAt(session.Listener):
    def __init__(self, question_id: int) -> None:
        self.question_id = question_id

    def after_answer(self, question, suggestion):
        return session.QUIT if question.id == self.question_id else session.NEXT


def test_resume_picks_the_newest_unfinished_session_and_keeps_its_mode():
    study, store = offline_study(), Store.open()
    older = session.start(study, store, study.bank.select(1, 5), mode="quiz")
    newer = session.start(study, store, study.bank.select(6, 10))
    with pytest.raises(session.Stopped):
        session.run(study, store, older, QuitAt(2))
    reopened = opening.reopen(store, None, {})
    assert reopened.record.id == newer.id and reopened.study.settings.offline
    picked = opening.reopen(store, older.id, {}).record
    assert picked.mode == "quiz"
    learner = Scripted(ratings=[3] * 5)
    session.run(study, store, picked, learner)
    assert learner.missing == [1, 2]  # left unrated, then stopped at Q2's rating: asked first
    assert learner.saved == [(q, 3) for q in range(1, 6)]
    with pytest.raises(BadInput, match="already complete"):
        opening.reopen(store, older.id, {})


def test_the_rest_after_an_overflow_is_a_command_for_the_unanswered_questions():
    study, store = offline_study(), Store.open()
    chosen = tuple(study.bank.get(q) for q in (5, 23, 34, 76, 80))
    record = session.start(study, store, chosen, mode="quiz")
    with pytest.raises(session.Stopped):
        session.run(study, store, record, QuitAt(23))
    assert resuming.unanswered(store, record) == (34, 76, 80)
    assert resuming.rest_command(store, record) == (
        "studybot run --ids 34,76,80 --quiz --segment-min 1 --segment-max 4"
    )


def test_start_takes_the_questions_chosen_once():
    study, store = offline_study(), Store.open()
    with pytest.raises(BadInput):
        session.start(study, store, ())
    with pytest.raises(BadInput, match="mode"):
        session.start(study, store, study.bank.select(1, 2), mode="exam")


def test_ctrl_c_while_studybot_is_still_starting_exits_130_quietly(studybot_home):
    # A Ctrl-C that lands while click and the commands are imported.
    code = (
        "import sys\n"
        "class Interrupt:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'click':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Interrupt())\n"
        "sys.argv = ['studybot', 'run', '--from', '1', '--to', '3']\n"
        "from studybot.launch import main\n"
        "main()\n"
    )
    env = {**os.environ, "STUDYBOT_HOME": str(studybot_home)}
    env.pop("PYTEST_CURRENT_TEST", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 130
    assert out.stderr.strip() == "Interrupted."


def test_show_lists_each_questions_grade_and_rating(invoke):
    attempts = ["自注意力要算 n×n 的分数矩阵，随 n² 增长，输入加输出都占窗口", "", ""]
    quiz(Scripted(attempts, ratings=[3, 1, session.NEXT]), ids=(5, 6, 7))
    shown = invoke("show", "1").stdout
    line = next(line for line in shown.splitlines() if line.startswith("recall"))
    grades = {
        t["question_id"]: t["grade"]
        for t in json.loads(invoke("show", "1", "--json").stdout)["turns"]
    }
    assert f"Q5 {grades[5]:.0%} Good" in line
    assert "Q6 0% Again" in line and "Q7 0% unrated" in line


def test_markdown_notes_keep_the_attempt_its_grade_and_rating(invoke):
    from markdown_it import MarkdownIt

    attempt = "只存 K 和 V，<think> 里的 Q 每步只用一次"
    quiz(Scripted([attempt, ""], ratings=[4, session.NEXT]), ids=(23, 24))
    html = MarkdownIt("commonmark").render(invoke("export", "1", "-f", "md").stdout)
    assert "<blockquote>\n<p>只存 K 和 V，&lt;think&gt; 里的 Q 每步只用一次</p>" in html
    assert "rated 4 Easy" in html
    assert "没有写下作答" in html  # Q24: an empty attempt, thought about, then revealed


def test_a_segment_names_its_questions_as_ranges():
    from studybot.study.selection import id_ranges

    assert id_ranges((1, 2, 3, 4, 5, 6, 7, 8)) == "Q1–Q8"
    assert id_ranges((5,)) == "Q5"
    assert id_ranges((2, 6, 7, 8, 23)) == "Q2, Q6–Q8, Q23"


def test_resume_after_the_bank_dropped_an_answered_question_resends_what_was_asked():
    from dataclasses import replace

    study, store = offline_study(), Store.open()
    record = session.start(study, store, study.bank.select(1, 5))
    with pytest.raises(session.Stopped):
        session.run(study, store, record, QuitAt(2))
    # The user edits the bank: Q1 is gone, Q2 reworded. Saved turns keep what was asked.
    edited = replace(
        study.bank,
        questions=tuple(
            replace(q, question=q.question + "（改写）") if q.id == 2 else q
            for q in study.bank.questions
            if q.id != 1
        ),
    )
    seen: list = []

    class Recording(OfflineProvider):
        def answer(self, messages, **kwargs):
            seen.append(messages)
            return super().answer(messages, **kwargs)

    resumed = session.Study(edited, Recording(edited), study.settings)
    done = session.run(resumed, store, store.session(record.id), session.Listener())
    assert done.answered == 5
    sent = "\n".join(m["content"] for m in seen[0])
    turns = {t.question_id: t for t in store.turns(record.id)}
    assert turns[1].question in sent and turns[2].question in sent and "（改写）" not in sent
