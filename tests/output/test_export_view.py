"""Notes and data from one ``SessionView``: ``to_markdown`` and the keys of ``session_json``."""

from __future__ import annotations

import contextlib
import json
from dataclasses import replace

import pytest

from studybot import bank
from studybot.channel import config
from studybot.channel.providers.offline import OfflineProvider
from studybot.output import export
from studybot.storage.store import Store
from studybot.study import session

ATTEMPT = "注意力按相关性加权求和，<b> 不是标签"
TOP_KEYS = {
    "id",
    "status",
    "provider",
    "model",
    "bank",
    "from",
    "to",
    "answered",
    "done",
    "stopped_at",
    "total",
    "created",
    "mode",
    "selection",
    "grading_usage",
    "requests",  # every request sent: retries and side requests included
    "sides",  # the answering model's requests and the grader's, each priced
    "segments",
    "turns",
    "follow_ups",
    "kv",
    "cache_rule",
    "cost",
}
TURN_KEYS = {
    *export.TURN_KEYS,
    "local_prompt_tokens",
    "local_completion_tokens",
    "usage_source",
    "usage_suspect",
    "answer_flag",
    "kv_bytes",
    "attempt",
    "grade",
    "grade_source",
    "points",
    "grade_estimate",
    "points_estimate",
    "rating",
    "cost",
    "cached_tokens_estimated",
    "requests",  # 1 + the requests thrown away for this answer
    "discarded",  # those requests, or null
}
SEGMENT_KEYS = {
    "index",
    "questions",
    "summary_in",
    "summary_out",
    "summary_usage",
    "summary_discarded",
    "cost",
}
FOLLOW_UP_KEYS = {
    "question_id",
    "question",
    "answer",
    "prompt_tokens",
    "completion_tokens",
    "cached_tokens",
    "requests",
    "discarded",
    "created",
}
KV_KEYS = {
    "model",
    "peak_tokens",
    "peak_kv_bytes",
    "one_long_session_tokens",
    "one_long_session_kv_bytes",
}


class Cut(OfflineProvider):
    """The answer key, but Q2's answer stops at the token limit."""

    def answer(self, messages, *, question, on_text=None):
        reply = super().answer(messages, question=question, on_text=on_text)
        return replace(reply, finish_reason="length") if question.id == 2 else reply

    def follow_up(self, messages, *, question, text, on_text=None):
        # answered as a model would: the offline reply only says it cannot (left out of notes)
        return self._reply(messages, "MLA 把 K、V 压成一个低秩潜向量再缓存。", on_text)


class Learner(session.Listener):
    """Attempts Q1 and rates it Good, thinks through Q2 and rates it Again, follows up on Q3."""

    def __init__(self, quit_at: int | None = None) -> None:
        self.quit_at, self.asked = quit_at, False

    def attempt(self, question):
        return ATTEMPT if question.id == 1 else ""

    def after_answer(self, question, suggestion):
        if question.id == self.quit_at:
            return session.QUIT
        if question.id == 3 and not self.asked:
            self.asked = True
            return session.FOLLOW_UP
        return {1: 3, 2: 1}.get(question.id, session.NEXT)

    def follow_up_text(self, question):
        return "<MLA> 又如何？"


def view_studied(first: int, last: int, *, mode="quiz", quit_at=None, carried=None):
    loaded = bank.load()
    study = session.Study(loaded, Cut(loaded), config.load())
    store = Store.open()
    record = session.start(study, store, loaded.select(first, last), mode=mode, carried=carried)
    with contextlib.suppress(session.Stopped):  # a session stopped part-way is kept as it is
        session.run(study, store, record, Learner(quit_at))
    return store.view(record.id)


