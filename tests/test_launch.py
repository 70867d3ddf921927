"""The one error boundary: every exception becomes one line, a hint, and its exit code."""

from __future__ import annotations

import sqlite3

import click
import pytest

from studybot import launch
from studybot.errors import (
    FAILURE,
    INTERRUPTED,
    OK,
    USAGE,
    BadInput,
    BankError,
    ConfigError,
    ContextOverflow,
    Interrupted,
    ProviderError,
    Reported,
    SessionNotFound,
    StudybotError,
)
from studybot.storage.store import DB_NAME


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (StudybotError("the run failed", hint="try again"), FAILURE),
        (ProviderError("the channel failed", hint="check the key"), FAILURE),
        (ContextOverflow("too long for the window", hint="use smaller segments"), FAILURE),
        (BadInput("--from 9 is after --to 3", hint="swap them"), USAGE),
        (ConfigError("base_url is not a URL", hint="use the API root"), USAGE),
        (SessionNotFound("no session 9", hint="`studybot sessions` lists them"), USAGE),
    ],
)
def test_each_library_error_is_its_line_its_hint_and_its_code(capsys, error, code):
    assert launch.handle(error) == code
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err == f"Error: {error.message}\nHint: {error.hint}\n"


def test_an_error_without_a_hint_is_one_line(capsys):
    error = BadInput("rating 7 is not one of 1-4")
    assert error.hint is None and error.exit_code == USAGE
    assert launch.handle(error) == USAGE
    assert capsys.readouterr().err == "Error: rating 7 is not one of 1-4\n"


def test_a_bank_error_names_the_first_problem_and_counts_the_rest(capsys):
    error = BankError(["bank.toml:3: bad title", "Q2: no key points", "Q9: duplicate"])
    assert launch.handle(error) == USAGE
    assert capsys.readouterr().err == "Error: bank.toml:3: bad title (and 2 more problems)\n"
    assert BankError(["only one"]).message == "only one"
    assert BankError(["one", "two"]).message == "one (and 1 more problem)"
    assert BankError([]).message == "the bank is empty"


def test_a_finding_already_on_screen_prints_nothing_and_keeps_its_code(capsys):
    assert launch.handle(Reported(1)) == 1
    assert launch.handle(Reported(3)) == 3
    assert capsys.readouterr().err == ""


def test_an_interruption_with_the_session_saved_says_what_was_kept(capsys):
    error = Interrupted("Stopped: session 4 is saved.", hint="studybot resume 4")
    assert launch.handle(error) == INTERRUPTED == 130
    assert capsys.readouterr().err == "\nStopped: session 4 is saved. studybot resume 4\n"


@pytest.mark.parametrize("error", [KeyboardInterrupt(), EOFError(), click.Abort()])
def test_ctrl_c_at_any_moment_is_interrupted_exit_130(capsys, error):
    assert launch.handle(error) == INTERRUPTED
    assert capsys.readouterr().err == "\nInterrupted.\n"


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (SystemExit(None), OK),
        (SystemExit(0), OK),
        (SystemExit(3), 3),
        (SystemExit("a message"), FAILURE),
        (click.exceptions.Exit(4), 4),
    ],
)
def test_an_exit_keeps_its_code_and_says_nothing_more(capsys, error, code):
    assert launch.handle(error) == code
    assert capsys.readouterr().err == ""


def test_clicks_own_usage_errors_are_shown_by_click_with_exit_2(capsys):
    assert launch.handle(click.UsageError("no such option: --frm")) == USAGE
    err = capsys.readouterr().err
    assert "Error: no such option: --frm" in err and err.count("\n") <= 3


def test_a_broken_database_is_named_by_its_file(capsys, studybot_home):
    code = launch.handle(sqlite3.DatabaseError("file is not a database"))
    assert code == FAILURE
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == (
        f"Error: the session database {studybot_home / DB_NAME} is damaged or not a "
        "studybot database (file is not a database)"
    )
    assert lines[1].startswith("Hint: move studybot.db away") and len(lines) == 2


def test_unexpected_errors_stay_loud_under_pytest():
    with pytest.raises(ValueError, match="a bug"):
        launch.handle(ValueError("a bug"))


def test_unexpected_errors_are_one_line_and_a_hint_for_users(capsys, monkeypatch):
    monkeypatch.delenv("PYTEST_CURRENT_TEST")
    assert launch.handle(ValueError("a bug")) == FAILURE
    assert capsys.readouterr().err == (
        "Error: unexpected ValueError: a bug\nHint: rerun with STUDYBOT_DEBUG=1 to see the traceback\n"
    )


def test_debugging_shows_every_traceback(monkeypatch):
    monkeypatch.setenv("STUDYBOT_DEBUG", "1")
    with pytest.raises(BadInput):
        launch.handle(BadInput("bad flag"))
    with pytest.raises(sqlite3.DatabaseError):  # not turned into a message first
        launch.handle(sqlite3.DatabaseError("file is not a database"))
    monkeypatch.delenv("PYTEST_CURRENT_TEST")
    with pytest.raises(ValueError):
        launch.handle(ValueError("a bug"))


def test_run_turns_whatever_ends_a_command_into_its_code(capsys, monkeypatch):
    @click.command()
    @click.argument("what")
    def tool(what):
        if what == "bad":
            raise BadInput("bad thing", hint="a good thing")
        if what == "stop":
            raise KeyboardInterrupt
        return 7 if what == "seven" else None

    for argv, code in ((["ok"], OK), (["seven"], 7), (["bad"], USAGE), (["stop"], INTERRUPTED)):
        monkeypatch.setattr("sys.argv", ["studybot", *argv])
        assert launch.run(tool) == code
    monkeypatch.setattr("sys.argv", ["studybot"])  # a missing argument: click's usage error
    assert launch.run(tool) == USAGE
    err = capsys.readouterr().err
    assert "Error: bad thing\nHint: a good thing\n" in err and "Interrupted." in err
    assert "Missing argument 'WHAT'" in err
