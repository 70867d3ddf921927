"""The main job end to end, offline: run, show, sessions, export, follow-ups, stop and resume."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from studybot import bank
from studybot.channel import config
from studybot.channel.providers.offline import OfflineProvider
from studybot.storage.store import Store
from studybot.study import session


def test_run_1_to_8_offline_then_show_and_export(invoke, tmp_path):
    result = invoke("run", "--from", "1", "--to", "8")
    assert result.exit_code == 0, result.stderr
    assert "offline: answering from the bank's answer key; set TAOTOKEN_API_KEY" in result.stderr
    assert result.stderr.count("offline:") == 1
    assert "第 5 题" in result.stdout and "Session 1" in result.stdout

    shown = json.loads(invoke("show", "1", "--json").stdout)
    assert shown["status"] == "finished" and shown["provider"] == "offline"
    turns = shown["turns"]
    assert [t["question_id"] for t in turns] == list(range(1, 9))
    contexts = [t["context_tokens"] for t in turns]
    assert contexts == sorted(contexts) and contexts[0] < contexts[-1]
    for t in turns:
        assert t["context_tokens"] == t["prompt_tokens"] + t["completion_tokens"]
        assert {"question", "answer", "cached_tokens", "latency_ms", "segment"} <= set(t)
    assert [s["questions"] for s in shown["segments"]] == [list(range(1, 9))]

    notes = tmp_path / "notes.md"
    exported = invoke("export", "1", "-f", "md", "-o", str(notes))
    assert exported.exit_code == 0
    text = notes.read_text(encoding="utf-8")
    loaded = bank.load()
    for number in range(1, 9):
        assert loaded.get(number).question in text
    assert "本段小结" in text


def test_sessions_json_lists_newest_first_with_progress(invoke):
    invoke("run", "--from", "1", "--to", "5")
    invoke("run", "--from", "9", "--to", "14")
    rows = json.loads(invoke("sessions", "--json").stdout)
    assert [r["id"] for r in rows] == [2, 1]
    assert set(rows[0]) == {
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
        "cost",
    }
    assert rows[0]["mode"] == "read"
    assert rows[0]["selection"] == {"kind": "range", "from": 9, "to": 14}
    assert rows[0]["cost"] is None  # no prices configured
    assert rows[0]["from"] == 9 and rows[0]["to"] == 14 and rows[0]["answered"] == 6
    assert rows[1]["status"] == "finished"


def test_export_json(invoke):
    invoke("run", "--from", "20", "--to", "25")
    data = json.loads(invoke("export", "1", "-f", "json").stdout)
    assert [t["question_id"] for t in data["turns"]] == list(range(20, 26))


class ScriptedListener(session.Listener):
    """Answers the after-answer prompt from a script: {question_id: [actions]}."""

    def __init__(self, script, follow_ups):
        self.script = {k: list(v) for k, v in script.items()}
        self.follow_ups = list(follow_ups)

    def after_answer(self, question, suggestion):
        actions = self.script.get(question.id) or ["next"]
        return actions.pop(0)

    def follow_up_text(self, question):
        return self.follow_ups.pop(0)


class Recording(OfflineProvider):
    def __init__(self, loaded):
        super().__init__(loaded)
        self.sent = []

    def answer(self, messages, *, question, on_text=None):
        self.sent.append([dict(m) for m in messages])
        return super().answer(messages, question=question, on_text=on_text)


def start(first, last):
    loaded = bank.load()
    provider = Recording(loaded)
    study = session.Study(loaded, provider, replace(config.load()))
    store = Store.open()
    return study, store, session.start(study, store, loaded.select(first, last))


def test_a_follow_up_is_saved_but_never_enters_the_main_history():
    study, store, record = start(1, 5)
    listener = ScriptedListener({2: ["follow-up", "next"]}, ["批大小会影响这个倍数吗？"])
    session.run(study, store, record, listener)
    saved = store.followups(record.id)
    assert [(f.question_id, f.question) for f in saved] == [(2, "批大小会影响这个倍数吗？")]
    assert saved[0].answer
    for messages in study.provider.sent:
        assert all("批大小会影响" not in m["content"] for m in messages)
        assert all(saved[0].answer != m["content"] for m in messages)
    assert store.session(record.id).complete


def test_quit_stops_after_the_answer_and_resume_continues_at_the_next_question():
    study, store, record = start(1, 8)
    with pytest.raises(session.Stopped):
        session.run(study, store, record, ScriptedListener({3: ["quit"]}, []))
    assert [t.question_id for t in store.turns(record.id)] == [1, 2, 3]
    assert not store.session(record.id).complete
    study.provider.sent.clear()
    session.run(study, store, store.session(record.id), session.Listener())
    assert [t.question_id for t in store.turns(record.id)] == list(range(1, 9))
    asked = [m[-1]["content"] for m in study.provider.sent]
    assert asked[0].startswith("第 4 题") and len(asked) == 5
    # the resumed request carries the segment's history exactly as before
    assert "第 3 题" in study.provider.sent[0][5]["content"]


def test_resume_command_picks_the_newest_unfinished_session(invoke):
    study, store, record = start(1, 8)
    with pytest.raises(session.Stopped):
        session.run(study, store, record, ScriptedListener({2: ["quit"]}, []))
    result = invoke("resume")
    assert result.exit_code == 0, result.stderr
    assert json.loads(invoke("show", str(record.id), "--json").stdout)["status"] == "finished"
    again = invoke("resume")
    assert again.exit_code == 2 and "no unfinished session" in again.stderr
    done = invoke("resume", str(record.id))
    assert done.exit_code == 2 and "already complete" in done.stderr


def test_a_bank_without_key_points_answers_with_a_pointer_to_a_live_model(tmp_path):
    from studybot.bank import Question
    from studybot.bank.key import NO_KEY_ANSWER, answer_text, summary_text

    bare = Question(1, 1, "什么是注意力？")
    assert answer_text(bare) == NO_KEY_ANSWER
    assert "Q1：什么是注意力？" in summary_text([bare], lines=5)


def test_the_offline_notice_names_where_offline_was_asked_for(invoke, studybot_home):
    flagged = invoke("run", "--from", "1", "--to", "5", "--offline")
    assert "answer key (--offline)" in flagged.stderr
    (studybot_home / "config.toml").write_text("offline = true\n", encoding="utf-8")
    configured = invoke("run", "--from", "1", "--to", "5")
    assert f"answer key ({studybot_home / 'config.toml'})" in configured.stderr
