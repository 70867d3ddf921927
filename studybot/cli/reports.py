"""``sessions``, ``show`` and ``export``: what was studied, and its cost per turn."""

from __future__ import annotations

from pathlib import Path

import click

from studybot.cli.common import emit_json, human_bytes, json_option, stdout_console


@click.command()
@json_option
def sessions(as_json: bool) -> None:
    """List sessions, newest first, with their progress (and cost, when prices are set).

    \b
    Example:
      studybot sessions
      studybot sessions --json
    """
    from studybot.export import session_summary
    from studybot.prices import cost_json, session_money
    from studybot.store import Store

    store = Store.open()
    records = store.sessions()
    money = {r.id: session_money(store, r) for r in records}
    if as_json:
        emit_json([{**session_summary(r), "cost": cost_json(money[r.id].total)} for r in records])
        return
    if not records:
        click.echo("No sessions yet. Start one: studybot run --from 1 --to 8")
        return
    from rich.table import Table

    priced = any(m.total is not None for m in money.values())
    table = Table(box=None, pad_edge=False)
    headings = ["id", "status", "questions", "answered", "provider", "model", "bank", "created"]
    for heading in headings + (["cost"] if priced else []):
        table.add_column(
            heading, justify="right" if heading in {"id", "answered", "cost"} else "left"
        )
    for r in records:
        row = [
            str(r.id),
            r.status,
            f"{r.first_question}–{r.last_question}",
            f"{r.answered}/{r.total}",
            r.provider,
            r.model,
            r.bank,
            r.created.replace("T", " ").removesuffix("+00:00"),
        ]
        if priced:
            total = money[r.id].total
            row.append(total.text() if total else "-")
        table.add_row(*row)
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
    from studybot.store import Store

    store = Store.open()
    record = store.session(session_id)
    if as_json:
        emit_json(session_json(store, record))
        return
    render_session(store, record.id)


def session_json(store, record) -> dict:
    """``show --json``: the session's data plus its cache rule and costs."""
    from studybot.export import session_data
    from studybot.prices import cost_json, session_money

    data = session_data(store, record.id)
    money = session_money(store, record)
    data["cache_rule"] = money.rule.name
    data["cost"] = cost_json(money.total)
    for row in data["turns"]:
        row["cost"] = cost_json(money.turn_cost(row["question_id"]))
        row["cached_tokens_estimated"] = money.cached[row["question_id"]] != row["cached_tokens"]
        row["cached_tokens"] = money.cached[row["question_id"]]
    for segment in data["segments"]:
        segment["cost"] = cost_json(money.segment_cost(segment["index"]))
    return data


def render_session(store, session_id: int) -> None:
    """The per-turn table: tokens, cached tokens, context n, KV bytes, latency."""
    from rich.table import Table

    from studybot.prices import NO_PRICES_HINT, session_money

    record = store.session(session_id)
    turns = store.turns(record.id)
    money = session_money(store, record)
    console = stdout_console()
    table = Table(
        title=f"Session {record.id} · Q{record.first_question}–{record.last_question} · "
        f"{record.provider} ({record.model}) · {record.answered}/{record.total} answered",
        title_justify="left",
    )
    headings = ["Q", "seg", "prompt", "cached", "answer", "context n", "KV", "latency"]
    for heading in headings + (["cost"] if money.cost else []):
        table.add_column(heading, justify="right")
    for t in turns:
        prompt = str(t.prompt_tokens)
        if t.usage_source == "provider" and t.local_prompt_tokens != t.prompt_tokens:
            prompt += f" (local {t.local_prompt_tokens})"
        cached = money.cached[t.question_id]
        row = [
            str(t.question_id),
            str(t.segment + 1),
            prompt,
            str(cached) if cached == t.cached_tokens else f"~{cached}",
            str(t.completion_tokens),
            str(t.context_tokens),
            human_bytes(t.kv_bytes),
            f"{t.latency_ms / 1000:.2f} s",
        ]
        if money.cost:
            row.append(money.turn_cost(t.question_id).text())
        table.add_row(*row)
    console.print(table)
    if any(money.cached[t.question_id] != t.cached_tokens for t in turns):
        console.print(
            f"~ cached tokens the provider did not report, simulated under the "
            f"{money.rule.name} cache rule"
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

        summaries = [s.summary_usage for s in store.segments(record.id)]
        kv = session_kv(record.prefix, record.settings, turns, summaries)
        if kv:
            console.print(
                f"peak KV {human_bytes(kv.peak_bytes)} ({kv.model}, n = {kv.peak_tokens}) · "
                f"one long session over these questions: n = {kv.long_tokens}, "
                f"KV {human_bytes(kv.long_bytes)} ({kv.ratio:.1f}× the peak)"
            )
    if money.cost:
        segments = " · ".join(
            f"seg {index + 1} {cost.text()}" for index, cost in sorted(money.cost.segments.items())
        )
        total = money.cost.total
        console.print(
            f"cost {total.text()} (input {total.input:.6f} · cached input "
            f"{total.cached_input:.6f} · output {total.output:.6f}, summaries included) · "
            f"{segments}",
            markup=False,
        )
    elif turns:
        console.print(NO_PRICES_HINT.format(model=record.model), markup=False)
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
@click.option(
    "--summary",
    "with_summary",
    is_flag=True,
    help="Write the last segment's summary if it is missing (one request with a live model).",
)
def export(session_id: str, fmt: str, output: Path | None, with_summary: bool) -> None:
    """Export a session as Markdown notes, JSON, or Anki cards (TSV).

    A run writes its last segment's summary only when something reads it.
    Offline sessions get it here for free; a live session's with --summary.

    \b
    Example:
      studybot export 1 -f md -o notes.md
      studybot export 1 -f anki -o cards.txt
      studybot export 4 -f md --summary
    """
    from studybot.errors import BadInput
    from studybot.export import render
    from studybot.store import Store

    store = Store.open()
    record = store.session(session_id)
    if with_summary or record.provider == "offline":
        _write_last_summary(store, record)
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


def _write_last_summary(store, record) -> None:
    """The last segment's summary, from the provider that answered the session."""
    from studybot import bank as banks
    from studybot import carry, config, providers, session

    if record.provider == "offline":
        settings = config.load({"offline": True})
    else:
        settings = config.load(
            {"model": record.model, "base_url": record.base_url, "wire_api": record.wire_api}
        )
    bank = banks.load(None if record.bank == "default" else record.bank)
    provider, _ = providers.choose(settings, bank)
    study = session.Study(bank=bank, provider=provider, settings=settings)
    carry.last_summary(study, store, record, session.Listener())


COMMANDS = [sessions, show, export]
