"""``bank list|show|search|validate|import|banks``: look into, check and import question banks."""

from __future__ import annotations

import click

from studybot.cli.bank_import import import_
from studybot.cli.common import bank_option, emit_json, json_option, stdout_console
from studybot.cli.render import echo
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
    from rich.text import Text

    from studybot.cli.render import printable
    from studybot.cli.wrap import hang_lines

    console = stdout_console()
    # On a terminal a question goes on under its own start, broken at a word; piped, one line.
    width = console.width if console.is_terminal else 10**6
    current = None
    for q in questions:
        if q.chapter != current:
            current = q.chapter
            info = loaded.chapter(q.chapter)
            title = info.title if info else ""
            console.print(f"\n[bold]第 {q.chapter} 章 {escape(title)}[/bold]")
        label = f" [{q.label}]" if q.label else ""
        text = Text(printable(q.question))  # a bank's text: no escape codes
        for line in hang_lines(Text(printable(f"{q.id:>4}.{label} ")), text, width):
            console.print(line, soft_wrap=True)


@bank.command("show")
@click.argument("number", type=int)
@bank_option
@json_option
def show(number: int, bank_ref: str | None, as_json: bool) -> None:
    """Show one question with its hint, key points, reference answer and sources.

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
                "sources": [
                    {"cite": s.cite, "ref": s.ref, "points": list(s.points)} for s in q.sources
                ],
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
    if q.sources:
        from studybot.bank.sources import lines

        console.print("")
        for line in lines(q.sources):
            console.print(line, style="dim", markup=False)
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
    from studybot.learn.spelling import normalise

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
@bank_option
@click.option("--notes", is_flag=True, help="Also list the notes on style, not only their count.")
@click.option(
    "--self-test",
    "self_test",
    is_flag=True,
    help="Also grade the rubric against itself (every claim said, negated, reversed, listed).",
)
@json_option
def validate(
    path: str | None, bank_ref: str | None, notes: bool, self_test: bool, as_json: bool
) -> None:
    """Check a bank and print every finding as file:line: message.

    Without PATH (or --bank), the shipped bank. Exits 2 when there is any
    error. A rubric that grades worse than its writer meant (a relation of
    one letter, an opposite that is also the relation) is a warning: listed
    on stderr, never a failure. A note is a matter of style (an alias word
    of one character): counted, listed with --notes. With --self-test,
    every point's own text, each claim in Chinese and English, negated,
    reversed and as a bare list of its terms is graded, and each case
    graded unlike it must be is listed; any such case exits 1. For a
    question file, what the file does (a question asked again, a heading
    with no question, numbers that restart) is printed as notes after OK.
    --json prints the findings as a list (file, line, question, point,
    level, message).

    \b
    Example:
      studybot bank validate
      studybot bank validate --self-test
      studybot bank validate --bank ./my-bank --json
      studybot bank validate 面试题.md
    """
    from studybot.bank.findings import from_problem
    from studybot.cli.validating import checked as check
    from studybot.cli.validating import print_findings, self_test_report

    if path is not None and bank_ref is not None and path != bank_ref:
        raise click.UsageError(f"give the bank once: {path!r} or --bank {bank_ref!r}")
    if as_json and self_test:
        raise click.UsageError("--self-test prints text: run it without --json")
    checked = check(path or bank_ref)
    if isinstance(checked, list):  # the bank does not load: its problems
        if as_json:
            emit_json([from_problem(p).as_json() for p in checked])
        else:
            for problem in checked:
                echo(problem, wrap=False)
            click.echo(f"{len(checked)} problem(s) found.", err=True)
        raise Reported(USAGE)
    if as_json:
        emit_json([f.as_json() for f in checked.findings])
    else:
        print_findings(checked, notes)
    if self_test:
        self_test_report(checked)


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
        title = Text(str(row["title"])) if row["title"] else Text(f"broken: {row['error']}", "red")
        table.add_row(str(row["name"]), str(row["questions"]), str(row["chapters"]), title)
    stdout_console().print(table)


bank.add_command(import_)
COMMANDS = [bank]
