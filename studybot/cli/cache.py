"""``cache SESSION`` and ``cache replay``: does the prefix really hit, and where does it split?"""

from __future__ import annotations

from pathlib import Path

import click

from studybot.cli.common import CACHE_RULES, emit_json, json_option, stdout_console
from studybot.cli.render import echo
from studybot.errors import FAILURE, Reported
from studybot.output.figures import percent


class SessionByDefault(click.Group):
    """``cache SESSION …`` is short for ``cache session SESSION …``."""

    def resolve_command(self, ctx: click.Context, args: list[str]):
        if args and self.get_command(ctx, args[0]) is None and not args[0].startswith("-"):
            return "session", self.get_command(ctx, "session"), args
        return super().resolve_command(ctx, args)


def simulator_options(fn):
    """--mode, --capacity, --page-size, --block-size: which cache to simulate."""
    fn = click.option(
        "--block-size",
        type=click.IntRange(min=1),
        default=16,
        show_default=True,
        help="Tokens per block (blocks mode).",
    )(fn)
    fn = click.option(
        "--page-size",
        type=click.IntRange(min=1),
        default=1,
        show_default=True,
        help="Tokens per page; hits round down to whole pages (radix mode).",
    )(fn)
    fn = click.option(
        "--capacity",
        type=click.IntRange(min=0),
        default=0,
        show_default=True,
        help="Tokens the cache holds; 0 = unlimited.",
    )(fn)
    fn = click.option(
        "--cache-rule",
        type=click.Choice(CACHE_RULES, case_sensitive=False),
        help="The provider's rule (provider mode); default: cache_rule, else from the model.",
    )(fn)
    fn = click.option(
        "--mode",
        type=click.Choice(["radix", "blocks", "provider"]),
        default="radix",
        show_default=True,
        help="radix = SGLang RadixAttention, blocks = vLLM prefix caching, "
        "provider = an API provider's prompt cache under --cache-rule.",
    )(fn)
    return fn


def _simulator(mode: str, capacity: int, page_size: int, block_size: int, rule):
    from studybot.costs.cache import replay

    return replay.make(
        mode, capacity=capacity, page_size=page_size, block_size=block_size, rule=rule
    )


def _rule(name: str | None):
    """--cache-rule, else the config's cache_rule, else the rule of the config's model."""
    from studybot.channel import config
    from studybot.costs.cache.rules import resolve

    return resolve(name, config.load())


def _describe(mode: str, capacity: int, page_size: int, block_size: int, rule) -> str:
    size = "unlimited" if not capacity or mode == "provider" else f"{capacity:,} tokens"
    if mode == "radix":
        return f"radix tree, page {page_size}, {size}"
    if mode == "blocks":
        return f"blocks of {block_size}, {size}"
    return f"provider rule {rule.describe()}"


@click.group(cls=SessionByDefault)
def cache() -> None:
    """Replay requests through a prefix-cache simulator: hits, and where they split.

    `studybot cache SESSION` replays a recorded session's real requests;
    `studybot cache replay TRACE.jsonl` replays any token trace.

    \b
    Example:
      studybot cache 3
      studybot cache 3 --lint
      studybot cache replay trace.jsonl --mode blocks --capacity 200000
    """


@cache.command("session")
@click.argument("session_id", metavar="SESSION")
@simulator_options
@click.option(
    "--lint",
    "lint_",
    is_flag=True,
    help="Flag volatile content in the system prefix (exit 1 if any).",
)
@json_option
def session_(
    session_id: str,
    mode: str,
    capacity: int,
    page_size: int,
    block_size: int,
    cache_rule: str | None,
    lint_: bool,
    as_json: bool,
) -> None:
    """Per request of a session: prompt tokens, hit, where it leaves the previous request.

    The requests are rebuilt token for token from what the session stored.
    With --lint, dates, times, UUIDs, long random ids and reordered lists in
    the system prefix are flagged; the command then exits 1 if it found any.

    \b
    Example:
      studybot cache 3
      studybot cache 3 --mode provider --cache-rule deepseek
      studybot cache 3 --lint --json
    """
    from studybot.costs.cache.lint import lint
    from studybot.costs.cache.recorded import report
    from studybot.errors import BadInput
    from studybot.storage.store import Store
    from studybot.study import recorded

    view = Store.open(write=False).view(session_id)
    record = view.record
    requests = recorded.session_requests(view)
    if not requests:
        raise BadInput(
            f"session {record.id} has sent no request yet", hint=f"studybot resume {record.id}"
        )
    rule = recorded.cache_rule(view, cache_rule)
    if record.live:  # a live engine with token_counter = server: its tokens, not the local ones
        _engine_tokens(record)
    reports = report(requests, _simulator(mode, capacity, page_size, block_size, rule))
    findings = lint([r.prefix for r in requests]) if lint_ else []
    total = sum(r.tokens for r in reports)
    hit = sum(r.hit for r in reports)
    if as_json:
        data = {
            "session": record.id,
            "mode": mode,
            "cache_rule": rule.name if mode == "provider" else None,
            "requests": [r.to_json() for r in reports],
            "hit_rate": round(hit / total, 6) if total else 0.0,
        }
        if lint_:
            data["lint"] = [f.to_json() for f in findings]
        emit_json(data)
    else:
        described = _describe(mode, capacity, page_size, block_size, rule)
        _render_session(record, reports, described, hit, total)
        if lint_:
            _render_lint(findings)
    if findings:
        raise Reported(FAILURE)  # --lint found volatile bytes: a script can tell


