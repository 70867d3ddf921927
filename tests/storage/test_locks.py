"""One process at a time per session: ``session_lock`` as ``run`` and ``resume`` hold it."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
import textwrap
import threading

import pytest

from studybot.errors import USAGE, BadInput
from studybot.storage.locks import SessionBusy, session_lock
from studybot.storage.store import DB_NAME, Store

# Another process takes session 5's lock, says so, and holds it until its stdin closes.
HOLDER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from studybot.storage.locks import session_lock

    with session_lock(Path(sys.argv[1]) / "studybot.db", 5):
        print("held", flush=True)
        sys.stdin.read()
    """
)


@pytest.fixture
def holder(studybot_home):
    """A second process holding session 5; it is killed at the end whatever happened."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(studybot_home)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout.readline().strip() == "held"
    yield proc
    proc.kill()
    proc.wait(timeout=30)


def test_the_lock_is_a_private_file_naming_its_holder_while_held(studybot_home):
    with session_lock(studybot_home / DB_NAME, 3):
        path = studybot_home / "locks" / "session-3.lock"
        assert path.read_text() == f"{os.getpid()}\n"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert path.read_text() == ""  # released: no pid left to mislead the next message


def test_a_second_holder_of_the_same_session_is_refused_with_exit_2(studybot_home):
    with session_lock(studybot_home / DB_NAME, 3):
        with pytest.raises(SessionBusy) as refused, session_lock(studybot_home / DB_NAME, 3):
            pass
        with session_lock(studybot_home / DB_NAME, 4):  # another session is free
            pass
    error = refused.value
    assert isinstance(error, BadInput) and error.exit_code == USAGE
    assert error.message == (f"session 3 is being studied in another process (pid {os.getpid()})")
    assert error.hint == "finish or stop that one first, then: studybot resume 3"
    with session_lock(studybot_home / DB_NAME, 3):  # released by its holder: free again
        pass


def test_the_body_raising_still_releases_the_lock(studybot_home):
    with pytest.raises(ValueError), session_lock(studybot_home / DB_NAME, 8):
        raise ValueError("the run failed")
    with session_lock(studybot_home / DB_NAME, 8):
        pass


def test_another_process_holding_the_session_is_named_by_its_pid(holder, studybot_home):
    with (
        pytest.raises(SessionBusy, match=rf"\(pid {holder.pid}\)"),
        session_lock(studybot_home / DB_NAME, 5),
    ):
        pass
    with session_lock(studybot_home / DB_NAME, 6):
        pass


def test_a_killed_holder_leaves_no_lock_behind(holder, studybot_home):
    holder.kill()  # SIGKILL: no finally block runs, the kernel drops the lock
    holder.wait(timeout=30)
    with session_lock(studybot_home / DB_NAME, 5):
        assert (studybot_home / "locks" / "session-5.lock").read_text() == f"{os.getpid()}\n"


def test_two_homes_sharing_one_database_through_a_link_take_one_lock(
    holder, studybot_home, tmp_path
):
    """Each home took its own lock, so both studied session 5 at once (#29 item 17)."""
    other = tmp_path / "other-home"
    other.mkdir()
    (other / DB_NAME).symlink_to(studybot_home / DB_NAME)
    with (
        pytest.raises(SessionBusy, match=rf"\(pid {holder.pid}\)"),
        session_lock(other / DB_NAME, 5),
    ):
        pass
    assert not (other / "locks").exists()


def test_a_database_of_another_name_has_locks_of_its_own(studybot_home, tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "mine.db").touch()
    home = tmp_path / "home-b"
    home.mkdir()
    (home / DB_NAME).symlink_to(shared / "mine.db")
    with session_lock(home / DB_NAME, 5), session_lock(shared / DB_NAME, 5):
        assert sorted(p.name for p in (shared / "locks").iterdir()) == [
            "mine.db-session-5.lock",
            "session-5.lock",
        ]


def test_resume_from_a_second_home_linked_to_the_same_database_is_refused(studybot_home, tmp_path):
    """What a person sees: a run in one home, `resume` of it from the other."""
    other = tmp_path / "other-home"
    other.mkdir()
    (other / DB_NAME).symlink_to(studybot_home / DB_NAME)
    base = {k: v for k, v in os.environ.items() if not k.startswith(("STUDYBOT_", "PYTEST_"))}
    base.update(PYTHONPATH=os.pathsep.join(sys.path), STUDYBOT_OFFLINE_DELAY="0.2")
    running = subprocess.Popen(
        [sys.executable, "-m", "studybot", "run", "--from", "1", "--to", "40"],
        env={**base, "STUDYBOT_HOME": str(studybot_home)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for line in running.stderr:  # a turn is saved: the run holds session 1
            if line.startswith("[1/40]"):
                break
        resumed = subprocess.run(
            [sys.executable, "-m", "studybot", "resume", "1"],
            env={**base, "STUDYBOT_HOME": str(other)},
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        running.terminate()
        running.wait(timeout=60)
    assert resumed.returncode == USAGE, resumed.stderr
    assert f"session 1 is being studied in another process (pid {running.pid})" in resumed.stderr


def test_opening_a_fresh_home_while_another_connection_writes_it_waits_its_turn(studybot_home):
    # Turning WAL on answers "locked" at once while another connection holds the write lock
    # (SQLite's busy timeout does not cover it); two runs starting on a fresh home met that.
    path = studybot_home / DB_NAME
    studybot_home.mkdir(parents=True, exist_ok=True)
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    other.execute("create table theirs (x)")
    threading.Timer(0.3, other.execute, ["COMMIT"]).start()
    store = Store(path)
    assert store.db.journal_mode == "wal"
    assert store.sessions() == []
    assert "theirs" in store.db.table_names()  # the other process's write is kept
    other.close()
