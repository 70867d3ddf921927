"""The one conversation: what a caller gets from ``Conversation``, ``requests`` and ``history``."""

from __future__ import annotations

from dataclasses import replace

import pytest

from studybot.costs import tokens
from studybot.storage.store import Turn
from studybot.study import conversation as talk
from studybot.study.prompt import SUMMARY_HEADING, question_text, system_prefix

PREFIX = "系统前缀：只答本题。"
SUMMARY = "Q1：注意力的代价随长度平方增长"


def answered(conversation: talk.Conversation, questions, answers=None) -> list[list[dict]]:
    """Ask every question in turn, answering each; the requests it sent, in order."""
    sent = []
    for number, question in enumerate(questions):
        sent.append(conversation.ask(question))
        conversation.answered(question, (answers or {}).get(question.id, f"答{number}"))
    return sent


def saved_turn(question_id: int, question: str, answer: str) -> Turn:
    return Turn(
        session_id=1,
        segment=0,
        question_id=question_id,
        question=question,
        answer=answer,
        prompt_tokens=1,
        completion_tokens=1,
        cached_tokens=0,
        context_tokens=2,
        local_prompt_tokens=1,
        local_completion_tokens=1,
        usage_source="local",
        latency_ms=0.0,
    )


def test_each_request_extends_the_previous_one_message_for_message_and_token_for_token(shipped):
    questions = shipped.select(1, 6)
    sent = answered(talk.Conversation(PREFIX, SUMMARY), questions)
    assert [len(m) for m in sent] == [2, 4, 6, 8, 10, 12]
    for before, after in zip(sent, sent[1:], strict=False):
        assert after[: len(before)] == before
        assert after[len(before)]["role"] == "assistant"  # then the answer, then the next question
        # the bytes the provider's cache sees: the earlier request is a prefix, reply opening aside
        earlier = tokens.request_ids(before)[: -len(tokens.reply_primer())]
        assert tokens.request_ids(after)[: len(earlier)] == earlier
    assert all(m[0] == {"role": "system", "content": PREFIX} for m in sent)
    last = sent[-1]
    assert [m["role"] for m in last] == ["system"] + ["user", "assistant"] * 5 + ["user"]
    assert last[-1]["content"] == question_text(questions[-1])
    assert [m["content"] for m in last[2::2]] == [f"答{n}" for n in range(5)]


def test_a_side_request_is_the_thread_plus_one_message_and_never_joins_it(shipped):
    q1, q2, q3 = shipped.select(1, 3)
    conversation = talk.Conversation(PREFIX, None)
    conversation.answered(q1, "答一")
    conversation.answered(q2, "答二")
    thread = conversation.ask(q3)[:-1]
    side = conversation.side("请给这次作答打分")
    follow_up = conversation.follow_up("批大小会改变这个结论吗？")
    assert side == [*thread, {"role": "user", "content": "请给这次作答打分"}]
    assert follow_up == [*thread, {"role": "user", "content": "追问：批大小会改变这个结论吗？"}]
    assert follow_up[-1]["content"].startswith(talk.FOLLOW_UP)
    assert [q.id for q, _ in conversation.history] == [1, 2]
    after = conversation.ask(q3)
    assert after == [*thread, {"role": "user", "content": question_text(q3)}]
    assert all("打分" not in m["content"] and "批大小" not in m["content"] for m in after)


def test_the_summary_request_extends_the_segment_and_asks_for_the_line_count(shipped):
    q1, q2 = shipped.select(1, 2)
    conversation = talk.Conversation(PREFIX, None)
    last = answered(conversation, [q1, q2])[-1]
    request = conversation.summary_request(lines=3)
    assert request[: len(last)] == last
    assert request[len(last)] == {"role": "assistant", "content": "答1"}
    assert [m["role"] for m in request] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    assert "不超过 3 行" in request[-1]["content"]
    assert "不超过 5 行" in conversation.summary_request()[-1]["content"]  # the default


def test_the_carried_summary_rides_on_the_first_user_message_only(shipped):
    questions = shipped.select(9, 12)
    sent = answered(talk.Conversation(PREFIX, SUMMARY), questions)
    first_user = f"{SUMMARY_HEADING}\n{SUMMARY}\n\n{question_text(questions[0])}"
    for request in sent:
        users = [m["content"] for m in request if m["role"] == "user"]
        assert users[0] == first_user
        assert all(SUMMARY not in text and SUMMARY_HEADING not in text for text in users[1:])
        assert SUMMARY not in request[0]["content"]  # the system prefix stays byte-stable
    side = talk.Conversation(PREFIX, SUMMARY).side("单独一问")
    assert side[-1]["content"] == "单独一问"  # nothing answered yet: no question to carry it


@pytest.mark.parametrize("summary", [None, ""])
def test_without_a_summary_the_first_question_is_asked_plainly(shipped, summary):
    q1 = shipped.get(1)
    assert talk.Conversation(PREFIX, summary).ask(q1) == [
        {"role": "system", "content": PREFIX},
        {"role": "user", "content": question_text(q1)},
    ]


