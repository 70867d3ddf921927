"""``plan``: what a range costs segmented versus as one long chat, before sending anything."""

from __future__ import annotations

from pathlib import Path

import click

from studybot.cli.common import (
    bank_option,
    channel_options,
    emit_json,
    human_bytes,
    json_option,
    segment_options,
    stdout_console,
)

CHART_ROWS = 40  # at most this many rows; longer ranges share a row per few questions
BAR_CELLS = 24
EIGHTHS = " ▏▎▍▌▋▊▉█"


class TokenCount(click.ParamType):
    """A number of tokens as ``studybot kv --context`` reads it: 32768, 32k or 32K."""

    name = "tokens"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        from studybot.errors import BadInput
        from studybot.kv.estimate import parse_tokens

        try:
            return parse_tokens(str(value))
        except BadInput as exc:
            self.fail(f"{exc.message} (e.g. 32768 or 32k)", param, ctx)


@click.command()
@click.option("--from", "first", type=int, required=True, help="First question number.")
@click.option("--to", "last", type=int, required=True, help="Last question number.")
@bank_option
@click.option(
    "--window",
    type=TokenCount(),
    help="Context window in tokens, e.g. 32k (default: context_window).",
)
@segment_options
@channel_options
@click.option(
    "--answer-tokens",
    type=click.IntRange(min=1),
    help="Answer length in tokens; default: the offline answer key, or answer_tokens with a live model.",
)
@click.option(
    "--cache-rule",
    type=click.Choice(["simple", "provider"]),
    default="simple",
    show_default=True,
    help="simple = longest earlier prefix, every token; provider = 1024-token minimum, 128-token steps.",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write a PNG chart (needs the plot extra).",
)
@json_option
def plan(first, last, bank_ref, window, answer_tokens, cache_rule, plot, as_json, **flags) -> None:
    """Project every request of a range two ways: segmented (studybot's) and single.

    `segmented` is exactly what `studybot run` would send: its segments, the
    carried summaries, the stable prefix. `single` is one long chat that
    re-sends the whole history with every question. For each: prompt tokens,
    uncached prompt tokens, completion tokens, peak context, KV bytes at the
    peak, and the prefill/decode split; then the floor, the break point
    (first question where single's context passes the window, and an 8K
    window), and a token-growth chart.

    \b
    Example:
      studybot plan --from 1 --to 200
      studybot plan --from 1 --to 200 --cache-rule provider --window 32k
      studybot plan --from 20 --to 39 --answer-tokens 600 --plot growth.png

    Nothing is sent: with a key set (and no --offline), answers are
    projected at answer_tokens each instead of the offline answer key.
    """
    from studybot import bank as banks
    from studybot import config, whatif
    from studybot.errors import BadInput

    if plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise BadInput(
                "--plot needs matplotlib, which is not installed",
                hint="pip install 'studybot[plot]'",
            ) from None
    if answer_tokens is not None:
        flags["answer_tokens"] = answer_tokens
    settings = config.load(config.flag_settings(flags))
    if answer_tokens is None and settings.live:
        # A live model's answers are not the answer key's; project its expected length.
        answer_tokens = settings.answer_tokens
    bank = banks.load(bank_ref)
    projection = whatif.project(
        bank, first, last, settings, answer_tokens=answer_tokens, rule=cache_rule, window=window
    )
    if plot is not None:
        _plot(projection, plot)
    if as_json:
        emit_json(projection.to_json())
        return
    _render(projection)
    if plot is not None:
        click.echo(f"Wrote {plot}", err=True)


RULE_TEXT = {
    "simple": "simple (longest earlier prefix, every token)",
    "provider": "provider (nothing under the minimum, hits in steps)",
}


