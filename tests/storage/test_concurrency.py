"""Two studybot processes on one home: real subprocesses, a real local server."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from openai_server import Fault, OpenAIServer
from scripted import Scripted, quiz

from studybot.storage.store import Store

KEY = "sk-live-test-0123456789abcdef"
MODEL = "test-model"
ROOT = Path(__file__).resolve().parents[2]


def slow_answer(body: dict) -> str:
    time.sleep(0.4)  # long enough that two processes overlap
    last = (body.get("messages") or body.get("input"))[-1]["content"]
    return f"结论：{last.splitlines()[-1][:12]} 的回答。"


def started(home: Path, *args: str, key: bool = True) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STUDYBOT_", "OPENAI_"))}
    env.update(PYTHONPATH=str(ROOT), STUDYBOT_HOME=str(home))
    env.pop("TAOTOKEN_API_KEY", None)
    if key:
        env["TAOTOKEN_API_KEY"] = KEY
    return subprocess.Popen(
        [sys.executable, "-m", "studybot", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen) -> tuple[int, str]:
    _, err = proc.communicate(timeout=120)
    return proc.returncode, err


def asked(server: OpenAIServer) -> list[str]:
    """The last user message of every answer request (summaries left out)."""
    lasts = [r.messages[-1]["content"] for r in server.generations]
    return [m for m in lasts if "总结" not in m]


# The server of the `server` fixture (tests/conftest.py).
SERVER = {
    "key": KEY,
    "models": [MODEL],
    "answer": slow_answer,
    "config": "retry_backoff = 0.001\nstream_idle_timeout = 5\nmax_retries = 1\n",
}


def live(server: OpenAIServer) -> tuple[str, ...]:
    return ("--base-url", server.base_url, "--model", MODEL)


def test_two_runs_at_once_on_a_fresh_home_both_finish(tmp_path, monkeypatch):
    home = tmp_path / "fresh"  # not created yet: both processes migrate it at once
    procs = [
        started(home, "run", "--from", str(first), "--to", str(first + 5), "--offline")
        for first in (1, 20)
    ]
    results = [finish(p) for p in procs]
    assert [rc for rc, _ in results] == [0, 0], results
    assert all("locked" not in err and "unexpected" not in err for _, err in results)
    monkeypatch.setenv("STUDYBOT_HOME", str(home))
    records = Store.open().sessions()
    assert sorted(r.first_question for r in records) == [1, 20]
    assert all(r.complete for r in records)


def test_two_live_runs_at_once_share_one_home(server, studybot_home):
    procs = [
        started(studybot_home, "run", "--from", str(first), "--to", str(first + 2), *live(server))
        for first in (1, 20)
    ]
    results = [finish(p) for p in procs]
    assert [rc for rc, _ in results] == [0, 0], results
    assert len(asked(server)) == 6 and len(set(asked(server))) == 6


def _interrupted_session(invoke, server: OpenAIServer, monkeypatch) -> None:
    """Session 1: questions 1-6, two answered, then a refused key stops it (in-process: faster)."""
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    server.script(None, None, Fault.unauthorized())
    result = invoke("run", "--from", "1", "--to", "6", *live(server))
    assert result.exit_code == 1 and "studybot resume 1" in result.stderr, result.stderr


def test_a_second_resume_of_a_running_session_is_refused_and_sends_nothing(
    invoke, server, studybot_home, monkeypatch
):
    _interrupted_session(invoke, server, monkeypatch)
    # The first resume's second answer stalls (then is cut and asked again), so it is
    # surely still studying when the second resume starts, however loaded the machine.
    server.script(None, Fault.stall(seconds=3.0))
    first = started(studybot_home, "resume", "1", *live(server))
    while len(server.generations) < 4:  # the first resume is answering
        assert first.poll() is None, first.communicate()
        time.sleep(0.02)
    rc, err = finish(started(studybot_home, "resume", "1", *live(server)))
    assert rc == 2
    assert f"session 1 is being studied in another process (pid {first.pid})" in err
    assert finish(first)[0] == 0
    questions = asked(server)
    # only the refused request and the stalled one were asked twice
    assert len(questions) == len(set(questions)) + 2
    assert Store.open().session(1).complete


def test_a_killed_resume_leaves_no_lock_behind(invoke, server, studybot_home, monkeypatch):
    _interrupted_session(invoke, server, monkeypatch)
    victim = started(studybot_home, "resume", "1", *live(server))
    while len(server.generations) < 4:
        time.sleep(0.02)
    victim.send_signal(signal.SIGKILL)
    victim.wait(timeout=30)
    rc, err = finish(started(studybot_home, "resume", "1", *live(server)))
    assert rc == 0, err
    record = Store.open().session(1)
    assert record.complete and record.answered == 6


TRIALS = 20  # pairs of runs started together (#21 item 10: 1 of 3 failed before)


@pytest.mark.concurrency
def test_twenty_trials_of_two_runs_at_once_all_complete(tmp_path):
    """Half on a fresh home (both migrate it), half on a migrated one; a few at a time."""
    homes = [tmp_path / f"home-{n}" for n in range(TRIALS)]
    for home in homes[TRIALS // 2 :]:
        Store(home / "studybot.db").close()
    failures = []
    for wave in range(0, TRIALS, 4):
        procs = [
            (home, started(home, "run", "--from", str(first), "--to", str(first + 1), key=False))
            for home in homes[wave : wave + 4]
            for first in (1, 20)
        ]
        failures += [(home.name, rc, err) for home, p in procs for rc, err in [finish(p)] if rc]
    assert failures == []
    for home in homes:
        with sqlite3.connect(home / "studybot.db") as con:
            done = con.execute("select count(*) from turns").fetchone()[0]
        assert done == 4, home


def test_every_write_holds_the_write_lock_from_its_first_statement(invoke, monkeypatch):
    """No transaction that starts as a read and then writes: SQLite fails those at once."""
    real_connect = sqlite3.connect
    outside: list[str] = []

    def connect(*args, **kwargs):
        conn = real_connect(*args, **kwargs)
        held = {"lock": False}

        def seen(sql: str) -> None:
            words = sql.strip().lower().split()
            first = words[0] if words else ""
            if words[:2] == ["begin", "immediate"]:
                held["lock"] = True
            elif first in {"commit", "end"} or words[:1] == ["rollback"] and "to" not in words:
                held["lock"] = False
            elif first == "begin" or (first in WRITES and not held["lock"]):
                outside.append(sql.strip()[:80])

        conn.set_trace_callback(seen)
        return conn

    monkeypatch.setattr(sqlite3, "connect", connect)
    assert invoke("run", "--from", "1", "--to", "6").exit_code == 0
    # A quiz needs a terminal: the same loop, answered by a scripted learner.
    quiz(Scripted(["要点"] * 3, [3, 3, 3]), first=7, last=9)
    for args in (("review",), ("show", "1"), ("export", "2", "-f", "md"), ("sessions",)):
        assert invoke(*args, input="\n3\n" * 3).exit_code == 0, args
    assert outside == []


WRITES = {"insert", "update", "delete", "replace", "create", "alter", "drop"}


def test_a_write_lock_held_too_long_says_what_happened(studybot_home, monkeypatch):
    from studybot.errors import StudybotError
    from studybot.storage import dbfile

    store = Store.open()
    monkeypatch.setattr(dbfile, "BUSY_SECONDS", 0.2)
    other = sqlite3.connect(store.path, timeout=0.1)
    other.execute("BEGIN IMMEDIATE")  # another process, mid-write
    try:
        with pytest.raises(StudybotError) as caught:
            Store.open().remember_prefix("前缀")
    finally:
        other.rollback()
    message = caught.value.message
    assert message.startswith("waited 0 s for another studybot process to finish writing")
    assert str(store.path) in message and "still held the write lock" in message
