"""The interview loop through the library (issue 23): time box, drafts, probes' effect, requests."""

from __future__ import annotations

import pytest
from scripted import ScriptedInterview

from studybot.learn import grading, probes
from studybot.study import interview as interviewing
from studybot.study import opening
from studybot.study.listening import AttemptInterrupted
from studybot.study.prompt import INTERVIEW_ASK
from studybot.study.recorded import session_requests

WRONG_Q24 = (
    "MHA 每个头独立 KV，MQA 共享一组 KV，GQA 分组共享。KV 缓存和头数没有关系，主要是省计算。"
)


def begin(ids, followups=2):
    study, _ = opening.open_study(opening.Options())
    begun = opening.begin(
        study,
        opening.Choice(ids=tuple(ids)),
        quiz=True,
        fresh=True,
        mode="interview",
        extra={"followups": followups},
    )
    return study, begun.store, begun.record


def test_the_time_box_starts_no_new_question_and_the_session_resumes():
    study, store, record = begin([1, 2, 3], followups=0)
    learner = ScriptedInterview({1: "预测下一个词元。"})
    with pytest.raises(interviewing.TimeUp):
        interviewing.run(study, store, record, learner, time_up=lambda: len(learner.asked) >= 1)
    assert [t.question_id for t in store.turns(record.id)] == [1]
    assert not store.session(record.id).complete
    again = ScriptedInterview({})
    done = interviewing.run(study, store, store.session(record.id), again)
    assert done.complete and [t.question_id for t in store.turns(record.id)] == [1, 2, 3]
    assert sorted(q for q, _ in again.saved) == [1, 2, 3]


class StopsAtTheProbe(ScriptedInterview):
    def attempt(self, question):
        if self.probing and self.probes:
            raise AttemptInterrupted("KV 缓存与 KV 头数成正")
        return super().attempt(question)


def test_ctrl_c_in_a_probe_keeps_the_draft_and_the_probe():
    study, store, record = begin([24], followups=1)
    with pytest.raises(AttemptInterrupted):
        interviewing.run(study, store, record, StopsAtTheProbe({24: WRONG_Q24}))
    assert store.draft(record.id, 24) == "KV 缓存与 KV 头数成正"
    (asked,) = store.probes(record.id)
    assert asked.answer is None and asked.state_before == "contradicted"
    learner = ScriptedInterview({}, ["KV 缓存与 KV 头数成正比。"])
    interviewing.run(study, store, store.session(record.id), learner)
    assert learner.probes == [asked.question]  # the same probe again, not a new one
    (answered,) = store.probes(record.id)
    assert answered.answer == "KV 缓存与 KV 头数成正比。" and answered.state_after != "contradicted"
    assert store.draft(record.id, 24) is None


def test_the_main_history_holds_only_the_bank_questions_offline():
    study, store, record = begin([24, 5], followups=2)
    interviewing.run(study, store, record, ScriptedInterview({24: WRONG_Q24}, ["不知道。"] * 4))
    sent = session_requests(store.view(record.id))
    assert [r.kind for r in sent] == ["answer", "answer"]
    for request in sent:
        text = "\n".join(m["content"] for m in request.messages)
        assert WRONG_Q24 not in text and "不知道" not in text
        assert request.messages[-1]["content"].endswith(INTERVIEW_ASK)
    assert [t.answer for t in store.turns(record.id)] == [
        study.bank.get(5).question,
        study.bank.get(24).question,
    ]


def test_a_probe_answered_well_lifts_its_point_and_a_wrong_one_marks_it():
    from studybot import bank

    loaded = bank.load(None)
    grader = grading.offline(loaded)
    question = loaded.get(24)
    result = grader.grade(question, WRONG_Q24)
    (target, *_) = probes.targets(grader, question, WRONG_Q24, result)
    assert target.state == "contradicted" and target.point == 2
    good = grader.grade(
        question, probes.graded_text(target, WRONG_Q24, "KV 缓存与 KV 头数成正比。")
    )
    assert probes.lifted(result, 2, good).points[1].state in ("partly", "covered")
    assert probes.lifted(result, 2, good).score > result.score
    poor = grader.grade(question, probes.graded_text(target, WRONG_Q24, "不知道。"))
    assert probes.lifted(result, 2, poor) == result
    missed = [t for t in probes.targets(grader, question, WRONG_Q24, result) if t.state == "missed"]
    figures, worded = missed[0], missed[1]  # point 3 is all figures (2 × 80 × 8 × 128 × 2 B)
    assert figures.point == 3 and "算给我看" in probes.offline_text(figures)
    assert not any(c.isdigit() for c in probes.offline_text(figures))  # nothing given away
    first = grader.grade(question, "MHA 每个头独立 KV。")
    assert first.points[1].state == "missed"
    wrong = grader.grade(question, "GQA 主要省计算，降低 FLOPs。")
    assert probes.lifted(first, 2, wrong).points[1].state == "contradicted"
    assert "你说「KV 缓存和头数没有关系」" in probes.offline_text(target)
    assert "没有谈到" in probes.offline_text(worded)


def test_an_interviews_anki_cards_teach_the_banks_answer_not_the_question():
    from studybot.output import anki

    study, store, record = begin([24], followups=0)
    interviewing.run(study, store, record, ScriptedInterview({24: WRONG_Q24}))
    (card,) = anki.cards(store.view(record.id))
    question = study.bank.get(24)
    assert "MQA 让所有查询头共享 1 组 K/V" in card.back  # the bank's first key point
    assert question.question not in card.back  # the turn (the question as put) is the front only


def test_a_probe_names_a_term_as_the_key_point_spells_it():
    """The rubric's words are lower case; "「mha」" in a probe reads as a typo: it says MHA."""
    from studybot import bank

    shipped = bank.load(None)
    question = shipped.get(24)
    grader = grading.offline(shipped)
    said = "GQA 让多个查询头共享一组 KV 头，KV 缓存按 KV 头数缩小。"
    result = grader.grade(question, said)
    asked = [probes.offline_text(t) for t in probes.targets(grader, question, said, result)]
    assert any("「MHA」" in text or "「MQA」" in text for text in asked), asked
    assert not any("「mha」" in text or "「mqa」" in text for text in asked), asked
