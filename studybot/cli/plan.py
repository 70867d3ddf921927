"""``plan``: what a range costs segmented versus as one long chat, before sending anything."""

from __future__ import annotations

from pathlib import Path

import click

from studybot.cli.common import (
    CACHE_RULES,
    bank_option,
    channel_options,
    emit_json,
    followups_option,
    json_option,
    segment_options,
    selection_options,
)
from studybot.cli.plan_report import render_interview, render_projection
from studybot.cli.render import echo
from studybot.errors import clip


class TokenCount(click.ParamType):
    """A number of tokens as ``studybot kv --context`` reads it: 32768, 32k or 32K."""

    name = "tokens"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        from studybot.costs.kv.estimate import parse_tokens
        from studybot.errors import BadInput

        try:
            return parse_tokens(str(value))
        except BadInput as exc:
            self.fail(f"{exc.message} (e.g. 32768 or 32k)", param, ctx)


@click.command()
@selection_options
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
    type=click.Choice(CACHE_RULES, case_sensitive=False),
    help="openai (1,024-token minimum, 128-token steps), deepseek (whole prefix units), "
    "gemini, exact, llamacpp, none, custom; default: cache_rule, else from the model ID / base URL.",
)
@click.option(
    "--prefix",
    "prefix_style",
    type=click.Choice(["designed", "short"]),
    help="System prefix: designed (cacheable, default) or short (for providers without caching).",
)
@click.option(
    "--price-input", type=click.FloatRange(min=0), help="Per million uncached prompt tokens."
)
@click.option(
    "--price-cached", type=click.FloatRange(min=0), help="Per million cached prompt tokens."
)
@click.option("--price-output", type=click.FloatRange(min=0), help="Per million completion tokens.")
@click.option("--currency", help='Currency of the prices, e.g. CNY (default: config, else "USD").')
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write a PNG chart (needs the plot extra).",
)
@click.option(
    "--mode",
    type=click.Choice(["run", "interview"]),
    default="run",
    show_default=True,
    help="run: segmented vs one long chat; interview: `studybot interview`'s requests.",
)
@followups_option("--mode interview: probes per question.")
@json_option
def plan(
    first,
    last,
    chapter,
    tags,
    ids,
    weak,
    bank_ref,
    mode,
    followups,
    window,
    answer_tokens,
    cache_rule,
    prefix_style,
    price_input,
    price_cached,
    price_output,
    currency,
    plot,
    as_json,
    **flags,
) -> None:
    """Project every request of a selection two ways: segmented (studybot's) and single.

    Choose questions as with `run` (exactly one of --from/--to, --chapter,
    --tag, --ids or --weak).

    `segmented` is exactly what `studybot run` would send: its segments, the
    carried summaries (the last segment's waits for a run that continues),
    the stable prefix. `single` is one long chat that
    re-sends the whole history with every question. For each: prompt tokens,
    uncached prompt tokens, completion tokens, peak context, KV bytes at the
    peak, and the prefill/decode split; then the floor, the break point
    (first question where single's context passes the window, and an 8K
    window), the designed versus the short prefix, and a token-growth chart.
    With prices (config [prices."MODEL"] or --price-*), every figure also
    in money.

    \b
    Example:
      studybot plan --from 1 --to 200
      studybot plan --from 1 --to 200 --cache-rule deepseek --window 32k
      studybot plan --from 1 --to 200 --price-input 2 --price-cached 0.5 --price-output 8 --currency CNY
      studybot plan --from 20 --to 39 --answer-tokens 600 --plot growth.png
      studybot plan --from 20 --to 35 --mode interview --followups 2
      studybot plan --ids 5,22,24 --mode interview

    With --mode interview: each question's main request (the interviewer
    puts it), then its probes and gradings as side requests, as a live
    interview sends them (offline, too: what going live would cost), per
    kind and in all.

    Nothing is sent: with a key set (and no --offline), answers are
    projected at answer_tokens each instead of the offline answer key.
    With token_counter = server and a live engine, its /tokenize counts.
    """
    from studybot import bank as banks
    from studybot.channel import config, files
    from studybot.costs import prices
    from studybot.output import plots
    from studybot.study import projection as projections
    from studybot.study.opening import Choice, bank_key, chosen_questions

    if plot is not None:
        plots.require_matplotlib()
    if answer_tokens is not None:
        flags["answer_tokens"] = answer_tokens
    flags["prefix_style"] = prefix_style
    settings = config.load(config.flag_settings(flags))
    if settings.token_counter == "server":  # a live engine's tokenizer counts (never offline)
        from studybot.channel import engine

        settings, note = engine.attach(settings, lambda line: echo(line, wrap=False))
        if note:
            echo(note, wrap=False)
    given = {
        "input": price_input,
        "cached_input": price_cached,
        "output": price_output,
        "currency": currency,
    }
    price = prices.for_model(settings.model, files.price_tables(), given)
    bank = banks.load(bank_ref)
    choice = Choice(first, last, tuple(chapter), tuple(tags), tuple(ids), weak)
    questions, _ = chosen_questions(bank, choice, bank_key(bank_ref) or bank.name)
    first, last = questions[0].id, questions[-1].id
    numbers = [q.id for q in questions]
    chosen = _span(numbers)
    if mode == "interview":
        from studybot.study import interview_plan

        planned = interview_plan.project(
            bank,
            first,
            last,
            settings,
            followups=followups,
            rule=cache_rule,
            price=price,
            questions=questions,
        )
        render_interview(planned, as_json, chosen, numbers)
        return
    projection = projections.project(
        bank,
        first,
        last,
        settings,
        questions=questions,
        answer_tokens=answer_tokens,
        rule=cache_rule,
        window=window,
        price=price,
    )
    if plot is not None:
        plots.token_growth(projection, plot)
    if as_json:
        emit_json({**projection.to_json(), "questions": numbers})
        return
    render_projection(projection, chosen)
    if price is None:
        echo(  # broken at word boundaries; the model ID as configured: clipped, and without control characters
            "Hint: "
            + prices.NO_PRICES_HINT.format(model=clip(settings.model or "MODEL_ID"))
            + ", or pass --price-input/--price-cached/--price-output.",
            err=True,
        )
    if plot is not None:
        click.echo(f"Wrote {plot}", err=True)


def _span(numbers: list[int]) -> str:
    """The planned questions in a title: "Q5", "Q1–8", or "Q5, Q22, Q24" for ids with gaps."""
    from studybot.study.selection import id_ranges

    first, last = numbers[0], numbers[-1]
    if first == last:
        return f"Q{first}"
    return f"Q{first}–{last}" if len(numbers) == last - first + 1 else id_ranges(numbers)


COMMANDS = [plan]