def test_notes_follow_the_session_segment_by_segment():
    view = view_studied(1, 14)
    notes = export.to_markdown(view)
    record = view.record
    assert notes.startswith(f"# {record.bank_title}：第 1–14 题\n")
    # Q3-Q14 were graded but not rated: the session waits for those ratings.
    assert f"- session {record.id} · stopped at Q3 · 2/14 done · 12 not rated yet" in notes
    assert "- answered by offline (answer-key)" in notes
    headings = [line for line in notes.splitlines() if line.startswith("## ")]
    assert headings == [
        f"## Segment {s.index + 1}: Q{s.first_id}–Q{s.last_id}" for s in view.segments
    ]
    asked = [line for line in notes.splitlines() if line.startswith("### ")]
    assert [line.split("：")[0] for line in asked] == [f"### 第 {q} 题" for q in range(1, 15)]
    # the first segment's summary closes it; the second segment does not repeat it
    first_summary = view.segments[0].summary_out
    assert notes.count("**本段小结**") == 1 and "> 上一段小结" not in notes
    assert all(f"- {line}" in notes for line in first_summary.splitlines())
    assert notes.endswith("\n") and not notes.endswith("\n\n")


def test_a_carried_summary_is_quoted_once_at_the_start():
    view = view_studied(9, 12, carried="Q8：温度控制采样的随机性\nQ7：解码策略")
    notes = export.to_markdown(view)
    assert notes.count("> 上一段小结") == 1
    assert "> - Q8：温度控制采样的随机性\n> - Q7：解码策略" in notes
    assert notes.index("> 上一段小结") < notes.index("### 第 9 题")


def test_the_attempt_its_grade_the_rating_and_the_follow_ups_sit_under_each_answer():
    view = view_studied(1, 4)
    notes = export.to_markdown(view)
    q1 = notes[notes.index("### 第 1 题") : notes.index("### 第 2 题")]
    grade = view.grades[1].score
    assert f"**我的作答**（grade {grade:.0%} (offline) · rated 3 Good）：" in q1
    assert "> 注意力按相关性加权求和，&lt;b> 不是标签" in q1  # HTML-like text stays visible
    q2 = notes[notes.index("### 第 2 题") : notes.index("### 第 3 题")]
    assert "> **Incomplete answer:** cut by the token limit" in q2
    assert "rated 1 Again" in q2 and "> _（先想后看，没有写下作答）_" in q2
    q3 = notes[notes.index("### 第 3 题") : notes.index("### 第 4 题")]
    assert "**追问：** &lt;MLA> 又如何？" in q3
    assert view.followups_of(3)[0].answer.strip().splitlines()[0] in q3


def test_a_read_session_shows_ratings_without_attempts_and_says_what_is_left():
    view = view_studied(1, 5, mode="read", quit_at=2)
    notes = export.to_markdown(view)
    # read mode asks for no attempt and grades nothing; a rating given still shows
    assert "**我的作答**（rated 3 Good）：\n\n> _（先想后看，没有写下作答）_" in notes
    assert notes.count("我的作答") == 1 and "grade " not in notes
    assert "· stopped at Q3 · 2/5 done" in notes
    for question_id in (3, 4, 5):
        assert f"### 第 {question_id} 题\n\n_not answered yet_" in notes


def test_session_json_has_the_agreed_keys_for_scripts():
    view = view_studied(1, 14)
    data = export.session_json(view)
    json.dumps(data)  # plain data all through
    assert set(data) == TOP_KEYS
    assert all(set(t) == TURN_KEYS for t in data["turns"])
    assert all(set(s) == SEGMENT_KEYS for s in data["segments"])
    assert [set(f) for f in data["follow_ups"]] == [FOLLOW_UP_KEYS]
    assert set(data["kv"]) == KV_KEYS
    assert data["cache_rule"] == "openai" and data["cost"] is None  # no prices configured
    assert data["grading_usage"] is None  # offline grading sends nothing
    first, second = data["turns"][:2]
    assert (first["attempt"], first["rating"], first["grade_source"]) == (ATTEMPT, 3, "offline")
    assert {p["state"] for p in first["points"]} <= {"covered", "partly", "missed", "contradicted"}
    assert second["answer_flag"] == "truncated" and second["rating"] == 1
    assert all(t["cached_tokens_estimated"] is False for t in data["turns"])
    assert [t["question_id"] for t in data["turns"]] == list(range(1, 15))
    assert data["segments"][0]["summary_usage"]["prompt_tokens"] > 0
    assert data["segments"][-1]["summary_usage"] is None
    summary = export.session_summary(view.record)
    assert set(summary) == {
        "id",
        "status",
        "bank",
        "from",
        "to",
        "answered",
        "done",
        "stopped_at",
        "total",
        "provider",
        "model",
        "created",
        "mode",
        "selection",
    }
    assert {k: data[k] for k in summary} == summary


