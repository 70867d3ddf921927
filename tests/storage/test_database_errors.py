"""The database speaks clearly: damaged, newer, full, read-only or misplaced (#11 item 6)."""

from __future__ import annotations

import json
import os
import sqlite3

import pytest

from studybot.storage.dbfile import explain
from studybot.storage.store import DB_NAME, Store


def database_after_a_run(invoke, studybot_home):
    assert invoke("run", "--from", "1", "--to", "2").exit_code == 0
    return studybot_home / DB_NAME


@pytest.mark.parametrize("command", [("sessions",), ("run", "--from", "1", "--to", "2")])
def test_a_file_that_is_not_a_database_is_named(invoke, studybot_home, command):
    studybot_home.mkdir(parents=True)
    path = studybot_home / DB_NAME
    path.write_bytes(b"this is my shopping list, not SQLite\n" * 200)
    result = invoke(*command)
    assert result.exit_code == 1
    assert f"the session database {path} is damaged or not a studybot database" in result.stderr
    assert "move studybot.db away" in result.stderr and "unexpected" not in result.stderr


def test_a_truncated_database_is_named(invoke, studybot_home):
    path = database_after_a_run(invoke, studybot_home)
    Store.open().db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    result = invoke("show", "1")
    assert result.exit_code == 1
    assert str(path) in result.stderr and "unexpected" not in result.stderr
    doctor = invoke("doctor", "--json")
    assert doctor.exit_code == 1
    checks = {c["name"]: c for c in json.loads(doctor.stdout)["checks"]}
    assert checks["database"]["ok"] is False and str(path) in checks["database"]["detail"]


def test_doctor_reports_the_database_and_its_quick_check(invoke, studybot_home):
    path = database_after_a_run(invoke, studybot_home)
    result = invoke("doctor")
    assert f"database   {path}: quick_check ok" in result.stdout


def test_a_newer_database_is_read_but_never_written(invoke, studybot_home):
    database_after_a_run(invoke, studybot_home)
    store = Store.open()
    store.db["_migrations"].insert(
        {"name": "m042_from_the_future", "applied_at": "2030-01-01", "studybot_version": "0.9.0"}
    )
    store.close()
    result = invoke("run", "--from", "3", "--to", "4")
    assert result.exit_code == 1
    assert "written by studybot 0.9.0 or newer" in result.stderr
    assert "m042_from_the_future" in result.stderr
    assert invoke("sessions").exit_code == 0
    assert invoke("show", "1").exit_code == 0
    assert invoke("export", "1", "-f", "md").exit_code == 0
    assert len(Store.open(write=False).sessions()) == 1


def test_a_full_disk_is_explained(studybot_home):
    store = Store.open()
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count = {pages}")  # the file may not grow: SQLITE_FULL
    with pytest.raises(sqlite3.OperationalError) as caught:
        store.remember_prefix("前缀" * 100_000)
    error = explain(caught.value, store.path)
    assert error.exit_code == 1
    assert f"cannot write the session database {store.path}" in error.message
    assert "free some disk space" in error.hint


def test_a_home_that_is_a_file_is_a_bad_setting(invoke, tmp_path, monkeypatch):
    target = tmp_path / "home-file"
    target.write_text("x")
    monkeypatch.setenv("STUDYBOT_HOME", str(target))
    result = invoke("run", "--from", "1", "--to", "2")
    assert result.exit_code == 2
    assert f"STUDYBOT_HOME {target} is a file, not a folder" in result.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through file permissions")
def test_a_read_only_home_still_reads(invoke, studybot_home):
    database_after_a_run(invoke, studybot_home)
    for path in studybot_home.rglob("*"):
        path.chmod(0o400 if path.is_file() else 0o500)
    studybot_home.chmod(0o500)
    try:
        assert invoke("sessions").exit_code == 0
        assert invoke("show", "1").exit_code == 0
        assert invoke("export", "1", "-f", "md").exit_code == 0
        result = invoke("run", "--from", "3", "--to", "4")
        assert result.exit_code == 1
        assert "set STUDYBOT_HOME to a writable folder" in result.stderr
    finally:
        studybot_home.chmod(0o700)
        for path in studybot_home.rglob("*"):
            path.chmod(0o600 if path.is_file() else 0o700)


def test_reading_commands_open_a_read_only_database_even_as_root(
    invoke, studybot_home, monkeypatch
):
    """The permission check above is skipped as root; SQLite's mode=ro is not."""
    from studybot.storage import store

    database_after_a_run(
        invoke, studybot_home
    )  # offline: its last summary is written only when read
    monkeypatch.setattr(store, "writable", lambda path: False)
    for command in (("sessions",), ("show", "1"), ("export", "1", "-f", "md")):
        result = invoke(*command)
        assert result.exit_code == 0, (command, result.stderr)
    assert "第 1 题" in invoke("export", "1", "-f", "md").stdout


def test_a_read_only_home_without_a_database_lists_nothing(invoke, tmp_path, monkeypatch):
    from studybot.storage import store

    monkeypatch.setattr(store, "writable", lambda path: False)  # what a non-root user would see
    monkeypatch.setenv("STUDYBOT_HOME", str(tmp_path / "nowhere"))
    result = invoke("sessions")
    assert result.exit_code == 0 and "No sessions yet" in result.stdout
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("target_folder", ["missing", "present"])
@pytest.mark.parametrize(
    "command", [("sessions",), ("progress",), ("run", "--from", "1", "--to", "1")], ids=" ".join
)
def test_a_database_link_to_nothing_says_so(
    invoke, studybot_home, tmp_path, target_folder, command
):
    """It said "check the folder's permissions", or made a new database at the far end (#29 17)."""
    studybot_home.mkdir(parents=True)
    folder = tmp_path / "usb-drive"
    if target_folder == "present":
        folder.mkdir()
    link = studybot_home / DB_NAME
    link.symlink_to(folder / "studybot.db")
    result = invoke(*command)
    assert result.exit_code == 2, result.stderr
    assert (
        f"the session database {link} is a link to {folder / 'studybot.db'}, which does not exist"
        in result.stderr
    )
    assert "remove the link" in result.stderr and "permissions" not in result.stderr
    assert link.is_symlink() and not (folder / "studybot.db").exists()


def test_doctor_names_a_database_link_to_nothing(invoke, studybot_home, tmp_path):
    studybot_home.mkdir(parents=True)
    (studybot_home / DB_NAME).symlink_to(tmp_path / "gone.db")
    result = invoke("doctor", "--json")
    database = {c["name"]: c for c in json.loads(result.stdout)["checks"]}["database"]
    assert database["ok"] is False
    assert f"is a link to {tmp_path / 'gone.db'}, which does not exist" in database["detail"]
    assert "remove the link" in database["hint"]
