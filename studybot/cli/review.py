"""``review``, ``due`` and ``progress``: quizzing what is due, and what the FSRS schedule says."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from rich.console import JustifyMethod
    from rich.text import Text

from studybot.cli.common import (
    bank_option,
    channel_options,
    emit_json,
    grader_option,
    json_option,
    segment_options,
    stats_option,
    stdout_console,
)
from studybot.output.figures import percent

START_HINT = "Rate questions as you study: studybot run --from 1 --to 8 --quiz"


def fsrs_options(fn):
    """The FSRS settings Anki has, for one review; config.toml holds them for every one."""
    fn = click.option(
        "--new-per-day",
        type=int,
        metavar="N",
        help="Never-rated questions to add a day (default 0: only what is due).",
    )(fn)
    fn = click.option(
        "--reviews-per-day", type=int, metavar="N", help="Daily review limit (default 200)."
    )(fn)
    fn = click.option(
        "--maximum-interval",
        type=int,
        metavar="DAYS",
        help="Longest wait after a rating (default 36500).",
    )(fn)
    fn = click.option(
        "--desired-retention",
        type=float,
        metavar="0.7-0.99",
        help="Recall probability to schedule for (default 0.9).",
    )(fn)
    return fn


@click.command()
@click.option("--limit", type=click.IntRange(min=1), metavar="N", help="At most N questions.")
@bank_option
@channel_options
@grader_option
@segment_options
@fsrs_options
@stats_option
@json_option
def review(limit, bank_ref, as_json, **flags) -> None:
    """Quiz yourself on the questions that are due, most overdue first.

    The due questions are cut into segments like a run (same prefix,
    summaries, resume and export); each is asked, graded and rated, as in
    `run --quiz` (in a terminal). At most reviews_per_day ratings of rated
    questions a day (and new_per_day new ones, next in the bank);
    desired_retention and maximum_interval shape each interval from this
    rating on. All four are settings of config.toml. --stats adds each turn's
    tokens and KV size.

    \b
    Example:
      studybot review
      studybot review --limit 8 --bank mine
      studybot review --reviews-per-day 20 --desired-retention 0.85
    """
    from studybot.cli.run import notice_line, study_session
    from studybot.cli.terminal import is_terminal
    from studybot.learn import review
    from studybot.storage.store import Store
    from studybot.study.opening import Options, begin_review, open_study

    study, notice = open_study(Options(bank=bank_ref, flags=flags))
    store = Store.open()
    record = begin_review(study, store, limit, answerer=is_terminal())
    if record is None:
        cards = review.cards(store, study.key)
        click.echo(_nothing_now(store, study, cards))
        if not cards:
            click.echo("Rate questions first: studybot run --from 1 --to 8 --quiz")
        return
    notice_line(notice)
    study_session(study, store, record, as_json)


def _nothing_now(store, study, cards) -> str:
    """Why review has nothing to serve: nothing due, or today's limit reached."""
    from studybot.learn import review

    due = review.due_questions(store, study.bank, study.key)
    if due:
        left = review.today(store, study.key, study.settings)
        return (
            f"Today's review limit is reached: {left.reviews_done} reviews done, "
            f"reviews_per_day {left.reviews_per_day}; {len(due)} are due "
            "(--reviews-per-day N serves more today)."
        )
    upcoming = min((c.due for c in cards), default=None)
    when = f"; the next one is due {review.until(upcoming)}" if upcoming else ""
    return f"Nothing is due for review{when}."


