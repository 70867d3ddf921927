"""Two studybot processes on one home: real subprocesses, a real local server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from openai_server import Fault, OpenAIServer

from studybot.storage.store import Store

KEY = "sk-live-test-0123456789abcdef"
MODEL = "test-model"
ROOT = Path(__file__).resolve().parents[2]


def slow_answer(body: dict) -> str:
    time.sleep(0.4)  # long enough that two processes overlap
    last = (body.get("messages") or body.get("input"))[-1]["content"]
    return f"结论：{last.splitlines()[-1][:12]} 的回答。"


def spawn(home: Path, *args: str, key: bool = True) -> subprocess.Popen:
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


@pytest.fixture
def server(studybot_home):
    studybot_home.mkdir(parents=True, exist_ok=True)
    (studybot_home / "config.toml").write_text(
        "retry_backoff = 0.001\nstream_idle_timeout = 5\nmax_retries = 1\n", encoding="utf-8"
    )
    with OpenAIServer(key=KEY, models=[MODEL], answer=slow_answer) as running:
        yield running


def live(server: OpenAIServer) -> tuple[str, ...]:
    return ("--base-url", server.base_url, "--model", MODEL)


def test_two_runs_at_once_on_a_fresh_home_both_finish(tmp_path, monkeypatch):
    home = tmp_path / "fresh"  # not created yet: both processes migrate it at once
    procs = [
        spawn(home, "run", "--from", str(first), "--to", str(first + 5), "--offline")
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
        spawn(studybot_home, "run", "--from", str(first), "--to", str(first + 2), *live(server))
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
    first = spawn(studybot_home, "resume", "1", *live(server))
    while len(server.generations) < 4:  # the first resume is answering
        assert first.poll() is None, first.communicate()
        time.sleep(0.02)
    rc, err = finish(spawn(studybot_home, "resume", "1", *live(server)))
    assert rc == 2
    assert f"session 1 is being studied in another process (pid {first.pid})" in err
    assert finish(first)[0] == 0
    questions = asked(server)
    # only the refused request and the stalled one were asked twice
    assert len(questions) == len(set(questions)) + 2
    assert Store.open().session(1).complete


def test_a_killed_resume_leaves_no_lock_behind(invoke, server, studybot_home, monkeypatch):
    _interrupted_session(invoke, server, monkeypatch)
    victim = spawn(studybot_home, "resume", "1", *live(server))
    while len(server.generations) < 4:
        time.sleep(0.02)
    victim.send_signal(signal.SIGKILL)
    victim.wait(timeout=30)
    rc, err = finish(spawn(studybot_home, "resume", "1", *live(server)))
    assert rc == 0, err
    record = Store.open().session(1)
    assert record.complete and record.answered == 6
