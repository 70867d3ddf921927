"""``bank list|show|search|validate|import|banks``: look into, check and import question banks."""

from __future__ import annotations

import click

from studybot.cli.common import bank_option, echo, emit_json, json_option, stdout_console
from studybot.errors import FAILURE, USAGE, Reported


@click.group()
def bank() -> None:
    """Browse and check question banks.

    \b
    Example:
      studybot bank list
      studybot bank show 34
      studybot bank search KV 缓存
      studybot bank validate
      studybot bank import 面试题.md --preview
      studybot bank import 面试题.md --name mine
      studybot bank banks
    """


@bank.command("list")
@bank_option
@click.option("--chapter", type=int, help="Only this chapter.")
@json_option
def list_(bank_ref: str | None, chapter: int | None, as_json: bool) -> None:
    """List the questions, by chapter.

    \b
    Example:
      studybot bank list --chapter 3
    """
    from studybot import bank as banks
    from studybot.errors import BadInput

    loaded = banks.load(bank_ref)
    if chapter is not None and loaded.chapter(chapter) is None:
        numbers = [c.number for c in loaded.chapters]
        raise BadInput(
            f"bank {loaded.name!r} has no chapter {chapter}",
            hint=f"its chapters are {numbers[0]}–{numbers[-1]}" if numbers else None,
        )
    questions = [q for q in loaded.questions if chapter is None or q.chapter == chapter]
    if as_json:
        emit_json([{"id": q.id, "chapter": q.chapter, "question": q.question} for q in questions])
        return
    from rich.markup import escape

    console = stdout_console()
    current = None
    for q in questions:
        if q.chapter != current:
            current = q.chapter
            info = loaded.chapter(q.chapter)
            title = info.title if info else ""
            console.print(f"\n[bold]第 {q.chapter} 章 {escape(title)}[/bold]")
        label = f" [{q.label}]" if q.label else ""
        console.print(f"{q.id:>4}.{label} {q.question}", markup=False)


@bank.command("show")
@click.argument("number", type=int)
@bank_option
@json_option
def show(number: int, bank_ref: str | None, as_json: bool) -> None:
    """Show one question with its hint, key points and reference answer.

    \b
    Example:
      studybot bank show 34
    """
    from studybot import bank as banks

    loaded = banks.load(bank_ref)
    q = loaded.get(number)
    if as_json:
        emit_json(
            {
                "id": q.id,
                "chapter": q.chapter,
                "question": q.question,
                "key_points": list(q.key_points),
                "tags": list(q.tags),
                "hint": q.hint,
                "reference": q.reference,
                "label": q.label,
            }
        )
        return
    from rich.markup import escape

    console = stdout_console()
    info = loaded.chapter(q.chapter)
    label = f"（原题号 {q.label}）" if q.label else ""
    console.print(
        f"[bold]第 {q.id} 题[/bold]{escape(label)} · 第 {q.chapter} 章 "
        f"{escape(info.title) if info else ''}"
    )
    console.print(q.question, markup=False)
    if q.hint:
        console.print(f"提示：{q.hint}", style="dim", markup=False)
    console.print("")
    for n, point in enumerate(q.key_points, start=1):
        console.print(f"{n}. {point}", markup=False)
    if q.reference:
        from rich.markdown import Markdown

        from studybot.output.markup import readable_math

        if q.key_points:
            console.print("\n参考答案：")
        console.print(Markdown(readable_math(q.reference)))  # formulas as written
    if q.tags:
        console.print(f"\n[dim]tags: {escape(', '.join(q.tags))}[/dim]")


