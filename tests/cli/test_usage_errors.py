"""Usage errors as a person meets them: one line, a hint with the close match, exit 2."""

from __future__ import annotations

import pytest
from running import studybot

from studybot.storage.store import DB_NAME


@pytest.mark.parametrize(
    ("args", "error", "hint"),
    [
        (["run", "--frm", "1"], "No such option '--frm'", "did you mean --from?"),
        (["revew"], "No such command 'revew'", "did you mean review?"),
        (["bank", "lst"], "No such command 'lst'", "did you mean list?"),
        (["sessions", "--jsn"], "No such option '--jsn'", "did you mean --json?"),
        (["export", "1", "-f", "mdd"], "'mdd' is not one of", "did you mean md?"),
        (
            ["export", "1", "-f", "pdf"],
            "'pdf' is not one of 'md', 'json'",
            "studybot export --help",
        ),
        (["run", "--from", "x"], "'x' is not a valid integer", "studybot run --help"),
        (["show"], "Missing argument 'SESSION'", "studybot show --help"),
        (["--frm"], "No such option '--frm'", "studybot --help"),
    ],
)
def test_every_usage_error_is_one_line_and_a_hint(studybot_home, args, error, hint):
    result = studybot(studybot_home, *args)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 2, result.stderr
    assert lines[0].startswith("Error: ") and error in lines[0]
    assert lines[1].startswith("Hint: ") and hint in lines[1]
    assert "Usage:" not in result.stderr and "Did you mean one of" not in result.stderr
    assert result.stdout == ""
    assert not (studybot_home / DB_NAME).exists()


def test_a_group_without_its_command_shows_its_help(studybot_home):
    result = studybot(studybot_home, "bank")
    assert result.returncode == 0
    assert result.stdout.startswith("Usage: studybot bank") and "search" in result.stdout
    assert result.stderr == ""


def test_in_process_usage_errors_end_in_the_same_boundary(invoke):
    result = invoke("run", "--frm", "1")
    assert result.exit_code == 2
    error, hint = result.stderr.splitlines()  # click's test runner names the program "cli"
    assert error == "Error: No such option '--frm'."
    assert hint.startswith("Hint: did you mean --from? (`") and hint.endswith(
        " run --help` lists them all)"
    )
