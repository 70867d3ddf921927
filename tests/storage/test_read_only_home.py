"""A home nobody may write still reads; what cannot work says so in one line (#21 item 6).

The home is made read-only for real: a read-only bind mount in a private
mount namespace as root (chmod does not stop root), ``chmod`` otherwise.
Where neither is possible the real-home tests skip, and the tests below
them check the same code path from inside.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from studybot.storage.store import DB_NAME, Store

ROOT = Path(__file__).resolve().parents[2]
# Run the command with "$0" (the home) bound read-only over itself, visible to it alone.
READ_ONLY_BIND = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'


def _can_bind() -> bool:
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", READ_ONLY_BIND, "/tmp", "true"], capture_output=True
    )
    return probe.returncode == 0


BIND = _can_bind()
read_only = pytest.mark.skipif(
    os.geteuid() == 0 and not BIND, reason="root, and no mount namespace to bind read-only"
)


def run_on_home(home: Path, *args: str, read_only: bool = False) -> subprocess.CompletedProcess:
    """studybot as a user runs it; ``read_only``: with the home read-only for this command."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STUDYBOT_", "OPENAI_"))}
    env.pop("TAOTOKEN_API_KEY", None)
    env.pop("PYTEST_CURRENT_TEST", None)
    env.update(PYTHONPATH=str(ROOT), STUDYBOT_HOME=str(home))
    command = [sys.executable, "-m", "studybot", *args]
    if read_only and os.geteuid() == 0:
        command = ["unshare", "-m", "sh", "-c", READ_ONLY_BIND, str(home), *command]
    elif read_only:
        modes = _lock(home)
    try:
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    finally:
        if read_only and os.geteuid() != 0:
            _unlock(modes)


def _lock(home: Path) -> dict[Path, int]:
    modes = {p: stat.S_IMODE(p.stat().st_mode) for p in [home, *home.rglob("*")]}
    for path in sorted(modes, reverse=True):  # files before their folders
        path.chmod(0o500 if path.is_dir() else 0o400)
    return modes


def _unlock(modes: dict[Path, int]) -> None:
    for path, mode in sorted(modes.items()):
        path.chmod(mode)


@pytest.fixture
def home_with_sessions(studybot_home) -> Path:
    """A home with two sessions in a WAL database, closed cleanly (no -wal, no -shm left)."""
    for first in (1, 3):
        done = run_on_home(studybot_home, "run", "--from", str(first), "--to", str(first + 1))
        assert done.returncode == 0, done.stderr
    assert not (studybot_home / f"{DB_NAME}-shm").exists()
    return studybot_home


@read_only
def test_sessions_show_and_export_read_a_read_only_home(home_with_sessions):
    listed = run_on_home(home_with_sessions, "sessions", "--json", read_only=True)
    assert listed.returncode == 0, listed.stderr
    assert [s["id"] for s in json.loads(listed.stdout)] == [2, 1]
    shown = run_on_home(home_with_sessions, "show", "1", read_only=True)
    assert shown.returncode == 0, shown.stderr
    exported = run_on_home(home_with_sessions, "export", "2", "-f", "md", read_only=True)
    assert exported.returncode == 0, exported.stderr
    assert "第 3 题" in exported.stdout
    assert not (home_with_sessions / f"{DB_NAME}-shm").exists()


@read_only
def test_doctor_says_a_read_only_home_reads_but_cannot_save(home_with_sessions):
    result = run_on_home(home_with_sessions, "doctor", "--json", read_only=True)
    checks = {c["name"]: c for c in json.loads(result.stdout)["checks"]}
    database = checks["database"]
    assert database["ok"] is False
    assert "quick_check ok" in database["detail"] and "read-only" in database["detail"]
    assert "STUDYBOT_HOME to a writable folder" in database["hint"]
    assert "move studybot.db away" not in result.stdout + result.stderr