@bank.command("search")
@click.argument("words", nargs=-1, required=True)
@bank_option
@json_option
def search(words: tuple[str, ...], bank_ref: str | None, as_json: bool) -> None:
    """Find questions whose text, key points or tags contain every WORD.

    Words match anywhere, ignoring case, full/half width and the ways one
    term is written (KV cache = KV 缓存 = 键值缓存, token = 词元), as the
    grader reads them; Chinese needs no spaces. Like grep, exits 1 when
    nothing matches (with --json, after printing []), so scripts can test
    for a hit.

    \b
    Example:
      studybot bank search 旋转位置
      studybot bank search "KV cache" --json
    """
    from studybot import bank as banks
    from studybot.bank import selection
    from studybot.learn.words import normalise

    loaded = banks.load(bank_ref)
    hits = selection.search(loaded, words, spell=normalise)
    if as_json:
        emit_json([{"id": q.id, "chapter": q.chapter, "question": q.question} for q in hits])
    else:
        from rich.text import Text

        console = stdout_console()
        for q in hits:
            console.print(
                Text.assemble(f"{q.id:>4}. ", q.question, (f"  第 {q.chapter} 章", "dim"))
            )
        if hits:
            console.print(f"{len(hits)} question(s). See one: studybot bank show {hits[0].id}")
        else:
            click.echo(
                f"No question in {loaded.title!r} contains all of: {' '.join(words)}", err=True
            )
    if not hits:
        raise Reported(FAILURE)  # like grep: nothing found is exit 1


@bank.command("validate")
@click.argument("path", required=False)
def validate(path: str | None) -> None:
    """Check a bank and print every problem as file:line: message.

    Without PATH, the shipped bank. Exits 2 when there is any problem. A
    rubric that grades worse than its writer meant (an alias word of one
    character, a concept the question itself holds, a wrong claim the point
    itself says) is a warning: listed on stderr, never a failure.

    \b
    Example:
      studybot bank validate
      studybot bank validate ./my-bank
    """
    from studybot import bank as banks

    problems = banks.validate(path)
    if problems:
        for problem in problems:
            echo(problem, err=True)
        click.echo(f"{len(problems)} problem(s) found.", err=True)
        raise Reported(USAGE)
    loaded = banks.load(path)
    click.echo(
        f"OK: {len(loaded.questions)} questions in {len(loaded.chapters)} chapter(s), "
        f"Q{loaded.first}–Q{loaded.last}."
    )
    from studybot.learn.lint import lint

    warnings = lint(loaded)
    for warning in warnings:
        click.echo(warning, err=True)
    if warnings:
        click.echo(f"{len(warnings)} rubric warning(s); they do not fail the bank.", err=True)


@bank.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--name", help="Save it under this name: letters, digits, - and _.")
@click.option("--preview", is_flag=True, help="Show what would be imported; save nothing.")
@click.option(
    "--force",
    is_flag=True,
    help="Replace an imported bank of the same name; import even if question-like lines were not taken.",
)
@json_option
def import_(file: str, name: str | None, preview: bool, force: bool, as_json: bool) -> None:
    """Check your own question file and save it as a bank called NAME.

    FILE may be Markdown (Q&A notes with questions as headings, numbered or
    nested bullet lists of questions, Q1：…, **Q1：**…, ### 1.1 …), a
    Jupyter notebook of such Markdown cells, CSV/TSV with a question column
    (optional id, chapter, key_points, hint, reference), or JSON/JSONL. The
    answer under a question is kept whole as its reference answer (a short
    list of points becomes its key points); （提示：…） becomes the hint.
    Numbers are kept when unique and contiguous, else questions are
    numbered 1..N and keep the source's number as a label. Every problem
    is reported as file:line (exit 2) and nothing is saved until the file
    is clean; if many question-like lines were not taken, import refuses
    unless --force. Use the bank with --bank NAME.

    \b
    Example:
      studybot bank import 面试题.md --preview
      studybot bank import 面试题200问.md --name llm200
      studybot run --bank llm200 --from 1 --to 8
    """
    from pathlib import Path

    from studybot import bank as banks
    from studybot.bank import importer
    from studybot.errors import BadInput

    if name is None and not preview:
        raise click.UsageError("give --name NAME to save the bank (or --preview to only look)")
    if name is not None:
        banks.check_name(name)
    report = importer.inspect(file, name=name)
    if preview:
        data = importer.preview_data(report)
        if as_json:
            emit_json(data)
        else:
            _print_preview(data)
        return
    if report.refused and not force:
        first = report.lost[0]
        raise BadInput(
            f"{len(report.lost)} question-like line(s) of {file} were not taken "
            f"(first at {first.where}: {first.why}); {len(report.bank.questions)} would be imported",
            hint=f"see them with: studybot bank import {file} --preview; add --force to import anyway",
        )
    loaded = report.bank
    folder = banks.save(loaded, name, source=str(Path(file).resolve()), force=force)
    answered = sum(1 for q in loaded.questions if q.key_points or q.reference)
    if as_json:
        emit_json(
            {
                "name": name,
                "path": str(folder),
                "title": loaded.title,
                "questions": len(loaded.questions),
                "chapters": len(loaded.chapters),
                "first": loaded.first,
                "last": loaded.last,
                "with_key_points": sum(1 for q in loaded.questions if q.key_points),
                "with_reference": sum(1 for q in loaded.questions if q.reference),
                "not_taken": len(report.skipped),
                "numbering": list(report.numbering),
            }
        )
        return
    click.echo(
        f"Imported {len(loaded.questions)} questions (Q{loaded.first}–Q{loaded.last}) in "
        f"{len(loaded.chapters)} chapter(s) as {name!r}: {folder}"
    )
    _print_numbering(report.numbering)
    if report.lost:
        click.echo(f"{len(report.lost)} question-like line(s) were not taken (see --preview).")
    if answered < len(loaded.questions):
        click.echo(
            f"{len(loaded.questions) - answered} question(s) have no reference answer or key "
            "points: offline, studybot leaves them unanswered; a live model answers them."
        )
    click.echo(f"Study it: studybot run --bank {name} --from {loaded.first} --to {loaded.last}")


