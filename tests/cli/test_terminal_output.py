"""What a terminal shows: Markdown answers, context lines, colours that NO_COLOR turns off.

Runs ``studybot`` in a real pseudo-terminal (pexpect) against the local
OpenAI-compatible server, and the same run piped, which must stay raw text.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from studybot import bank
from studybot.cli.render import bar, number, sparkline

KEY = "sk-terminal-test-0123456789abcdef"
MODEL = "test-model"
ANSWER = (
    "## 要点\n\n- **注意力** 的代价是 $O(n^2)$，缩放 $\\frac{1}{\\sqrt{d_k}}$\n"
    "- 第二点 `kv_cache`\n\n| n | KV |\n|---|---|\n| 8K | 1× |\n"
)
COLOUR = re.compile(r"\x1b\[[0-9;]*(?:3[0-9]|9[0-7])[0-9;]*m")  # a foreground colour is set
ANY_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def answer(body: dict) -> str:
    last = (body.get("messages") or body.get("input"))[-1]["content"]
    return "第一行小结\n第二行小结" if "总结" in last else ANSWER


# The server of the `server` fixture (tests/conftest.py).
SERVER = {"key": KEY, "models": [MODEL], "answer": answer}


def command() -> str:
    script = Path(sys.executable).with_name("studybot")
    return str(script) if script.exists() else f"{sys.executable} -m studybot"


def environment(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"PYTEST_CURRENT_TEST", "NO_COLOR"}}
    root = str(Path(__file__).resolve().parents[2])
    env.update(
        STUDYBOT_HOME=str(home),
        TAOTOKEN_API_KEY=KEY,
        PYTHONPATH=root + os.pathsep + env.get("PYTHONPATH", ""),
        TERM="xterm-256color",
        COLUMNS="100",
        LINES="40",
        **extra,
    )
    env.pop("CODEX_HOME", None)
    return env


def on_terminal(server, home: Path, *flags: str, **extra: str) -> str:
    """Run Q1–2 live in a 100×40 pseudo-terminal, pressing Enter at each prompt."""
    args = [*flags, "run", "--from", "1", "--to", "2", "--base-url", server.base_url]
    child = pexpect.spawn(
        command(),
        [*args, "--model", MODEL],
        env=environment(home, **extra),
        dimensions=(40, 100),
        encoding="utf-8",
        timeout=60,
    )
    seen = []
    for _ in range(2):
        child.expect("next")
        seen.append(child.before + child.after)
        child.send("\r")
    child.expect(pexpect.EOF)
    seen.append(child.before)
    child.close()
    assert child.exitstatus == 0, "".join(seen)
    return "".join(seen)


def test_a_live_answer_is_drawn_as_markdown_with_formulas_as_written(server, studybot_home):
    screen = on_terminal(server, studybot_home)
    text = ANY_ESCAPE.sub("", screen)
    assert f"live · openai-compat · model {MODEL} · {server.base_url}" in text
    chapter = bank.load().chapter(1)
    assert f"Segment 1/1 · Q1–Q2 · 第 1 章 {chapter.title}" in text
    assert "要点" in text and "## 要点" not in text  # a heading, not its Markdown
    assert "注意力" in text and "**注意力**" not in text
    assert "$O(n^2)$" in text and "$\\frac{1}{\\sqrt{d_k}}$" in text  # formulas untouched
    assert "| n | KV |" not in text and "8K" in text  # the table is drawn
    assert re.search(r"\[1/2\] Q1 · prompt [\d,]+ · answer [\d,]+ · n=[\d,]+", text)
    assert COLOUR.search(screen)  # colours on a terminal


@pytest.mark.parametrize(("flags", "extra"), [((), {"NO_COLOR": "1"}), (("--no-color",), {})])
def test_no_color_and_the_flag_turn_colours_off(server, studybot_home, flags, extra):
    screen = on_terminal(server, studybot_home, *flags, **extra)
    assert "要点" in screen
    assert not COLOUR.search(screen), repr(COLOUR.search(screen))


def test_piped_output_is_the_raw_answer(server, studybot_home):
    result = subprocess.run(
        [*command().split(), "run", "--from", "1", "--to", "2"]
        + ["--base-url", server.base_url, "--model", MODEL],
        env=environment(studybot_home),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(ANSWER) == 2  # byte for byte what the model wrote
    assert "\x1b" not in result.stdout and "\x1b" not in result.stderr


def test_errors_are_red_on_a_terminal_and_plain_when_piped(studybot_home):
    child = pexpect.spawn(
        command(),
        ["show", "99"],
        env=environment(studybot_home),
        encoding="utf-8",
        timeout=30,
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert re.search(r"\x1b\[31m(\x1b\[1m)?Error:", child.before)  # red
    piped = subprocess.run(
        [*command().split(), "show", "99"],
        env=environment(studybot_home),
        capture_output=True,
        text=True,
    )
    assert piped.stderr.startswith("Error: no session 99\nHint: ")


def test_numbers_bars_and_sparklines():
    assert number(12814) == "12,814" and number(1234567.0) == "1,234,567" and number(None) == "-"
    assert bar(50, 100, width=8) == "████" and bar(100, 100, width=8) == "█" * 8
    assert bar(1, 100, width=8) == "▏" and bar(0, 0) == ""
    line = sparkline([1, 2, 4, 8, 1])
    assert len(line) == 5 and line[3] == "█" and line[0] == line[4] < line[1] < line[2]


@pytest.mark.parametrize("where", ["before", "after"])
def test_no_color_works_after_the_command_too(studybot_home, where):
    """As NO_COLOR does: `studybot show 99 --no-color` is `studybot --no-color show 99`."""
    args = ["--no-color", "show", "99"] if where == "before" else ["show", "99", "--no-color"]
    child = pexpect.spawn(
        command(), args, env=environment(studybot_home), encoding="utf-8", timeout=30
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert "Error: no session 99" in child.before
    assert "\x1b[" not in child.before


def test_a_no_color_after_the_separator_stays_an_argument(invoke):
    """After `--` it is text the command reads, not the flag (here: a bank name)."""
    result = invoke("bank", "show", "--bank", "x", "--", "--no-color")
    assert result.exit_code == 2
    assert "--no-color" in result.stderr