@read_only
def test_a_run_and_a_bank_import_on_a_read_only_home_say_one_clear_line(
    home_with_sessions, tmp_path
):
    run = run_on_home(home_with_sessions, "run", "--from", "5", "--to", "6", read_only=True)
    assert run.returncode == 1
    assert "set STUDYBOT_HOME to a writable folder" in run.stderr
    source = tmp_path / "mine.md"
    source.write_text("1. 什么是词元？\n2. 什么是注意力？\n3. 什么是 KV 缓存？\n", encoding="utf-8")
    imported = run_on_home(
        home_with_sessions, "bank", "import", str(source), "--name", "mine", read_only=True
    )
    assert imported.returncode == 1
    assert "unexpected" not in imported.stderr
    error = [line for line in imported.stderr.splitlines() if line.startswith("Error:")]
    assert len(error) == 1 and f"{home_with_sessions / 'banks'}" in error[0], imported.stderr


def test_a_read_only_database_file_keeps_its_mode_through_a_run(home_with_sessions):
    path = home_with_sessions / DB_NAME
    path.chmod(0o444)
    run_on_home(
        home_with_sessions, "run", "--from", "5", "--to", "6"
    )  # fails as a user, works as root
    assert stat.S_IMODE(path.stat().st_mode) == 0o444


def test_a_read_only_folder_is_read_without_creating_the_shm_file(home_with_sessions, monkeypatch):
    """The code path of a folder nobody may write, checked from inside (root included)."""
    from studybot.storage import dbfile, store

    real_access = os.access

    def access(path, mode, **kwargs):
        if mode & os.W_OK and Path(path) in (home_with_sessions, home_with_sessions / DB_NAME):
            return False  # what a read-only folder answers
        return real_access(path, mode, **kwargs)

    monkeypatch.setattr(dbfile.os, "access", access)
    monkeypatch.setattr(store, "writable", dbfile.writable)
    reader = Store.open(write=False)
    assert not reader.writable
    assert [r.id for r in reader.sessions()] == [2, 1]
    assert reader.view(1).turns
    assert not (home_with_sessions / f"{DB_NAME}-shm").exists()  # mode=ro alone would have made one


def test_doctor_reports_a_home_that_is_a_file(invoke, tmp_path, monkeypatch):
    target = tmp_path / "home-file"
    target.write_text("not a folder")
    monkeypatch.setenv("STUDYBOT_HOME", str(target))
    result = invoke("doctor", "--json")
    assert result.exit_code == 1
    database = {c["name"]: c for c in json.loads(result.stdout)["checks"]}["database"]
    assert database["ok"] is False
    assert f"STUDYBOT_HOME {target} is a file, not a folder" in database["detail"]
    assert "quick_check ok" not in database["detail"]


def test_a_file_system_error_on_a_chosen_path_is_one_line(capsys):
    from studybot.errors import FAILURE
    from studybot.launch import handle

    code = handle(OSError(errno.EROFS, "Read-only file system", "/home/me/studybot/banks"))
    assert code == FAILURE
    err = capsys.readouterr().err
    assert "Error: cannot use /home/me/studybot/banks: Read-only file system" in err
    assert "unexpected" not in err


@read_only
@pytest.mark.parametrize("command", [("sessions",), ("progress",), ("due",)], ids=" ".join)
def test_a_read_only_home_with_no_database_reads_as_empty(studybot_home, command):
    """progress and due failed where sessions read (#29 item 17): each only reads."""
    studybot_home.mkdir()
    result = run_on_home(studybot_home, *command, read_only=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() and not result.stderr.strip()
    assert list(studybot_home.iterdir()) == []


@read_only
def test_a_read_only_home_whose_database_links_to_nothing_says_so(studybot_home, tmp_path):
    studybot_home.mkdir()
    (studybot_home / DB_NAME).symlink_to(tmp_path / "gone.db")
    result = run_on_home(studybot_home, "sessions", read_only=True)
    assert result.returncode == 2
    assert f"is a link to {tmp_path / 'gone.db'}, which does not exist" in result.stderr