@click.command()
@bank_option
@json_option
def due(bank_ref: str | None, as_json: bool) -> None:
    """List every rated question and when it is due, soonest first.

    Without --bank, the cards of every bank you have rated. A question is
    listed once you have rated it (1 Again, 2 Hard, 3 Good, 4 Easy);
    `studybot review` studies the ones that are due now, as many as today's
    reviews_per_day leaves (and new_per_day new ones): the last lines say so.

    \b
    Example:
      studybot due
      studybot due --bank mine --json
    """
    from studybot.learn import review
    from studybot.storage.store import Store

    store = Store.open(write=False)  # it only reads: a read-only home lists its cards too
    cards = review.cards(store, bank_ref)
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
    from studybot.cli import columns

    headings = ["bank", "Q", "due", "state", "last", "reviews", "question"][0 if several else 1 :]
    rows: list[dict[str, str | Text | columns.Cut]] = []
    for c in cards:
        when = review.until(c.due, now)
        rows.append(
            {
                "bank": c.bank,
                "Q": str(c.question_id),
                "due": Text(when, style="bold" if when == "due now" else ""),
                "state": c.state,
                "last": review.RATINGS[c.last_rating],
                "reviews": str(c.reviews),
                "question": columns.Cut(texts.get((c.bank, c.question_id), "")),
            }
        )
    console = stdout_console()
    # The question gives way on a narrow terminal (cut, not wrapped), but keeps QUESTION_CELLS:
    # the counts and the state go first.
    needs = columns.widest(headings, [[r[h] for h in headings] for r in rows], {})
    needs["question"] = min(needs["question"], QUESTION_CELLS)
    headings = columns.fitting(headings, needs, columns.room(console), DUE_DROPPED_FIRST)
    table = Table(box=None, pad_edge=False)
    for heading in headings:
        justify: JustifyMethod = "right" if heading in {"Q", "reviews"} else "left"
        table.add_column(heading, justify=justify, no_wrap=heading != "question")
    for row in rows:
        table.add_row(*(row[h] for h in headings))
    columns.print_table(console, table)
    now_due = [c for c in cards if c.due <= now]
    line = f"{len(now_due)} due now, {len(cards) - len(now_due)} later."
    if now_due:
        banks = sorted({c.bank for c in now_due})
        line += " Study them: " + "; ".join(_review_command(b) for b in banks)
    console.print(line, markup=False)
    for text in _limit_lines(store, cards, now_due, now):
        console.print(text, markup=False)


DUE_DROPPED_FIRST = ("reviews", "state", "bank", "last")
QUESTION_CELLS = 24  # a due question keeps 12 Chinese characters before columns go


def _limit_lines(store, cards, now_due, now) -> list[str]:
    """What today's limits (reviews_per_day, new_per_day) let `review` serve, per bank."""
    from studybot.channel import config
    from studybot.learn import review

    # The daily limits only: no model channel is read, so a broken Codex config cannot stop `due`.
    settings = config.load({"offline": True})
    lines = []
    for key in sorted({c.bank for c in cards}):
        left = review.today(store, key, settings, now)
        due = sum(1 for c in now_due if c.bank == key)
        where = f" of {key}" if len({c.bank for c in cards}) > 1 else ""
        if due > left.reviews_left:
            lines.append(
                f"Today's limit{where}: review serves {left.reviews_left} of the {due} due "
                f"(reviews_per_day {left.reviews_per_day}, {left.reviews_done} done today)."
            )
        if left.new_left:
            lines.append(
                f"review{where} also adds up to {left.new_left} new question(s) today "
                f"(new_per_day {left.new_per_day}, {left.new_done} rated first today)."
            )
    return lines


