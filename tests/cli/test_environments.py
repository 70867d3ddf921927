"""Environments: file names and homes that are not UTF-8, and outputs that cannot show Chinese.

Issue 29, item 10: a question file named with bytes that are not UTF-8
could be previewed but not saved, a home so named broke ``doctor``, and
``PYTHONIOENCODING=ascii`` or ``latin-1`` ended commands in ``unexpected
UnicodeEncodeError``. Each works, or is refused in one line. These run the
real command in a subprocess: the path's bytes and the output's encoding
are the process's own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = "1. 什么是注意力机制？\n2. 什么是 KV 缓存？\n3. 为什么不缓存 Q？\n"


def run_in_environment(
    home: Path | bytes, *args: str | bytes, **env: str
) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("STUDYBOT_", "TAOTOKEN_"))}
    clean.pop("PYTEST_CURRENT_TEST", None)
    base = {**clean, "PYTHONPATH": str(ROOT), **env}
    environ = {os.fsencode(k): os.fsencode(v) for k, v in base.items()}
    environ[b"STUDYBOT_HOME"] = home if isinstance(home, bytes) else os.fsencode(home)
    command = [os.fsencode(sys.executable), b"-m", b"studybot"]
    return subprocess.run(
        command + [a if isinstance(a, bytes) else a.encode() for a in args],
        env=environ,
        capture_output=True,
        timeout=120,
    )


def said(done: subprocess.CompletedProcess) -> str:
    return done.stderr.decode("utf-8", "replace")


def crashed(done: subprocess.CompletedProcess) -> bool:
    return "unexpected" in said(done) or "Traceback" in said(done)


# -- names that are not UTF-8 -------------------------------------------------------------------


@pytest.fixture
def odd_file(tmp_path) -> bytes:
    path = os.fsencode(tmp_path) + b"/q\xff\xfe.md"
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(QUESTIONS)
    return path


def test_a_question_file_named_with_bytes_that_are_not_utf8_imports(tmp_path, odd_file):
    home = tmp_path / "home"
    preview = run_in_environment(home, "bank", "import", odd_file, "--preview")
    assert preview.returncode == 0 and not crashed(preview), said(preview)
    saved = run_in_environment(home, "bank", "import", odd_file, "--name", "mine")
    assert saved.returncode == 0 and not crashed(saved), said(saved)
    listed = json.loads(run_in_environment(home, "bank", "banks", "--json").stdout)
    mine = next(b for b in listed if b["name"] == "mine")
    assert mine["title"] == "q\ufffd\ufffd" and mine["questions"] == 3
    run = run_in_environment(home, "run", "--bank", "mine", "--from", "1", "--to", "3")
    assert run.returncode == 0, said(run)


def test_such_a_file_as_a_bank_path_is_refused_in_one_line(tmp_path, odd_file):
    for command in (("run", "--from", "1", "--to", "1"), ("due",), ("review",)):
        done = run_in_environment(tmp_path / "home", *command, "--bank", odd_file)
        assert done.returncode == 2, said(done)
        lines = said(done).splitlines()
        assert lines[0].startswith("Error: the bank's path ") and "not UTF-8" in lines[0]
        assert lines[1].startswith("Hint: import it under a name: studybot bank import FILE")


@pytest.mark.parametrize("command", [("doctor",), ("doctor", "--json"), ("config", "show")])
def test_a_home_named_with_bytes_that_are_not_utf8_is_diagnosed(tmp_path, command):
    home = os.fsencode(tmp_path) + b"/h\xfe"
    assert run_in_environment(home, "run", "--from", "1", "--to", "1").returncode == 0
    done = run_in_environment(home, *command)
    assert done.returncode == 0, said(done)
    assert not crashed(done)
    assert b"h\\udcfe" in done.stdout  # the byte, shown as an escape
    if command[0] == "doctor":  # (config show quotes the path itself)
        assert said(done).splitlines()[-1].startswith("Note: bytes that are not UTF-8")


# -- an output encoding without Chinese -----------------------------------------------------------


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize(
    "command",
    [
        ("bank", "show", "23"),
        ("doctor",),
        ("grade", "23", "--attempt", "只缓存 K 和 V"),
        ("bank", "validate"),
        ("run", "--help"),
        ("run", "--from", "1", "--to", "1"),
        ("export", "1", "-f", "md"),
    ],
)
def test_an_output_that_cannot_show_chinese_gets_escapes_and_a_note(tmp_path, encoding, command):
    home = tmp_path / "home"
    if command[0] == "export":
        assert run_in_environment(home, "run", "--from", "1", "--to", "1").returncode == 0
    done = run_in_environment(home, *command, PYTHONIOENCODING=encoding)
    assert done.returncode == 0, said(done)
    assert not crashed(done)
    if encoding == "latin-1":  # (click writes UTF-8 itself where an output says ascii)
        note = "Note: this output's encoding (latin-1) cannot show every character"
        assert said(done).splitlines()[-1].startswith(note)