def _render(p) -> None:
    from rich.table import Table

    seg, single = p.segmented, p.single
    answers = (
        "answers from the offline answer key"
        if p.answer_tokens is None
        else f"answers of {p.answer_tokens} tokens each"
    )
    console = stdout_console()
    table = Table(
        title=f"Plan Q{p.first}–{p.last} · {p.segments} segments · {answers} · "
        f"cache rule {RULE_TEXT[p.rule]} · window {p.window:,}",
        title_justify="left",
    )
    for heading in ("", "segmented", "single", "single ÷ segmented"):
        table.add_column(heading, justify="left" if not heading else "right")

    def row(label: str, a: float, b: float, ratio: bool = True) -> None:
        times = f"{b / a:.1f}×" if ratio and a else ""
        table.add_row(label, f"{a:,}", f"{b:,}", times)

    row("requests", len(seg.requests), len(single.requests), ratio=False)
    row("prompt tokens", seg.prompt_tokens, single.prompt_tokens)
    row("uncached prompt tokens", seg.uncached_prompt_tokens, single.uncached_prompt_tokens)
    row("completion tokens", seg.completion_tokens, single.completion_tokens)
    row("peak context n", seg.peak_context_tokens, single.peak_context_tokens)
    table.add_row(
        f"peak KV ({p.kv_model})",
        human_bytes(seg.peak_kv_bytes),
        human_bytes(single.peak_kv_bytes),
        "",
    )
    table.add_row(
        "prefill ÷ decode (uncached)",
        f"{seg.prefill_decode_ratio:.2f}",
        f"{single.prefill_decode_ratio:.2f}",
        "",
    )
    console.print(table, markup=False)
    console.print(
        f"Floor (system prefix once, every question and answer once): {p.floor:,} uncached prompt "
        f"tokens; segmented is {seg.uncached_prompt_tokens / p.floor:.2f}× the floor.",
        markup=False,
    )
    console.print(_break_text(p), markup=False)
    if p.trap is not None:
        t = p.trap
        console.print(
            f"Prefix trap: under the provider rule nothing is cached while a prompt is under "
            f"{t.min_tokens:,} tokens, so the first requests of each segment miss entirely: "
            f"{t.requests} requests, {t.tokens:,} prompt tokens that a cache without the minimum "
            f"would have served. A stable system prefix of at least {t.min_tokens:,} tokens "
            f"(it is {t.system_tokens:,}) would let them hit.",
            markup=False,
        )
    console.print("")
    for line in chart_lines(p):
        console.print(line, markup=False)


def _break_text(p) -> str:
    def at(question: int | None, window: str) -> str:
        if question is None:
            return f"stays within {window}"
        return f"passes {window} at Q{question}"

    return (
        f"Break point: single {at(p.break_point, f'the {p.window:,}-token window')} and "
        f"{at(p.break_point_8k, 'an 8K window')}; "
        f"segmented peaks at {p.segmented.peak_context_tokens:,}."
    )


def chart_lines(p) -> list[str]:
    """Context n per question, both strategies, as unicode bars scaled to the window."""
    seg = {r.question: r.context_tokens for r in p.segmented.requests if r.kind == "answer"}
    single = {r.question: r.context_tokens for r in p.single.requests}
    ids = [r.question for r in p.single.requests]
    size = max(1, -(-len(ids) // CHART_ROWS))
    lines = [f"Token growth: context n per question (bar = {p.window:,}-token window, » = past it)"]
    for start in range(0, len(ids), size):
        group = ids[start : start + size]
        label = f"Q{group[0]}" if len(group) == 1 else f"Q{group[0]}–{group[-1]}"
        a = max(seg[q] for q in group)
        b = max(single[q] for q in group)
        lines.append(
            f"{label:>10}  seg {_bar(a, p.window)} {_short(a):>6}   single {_bar(b, p.window)} {_short(b):>6}"
        )
    return lines


def _bar(value: int, window: int) -> str:
    if value > window:
        return "█" * (BAR_CELLS - 1) + "»"
    eighths = round(value / window * BAR_CELLS * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (EIGHTHS[part] if part else "")).ljust(BAR_CELLS)


def _short(value: int) -> str:
    return f"{value / 1000:.1f}K" if value >= 1000 else str(value)


def _plot(p, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from studybot.errors import BadInput

    questions = [r.question for r in p.single.requests]
    seg = {r.question: r.context_tokens for r in p.segmented.requests if r.kind == "answer"}
    figure, axes = plt.subplots(figsize=(10, 5))
    axes.plot(
        questions, [r.context_tokens for r in p.single.requests], label="single (one long chat)"
    )
    axes.plot(questions, [seg[q] for q in questions], label="segmented (studybot)")
    axes.axhline(p.window, color="red", linestyle="--", label=f"window {p.window:,}")
    if p.window != 8192:
        axes.axhline(8192, color="orange", linestyle=":", label="8K window")
    axes.set_xlabel("question")
    axes.set_ylabel("context n (prompt + answer tokens)")
    axes.set_title(f"Q{p.first}–{p.last}: context per request, cache rule {p.rule}")
    axes.legend()
    figure.tight_layout()
    try:
        figure.savefig(path, dpi=120)
    except OSError as exc:
        raise BadInput(
            f"cannot write {path}: {exc.strerror}", hint="choose a writable path for --plot"
        ) from None
    finally:
        plt.close(figure)


COMMANDS = [plan]