@click.command()
@bank_option
@json_option
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE.png",
    help="Also write a PNG grid of every question: retention, failed and due marked, "
    "each chapter's grade (needs the plot extra).",
)
def progress(bank_ref: str | None, as_json: bool, plot: Path | None) -> None:
    """Per chapter: seen, due, failed, mean grade, retention, true retention.

    Seen counts questions read in a run or rated. Retention is FSRS's
    probability that you recall a rated question now (over the exact time
    since its rating), averaged over the chapter; a question last rated
    Again counts 0. True retention is the share of reviews not rated Again,
    as Anki's statistics count it. The grade is the share of key points an
    attempt covered. Under the table: what is due today and each of the
    next 7 days. Every chapter is listed, studied or not.

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
    report = mastery.progress(Store.open(write=False), bank, bank_ref or bank.name)
    if plot is not None:
        plots.progress_grid(report, bank, plot)
    if as_json:
        emit_json(report.to_json())
    else:
        _render_progress(report)
    if plot is not None:
        click.echo(f"Wrote {plot}", err=True)


# Columns a narrow terminal drops first (``show`` does the same): the bar repeats "seen",
# the day and the true retention are in --json; the title keeps at least TITLE_CELLS.
PROGRESS_DROPPED_FIRST = ("", "last", "true", "failed")
TITLE_CELLS = 14  # a chapter title keeps 6 Chinese characters and its ellipsis


def _render_progress(report) -> None:
    from rich.progress_bar import ProgressBar
    from rich.table import Table
    from rich.text import Text

    from studybot.cli import columns

    console = stdout_console()
    rows = []
    for c in report.chapters:
        colour = "grey50" if c.retention is None else _colour(c.retention)
        rows.append(
            {
                "ch": str(c.chapter),
                "title": columns.Cut(c.title),
                "seen": f"{c.seen}/{c.total}",
                "": ProgressBar(total=c.total, completed=c.seen, width=10, complete_style=colour),
                "due": str(c.due) if c.due == c.due_today else f"{c.due} ({c.due_today})",
                "failed": Text(f"✗ {c.failed}", style="bold red") if c.failed else Text("0"),
                "grade": _of(c.mean_grade, c.graded),
                "retention": Text(
                    _of(c.retention, c.rated), style=colour if c.retention is not None else ""
                ),
                "true": _percent(c.recall.share),
                "last": (c.last_studied or "-")[5:10] or "-",  # the day; --json has the time
            }
        )
    headings = ["ch", "title", "seen", "", "due", "failed", "grade", "retention", "true", "last"]
    shown = str | Text | columns.Cut  # the bar is not: it takes 10 cells
    cells = [[r[h] if isinstance(r[h], shown) else " " * 10 for h in headings] for r in rows]
    needs = columns.widest(headings, cells, {"title": TITLE_CELLS})
    headings = columns.fitting(headings, needs, columns.room(console), PROGRESS_DROPPED_FIRST)
    table = Table(title=Text(f"{report.title} ({report.bank})"), title_justify="left", box=None)
    for heading in headings:
        justify: JustifyMethod = "left" if heading in {"title", ""} else "right"
        table.add_column(
            heading,
            justify=justify,
            no_wrap=heading != "title",
            min_width=TITLE_CELLS if heading == "title" else None,
        )
    for row in rows:
        table.add_row(*(row[h] for h in headings))
    columns.print_table(console, table)
    console.print(_progress_footer(report), markup=False)
    seen = sum(c.seen for c in report.chapters)
    if not seen:
        console.print(f"Nothing studied in this bank yet. {START_HINT}", markup=False)
    elif any(c.due for c in report.chapters):
        console.print(f"Due now: {_review_command(report.bank)}", markup=False)


def _of(share: float | None, counted: int) -> str:
    """A chapter's grade or retention and how many questions it stands on: "100% of 1".

    Read is seen, not graded or retained: 8 read and 1 rated is "100% of 1", never "100%".
    """
    return "-" if share is None else f"{_percent(share)} of {counted}"


def _progress_footer(report) -> str:
    """The figures of the whole bank under the table, and what the columns mean."""
    now = sum(c.due for c in report.chapters)
    ahead = " ".join(str(n) for n in report.forecast)
    recall = report.recall
    true = (
        f"true retention {percent(recall.share)} ({recall.passed} of "
        f"{recall.passed + recall.failed} reviews not Again)"
        if recall.share is not None
        else "true retention - (no review of a learnt question yet)"
    )
    return (
        f"due today {report.due_today} ({now} now) · next 7 days: {ahead} · {true}\n"
        "seen = read or rated · due (today) · failed = last rated Again, counted 0 in retention "
        "· grade of N graded, retention of N rated questions · true = reviews not Again, "
        "as Anki counts"
    )


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
    return "-" if value is None else percent(value)


COMMANDS = [review, due, progress]