def _print_numbering(notes) -> None:
    if notes:
        click.echo("Numbered 1..N in file order, the source's numbers kept as labels:")
        for note in notes:
            echo(f"  - {note}")


def _print_preview(data: dict) -> None:
    echo(f"{data['file']}: {data['title']} (nothing saved)")
    for chapter in data["chapters"]:
        echo(f"\n第 {chapter['number']} 章 {chapter['title']}: {chapter['questions']} question(s)")
        echo(f"  first: Q{chapter['first']['id']} {chapter['first']['question']}")
        echo(f"  last:  Q{chapter['last']['id']} {chapter['last']['question']}")
    _print_numbering(data["numbering"])
    lost = [s for s in data["not_taken"] if s["counts"]]
    noise = [s for s in data["not_taken"] if not s["counts"]]
    if lost:
        click.echo(f"\nNot taken ({len(lost)}):")
        for line in lost:
            echo(f"  {line['where']}: {line['why']}: {line['text']}")
    if noise:
        click.echo(f"\nIgnored as links ({len(noise)}), first at {noise[0]['where']}")
    totals = data["totals"]
    click.echo(
        f"\nTotal: {totals['questions']} question(s) in {totals['chapters']} chapter(s); "
        f"{totals['with_reference']} with a reference answer, {totals['with_key_points']} with "
        f"key points; {totals['not_taken']} question-like line(s) not taken."
    )
    if data["refused"]:
        click.echo("Import would refuse this file: too many lines not taken (--force overrides).")


@bank.command("banks")
@json_option
def banks_(as_json: bool) -> None:
    """List the banks you can pass to --bank: the shipped one and your imports.

    Imported banks live in STUDYBOT_HOME/banks/NAME; delete that folder to
    remove one, or import again with --force to replace it.

    \b
    Example:
      studybot bank banks
      studybot bank banks --json
    """
    from studybot import bank as banks
    from studybot.errors import BankError

    rows = []
    for name in [banks.SHIPPED, *banks.names()]:
        folder = banks.shipped_dir() if name == banks.SHIPPED else banks.saved_root() / name
        row = {"name": name, "path": str(folder), "title": None, "questions": 0, "chapters": 0}
        try:
            loaded = banks.load(name)
        except BankError as exc:
            row["error"] = exc.message
        else:
            row.update(title=loaded.title, questions=len(loaded.questions))
            row.update(chapters=len(loaded.chapters), error=None)
        rows.append(row)
    if as_json:
        emit_json(rows)
        return
    from rich.table import Table
    from rich.text import Text

    table = Table("name", "questions", "chapters", "title", box=None)
    for row in rows:
        title = Text(row["title"]) if row["title"] else Text(f"broken: {row['error']}", "red")
        table.add_row(row["name"], str(row["questions"]), str(row["chapters"]), title)
    stdout_console().print(table)


COMMANDS = [bank]
