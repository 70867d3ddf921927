"""Resume is faithful: the bank it started from, what changed in it, and the channel it uses."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from openai_server import Fault

from studybot import bank
from studybot.channel import config
from studybot.channel.providers.offline import OfflineProvider
from studybot.storage.store import Store
from studybot.study import session

KEY = "sk-live-test-0123456789abcdef"
MODELS = ["test-model", "other-model"]
SHIPPED = Path(__file__).resolve().parents[2] / "questions"


# The server of the `server` fixture (tests/conftest.py).
SERVER = {
    "key": KEY,
    "key_env": True,
    "config": "retry_backoff = 0.001\nmax_retries = 0\n",
    "models": MODELS,
}


def live(server, model: str = "test-model") -> tuple[str, ...]:
    return ("--base-url", server.base_url, "--model", model)


def interrupted(invoke, server, *args: str) -> None:
    """Session 1 of questions 1-4: Q1 answered, then a refused key stops it."""
    server.script(None, Fault.unauthorized())
    result = invoke("run", "--from", "1", "--to", "4", *args, *live(server))
    assert result.exit_code == 1, result.stderr


def test_a_relative_bank_path_is_stored_resolved_and_resumes_from_anywhere(
    invoke, server, tmp_path, monkeypatch
):
    shutil.copytree(SHIPPED, tmp_path / "mybank")
    monkeypatch.chdir(tmp_path)
    interrupted(invoke, server, "--bank", "mybank")
    assert Store.open().session(1).bank == str((tmp_path / "mybank").resolve())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = invoke("resume", "1")
    assert result.exit_code == 0, result.stderr
    assert Store.open().session(1).complete


def test_a_bank_edited_since_the_start_is_named_on_resume(invoke, server, tmp_path, monkeypatch):
    shutil.copytree(SHIPPED, tmp_path / "mybank")
    interrupted(invoke, server, "--bank", str(tmp_path / "mybank"))
    chapter = tmp_path / "mybank" / "01-intro.toml"
    text = chapter.read_text(encoding="utf-8")
    first = bank.load(str(tmp_path / "mybank")).get(3).question
    chapter.write_text(text.replace(first, first + "（改）", 1), encoding="utf-8")
    result = invoke("resume", "1")
    assert result.exit_code == 0, result.stderr
    assert "the bank changed since session 1 started: edited Q3" in result.stderr


def test_an_unchanged_bank_says_nothing(invoke, server):
    interrupted(invoke, server)
    assert "bank changed" not in invoke("resume", "1").stderr


def test_resume_with_another_model_is_recorded_on_the_session(invoke, server):
    interrupted(invoke, server)
    result = invoke("resume", "1", "--model", "other-model")
    assert result.exit_code == 0, result.stderr
    record = Store.open().session(1)
    assert record.model == "other-model"
    (switch,) = record.settings["resumed"]
    assert switch["from_question"] == 2 and switch["before"]["model"] == "test-model"
    assert {r.body["model"] for r in server.generations[2:]} == {"other-model"}


def stopped_offline_session() -> None:
    """Session 1 of questions 1-3, offline, stopped after Q1."""
    loaded = bank.load()
    study = session.Study(loaded, OfflineProvider(loaded), config.load({"offline": True}))
    store = Store.open()
    record = session.start(study, store, loaded.select(1, 3))

    class QuitAfterFirst(session.Listener):
        def after_answer(self, question, suggestion):
            return session.QUIT

    with pytest.raises(session.Stopped):
        session.run(study, store, record, QuitAfterFirst())


def test_an_offline_session_resumed_with_a_key_and_flags_goes_live(invoke, server):
    stopped_offline_session()
    result = invoke("resume", "1", *live(server))
    assert result.exit_code == 0, result.stderr
    assert "offline" not in result.stderr
    assert len(server.generations) == 2  # Q2 and Q3, live (a last segment has no summary)
    record = Store.open().session(1)
    assert (record.provider, record.model) == ("openai-compat", "test-model")


def test_an_offline_session_resumed_without_flags_stays_offline(invoke, server):
    stopped_offline_session()  # the key is set, but nothing asks for the live channel
    result = invoke("resume", "1")
    assert result.exit_code == 0, result.stderr
    assert server.generations == []
    assert Store.open().session(1).provider == "offline"
