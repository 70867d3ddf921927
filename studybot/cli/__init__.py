"""The ``studybot`` command: parse options, call the library, render results.

Only click is imported at start-up; each command imports what it needs
when it runs, so ``studybot --help`` never loads openai, torch or rich.
Library errors become one line on stderr plus a hint, with exit code 2
for bad input and 1 for failures at run time.
"""

from __future__ import annotations

import os
import sqlite3
import sys

import click

from studybot import __version__
from studybot.errors import StudybotError

DEBUG = "STUDYBOT_DEBUG"


class Failure(click.ClickException):
    """A StudybotError on its way to the terminal."""

    def __init__(self, error: StudybotError) -> None:
        super().__init__(error.message)
        self.exit_code = error.exit_code
        self.hint = error.hint

    def show(self, file=None) -> None:
        from studybot.cli.render import paint

        out = file or sys.stderr
        click.echo(f"{paint('Error:', 'error')} {self.message}", file=out)
        if self.hint:
            click.echo(f"{paint('Hint:', 'hint')} {self.hint}", file=out)


class Group(click.Group):
    """A click group that turns library errors into messages and exit codes."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except StudybotError as exc:
            if os.environ.get(DEBUG) == "1":
                raise
            raise Failure(exc) from None
        except sqlite3.Error as exc:
            # The store names its file when it opens; a file that breaks later is named here.
            if os.environ.get(DEBUG) == "1":
                raise
            from studybot.storage.dbfile import explain
            from studybot.storage.home import home
            from studybot.storage.store import DB_NAME

            raise Failure(explain(exc, home() / DB_NAME)) from None
        except (KeyboardInterrupt, EOFError):
            # click would print a bare "Aborted!" and exit 1; a run saves its
            # session and says how to resume before this point.
            click.echo("\nInterrupted.", err=True)
            sys.exit(130)


@click.group(
    cls=Group,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, prog_name="studybot")
@click.option("--no-color", is_flag=True, help="No colours (as does the NO_COLOR variable).")
@click.pass_context
def cli(ctx: click.Context, no_color: bool) -> None:
    """Study a long LLM interview question bank in short, cache-friendly sessions.

    \b
    Start here:
      studybot run --from 1 --to 8      study questions 1-8 (offline without a key)
      studybot sessions                 what you have studied
      studybot resume                   continue where you stopped
    """
    from studybot.cli import render

    render.configure(no_color=no_color)
    if ctx.invoked_subcommand is None:  # bare `studybot` is a request for help, not an error
        click.echo(ctx.get_help())


def main() -> None:
    try:
        cli.main(prog_name="studybot")
    except Exception as exc:  # noqa: BLE001 - the last line of defence for users
        if os.environ.get(DEBUG) == "1" or "PYTEST_CURRENT_TEST" in os.environ:
            raise
        click.echo(f"Error: unexpected {type(exc).__name__}: {exc}", file=sys.stderr)
        click.echo(f"Hint: rerun with {DEBUG}=1 to see the traceback", file=sys.stderr)
        sys.exit(1)


def _register() -> None:
    from studybot.cli import (
        bank,
        cache,
        config,
        doctor,
        export,
        kv,
        plan,
        review,
        run,
        sessions,
    )

    for module in (run, review, sessions, export, bank, kv, config, doctor, cache, plan):
        for command in module.COMMANDS:
            cli.add_command(command)


_register()
