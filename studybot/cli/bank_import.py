"""``bank import FILE``: read a user's own question file, preview it, save it as a bank.

The command only parses options, asks ``bank.importer`` to read the file
(with the selectors the user gave, or the ones the bank remembers from the
last import of the same file) and hands the report to ``cli.importing``.
"""

from __future__ import annotations

import click

from studybot.cli.common import emit_json, json_option
from studybot.cli.render import echo


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--name", help="Save it under this name: letters, digits, - and _.")
@click.option("--preview", is_flag=True, help="Show what would be imported; save nothing.")
@click.option(
    "--force",
    is_flag=True,
    help="Replace a bank of the same name; import past problems and lines not taken.",
)
@click.option(
    "--questions",
    metavar="WHAT",
    help="Where the questions sit: headings:N, items, items:N, bold, lines, table:COLUMN, "
    "details, cells (see above).",
)
@click.option(
    "--answers",
    metavar="WHAT",
    help="none: questions only. Left out, each answer is what follows its question.",
)
@click.option(
    "--map",
    "mapping",
    metavar="FIELD=KEY,…",
    help="Which key or column holds what: question, answer, chapter, id, key_points, hint, tags.",
)
@click.option(
    "--level",
    type=click.IntRange(1, 6),
    help="Markdown: every heading of this level is a question, the text below it its answer.",
)
@json_option
def import_(
    file: str,
    name: str | None,
    preview: bool,
    force: bool,
    questions: str | None,
    answers: str | None,
    mapping: str | None,
    level: int | None,
    as_json: bool,
) -> None:
    """Check your own question file and save it as a bank called NAME.

    FILE may be Markdown (headings, bullets, bold lines, tables, checklists,
    <details>, Q：/A： notes, interview write-ups: a line that asks is a
    question, what follows it its answer), a Jupyter notebook, CSV/TSV or
    JSON/JSONL with any usual keys (question/prompt/q/问题, answer/response/
    good_answer/答案, chapter/topic/分类; --map names others; chats and nested
    JSON too), or an Anki deck (.apkg, a CrowdAnki deck.json, or Anki's
    "Notes in Plain Text" export). A question asked again is imported once;
    problems are listed as file:line and stop the import unless --force;
    lines that read like questions and were not taken are listed with
    their line. Numbers are kept when unique and contiguous, else questions
    are numbered 1..N and keep the source's number as a label. Use the bank
    with --bank NAME.

    Start with --preview: it counts where questions were found, lists every
    line that asks and was not taken, names the --questions option that
    would take more, and ends with the command to run.

    \b
    --questions WHAT: where the questions sit
      headings:N    each heading of level N (### is 3)
      items         each list item, at any depth
      items:N       the list items of depth N (1 = top)
      bold          each line that starts in bold
      lines         each line that asks
      table:COLUMN  the cells of a column (name or number)
      details       the <summary> of each <details>
      cells         each Markdown cell of a notebook

    The answer is what follows a question up to the next one;
    --answers none takes the questions alone. The bank remembers
    these options (and --map, --level): importing the same file
    again under the same --name reads it the same way.

    \b
    Example:
      studybot bank import 面试题.md --preview
      studybot bank import 面试题200问.md --name llm200
      studybot bank import README.md --name ml --questions items
      studybot bank import deck.apkg --name anki
      studybot bank import qa.jsonl --name qa --map question=prompt,answer=good_answer
      studybot run --bank llm200 --from 1 --to 8
    """
    from studybot import bank as banks
    from studybot.bank import importer
    from studybot.cli import importing

    if name is None and not preview:
        raise click.UsageError("give --name NAME to save the bank (or --preview to only look)")
    if name is not None:
        banks.check_name(name)
    given = (questions, answers, mapping, level) != (None, None, None, None)
    remembered = () if given else importing.remembered(file, name)
    if remembered:
        questions, answers, mapping, level = importing.selectors_of(remembered)
        if not as_json:
            echo(
                f"Read with {' '.join(remembered)}, as when {name!r} was imported from it "
                "(give --questions, --answers, --map or --level to read it otherwise)",
                err=False,
                wrap=False,
            )
    pairs = importer.parse_map(mapping)
    report = importer.inspect(
        file,
        name=name,
        force=force or preview,
        mapping=pairs,
        level=level,
        questions=questions,
        answers=answers,
        steering=preview or as_json,
    )
    if preview:
        data = importer.preview_data(report, name)
        if as_json:
            emit_json(data)
        else:
            importing.print_preview(data)
        return
    assert name is not None  # required without --preview, checked above
    importing.save(report, file, name, force, as_json)
