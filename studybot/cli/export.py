"""``export``: a session as Markdown notes, JSON or Anki cards, written whole or not at all."""

from __future__ import annotations

from pathlib import Path

import click

from studybot.cli.render import number


@click.command()
@click.argument("session_id", metavar="SESSION")
@click.option(
    "-f",
    "--format",
    "fmt",
    type=click.Choice(["md", "json", "anki", "apkg"]),
    default="md",
    show_default=True,
    help="md notes, json data, anki text for Anki's importer, apkg package (extra `anki`).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
    help="Write to FILE instead of stdout (never over an existing file without --force; "
    "- is stdout).",
)
@click.option("--force", is_flag=True, help="Replace FILE if it exists (a regular file only).")
@click.option(
    "--summary",
    "with_summary",
    is_flag=True,
    help="Write the last segment's summary if it is missing (one request with a live model).",
)
def export(session_id: str, fmt: str, output: Path | None, force: bool, with_summary: bool) -> None:
    """Export a session as Markdown notes, JSON, or Anki cards (text or .apkg).

    Anki cards: one per answered question, Markdown rendered to HTML,
    formulas kept for MathJax, follow-ups on the back, one deck per chapter
    (studybot::BANK::CHAPTER), tags from the bank. Each card's GUID comes
    from (bank, question), so importing again updates cards, never doubles
    them. The file is written whole or not at all.

    A run writes its last segment's summary only when something reads it:
    offline sessions get it here for free, a live session's with --summary.

    \b
    Example:
      studybot export 1 -f md -o notes.md
      studybot export 1 -f anki -o cards.txt
      studybot export 1 -f apkg -o cards.apkg
      studybot export 4 -f md --summary
    """
    from studybot.cli.sessions import left_out
    from studybot.errors import BadInput
    from studybot.output import export as exports
    from studybot.output import writing
    from studybot.storage.store import Store

    to_stdout = output is not None and str(output) == "-"  # -o - is standard output
    store = Store.open(write=False)
    record = store.session(session_id)
    if store.writable and (with_summary or not record.live):
        _write_last_summary(store, record)
    if fmt == "apkg":
        from studybot.output import anki

        if to_stdout:
            from studybot.cli.common import binary_to_stdout

            view = store.view(record.id)
            notes = binary_to_stdout(
                lambda path: anki.write_package(view, path),
                what="an .apkg is a binary package",
                hint="name the file: -o cards.apkg, or send stdout to a file or a pipe",
            )
            click.echo(f"Wrote {number(notes)} notes to stdout", err=True)
            left_out(view)
            return
        if output is None:
            raise BadInput(
                "an .apkg is a binary package, not text for the terminal",
                hint=f"name the file: studybot export {record.id} -f apkg -o cards.apkg",
            )
        written: list[int] = []
        view = store.view(record.id)
        writing.write_file(
            output, lambda path: written.append(anki.write_package(view, path)), force=force
        )
        click.echo(f"Wrote {output} ({number(written[0])} notes)", err=True)
        left_out(view)
        return
    view = store.view(record.id)
    text = exports.render(view, fmt)
    # On stdout, likely a terminal: no control codes (the file keeps them).
    if output is None or to_stdout:
        from studybot.cli.common import escaped_json
        from studybot.cli.render import echo

        echo(escaped_json(text) if fmt == "json" else text, nl=False, err=False, wrap=False)
    else:
        writing.write_file(output, lambda path: writing.write_text(path, text), force=force)
        click.echo(f"Wrote {output} ({number(len(text.splitlines()))} lines)", err=True)
    left_out(view)


def _write_last_summary(store, record) -> None:
    """The last segment's summary, from the provider that answered the session."""
    from studybot.study import carry, session
    from studybot.study.opening import Options, open_study

    study, notice = open_study(Options(session=record))  # a live session needs its key again
    if notice and record.live:
        click.echo(notice, err=True)
    carry.last_summary(study, store, record, session.Listener())


COMMANDS = [export]
