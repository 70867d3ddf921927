"""``review``, ``due`` and ``progress``: quizzing what is due, and what the FSRS schedule says."""

from __future__ import annotations

from pathlib import Path

import click

from studybot.cli.common import (
    bank_option,
    channel_options,
    emit_json,
    json_option,
    segment_options,
    stats_option,
    stdout_console,
)

START_HINT = "Rate questions as you study: studybot run --from 1 --to 8 --quiz"


@click.command()
@click.option("--limit", type=click.IntRange(min=1), metavar="N", help="At most N questions.")
@bank_option
@channel_options
@segment_options
@stats_option
@json_option
def review(limit, bank_ref, as_json, **flags) -> None:
    """Quiz yourself on the questions that are due, most overdue first.

    The due questions are cut into segments like a run (same prefix,
    summaries, resume and export); each is asked, graded and rated, as in
    `run --quiz` (in a terminal). --stats adds each turn's tokens and KV size.

    \b
    Example:
      studybot review
      studybot review --limit 8 --bank mine
    """
    from studybot.cli.run import notice_line, study_session
    from studybot.cli.terminal import is_terminal
    from studybot.learn import review as reviews
    from studybot.storage.store import Store
    from studybot.study.opening import Options, begin_review, open_study

    study, notice = open_study(Options(bank=bank_ref, flags=flags))
    store = Store.open()
    record = begin_review(study, store, limit, answerer=is_terminal())
    if record is None:
        upcoming = min((c.due for c in reviews.cards(store, study.key)), default=None)
        when = f"; the next one is due {reviews.until(upcoming)}" if upcoming else ""
        click.echo(f"Nothing is due for review{when}.")
        if upcoming is None:
            click.echo("Rate questions first: studybot run --from 1 --to 8 --quiz")
        return
    notice_line(notice)
    study_session(study, store, record, as_json)


@click.command()
@bank_option
@json_option
def due(bank_ref: str | None, as_json: bool) -> None:
    """List every rated question and when it is due, soonest first.

    Without --bank, the cards of every bank you have rated. A question is
    listed once you have rated it (1 Again, 2 Hard, 3 Good, 4 Easy);
    `studybot review` studies the ones that are due now.

    \b
    Example:
      studybot due
      studybot due --bank mine --json
    """
    from studybot.learn import review
    from studybot.storage.store import Store

    cards = review.cards(Store.open(), bank_ref)
    if as_json:
        emit_json([c.to_json() for c in cards])
        return
    if not cards:
        click.echo("Nothing is scheduled yet: no question has been rated.")
        click.echo(START_HINT)
        return
    from rich.table import Table
    from rich.text import Text

    now = review.utc(None)
    texts = _question_texts({c.bank for c in cards})
    several = len({c.bank for c in cards}) > 1
    table = Table(box=None, pad_edge=False)
    for heading in ("bank", "Q", "due", "state", "last", "reviews")[0 if several else 1 :]:
        justify = "right" if heading in {"Q", "reviews"} else "left"
        table.add_column(heading, justify=justify, no_wrap=True)
    # The one column that gives way on a narrow terminal; its text is cut, not wrapped.
    table.add_column("question")
    for c in cards:
        when = review.until(c.due, now)
        table.add_row(
            *([c.bank] if several else []),
            str(c.question_id),
            f"[bold]{when}[/bold]" if when == "due now" else when,
            c.state,
            review.RATINGS[c.last_rating],
            str(c.reviews),
            Text(texts.get((c.bank, c.question_id), ""), no_wrap=True, overflow="ellipsis"),
        )
    console = stdout_console()
    console.print(table)
    now_due = [c for c in cards if c.due <= now]
    line = f"{len(now_due)} due now, {len(cards) - len(now_due)} later."
    if now_due:
        banks = sorted({c.bank for c in now_due})
        line += " Study them: " + "; ".join(_review_command(b) for b in banks)
    console.print(line, markup=False)


@click.command()
@bank_option
@json_option
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE.png",
    help="Also write a PNG grid of every question coloured by retention (needs the plot extra).",
)
def progress(bank_ref: str | None, as_json: bool, plot: Path | None) -> None:
    """Per chapter: seen / total, due now, mean grade, retention, last studied.

    Retention is FSRS's probability that you recall a seen question now,
    averaged over the chapter (FSRS counts whole days, so a question rated
    today shows 100%); the grade is the share of key points an attempt
    covered. Every chapter is listed, studied or not.

    \b
    Example:
      studybot progress
      studybot progress --json
      studybot progress --plot progress.png
    """
    from studybot import bank as banks
    from studybot.learn import progress as mastery
    from studybot.output import plots
    from studybot.storage.store import Store

    if plot is not None:
        plots.require_matplotlib()
    bank = banks.load(bank_ref)
    report = mastery.progress(Store.open(), bank, bank_ref or bank.name)
    if plot is not None:
        plots.progress_grid(report, bank, plot)
    if as_json:
        emit_json(report.to_json())
    else:
        _render_progress(report)
    if plot is not None:
        click.echo(f"Wrote {plot}", err=True)


def _render_progress(report) -> None:
    from rich.progress_bar import ProgressBar
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(f"{report.title} ({report.bank})"), title_justify="left", box=None)
    for heading in ("ch", "title", "seen", "", "due", "grade", "retention", "last studied"):
        justify = "left" if heading in {"title", ""} else "right"
        table.add_column(heading, justify=justify, no_wrap=heading != "title")
    for c in report.chapters:
        colour = "grey50" if c.retention is None else _colour(c.retention)
        table.add_row(
            str(c.chapter),
            Text(c.title, no_wrap=True, overflow="ellipsis"),
            f"{c.seen}/{c.total}",
            ProgressBar(total=c.total, completed=c.seen, width=12, complete_style=colour),
            str(c.due),
            _percent(c.mean_grade),
            _percent(c.retention),
            (c.last_studied or "-")[:10],  # the day; --json has the time
        )
    console = stdout_console()
    console.print(table)
    seen = sum(c.seen for c in report.chapters)
    if not seen:
        console.print(f"Nothing studied in this bank yet. {START_HINT}", markup=False)
    elif any(c.due for c in report.chapters):
        console.print(f"Due now: {_review_command(report.bank)}", markup=False)


def _question_texts(keys: set[str]) -> dict[tuple[str, int], str]:
    from studybot import bank as banks
    from studybot.errors import StudybotError

    texts = {}
    for key in keys:
        try:
            loaded = banks.load(key)
        except StudybotError:
            continue  # a bank moved or deleted since: its cards still list, without text
        texts.update({(key, q.id): q.question for q in loaded.questions})
    return texts


def _review_command(key: str) -> str:
    from studybot import bank as banks

    return "studybot review" if key == banks.SHIPPED else f"studybot review --bank {key}"


def _colour(retention: float) -> str:
    return "green" if retention >= 0.9 else "yellow" if retention >= 0.7 else "red"


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


COMMANDS = [review, due, progress]
