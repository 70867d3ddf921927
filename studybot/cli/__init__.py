"""The `studybot` command: parse options, call the library, render results.

One module per user verb group (``run`` for run/resume, ``review`` for
review/due/progress, ``interview``, ``grade``, ``plan`` with what it prints
in ``plan_report``, ``sessions`` for sessions/show with ``session_report``
and its per-turn table ``turn_table``, ``export``, ``bank`` with what import
prints in ``importing`` (``bank import`` itself in ``bank_import``) and
``bank validate`` in ``validating``, ``kv``, ``cache``, ``config``,
``doctor``), plus the terminal (``listener`` for a run, ``interviewer`` for
an interview, ``reveal`` for a quiz's marks, ``terminal`` for keys and
lines (its editor's word wrap in ``editor_wrap``), ``render`` for what a terminal shows, ``wrap`` for CJK-aware line
breaks, ``columns`` for tables that fit, ``markdown_stream`` for a streamed
answer) and the shared options (``common``).
Only click is imported at start-up; each command imports what it needs
when it runs, so `studybot --help` never loads openai, torch or rich.
Every error ends in `studybot.launch.handle`: one line, a hint, an exit code.

May import: every stage; nothing imports cli.
"""

from __future__ import annotations

import click

from studybot import __version__


class Group(click.Group):
    """A click group whose commands end in the one error boundary (``studybot.launch``)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """``--no-color`` anywhere before ``--`` is the group's, as NO_COLOR is everywhere:
        ``studybot bank show 23 --no-color`` works as ``studybot --no-color bank show 23``."""
        if ctx.parent is None and "--no-color" in args:
            end = args.index("--") if "--" in args else len(args)
            if "--no-color" in args[:end]:
                args = ["--no-color", *(a for a in args[:end] if a != "--no-color"), *args[end:]]
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except click.exceptions.Exit:
            raise
        except BaseException as exc:  # noqa: BLE001 - handled once, in launch.handle
            from studybot.launch import handle

            ctx.exit(handle(exc))


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


def _register() -> None:
    from studybot.cli import (
        bank,
        cache,
        config,
        doctor,
        export,
        grade,
        interview,
        kv,
        plan,
        review,
        run,
        sessions,
    )

    for module in (
        run,
        interview,
        review,
        grade,
        sessions,
        export,
        bank,
        kv,
        config,
        doctor,
        cache,
        plan,
    ):
        for command in module.COMMANDS:
            cli.add_command(command)


_register()
