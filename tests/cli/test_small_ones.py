"""Small defects from a fresh attack (#21 item 9): what is echoed, odd settings, pipes, signals."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from studybot.storage.store import DB_NAME

ROOT = Path(__file__).resolve().parents[2]
KEY = "sk-live-test-0123456789abcdef"
BIG = 2**63 - 1


def environment(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("STUDYBOT_", "OPENAI_"))}
    env.pop("TAOTOKEN_API_KEY", None)
    env.pop("PYTEST_CURRENT_TEST", None)
    env.update(PYTHONPATH=str(ROOT), STUDYBOT_HOME=str(home))
    return env | extra


def config(home: Path, text: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(text, encoding="utf-8")


def test_a_huge_model_value_is_not_echoed_whole(invoke, studybot_home, monkeypatch):
    config(studybot_home, f'model = "{"m" * 1_000_000}"\n')
    shown = invoke("config", "show")
    assert shown.exit_code == 0
    assert len(shown.stdout) < 2_000 and "(1,000,000 characters)" in shown.stdout
    planned = invoke("plan", "--from", "1", "--to", "3")
    assert planned.exit_code == 0 and len(planned.stderr) < 1_000
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    for args in (("run", "--from", "1", "--to", "2"), ("doctor",)):
        result = invoke(*args)
        assert result.exit_code == 2
        assert len(result.stdout + result.stderr) < 3_000
        assert "is not a model ID (1,000,000 characters)" in result.stdout + result.stderr


def test_a_huge_wrong_value_is_quoted_short(invoke, studybot_home):
    config(studybot_home, f'segment_min = "{"5" * 1_000_000}"\n')
    result = invoke("run", "--from", "1", "--to", "2")
    assert result.exit_code == 2
    assert len(result.stderr) < 1_000 and "characters)" in result.stderr


@pytest.mark.parametrize("name", ["", "A=B", "WITH SPACE", "NUL\\u0000BYTE"])
def test_an_env_key_that_names_no_variable_is_refused(invoke, studybot_home, name):
    config(studybot_home, f'env_key = "{name}"\n')
    result = invoke("run", "--from", "1", "--to", "2")
    assert result.exit_code == 2
    assert "is not the name of an environment variable" in result.stderr
    assert "set  for" not in result.stderr and "unexpected" not in result.stderr


def test_sessions_keeps_the_id_column_beside_a_huge_question_id(invoke, tmp_path):
    folder = tmp_path / "big"
    folder.mkdir()
    (folder / "bank.toml").write_text(
        f'title = "Big"\nlanguage = "en"\n[[chapters]]\nnumber = 1\ntitle = "One"\n'
        f'file = "01.toml"\nfirst = {BIG - 2}\nlast = {BIG}\n',
        encoding="utf-8",
    )
    questions = "".join(
        f'[[questions]]\nid = {BIG - 2 + n}\nquestion = "Question number {n} here"\n'
        f'key_points = ["a{n} one", "b{n} two", "c{n} three"]\n'
        for n in range(3)
    )
    (folder / "01.toml").write_text("chapter = 1\n" + questions, encoding="utf-8")
    assert invoke("run", "--from", "1", "--to", "2").exit_code == 0
    ran = invoke("run", "--bank", str(folder), "--from", str(BIG - 2), "--to", str(BIG))
    assert ran.exit_code == 0, ran.stderr
    listed = invoke("sessions").stdout.splitlines()
    assert listed[0].split()[:2] == ["id", "status"]
    assert [line.split()[0] for line in listed[1:]] == ["2", "1"]


def test_a_closed_stdout_stops_the_run_with_the_resume_line(studybot_home):
    proc = subprocess.Popen(
        [sys.executable, "-m", "studybot", "run", "--from", "1", "--to", "30"],
        env=environment(studybot_home, STUDYBOT_OFFLINE_DELAY="0.05"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout.readline()  # `| head -1`: one line, then the reader goes away
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 1
    assert "the output was closed" in err and "Resume with: studybot resume 1" in err
    assert "unexpected" not in err and "Exception ignored" not in err
    with sqlite3.connect(studybot_home / DB_NAME) as con:
        saved = con.execute("select count(*) from turns").fetchone()[0]
    assert saved < 30
    resumed = subprocess.run(
        [sys.executable, "-m", "studybot", "resume"],
        env=environment(studybot_home),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert resumed.returncode == 0, resumed.stderr
    with sqlite3.connect(studybot_home / DB_NAME) as con:
        assert con.execute("select count(*) from turns").fetchone()[0] == 30


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP])
def test_term_and_hup_end_like_ctrl_c_with_the_resume_hint(studybot_home, number):
    proc = subprocess.Popen(
        [sys.executable, "-m", "studybot", "run", "--from", "1", "--to", "40"],
        env=environment(studybot_home, STUDYBOT_OFFLINE_DELAY="0.2"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen = []
    for line in proc.stderr:  # wait until a turn is saved
        seen.append(line)
        if line.startswith("[1/40]"):
            break
    proc.send_signal(number)
    err = "".join(seen) + proc.stderr.read()
    assert proc.wait(timeout=60) == 128 + number
    assert "the session is saved" in err and "Resume with: studybot resume 1" in err
    assert "unexpected" not in err and "Traceback" not in err


@pytest.mark.parametrize("closed", [">&-", "2>&-", ">&- 2>&- <&-"])
def test_a_closed_standard_stream_is_not_a_crash_and_lands_in_no_file(studybot_home, closed):
    """A closed stderr only loses messages; a closed stdout stops the run like a gone reader."""
    command = f'exec "$@" {closed}'
    args = [sys.executable, "-m", "studybot", "run", "--from", "1", "--to", "2"]
    done = subprocess.run(
        ["sh", "-c", command, "sh", *args],
        env=environment(studybot_home),
        capture_output=True,
        text=True,
        timeout=60,
    )
    stdout_open = ">&-" not in closed.split()
    assert done.returncode == (0 if stdout_open else 1), done.stderr
    assert "unexpected" not in done.stderr and "Traceback" not in done.stderr
    if closed == ">&-":
        assert "the output was closed; the session is saved" in done.stderr
    with sqlite3.connect(studybot_home / DB_NAME) as con:  # no answer was written into it
        assert con.execute("pragma quick_check").fetchone()[0] == "ok"
        saved = con.execute("select count(*) from turns").fetchone()[0]
    assert saved == (2 if stdout_open else 0)


@pytest.mark.parametrize(
    "command",
    [("bank", "show", "23"), ("bank", "list"), ("sessions",), ("config", "show"), ("kv",)],
    ids=" ".join,
)
def test_a_report_to_a_closed_stdout_says_so_and_fails(studybot_home, command):
    """``bank show 23 >&-`` showed nothing and exited 0 (#29 item 17)."""
    args = [sys.executable, "-m", "studybot", *command]
    done = subprocess.run(
        ["sh", "-c", 'exec "$@" >&-', "sh", *args],
        env=environment(studybot_home),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "Error: standard output is closed (>&-): nothing could be shown",
        "Hint: run it with stdout open, or send it to a file: > FILE",
    ]


def test_an_export_to_a_file_needs_no_stdout(studybot_home, tmp_path):
    assert (
        subprocess.run(
            [sys.executable, "-m", "studybot", "run", "--from", "1", "--to", "1"],
            env=environment(studybot_home),
            capture_output=True,
            timeout=60,
        ).returncode
        == 0
    )
    args = [sys.executable, "-m", "studybot", "export", "1", "-o", str(tmp_path / "n.md")]
    done = subprocess.run(
        ["sh", "-c", 'exec "$@" >&-', "sh", *args],
        env=environment(studybot_home),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "n.md").read_text(encoding="utf-8").startswith("# ")


# Found by bench/crash_scan.py: each was "unexpected <Exception>".


def test_a_config_nested_too_deeply_is_one_line(invoke, studybot_home):
    config(studybot_home, "a = " + "[" * 5000 + "]" * 5000 + "\n")
    result = invoke("config", "show")
    assert result.exit_code == 2 and "nested too deeply" in result.stderr


def test_a_home_under_an_unknown_user_is_one_line(invoke, monkeypatch):
    monkeypatch.setenv("STUDYBOT_HOME", "~no-such-user-here/studybot")
    result = invoke("run", "--from", "1", "--to", "1")
    assert result.exit_code == 2
    assert "starts with a home folder that does not exist" in result.stderr


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://\x00host/v1", "contains control characters"),
        ("http://" + "a" * 300 + ".com/v1", "has a host name that cannot be"),
    ],
)
def test_a_base_url_that_no_client_can_use_stops_before_any_request(
    invoke, studybot_home, url, said
):
    config(studybot_home, 'base_url = "' + url.replace("\x00", "\\u0000") + '"\n')
    result = invoke(
        "run", "--from", "1", "--to", "1", "--model", "m", env={"TAOTOKEN_API_KEY": KEY}
    )
    assert result.exit_code == 2 and said in result.stderr


@pytest.mark.parametrize(
    ("digits", "said"),
    [(5000, "01.toml:3: a number too long to read"), (30, "id must fit in 64 bits")],
)
def test_a_bank_id_too_long_is_a_file_line_problem(invoke, tmp_path, digits, said):
    folder = tmp_path / "bank"
    folder.mkdir()
    (folder / "bank.toml").write_text(
        'title = "B"\nlanguage = "en"\n[[chapters]]\nnumber = 1\ntitle = "One"\n'
        'file = "01.toml"\nfirst = 1\nlast = 1\n',
        encoding="utf-8",
    )
    (folder / "01.toml").write_text(
        f'chapter = 1\n[[questions]]\nid = {"9" * digits}\nquestion = "A question"\n'
        'key_points = ["a one", "b two", "c three"]\n',
        encoding="utf-8",
    )
    result = invoke("bank", "validate", str(folder))
    assert result.exit_code == 2
    assert "01.toml" in result.stderr and said in result.stderr
    assert "unexpected" not in result.stderr
