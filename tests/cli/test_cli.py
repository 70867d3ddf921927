"""The command surface: help everywhere, bad input exits 2 and writes nothing, fast start-up."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import click
import pytest

from studybot.cli import cli
from studybot.storage.store import DB_NAME


def all_commands(group: click.Group, prefix=()):
    for name, command in group.commands.items():
        path = (*prefix, name)
        yield path, command
        if isinstance(command, click.Group):
            yield from all_commands(command, path)


def test_every_command_has_help_with_an_example(invoke):
    seen = 0
    for path, _command in all_commands(cli):
        result = invoke(*path, "--help")
        assert result.exit_code == 0, path
        assert "Example" in result.stdout, f"{' '.join(path)} --help has no example"
        seen += 1
    assert seen >= 8


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "--from", "9", "--to", "3"], "--from 9 is after --to 3"),
        (["run", "--from", "195", "--to", "210"], "outside bank"),
        (["run", "--from", "1", "--to", "8", "--bank", "no-such-bank"], "no bank named"),
        (
            ["run", "--from", "1", "--to", "8", "--segment-min", "7", "--segment-max", "5"],
            "segment sizes",
        ),
        (["run"], "nothing chosen to study"),
        (["run", "--from", "1", "--to", "3", "--chapter", "2"], "cannot be combined"),
        (["run", "--ids", "5,x"], "is not a number"),
        (["run", "--chapter", "99", "--quiz"], "99"),
        (["show", "99"], "no session 99"),
        (["export", "7", "-f", "md"], "no session 7"),
        (["bank", "show", "0"], "question 0 is not in bank"),
    ],
)
def test_bad_input_is_one_clear_line_exit_2_and_writes_nothing(
    invoke, studybot_home, args, message
):
    result = invoke(*args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    if args[0] == "run":
        assert not (studybot_home / DB_NAME).exists()


def test_an_unreadable_bank_is_bad_input(invoke, tmp_path, studybot_home):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "bank.toml").write_text("title = [unclosed\n", encoding="utf-8")
    result = invoke("run", "--from", "1", "--to", "3", "--bank", str(folder))
    assert result.exit_code == 2
    assert f"{folder / 'bank.toml'}:1: TOML syntax error" in result.stderr
    assert "Hint:" in result.stderr
    assert not (studybot_home / DB_NAME).exists()


def test_a_broken_config_file_is_bad_input(invoke, studybot_home):
    studybot_home.mkdir(parents=True)
    (studybot_home / "config.toml").write_text("segment_max = 'many'\n", encoding="utf-8")
    result = invoke("run", "--from", "1", "--to", "8")
    assert result.exit_code == 2
    assert "segment_max" in result.stderr and "not a valid int" in result.stderr


def env_for(home) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "TAOTOKEN_API_KEY"}
    env["STUDYBOT_HOME"] = str(home)
    env.pop("PYTEST_CURRENT_TEST", None)
    return env


def command_line(*args: str) -> list[str]:
    return [sys.executable, "-m", "studybot", *args]


def wait_for_turns(path, count: int, timeout: float = 60.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with sqlite3.connect(path) as db:
                done = db.execute("select count(*) from turns").fetchone()[0]
            if done >= count:
                return done
        except sqlite3.OperationalError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"fewer than {count} turns after {timeout} s")


def test_a_run_killed_with_sigkill_resumes_to_completion_with_each_question_once(studybot_home):
    env = env_for(studybot_home) | {"STUDYBOT_OFFLINE_DELAY": "0.2"}
    proc = subprocess.Popen(
        command_line("run", "--from", "1", "--to", "19"),
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for_turns(studybot_home / DB_NAME, 7)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    with sqlite3.connect(studybot_home / DB_NAME) as db:
        before = db.execute("select count(*) from turns").fetchone()[0]
    assert 7 <= before < 19

    env["STUDYBOT_OFFLINE_DELAY"] = "0"
    resumed = subprocess.run(
        command_line("resume", "--json"), env=env, capture_output=True, text=True, timeout=120
    )
    assert resumed.returncode == 0, resumed.stderr
    data = json.loads(resumed.stdout)
    assert data["status"] == "finished"
    assert [t["question_id"] for t in data["turns"]] == list(range(1, 20))
    assert all(s["summary_out"] for s in data["segments"][:-1])


def test_ctrl_c_during_a_turn_exits_130_and_keeps_the_session_resumable(studybot_home):
    env = env_for(studybot_home) | {"STUDYBOT_OFFLINE_DELAY": "0.3"}
    proc = subprocess.Popen(
        command_line("run", "--from", "1", "--to", "8"),
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for_turns(studybot_home / DB_NAME, 2)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "studybot resume 1" in err and "Traceback" not in err
    with sqlite3.connect(studybot_home / DB_NAME) as db:
        answered = [r[0] for r in db.execute("select question_id from turns order by 1")]
    assert answered == list(range(1, len(answered) + 1)) and len(answered) < 8


def test_help_does_not_import_openai_torch_or_matplotlib(studybot_home):
    code = (
        "import sys\n"
        "from studybot.cli import cli\n"
        "try:\n    cli.main(['--help'], standalone_mode=False)\n"
        "except SystemExit:\n    pass\n"
        "print(sorted(m for m in ('openai', 'torch', 'matplotlib', 'rich', 'sqlite_utils', 'tiktoken',"
        " 'fsrs', 'prompt_toolkit', 'genanki')"
        " if m in sys.modules))\n"
    )
    for args in ([], ["run"], ["review"]):
        snippet = code.replace("['--help']", repr([*args, "--help"]))
        out = subprocess.run(
            [sys.executable, "-c", snippet],
            env=env_for(studybot_home),
            capture_output=True,
            text=True,
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip().splitlines()[-1] == "[]"


def test_unexpected_errors_are_one_line_unless_debugging(studybot_home, tmp_path):
    # A database path that is a folder: named as a bad home (exit 2), one line and a hint.
    (studybot_home / DB_NAME).mkdir(parents=True)
    out = subprocess.run(
        command_line("sessions"), env=env_for(studybot_home), capture_output=True, text=True
    )
    assert out.returncode == 2
    assert out.stderr.startswith("Error:") and "Traceback" not in out.stderr
    assert f"{studybot_home / DB_NAME} is not a file" in out.stderr


def test_the_cost_hint_after_an_offline_run_of_an_imported_bank_names_that_bank(invoke, tmp_path):
    path = tmp_path / "mine.md"
    path.write_text(
        "## 基础\n\n### 1. 什么是词元？\n\n模型读写的单位。\n\n### 2. 为什么要分词？\n\n词表有限。\n"
    )
    assert invoke("bank", "import", str(path), "--name", "mine").exit_code == 0
    assert invoke("run", "--bank", "mine", "--from", "1", "--to", "2").exit_code == 0
    assert "studybot plan --bank mine --from 1 --to 2 " in invoke("show", "1").stdout
    assert invoke("run", "--from", "1", "--to", "2").exit_code == 0
    assert "studybot plan --from 1 --to 2 " in invoke("show", "2").stdout  # the shipped bank
