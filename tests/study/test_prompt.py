"""The system prefix is byte-stable and each request extends the previous one, on real runs."""

from __future__ import annotations

from dataclasses import replace

from studybot import bank
from studybot.channel import config
from studybot.channel.providers.offline import OfflineProvider
from studybot.costs import tokens
from studybot.storage.store import Store
from studybot.study import prompt, session


class RecordingProvider(OfflineProvider):
    """The offline provider, keeping every request it was sent."""

    def __init__(self, loaded):
        super().__init__(loaded)
        self.requests: list[tuple[str, list[dict[str, str]]]] = []

    def answer(self, messages, *, question, on_text=None):
        self.requests.append(("answer", [dict(m) for m in messages]))
        return super().answer(messages, question=question, on_text=on_text)

    def summarise(self, messages, **kwargs):
        self.requests.append(("summary", [dict(m) for m in messages]))
        return super().summarise(messages, **kwargs)


def study_run(first: int, last: int, **settings):
    loaded = bank.load()
    provider = RecordingProvider(loaded)
    study = session.Study(loaded, provider, replace(config.load(), **settings))
    store = Store.open()
    record = session.start(study, store, loaded.select(first, last))
    session.run(study, store, record, session.Listener())
    return provider, store, record


def test_prefix_is_identical_for_every_request_of_every_session():
    first, _, _ = study_run(1, 8)
    second, _, _ = study_run(9, 19)
    prefixes = {m[0]["content"] for _, m in first.requests + second.requests}
    assert len(prefixes) == 1
    (prefix,) = prefixes
    assert prefix == prompt.system_prefix(bank.load())
    assert all(m[0]["role"] == "system" for _, m in first.requests)


def test_prefix_has_nothing_volatile():
    text = prompt.system_prefix(bank.load())
    import re

    assert not re.search(r"\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}", text)
    assert prompt.system_prefix(bank.load()).encode() == text.encode()


def test_each_request_extends_the_previous_one_within_a_segment():
    provider, store, record = study_run(1, 19)
    answers = [m for kind, m in provider.requests if kind == "answer"]
    segments = store.segments(record.id)
    by_question = {}
    for messages in answers:
        last = messages[-1]["content"]
        question_id = int(last.split("第 ")[-1].split(" 题")[0])
        by_question[question_id] = messages
    for segment in segments:
        ids = segment.question_ids
        for before, after in zip(ids, ids[1:], strict=False):
            a, b = by_question[before], by_question[after]
            assert b[: len(a)] == a
            ids_a, ids_b = tokens.request_ids(a), tokens.request_ids(b)
            assert ids_b[: len(ids_a)] == ids_a


def test_a_new_segment_starts_from_prefix_and_summary_only():
    provider, store, record = study_run(1, 19)
    segments = store.segments(record.id)
    assert len(segments) == 3
    answers = {
        int(m[-1]["content"].split("第 ")[-1].split(" 题")[0]): m
        for kind, m in provider.requests
        if kind == "answer"
    }
    for previous, segment in zip(segments, segments[1:], strict=False):
        assert segment.summary_in == previous.summary_out
        assert 1 <= len(segment.summary_in.splitlines()) <= prompt.SUMMARY_LINES
        first = answers[segment.first_id]
        assert len(first) == 2  # system prefix + one user message
        assert first[1]["content"].startswith(prompt.SUMMARY_HEADING)
        assert segment.summary_in in first[1]["content"]
        for earlier in previous.question_ids:
            assert f"第 {earlier} 题：" not in first[1]["content"]


def test_summaries_are_at_most_five_lines_and_name_their_questions():
    _, store, record = study_run(1, 19)
    *carried, last = store.segments(record.id)
    assert last.summary_out is None  # nothing reads the last summary yet
    for segment in carried:
        lines = segment.summary_out.splitlines()
        assert 1 <= len(lines) <= 5
        for question_id in segment.question_ids:
            assert f"Q{question_id}：" in segment.summary_out


def test_clip_summary_keeps_five_non_empty_lines():
    text = "\n".join(f"第{i}行" for i in range(9)) + "\n\n"
    assert prompt.clip_summary(text).splitlines() == [f"第{i}行" for i in range(5)]
