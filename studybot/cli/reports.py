"""``sessions``, ``show`` and ``export``: what was studied, and its cost per turn."""

from __future__ import annotations

from pathlib import Path

import click

from studybot.cli.common import emit_json, human_bytes, json_option, stdout_console


@click.command()
@json_option
def sessions(as_json: bool) -> None:
    """List sessions, newest first, with their progress.

    \b
    Example:
      studybot sessions
      studybot sessions --json
    """
    from studybot.export import session_summary
    from studybot.store import Store

    records = Store.open(write=False).sessions()
    if as_json:
        emit_json([session_summary(r) for r in records])
        return
    if not records:
        click.echo("No sessions yet. Start one: studybot run --from 1 --to 8")
        return
    from rich.table import Table

    table = Table(box=None, pad_edge=False)
    for heading in (
        "id",
        "status",
        "questions",
        "answered",
        "provider",
        "model",
        "bank",
        "created",
    ):
        table.add_column(heading, justify="right" if heading in {"id", "answered"} else "left")
    for r in records:
        table.add_row(
            str(r.id),
            r.status,
            f"{r.first_question}–{r.last_question}",
            f"{r.answered}/{r.total}",
            r.provider,
            r.model,
            r.bank,
            r.created.replace("T", " ").removesuffix("+00:00"),
        )
    stdout_console().print(table)


@click.command()
@click.argument("session_id", metavar="SESSION")
@json_option
def show(session_id: str, as_json: bool) -> None:
    """Show a session's per-turn token table and its segment summaries.

    \b
    Example:
      studybot show 1
      studybot show 1 --json
    """
    from studybot.export import session_data
    from studybot.store import Store

    store = Store.open(write=False)
    record = store.session(session_id)
    if as_json:
        emit_json(session_data(store, record.id))
        return
    render_session(store, record.id)


def render_session(store, session_id: int) -> None:
    """The per-turn table: tokens, cached tokens, context n, KV bytes, latency."""
    from rich.table import Table

    record = store.session(session_id)
    turns = store.turns(record.id)
    console = stdout_console()
    table = Table(
        title=f"Session {record.id} · Q{record.first_question}–{record.last_question} · "
        f"{record.provider} ({record.model}) · {record.answered}/{record.total} answered",
        title_justify="left",
    )
    for heading in ("Q", "seg", "prompt", "cached", "answer", "context n", "KV", "latency"):
        table.add_column(heading, justify="right")
    for t in turns:
        prompt = str(t.prompt_tokens)
        if t.usage_source == "provider" and t.local_prompt_tokens != t.prompt_tokens:
            prompt += f" (local {t.local_prompt_tokens})"
        if t.usage_suspect:
            prompt += " !"
        table.add_row(
            f"{t.question_id}*" if t.answer_flag else str(t.question_id),
            str(t.segment + 1),
            prompt,
            str(t.cached_tokens),
            str(t.completion_tokens),
            str(t.context_tokens),
            human_bytes(t.kv_bytes),
            f"{t.latency_ms / 1000:.2f} s",
        )
    console.print(table)
    for t in turns:
        if t.flag_text:
            console.print(f"* Q{t.question_id} {t.answer_flag}: {t.flag_text}")
    if any(t.usage_suspect for t in turns):
        console.print(
            "! the provider's reported usage disagrees with the local count by more than 2×; "
            "context n and KV use the local count"
        )
    if turns:
        prompt_total = sum(t.prompt_tokens for t in turns)
        cached_total = sum(t.cached_tokens for t in turns)
        peak = max(t.context_tokens for t in turns)
        rate = f" ({cached_total / prompt_total:.0%} of prompt tokens)" if prompt_total else ""
        console.print(
            f"prompt tokens {prompt_total} · cached {cached_total}{rate} · "
            f"answer tokens {sum(t.completion_tokens for t in turns)} · peak context n = {peak}"
        )
        summaries = [s.summary_usage for s in store.segments(record.id) if s.summary_usage]
        if summaries:
            console.print(
                f"summaries: {len(summaries)} request{'s' * (len(summaries) > 1)} · prompt tokens "
                f"{sum(u.prompt_tokens for u in summaries)} · cached "
                f"{sum(u.cached_tokens for u in summaries)} · answer tokens "
                f"{sum(u.completion_tokens for u in summaries)}"
            )
        _study_lines(console, store, record)
        from studybot.kv.turns import session_kv

        kv = session_kv(record.prefix, record.settings, turns)
        if kv:
            console.print(
                f"peak KV {human_bytes(kv.peak_bytes)} ({kv.model}, n = {kv.peak_tokens}) · "
                f"one long session over these questions: n = {kv.long_tokens}, "
                f"KV {human_bytes(kv.long_bytes)} ({kv.ratio:.1f}× the peak)"
            )
    if not record.complete:
        console.print(f"Unfinished: studybot resume {record.id}")


def _study_lines(console, store, record) -> None:
    """Quiz sessions: grades, ratings, and what the grading requests cost."""
    from studybot.export import grading_usage
    from studybot.review import RATINGS, session_reviews

    grades = store.grades(record.id)
    scores = [g.score for g in grades.values() if g.score is not None]
    ratings = [r.rating for r in session_reviews(store, record.id).values()]
    if scores:
        console.print(f"graded {len(scores)} · mean grade {sum(scores) / len(scores):.0%}")
    if ratings:
        counts = " · ".join(f"{ratings.count(n)} {name}" for n, name in RATINGS.items())
        console.print(f"rated {len(ratings)}: {counts}")
    usage = grading_usage(grades.values())
    if usage:
        console.print(
            f"grading: {usage['requests']} request{'s' * (usage['requests'] > 1)} · prompt tokens "
            f"{usage['prompt_tokens']} · cached {usage['cached_tokens']} · answer tokens "
            f"{usage['completion_tokens']}"
        )


@click.command()
@click.argument("session_id", metavar="SESSION")
@click.option(
    "-f",
    "--format",
    "fmt",
    type=click.Choice(["md", "json", "anki"]),
    default="md",
    show_default=True,
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write to FILE instead of stdout.",
)
def export(session_id: str, fmt: str, output: Path | None) -> None:
    """Export a session as Markdown notes, JSON, or Anki cards (TSV).

    \b
    Example:
      studybot export 1 -f md -o notes.md
      studybot export 1 -f anki -o cards.txt
    """
    from studybot.errors import BadInput
    from studybot.export import render
    from studybot.store import Store

    store = Store.open(write=False)
    record = store.session(session_id)
    text = render(store, record.id, fmt)
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise BadInput(
            f"cannot write {output}: {exc.strerror}", hint="choose a writable path with -o"
        ) from None
    click.echo(f"Wrote {output} ({len(text.splitlines())} lines)", err=True)


COMMANDS = [sessions, show, export]
