"""Escape codes in a bank or a model's answer never reach the terminal (#21 item 4).

A bank (or a server) that holds ``ESC ] 0 ; … BEL`` would retitle the
user's window, ``ESC [ 31 m`` recolour it. studybot prints that text
without its control characters, and stores it as it came.
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from openai_server import Fault, OpenAIServer

from studybot.storage.store import DB_NAME

ROOT = Path(__file__).resolve().parents[2]
KEY = "sk-live-test-0123456789abcdef"
TITLE = "\x1b]0;pwned\x07"  # OSC 0: set the window title
RED = "\x1b[31m"  # CSI SGR: red
CSI8 = "\x9b31m"  # the same as one C1 character
HOSTILE = (TITLE, RED, CSI8, "\x07", "\x1b]")

BANK = """title = "Evil {title}bank"
language = "en"
[[chapters]]
number = 1
title = "Chapter {title}one"
file = "01.toml"
first = 1
last = 2
"""
QUESTIONS = """chapter = 1
[[questions]]
id = 1
question = "What is {red}red{reset}? {title}"
key_points = ["point {red}one{reset} about tokens", "point two {csi8}", "point three {title}"]
hint = "hint {title}here"
[[questions]]
id = 2
question = "Second question"
key_points = ["a one", "b two", "c three"]
"""


def toml_escapes(text: str) -> str:
    return "".join(
        f"\\u{ord(ch):04x}" if ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 else ch for ch in text
    )


@pytest.fixture
def evil_bank(tmp_path) -> Path:
    folder = tmp_path / "evil"
    folder.mkdir()
    marks = {"title": TITLE, "red": RED, "reset": "\x1b[0m", "csi8": CSI8}
    escaped = {name: toml_escapes(value) for name, value in marks.items()}
    (folder / "bank.toml").write_text(BANK.format(**escaped), encoding="utf-8")
    (folder / "01.toml").write_text(QUESTIONS.format(**escaped), encoding="utf-8")
    return folder


def environment(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STUDYBOT_", "OPENAI_"))}
    env.pop("TAOTOKEN_API_KEY", None)
    env.pop("PYTEST_CURRENT_TEST", None)
    env.update(PYTHONPATH=str(ROOT), STUDYBOT_HOME=str(home), PROMPT_TOOLKIT_NO_CPR="1")
    return env | extra


def in_terminal(home: Path, *args: str, **env: str) -> pexpect.spawn:
    """studybot in a pseudo-terminal, in colour (so only our own escapes are allowed)."""
    child = pexpect.spawn(
        sys.executable,
        ["-m", "studybot", *args],
        env=environment(home, TERM="xterm-256color", **env),
        encoding="utf-8",
        timeout=30,
        dimensions=(40, 160),
    )
    child.logfile_read = io.StringIO()
    return child


def screen(child: pexpect.spawn) -> str:
    child.expect(pexpect.EOF)
    child.close()
    return child.logfile_read.getvalue()


def assert_clean(text: str) -> None:
    # studybot's own colours are SGR codes too (a red ✗): what must not be there is the
    # bank's and the server's codes, around the words they came with.
    for code in (TITLE, CSI8, "\x07", "\x1b]"):
        assert code not in text, (code, text[:2000])
    for word in ("one", "红色"):
        assert RED + word not in text, (RED + word, text[:2000])
    assert "]0;pwned" not in text, text[:2000]


def test_bank_show_and_list_print_the_text_without_its_escape_codes(studybot_home, evil_bank):
    shown = screen(in_terminal(studybot_home, "bank", "show", "1", "--bank", str(evil_bank)))
    assert_clean(shown)
    assert "What is red?" in shown and "hint here" in shown and "point one about tokens" in shown
    listed = screen(in_terminal(studybot_home, "bank", "list", "--bank", str(evil_bank)))
    assert_clean(listed)
    assert "Chapter one" in listed


def test_a_run_in_a_terminal_shows_question_hint_answer_and_summary_clean(studybot_home, evil_bank):
    child = in_terminal(studybot_home, "run", "--from", "1", "--to", "2", "--bank", str(evil_bank))
    child.expect("q stop: ")
    child.send("h")
    child.expect("hint here")
    child.expect("q stop: ")
    child.send(" ")
    child.expect("q stop: ")
    child.send(" ")
    assert_clean(screen(child))
    with sqlite3.connect(studybot_home / DB_NAME) as con:  # stored as the bank wrote it
        question, answer = con.execute("select question, answer from turns").fetchone()
    assert TITLE in question and RED in question
    assert TITLE in answer  # the offline answer is the key, escapes and all


def test_a_quiz_reveal_marks_the_points_clean(studybot_home, evil_bank):
    child = in_terminal(
        studybot_home, "run", "--from", "1", "--to", "1", "--quiz", "--bank", str(evil_bank)
    )
    child.expect("think, then reveal")
    child.expect("›")
    child.send("tokens are about point one\r\r")
    child.expect("advice")
    child.expect(r"u h \? q: ")  # the marks step: Enter confirms the grader's marks
    child.send("\r")
    child.expect(r"f h \? q: ")
    child.send("3")
    assert_clean(screen(child))


def test_a_models_answer_and_a_servers_error_reach_the_terminal_clean(studybot_home):
    hostile = f"结论：{TITLE}这是{RED}红色{CSI8}的回答\x1b[0m。"
    with OpenAIServer(key=KEY, models=["m"], answer=lambda body: hostile) as server:
        live = ("--base-url", server.base_url, "--model", "m")
        child = in_terminal(
            studybot_home, "run", "--from", "1", "--to", "1", *live, TAOTOKEN_API_KEY=KEY
        )
        child.expect("q stop: ")
        child.send(" ")
        drawn = screen(child)
        assert_clean(drawn)
        assert "这是红色的回答" in drawn, drawn
        piped = subprocess.run(
            [sys.executable, "-m", "studybot", "run", "--from", "2", "--to", "2", *live],
            env=environment(studybot_home, TAOTOKEN_API_KEY=KEY),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert piped.returncode == 0, piped.stderr
        assert_clean(piped.stdout + piped.stderr)
        server.script(Fault.http(400, f"bad request {TITLE}{RED}here"))
        failed = subprocess.run(
            [sys.executable, "-m", "studybot", "run", "--from", "3", "--to", "3", *live],
            env=environment(studybot_home, TAOTOKEN_API_KEY=KEY),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert failed.returncode == 1 and "bad request here" in failed.stderr
    assert_clean(failed.stderr)
    with sqlite3.connect(studybot_home / DB_NAME) as con:
        answers = [row[0] for row in con.execute("select answer from turns")]
    assert answers == [hostile, hostile]  # kept as the server sent it


def test_json_keeps_the_text_whole_and_escapes_every_control(invoke, evil_bank):
    result = invoke("bank", "show", "1", "--bank", str(evil_bank), "--json")
    assert not any(code in result.stdout for code in HOSTILE)  # escaped, never raw
    assert "\\u009b" in result.stdout and "\\u001b" in result.stdout
    assert json.loads(result.stdout)["question"] == f"What is {RED}red\x1b[0m? {TITLE}"


def test_printable_keeps_text_newlines_and_tabs():
    from studybot.cli.render import printable

    assert printable(f"a{TITLE}b\tc\nd{RED}e\x1b[0m{CSI8}\r\x00\x7f") == "ab\tc\nde"
    assert printable("中文 plain text") == "中文 plain text"
    assert printable("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\") == "link"


def test_config_show_prints_a_home_named_with_escape_codes_escaped(invoke, tmp_path, monkeypatch):
    """The home's path is the user's, but a terminal obeys what it holds (#29 item 17)."""
    home = tmp_path / f"home{TITLE}{RED}x"
    monkeypatch.setenv("STUDYBOT_HOME", str(home))
    result = invoke("config", "show")
    assert result.exit_code == 0, result.stderr
    assert not any(code in result.stdout for code in HOSTILE)
    assert f"studybot config: {str(home / 'config.toml')!r}" in result.stdout.splitlines()