# A narrow terminal draws the table without its box, then leaves these out (--json has all).
SESSION_DROPPED_FIRST = ("seg", "hit %")


def _render_session(record, reports, described: str, hit: int, total: int) -> None:
    from rich import box
    from rich.table import Table

    from studybot.cli import columns

    headings = ["#", "seg", "request", "prompt", "hit", "hit %", "splits at", "reported cached"]
    rows, splits = [], []
    for number, r in enumerate(reports, start=1):
        request = r.request
        name = "summary" if request.kind == "summary" else f"Q{request.question_id}"
        if request.kind == "follow-up":
            name += " follow-up"
        if r.diverges_at is not None:
            splits.append(
                f"request {number} leaves request {number - 1} at token {r.diverges_at}: {r.snippet}"
            )
        rows.append(
            [
                str(number),
                str(request.segment + 1),
                name,
                str(r.tokens),
                str(r.hit),
                percent(r.hit / r.tokens) if r.tokens else "-",
                "" if number == 1 else ("extends" if r.diverges_at is None else str(r.diverges_at)),
                "" if request.reported_cached is None else str(request.reported_cached),
            ]
        )
    console = stdout_console()
    width = columns.room(console)
    needs = columns.widest(headings, rows, {})
    boxed = sum(needs.values()) + 3 * len(headings) + 1 <= width  # "│ cell " and the last "│"
    kept = headings if boxed else columns.fitting(headings, needs, width, SESSION_DROPPED_FIRST)
    table = Table(
        title=f"Session {record.id} · {len(reports)} requests · {described}",
        title_justify="left",
        box=box.HEAVY_HEAD if boxed else None,
    )
    for heading in kept:
        table.add_column(heading, justify="left" if heading == "request" else "right", no_wrap=True)
    for row in rows:
        table.add_row(
            *(cell for heading, cell in zip(headings, row, strict=True) if heading in kept)
        )
    columns.print_table(console, table)
    rate = f" ({percent(hit / total, 1)})" if total else ""
    console.print(f"prompt tokens {total:,} · hit {hit:,}{rate}", markup=False)
    for line in splits:
        console.print(line, markup=False)


def _render_lint(findings) -> None:
    console = stdout_console()
    if not findings:
        console.print("Lint: no volatile content in the system prefix.")
        return
    for finding in findings:
        numbers = ", ".join(map(str, finding.requests[:8])) + (
            " …" if len(finding.requests) > 8 else ""
        )
        console.print(f"Lint [{finding.kind}]: {finding.message}", markup=False)
        console.print(f"    {finding.example}", markup=False)
        console.print(f"    requests {numbers}", markup=False)


@cache.command("replay")
@click.argument("trace", type=click.Path(dir_okay=False, path_type=Path))
@simulator_options
@json_option
def replay_(
    trace: Path,
    mode: str,
    capacity: int,
    page_size: int,
    block_size: int,
    cache_rule: str | None,
    as_json: bool,
) -> None:
    """Replay a token trace: one {"tokens": [ids…]} per line, or a packed trace.

    elapsed_s in the JSON is the replay loop alone, not loading the file.
    A trace replayed many times loads faster packed (studybot cache pack).

    \b
    Example:
      studybot cache replay trace.jsonl
      studybot cache replay trace.jsonl --mode radix --page-size 16 --capacity 200000 --json
    """
    from studybot.costs.cache import replay

    rule = _rule(cache_rule)
    requests = replay.load_trace(trace)
    result = replay.replay(requests, _simulator(mode, capacity, page_size, block_size, rule))
    if as_json:
        emit_json(result.to_json())
        return
    total = sum(result.tokens)
    hit = sum(result.hits)
    click.echo(
        f"{len(requests):,} requests · {total:,} tokens · hit {hit:,} ({percent(result.hit_rate, 1)}) · "
        f"{_describe(mode, capacity, page_size, block_size, rule)}"
    )
    click.echo(f"replay {result.elapsed_s:.3f} s · {result.tokens_per_s:,.0f} tokens/s")


@cache.command("pack")
@click.argument("trace", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
    help="The packed trace to write (never over an existing file without --force; - is stdout).",
)
@click.option("--force", is_flag=True, help="Replace FILE if it exists (a regular file only).")
def pack(trace: Path, output: Path, force: bool) -> None:
    """Parse a JSONL token trace once and store its ids packed, for fast replays.

    `cache replay` reads the packed file like the JSONL one, without
    parsing a digit: worth it for a trace replayed under many settings.

    \b
    Example:
      studybot cache pack trace.jsonl -o trace.packed
      studybot cache replay trace.packed --mode blocks
    """
    from studybot.costs.cache.trace import load_trace, write_packed
    from studybot.output.writing import write_file

    requests = load_trace(trace)
    to_stdout = str(output) == "-"
    if to_stdout:
        from studybot.cli.common import binary_to_stdout

        binary_to_stdout(
            lambda path: write_packed(requests, path),
            what="a packed trace is binary",
            hint="name the file: -o trace.packed, or send stdout to a file or a pipe",
        )
    else:
        write_file(output, lambda path: write_packed(requests, path), force=force)
    tokens = sum(len(ids) for ids in requests)
    where = "stdout" if to_stdout else output
    click.echo(f"Wrote {where} ({len(requests):,} requests, {tokens:,} tokens)", err=True)


COMMANDS = [cache]


def _engine_tokens(record) -> None:
    from studybot.channel import config, engine

    settings = config.recorded_settings(record)
    _, note = engine.attach(settings, lambda line: echo(line, wrap=False))
    if note:
        echo(note, wrap=False)
