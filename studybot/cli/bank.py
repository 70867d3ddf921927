"""``bank list|show|validate``: look into the question bank."""

from __future__ import annotations

import click

from studybot.cli.common import emit_json, json_option, stdout_console

bank_option = click.option(
    "--bank",
    "bank_ref",
    metavar="NAME|PATH",
    help="An imported bank's name, a bank folder or a question file.",
)


@click.group()
def bank() -> None:
    """Browse and check question banks.

    \b
    Example:
      studybot bank list
      studybot bank show 34
      studybot bank validate
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

    loaded = banks.load(bank_ref)
    questions = [q for q in loaded.questions if chapter is None or q.chapter == chapter]
    if as_json:
        emit_json([{"id": q.id, "chapter": q.chapter, "question": q.question} for q in questions])
        return
    console = stdout_console()
    current = None
    for q in questions:
        if q.chapter != current:
            current = q.chapter
            info = loaded.chapter(q.chapter)
            title = info.title if info else ""
            console.print(f"\n[bold]第 {q.chapter} 章 {title}[/bold]")
        console.print(f"{q.id:>4}. {q.question}", markup=False)


@bank.command("show")
@click.argument("number", type=int)
@bank_option
@json_option
def show(number: int, bank_ref: str | None, as_json: bool) -> None:
    """Show one question with its reference key points.

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
            }
        )
        return
    console = stdout_console()
    info = loaded.chapter(q.chapter)
    console.print(f"[bold]第 {q.id} 题[/bold] · 第 {q.chapter} 章 {info.title if info else ''}")
    console.print(q.question, markup=False)
    if q.hint:
        console.print(f"[dim]提示：{q.hint}[/dim]")
    console.print("")
    for n, point in enumerate(q.key_points, start=1):
        console.print(f"{n}. {point}", markup=False)
    if q.tags:
        console.print(f"\n[dim]tags: {', '.join(q.tags)}[/dim]")


@bank.command("validate")
@click.argument("path", required=False)
def validate(path: str | None) -> None:
    """Check a bank and print every problem as file:line: message.

    Without PATH, the shipped bank. Exits 2 when there is any problem.

    \b
    Example:
      studybot bank validate
      studybot bank validate ./my-bank
    """
    from studybot import bank as banks

    problems = banks.validate(path)
    if problems:
        for problem in problems:
            click.echo(problem, err=True)
        click.echo(f"{len(problems)} problem(s) found.", err=True)
        raise SystemExit(2)
    loaded = banks.load(path)
    click.echo(
        f"OK: {len(loaded.questions)} questions in {len(loaded.chapters)} chapter(s), "
        f"Q{loaded.first}–Q{loaded.last}."
    )


COMMANDS = [bank]