def test_requests_yield_each_answer_its_follow_ups_then_the_summary(shipped):
    q1, q2, q3 = shipped.select(1, 3)
    asked = [
        talk.Asked(q1, "答一", ("追一", "追二")),
        talk.Asked(q2, "答二"),
        talk.Asked(q3, "答三", ("追三",)),
    ]
    sent = list(talk.requests(PREFIX, SUMMARY, asked, summarise=True))
    assert [(s.kind, s.question_id) for s in sent] == [
        ("answer", 1),
        ("follow-up", 1),
        ("follow-up", 1),
        ("answer", 2),
        ("answer", 3),
        ("follow-up", 3),
        ("summary", None),
    ]
    # the same bytes as a conversation stepped by hand, as the run loop steps it
    by_hand = talk.Conversation(PREFIX, SUMMARY)
    expected = []
    for item in asked:
        expected.append(by_hand.ask(item.question))
        by_hand.answered(item.question, item.answer)
        expected += [by_hand.follow_up(text) for text in item.followups]
    expected.append(by_hand.summary_request())
    assert [s.messages for s in sent] == expected
    assert {s.prefix for s in sent} == {PREFIX}
    # a follow-up comes after its question's answer joined the thread, never before
    assert sent[1].messages[-2] == {"role": "assistant", "content": "答一"}


def test_requests_close_with_a_summary_only_when_asked_and_only_after_an_answer(shipped):
    asked = [talk.Asked(q, f"答{q.id}") for q in shipped.select(1, 2)]
    kinds = [s.kind for s in talk.requests(PREFIX, None, asked, summarise=False)]
    assert kinds == ["answer", "answer"]
    assert list(talk.requests(PREFIX, None, [], summarise=True)) == []


def test_a_question_asked_with_another_prefix_carries_it_from_then_on(shipped):
    q1, q2, q3 = shipped.select(1, 3)
    asked = [
        talk.Asked(q1, "答一"),
        talk.Asked(q2, "答二", prefix="新前缀"),
        talk.Asked(q3, "答三"),
    ]
    sent = list(talk.requests(PREFIX, None, asked, summarise=True))
    assert [s.prefix for s in sent] == [PREFIX, "新前缀", "新前缀", "新前缀"]
    assert [s.messages[0]["content"] for s in sent] == [PREFIX, "新前缀", "新前缀", "新前缀"]


def test_history_resends_what_was_asked_even_after_the_bank_changed(shipped):
    edited_text = shipped.get(2).question + "（题面已改）"
    turns = [
        saved_turn(1, shipped.get(1).question, "答一"),
        saved_turn(2, edited_text, "答二"),
        saved_turn(999, "一道已从题库删除的题", "答九九九"),
    ]
    rebuilt = talk.history(shipped, turns)
    assert [(q.id, a) for q, a in rebuilt] == [(1, "答一"), (2, "答二"), (999, "答九九九")]
    assert rebuilt[0][0] == shipped.get(1)
    # an edited question: the text it was asked with, the bank's key points for grading
    assert rebuilt[1][0].question == edited_text
    assert rebuilt[1][0].key_points == shipped.get(2).key_points
    # a removed question keeps its saved text; it has nothing else left
    removed = rebuilt[2][0]
    assert (removed.question, removed.chapter, removed.key_points) == (
        "一道已从题库删除的题",
        0,
        (),
    )
    # no bank at all (a recorded session's replay): the saved text alone
    bare = talk.history(None, turns)
    assert [q.question for q, _ in bare] == [t.question for t in turns]
    assert all(q.key_points == () for q, _ in bare)


def test_a_history_rebuilt_from_turns_asks_exactly_as_the_original_thread(shipped):
    questions = shipped.select(20, 24)
    live = talk.Conversation(PREFIX, SUMMARY)
    sent = answered(live, questions[:4], {q.id: f"答案 {q.id}" for q in questions})
    turns = [saved_turn(q.id, q.question, f"答案 {q.id}") for q in questions[:4]]
    resumed = talk.Conversation(PREFIX, SUMMARY, talk.history(shipped, turns))
    assert resumed.ask(questions[4]) == live.ask(questions[4])
    assert resumed.ask(questions[4])[: len(sent[-1])] == sent[-1]


def test_asked_question_keeps_the_bank_entry_apart_from_its_text(shipped):
    q5 = shipped.get(5)
    assert talk.asked_question(shipped, 5, q5.question) == q5
    changed = talk.asked_question(shipped, 5, "换了说法的题面")
    assert changed == replace(q5, question="换了说法的题面")


def test_the_asker_sends_what_a_run_of_the_bank_sends(shipped):
    q1, q2, q3 = shipped.select(1, 3)
    ask = talk.asker(shipped, "short")
    prefix = system_prefix(shipped, "short")
    past = [(q1, "答一"), (q2, "答二")]
    assert ask(past, q3) == talk.Conversation(prefix, None, past).ask(q3)
    assert ask([], q3) == [
        {"role": "system", "content": prefix},
        {"role": "user", "content": question_text(q3)},
    ]
    assert talk.asker(shipped, "designed")([], q3)[0]["content"] == system_prefix(shipped)