def test_with_prices_every_turn_and_segment_has_a_cost(studybot_home):
    studybot_home.mkdir(parents=True, exist_ok=True)
    (studybot_home / "config.toml").write_text(
        '[prices."answer-key"]\ninput = 2.0\ncached_input = 0.5\noutput = 8.0\ncurrency = "CNY"\n',
        encoding="utf-8",
    )
    data = export.session_json(view_studied(1, 8))
    costs = [t["cost"] for t in data["turns"]] + [s["cost"] for s in data["segments"]]
    assert all(c["currency"] == "CNY" and c["total"] > 0 for c in costs)
    assert data["cost"]["total"] == pytest.approx(sum(s["cost"]["total"] for s in data["segments"]))


def test_render_gives_each_text_format():
    view = view_studied(1, 3, mode="read")
    assert export.render(view, "md") == export.to_markdown(view)
    assert json.loads(export.render(view, "json")) == export.session_json(view)
    assert export.render(view, "anki").startswith("#separator:tab\n")


def test_the_notes_keep_each_points_confirmed_mark_as_an_ordered_list():
    """A quiz's notes are a study record: every key point with the mark the learner confirmed."""
    from markdown_it import MarkdownIt

    from studybot.learn.marks import MARKS

    view = view_studied(1, 4)
    notes = export.to_markdown(view)
    q1 = notes[notes.index("### 第 1 题") : notes.index("### 第 2 题")]
    assert "**要点对照**（✓ 答到 · ½ 部分 · ✗ 没答 · ⚠ 说错）：" in q1
    tokens = MarkdownIt().parse(q1[q1.index("**要点对照**") :])
    start = next(i for i, t in enumerate(tokens) if t.type == "ordered_list_open")
    end = next(i for i, t in enumerate(tokens) if t.type == "ordered_list_close")
    items = [t.content for t in tokens[start:end] if t.type == "inline"]  # the marked points
    stored = view.grades[1].points
    assert [item.split(" ", 1)[0] for item in items] == [MARKS[p.state] for p in stored]
    assert [item.split(" ", 1)[1] for item in items] == [p.point for p in stored]
    assert any(t.type == "ordered_list_open" for t in tokens)


def test_a_contradicted_point_keeps_the_words_that_contradicted_it():
    from studybot.storage.records import PointMark

    lines = export._point_marks(
        [
            PointMark("KV 缓存随层数线性增长", "covered", "随层数线性增长"),
            PointMark("只缓存 K 和 V", "contradicted", "Q 也要 <缓存>"),
            PointMark("GQA 减少 KV 头", "missed", None),
        ]
    )
    assert lines[2:] == [
        "1. ✓ KV 缓存随层数线性增长",
        "2. ⚠ 只缓存 K 和 V — 你写的：“Q 也要 &lt;缓存>”",
        "3. ✗ GQA 减少 KV 头",
    ]


def test_a_one_question_session_is_named_by_its_question_not_a_range():
    notes = export.to_markdown(view_studied(20, 20, mode="read"))
    assert "：第 20 题" in notes.splitlines()[0] and "20–20" not in notes
    assert "## Segment 1: Q20\n" in notes
    wide = export.to_markdown(view_studied(1, 3, mode="read"))
    assert "：第 1–3 题" in wide.splitlines()[0] and "## Segment 1: Q1–Q3" in wide
