"""``grade``: one attempt graded against a question's key points, without a session."""

from __future__ import annotations

import codecs
import sys

import click

from studybot.cli.common import (
    bank_option,
    channel_options,
    emit_json,
    grader_option,
    json_option,
)
from studybot.output.figures import percent

MEANINGS = {"covered": "ok", "partly": "warning", "missed": "summary", "contradicted": "error"}


@click.command()
@click.argument("question_id", metavar="QUESTION", type=int)
@click.option("--attempt", "text", metavar="TEXT", help="The attempt; without it, read stdin.")
@bank_option
@channel_options
@grader_option
@json_option
def grade(question_id: int, text: str | None, bank_ref: str | None, as_json: bool, **flags) -> None:
    """Grade an attempt at QUESTION against its key points, point by point.

    The attempt comes from --attempt or stdin. Each point is marked ✓
    covered, ½ partly, ✗ missed or ⚠ contradicted, with the words of the
    attempt that decided it (a point whose terms are named without a claim
    is "mentioned only"); then the score, the rating it suggests and who
    graded: a live model when a key is set (as for run), else the offline
    grader (the bank's rubric, or a term estimate for a bank without one).
    --offline grades offline even with a key. Nothing is saved.

    \b
    Example:
      studybot grade 22 < answer.txt
      studybot grade 23 --attempt "只缓存 K 和 V，因为 Q 只在当前步用一次" --json
      studybot grade 5 --offline --bank my-bank < answer.txt
    """
    from studybot.study.checking import check, refuse
    from studybot.study.opening import Options

    if text is None:
        text = read_attempt(question_id)
    refuse(text, question_id)  # before the bank and the channel are opened
    checked = check(Options(bank=bank_ref, flags=flags), question_id, text, notify=notice)
    if as_json:
        emit_json(as_data(checked))
    else:
        show(checked)


def notice(line: str) -> None:
    """A provider's notice (a retry, a JSON mode it fell back to), on stderr."""
    from studybot.cli.render import echo

    echo(line.strip("\n"), wrap=False)


def read_attempt(question_id: int) -> str:
    """The attempt on stdin: UTF-8 text of at most ATTEMPT_CHARS characters, read no further.

    At most ``4 × ATTEMPT_CHARS`` bytes (and a byte-order mark) are read: a
    UTF-8 character takes at most 4, so one byte more is too long already,
    whatever it holds; 100 MB piped in costs what 80 kB costs.
    """
    from studybot.study.checking import ATTEMPT_CHARS, not_text, too_long

    if sys.stdin is None:  # no stdin at all (a closed descriptor under some launchers)
        return ""
    if sys.stdin.isatty():
        click.echo("Type your attempt; end it with Ctrl-D.", err=True)
    most = 4 * ATTEMPT_CHARS + len(codecs.BOM_UTF8)
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # a text stream without bytes beneath it
        text = sys.stdin.read(ATTEMPT_CHARS + 1)
        if len(text) > ATTEMPT_CHARS:
            raise too_long(question_id)
        return text
    data = stream.read(most + 1)
    if len(data) > most:
        raise too_long(question_id)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        why = f"byte {exc.start + 1:,} ({data[exc.start]:#04x}) is not UTF-8"
        raise not_text(question_id, why) from None


def as_data(checked) -> dict:
    from studybot.learn.marks import RATINGS

    result = checked.grade
    return {
        "question": checked.question.id,
        "score": result.score,
        "points": [
            {
                "point": p.point,
                "state": p.state,
                "evidence": p.evidence,
                "key": p.key,
                "mentioned": p.mentioned,
            }
            for p in result.points
        ],
        "suggested_rating": checked.suggested,
        "suggested": RATINGS[checked.suggested],
        "source": result.source,
        "grader": result.grader,
        "advice": result.advice,
        "note": result.note,
    }


def show(checked) -> None:
    from studybot.cli.common import stdout_console
    from studybot.cli.render import echo, paint
    from studybot.learn.marks import RATINGS

    result, question = checked.grade, checked.question
    echo(f"Q{question.id} {question.question}", err=False, meaning="question")
    out = stdout_console()
    if out.is_terminal:  # each point wrapped under itself, as the quiz's reveal draws it
        from studybot.cli.reveal import advice_lines, point_lines

        for line in point_lines(result, out.width):
            out.print(line, soft_wrap=True)
    else:
        _piped_points(result)
    echo(
        f"score {percent(result.score)} · {result.covered}/{result.total} covered"
        + (f", {result.partly} partly" if result.partly else "")
        + (f", {result.contradicted} contradicted" if result.contradicted else "")
        + f" · suggested: {checked.suggested} {RATINGS[checked.suggested]}"
        + f" · {result.source} ({result.grader})",
        err=False,
    )
    if out.is_terminal:
        for line in advice_lines(result.advice, out.width):
            out.print(line, soft_wrap=True)
    else:
        from studybot.cli.wrap import inline_markdown

        echo(f"advice: {inline_markdown(result.advice)[0].plain}", err=False)
    if result.note:
        click.echo(paint(f"note: {result.note}", "warning"), err=True)


def _piped_points(result) -> None:
    """Each point on one line (clipped), what decided it under it: for a pipe or a file."""
    from studybot.cli.render import paint, printable
    from studybot.learn.marks import MARKS, clip

    for n, p in enumerate(result.points, start=1):
        mark = paint(MARKS[p.state], MEANINGS[p.state])
        click.echo(f" {mark} {n}. {printable(clip(p.point, 60))}")  # the mark keeps its colour
        if p.state == "contradicted":
            click.echo(paint(f"      you: {p.evidence or '…'} · key: {p.key or '…'}", "error"))
        elif p.mentioned:
            click.echo(paint(f"      mentioned only: 「{p.evidence}」", "summary"))
        elif p.evidence:
            click.echo(paint(f"      you: 「{p.evidence}」", "summary"))


COMMANDS = [grade]
