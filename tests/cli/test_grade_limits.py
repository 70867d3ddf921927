"""``grade`` reads an attempt of at most 20,000 characters of text, as the quiz editor takes.

Issue 29, item 4: 100 MB on stdin took 120 s and 3.7 GB and ended in
``unexpected MemoryError``; bytes that are not text were graded as if they
were. Both are refused in one line (exit 2), having read no more than the
cap's worth of bytes.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from terminal import MARKS, db, finish, spawn

from studybot.study.checking import ATTEMPT_CHARS

ROOT = Path(__file__).resolve().parents[2]
TOO_LONG = f"an attempt holds at most {ATTEMPT_CHARS:,} (as in the quiz editor)"


def test_an_attempt_over_the_cap_is_refused_with_its_length(invoke):
    result = invoke("grade", "23", "--attempt", "只缓存 K 和 V。" * 2_001)
    assert result.exit_code == 2
    first = result.stderr.splitlines()[0]
    assert first == f"Error: the attempt is 20,010 characters long; {TOO_LONG}"
    assert result.stdout == ""


def test_stdin_over_the_cap_is_refused_without_being_read_whole(invoke):
    result = invoke("grade", "23", input=b"a" * (4 * ATTEMPT_CHARS + 10))
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == (
        f"Error: the attempt is longer than {ATTEMPT_CHARS:,} characters; {TOO_LONG}"
    )
    just = invoke("grade", "23", "--json", input=("缓" * ATTEMPT_CHARS).encode())
    assert just.exit_code == 0, just.stderr  # 60,000 bytes of 20,000 characters: taken


def test_100_mb_on_stdin_is_refused_in_a_moment(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("STUDYBOT_")}
    env.update(PYTHONPATH=str(ROOT), STUDYBOT_HOME=str(tmp_path / "home"))
    env.pop("PYTEST_CURRENT_TEST", None)
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "studybot", "grade", "23"],
        input=b"x" * 100 * 2**20,
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert time.monotonic() - started < 20  # 120 s before
    assert done.returncode == 2
    assert b"longer than 20,000 characters" in done.stderr
    assert b"unexpected" not in done.stderr
    # the child read 80 kB: its peak is a Python start-up's, never the 100 MB
    assert resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss < 1024 * 1024


def test_bytes_that_are_not_text_are_refused(invoke):
    png = invoke("grade", "23", input=b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert png.exit_code == 2
    assert png.stderr.splitlines() == [
        "Error: the attempt is not text: byte 1 (0x89) is not UTF-8",
        "Hint: give it as UTF-8 text: studybot grade 23 < answer.txt, or --attempt TEXT",
    ]
    nul = invoke("grade", "23", input="只缓存 K\0 和 V".encode())
    assert nul.exit_code == 2
    assert nul.stderr.splitlines()[0] == (
        "Error: the attempt is not text: character 6 is a NUL byte"
    )
    bom = invoke("grade", "23", "--json", input="\ufeff只缓存 K 和 V".encode())
    assert bom.exit_code == 0, bom.stderr  # a byte-order mark is UTF-8 still


def test_an_attempt_argument_with_bytes_that_are_not_utf8_is_refused(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("STUDYBOT_")}
    env.update(PYTHONPATH=str(ROOT), STUDYBOT_HOME=str(tmp_path / "home"))
    env.pop("PYTEST_CURRENT_TEST", None)
    done = subprocess.run(
        [sys.executable.encode(), b"-m", b"studybot", b"grade", b"23", b"--attempt", b"K\xff V"],
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.decode().splitlines()[0] == (
        "Error: the attempt is not text: character 2 is the byte 0xff, not UTF-8"
    )


def test_the_quiz_editor_sends_no_attempt_over_the_cap(studybot_home):
    child = spawn(studybot_home, "run", "--from", "1", "--to", "1", "--quiz")
    child.expect("›")
    child.send("写了一半")
    child.send("\x03")  # Ctrl-C keeps the draft
    assert finish(child) == 130
    with db(studybot_home) as con:
        con.execute("update drafts set text = ?", ("a" * (ATTEMPT_CHARS + 1),))
    child = spawn(studybot_home, "resume")
    child.expect("back in the editor")
    child.expect_exact("\x1b[?2004h")  # the editor is open (its prompt scrolled out of sight)
    child.send("\x04")  # Ctrl-D sends it: one character too many
    child.expect(f"at most {ATTEMPT_CHARS:,} characters")
    child.send("\x7f\x04")  # one cut, sent again
    child.expect(MARKS)
    child.send("q")
    finish(child)
