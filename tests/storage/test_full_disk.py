"""A full disk is said as such: the session lock, a bank import, doctor.

Issue 29, items 10 and 13: ``resume`` on a full disk ended in ``unexpected
OSError`` when the lock file could not be written; a ``bank import`` bigger
than the free space did too; ``doctor`` told the user to check permissions.
The disk is made full at the operating system's boundary: the write, the
sync or the free space it reports.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections import namedtuple

import pytest

from studybot import bank
from studybot.storage import dbfile, locks

QUESTIONS = "".join(f"{n}. 第 {n} 个问题是什么意思？\n" for n in range(1, 41))


def no_space(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def free_only(count: int):
    usage = namedtuple("usage", "total used free")
    return lambda path: usage(10 * 2**30, 10 * 2**30 - count, count)


# -- the session lock ---------------------------------------------------------------------


def test_run_and_resume_on_a_full_disk_say_so_and_resume_afterwards(invoke, monkeypatch):
    with monkeypatch.context() as full:
        full.setattr(locks.os, "pwrite", no_space)  # the pid written into the lock file
        run = invoke("run", "--from", "1", "--to", "3")
        assert run.exit_code == 1
        said = run.stderr.splitlines()[-2:]
        assert said[0].startswith("Error: the disk holding ") and said[0].endswith(
            "is full: no space left to write session-1.lock"
        )
        assert said[1] == "Hint: free some disk space, then resume; what was saved before is kept"
        again = invoke("resume")
        assert again.exit_code == 1 and "is full" in again.stderr
    done = invoke("resume", "--json")  # space freed: the session is resumed to its end
    assert done.exit_code == 0, done.stderr
    assert '"status": "finished"' in done.stdout


# -- a bank import --------------------------------------------------------------------------


def test_a_bank_bigger_than_the_free_space_is_refused_before_a_byte_is_written(
    invoke, monkeypatch, tmp_path, studybot_home
):
    source = tmp_path / "mine.md"
    source.write_text(QUESTIONS, encoding="utf-8")
    monkeypatch.setattr(shutil, "disk_usage", free_only(2048))
    result = invoke("bank", "import", str(source), "--name", "mine")
    assert result.exit_code == 1
    first = result.stderr.splitlines()[0]
    assert first.startswith("Error: bank 'mine' needs ") and first.endswith(
        "has 2 kB free; nothing was written"
    )
    assert "free some disk space" in result.stderr
    assert not [p for p in (studybot_home / "banks").iterdir()]  # no half-written folder


def test_a_disk_that_fills_up_during_an_import_keeps_the_bank_that_was_there(
    invoke, monkeypatch, tmp_path
):
    source = tmp_path / "mine.md"
    source.write_text(QUESTIONS, encoding="utf-8")
    assert invoke("bank", "import", str(source), "--name", "mine").exit_code == 0
    source.write_text(QUESTIONS.replace("意思", "含义"), encoding="utf-8")
    with monkeypatch.context() as full:
        full.setattr(os, "fsync", no_space)
        result = invoke("bank", "import", str(source), "--name", "mine", "--force")
    assert result.exit_code == 1
    assert "filled up while bank 'mine'" in result.stderr.splitlines()[0]
    assert "any bank of that name is unchanged" in result.stderr
    assert "意思" in bank.load("mine").get(1).question


# -- doctor ----------------------------------------------------------------------------------


@pytest.mark.parametrize("free", [0, 300 * 1024])
def test_doctor_on_a_full_disk_says_the_disk_is_full(invoke, monkeypatch, studybot_home, free):
    assert invoke("run", "--from", "1", "--to", "1").exit_code == 0
    monkeypatch.setattr(shutil, "disk_usage", free_only(free))
    result = invoke("doctor")
    assert result.exit_code == 1
    line = next(x for x in result.stdout.splitlines() if x.startswith("FAIL  database"))
    assert f"the disk holding {studybot_home} is full ({free // 1024} kB free)" in line
    assert "permissions" not in result.stdout + result.stderr
    assert "free some disk space" in result.stdout


def test_doctor_with_room_left_is_fine(invoke, monkeypatch):
    assert invoke("run", "--from", "1", "--to", "1").exit_code == 0
    monkeypatch.setattr(shutil, "disk_usage", free_only(dbfile.FULL_BELOW))
    assert "  ok  database" in invoke("doctor").stdout
