"""``sessions`` and ``show``: what was studied, and its cost per turn (``session_report``)."""

from __future__ import annotations

from datetime import datetime

import click

from studybot.cli.common import emit_json, json_option, stdout_console
from studybot.cli.session_report import render_session


@click.command()
@json_option
def sessions(as_json: bool) -> None:
    """List sessions, newest first, with their progress (and cost, when prices are set).

    \b
    Example:
      studybot sessions
      studybot sessions --json
    """
    from studybot.channel.files import price_tables
    from studybot.costs.prices import cost_json, figure
    from studybot.output.export import session_summary
    from studybot.storage.store import Store
    from studybot.study.recorded import money as session_money
    from studybot.study.selection import label

    store = Store.open(write=False)
    records = store.sessions()
    # Only a priced model has a cost; the others need no replay of their turns.
    tables = price_tables()
    money = {
        r.id: session_money(store.view(r.id), tables).total if r.model in tables else None
        for r in records
    }
    if as_json:
        emit_json([{**session_summary(r), "cost": cost_json(money[r.id])} for r in records])
        return
    if not records:
        click.echo("No sessions yet. Start one: studybot run --from 1 --to 8")
        return
    from rich.table import Table

    table = Table(box=None, pad_edge=False)
    # Everything but the model keeps to one line; a long model ID is cut short
    # so that each session stays one row at 80 columns.
    currencies = {m.currency for m in money.values() if m is not None}
    priced = bool(currencies)
    # One currency goes in the heading, so each row keeps to 80 columns.
    cost_heading = f"cost {currencies.pop()}" if len(currencies) == 1 else "cost"
    # questions: what was chosen (a range, "ch 3", "tag kv-cache", "ids 5,23", "weak 10", "4 due")
    headings = ["id", "status", "questions", "done", "mode", "model", "bank", "created"]
    # Long texts are cut (a model ID, a bank path, a long list of ids); the id never is.
    cut = {"model": 24, "bank": 24, "questions": 13}
    id_width = max(len("id"), *(len(str(r.id)) for r in records))
    this_year = datetime.now().astimezone().strftime("%Y")
    rows = []
    for r in records:
        row = [
            str(r.id),
            r.status,
            label(r),
            f"{r.done}/{r.total}",
            r.mode,
            r.model if r.live else "offline",
            r.bank,
            _when(r.created, this_year),
        ]
        if priced:
            total = money[r.id]
            text = "-" if total is None else figure(total.total)
            row.append(text if cost_heading != "cost" or total is None else total.text())
        rows.append(row)
    headings += [cost_heading] if priced else []
    from studybot.cli import columns

    console = stdout_console()
    cut = cut if console.is_terminal else {}  # piped: full rows
    needs = columns.widest(headings, rows, cut)
    kept = columns.fitting(headings, needs, columns.room(console), SESSIONS_DROPPED_FIRST)
    for heading in kept:
        table.add_column(
            heading,
            justify="right" if heading in {"id", "done", cost_heading} else "left",
            no_wrap=True,
            overflow="fold",  # a long cell is Cut at a word boundary
            max_width=cut.get(heading),
            min_width=id_width if heading == "id" else None,
        )
    for row in rows:
        table.add_row(
            *(
                columns.Cut(cell) if heading in cut else cell
                for heading, cell in zip(headings, row, strict=True)
                if heading in kept
            )
        )
    columns.print_table(console, table)


# What a narrow terminal leaves out of `sessions` first: `show ID` and --json keep them all.
SESSIONS_DROPPED_FIRST = ("bank", "created", "model", "mode")


@click.command()
@click.argument("session_id", metavar="SESSION")
@json_option
def show(session_id: str, as_json: bool) -> None:
    """Show a session: per-turn tokens, follow-ups, context growth, segment summaries.

    The table has one row per answered question (follow-ups on a row of
    their own under it), a bar of the context n each turn reached, then the
    text of every follow-up and of every segment summary.

    \b
    Example:
      studybot show 1
      studybot show 1 --json
    """
    from studybot.output.export import session_json
    from studybot.storage.store import Store

    view = Store.open(write=False).view(session_id)
    if as_json:
        emit_json(session_json(view))
    else:
        render_session(view)
    left_out(view)


UNREAD_SHOWN = 4  # the parts left out that the note names; the rest are counted


def left_out(view) -> None:
    """On stderr: what of the session could not be read (a newer studybot's rows), if any."""
    from studybot import __version__
    from studybot.cli.render import echo

    if not view.unread:
        return
    record = view.record
    who = (
        f"session {record.id} was written by {view.newer}"
        if view.newer
        else f"session {record.id} holds rows in a form studybot {__version__} does not know "
        "(from a newer studybot?)"
    )
    parts = "; ".join(view.unread[:UNREAD_SHOWN])
    more = len(view.unread) - UNREAD_SHOWN
    echo(
        f"Note: {who}; studybot {__version__} shows what it can read and leaves out {parts}"
        + (f" (and {more} more)" if more > 0 else ""),
        meaning="warning",
    )
    echo("Hint: upgrade studybot to see all of it", meaning="hint")


def _when(created: str, this_year: str) -> str:
    """When a session started, short: "12-01 20:57" this year, the date before (--json: all)."""
    from studybot.output.figures import local_minute

    local = local_minute(created)
    return local[5:] if local.startswith(this_year) else local[:10]


COMMANDS = [sessions, show]
