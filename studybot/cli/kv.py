"""``kv``: what a context of n tokens costs on a real model shape."""

from __future__ import annotations

import click

from studybot.cli.common import emit_json, json_option
from studybot.output.figures import percent

DTYPE_METAVAR = "fp32|bf16|fp16|fp8|int8"


@click.command()
@click.option(
    "--model", help="Preset: llama-3.1-8b, qwen2.5-7b, deepseek-v3, … (default: kv_model setting)."
)
@click.option(
    "--context",
    "context_text",
    default="8k,32k",
    show_default=True,
    help="Context lengths n: 8192, 8k, 32K, comma lists.",
)
@click.option(
    "--cached",
    "cached_text",
    help="Prefix tokens already in the provider's cache (prefill saving).",
)
@click.option("--layers", type=click.IntRange(min=1), help="Custom shape: transformer layers.")
@click.option("--kv-heads", type=click.IntRange(min=1), help="Custom shape: K/V heads per layer.")
@click.option("--head-dim", type=click.IntRange(min=1), help="Custom shape: channels per head.")
@click.option(
    "--heads",
    type=click.IntRange(min=1),
    help="Query heads per layer (attention scores); default: the preset's, or --kv-heads.",
)
@click.option("--dtype", metavar=DTYPE_METAVAR, help="Cache element type (presets: bf16).")
@click.option("--batch", type=click.IntRange(min=1), help="Sequences cached at once (default 1).")
@click.option("--measure", is_flag=True, help="Allocate the cache and time attention with PyTorch.")
@click.option(
    "--device",
    type=click.Choice(["cpu", "cuda"]),
    default="cpu",
    show_default=True,
    help="Where --measure runs.",
)
@json_option
def kv(
    model,
    context_text,
    cached_text,
    layers,
    kv_heads,
    head_dim,
    heads,
    dtype,
    batch,
    measure,
    device,
    as_json,
) -> None:
    """KV-cache bytes and attention cost of each context length n on a model shape.

    n is history + this input + the output to come. The KV cache grows
    linearly with n (8K → 32K is 4×); the attention scores of a layer grow
    with n² (16×). --cached shows what a prefix-cache hit saves at prefill.
    --measure really allocates the cache and times attention with PyTorch
    (pip install 'studybot[kv]').

    \b
    Example:
      studybot kv --model llama-3.1-8b --context 8k,32k
      studybot kv --model deepseek-v3 --context 4k,128k --json
      studybot kv --layers 32 --kv-heads 8 --head-dim 128 --dtype fp8
      studybot kv --model qwen2.5-7b --context 8k --cached 6k
      studybot kv --model llama-3.1-8b --context 2k,8k --measure
    """
    from studybot.costs.kv import estimate as estimates
    from studybot.costs.kv import shapes

    if model is None and layers is None and kv_heads is None and head_dim is None:
        from studybot.channel import config

        model = config.load().kv_model
    shape = shapes.resolve(
        model,
        layers=layers,
        kv_heads=kv_heads,
        head_dim=head_dim,
        heads=heads,
        dtype=dtype,
        batch=batch,
    )
    contexts = estimates.parse_contexts(context_text)
    cached = estimates.parse_tokens(cached_text) if cached_text else 0
    estimate = estimates.estimate(shape, contexts, cached_tokens=cached)
    measurement = None
    if measure:
        from studybot.costs.kv.measure import measure as run_measurement

        measurement = run_measurement(shape, contexts, device)
    if as_json:
        from studybot.costs.kv.report import kv_data

        emit_json(kv_data(estimate, measurement))
        return
    _render(estimate, measurement)


def _render(estimate, measurement) -> None:
    from rich.table import Table

    from studybot.cli.common import human_bytes, stdout_console
    from studybot.cli.render import number
    from studybot.costs.kv.estimate import token_label

    shape = estimate.shape
    console = stdout_console()
    console.print(f"[bold]{shape.name}[/bold] · {shape.describe()}")
    console.print(
        f"KV cache per token: {shape.formula()} = {number(estimate.bytes_per_token)} B/token "
        f"({human_bytes(estimate.bytes_per_token)})"
    )
    table = Table(box=None, pad_edge=False)
    table.add_column("context n", justify="right")
    table.add_column("KV cache", justify="right")
    table.add_column(f"scores/layer ({shape.batch * shape.heads}·n²)", justify="right")
    if estimate.cached_tokens:
        table.add_column(f"prefill, {estimate.cached_tokens} cached", justify="right")
    if measurement:
        table.add_column(f"measured ({measurement.device})", justify="right")
        table.add_column("attn, 1 layer", justify="right")
    notes = []
    for index, cost in enumerate(estimate.contexts):
        row = [
            f"{token_label(cost.tokens)} ({cost.tokens})",
            human_bytes(cost.kv_bytes),
            _count(cost.attention_score_elements),
        ]
        if estimate.cached_tokens:
            saving = 1 - cost.prefill_score_elements / cost.attention_score_elements
            row.append(f"{_count(cost.prefill_score_elements)} (−{percent(saving)})")
        if measurement:
            kv, attention = measurement.kv[index], measurement.attention[index]
            row += [_measured(kv, human_bytes), _attention(attention)]
            if kv.scaled:
                notes.append(
                    f"{token_label(cost.tokens)}: {kv.measured_layers} of {kv.layers} layers allocated "
                    f"(memory guard: half of {human_bytes(kv.free_bytes)} free), scaled to all layers"
                )
            elif kv.measured_bytes is None:
                notes.append(
                    f"{token_label(cost.tokens)}: not measured, one layer would not fit in half of "
                    f"{human_bytes(kv.free_bytes)} free"
                )
            if attention.source not in {"measured", "not measured"}:
                notes.append(f"{token_label(cost.tokens)}: attention time {attention.source}")
        table.add_row(*row)
    console.print(table)
    if measurement and all(kv.measured_bytes == kv.analytic_bytes for kv in measurement.kv):
        console.print(
            f"Measured KV bytes equal the analytic figure for every context ({measurement.device})."
        )
    if len(estimate.contexts) > 1:
        first, last = estimate.contexts[0], estimate.contexts[-1]
        console.print(
            f"{token_label(first.tokens)} → {token_label(last.tokens)} is {_ratio(last.tokens / first.tokens)} "
            f"the tokens: KV cache {_ratio(estimate.kv_scaling)} (linear in n), "
            f"attention scores {_ratio(estimate.attention_scaling)} (n²)."
        )
    console.print(
        "n = history + this input + the output to come; every layer keeps K and V for all n tokens.",
        style="dim",
    )
    for note in notes:
        console.print(note, style="dim")
    if measurement:
        _render_sweep(console, shape, measurement)


def _render_sweep(console, shape, measurement) -> None:
    from rich.table import Table

    from studybot.costs.kv.estimate import token_label

    scaled = (
        f", {measurement.heads_timed} of {shape.heads} query heads timed and scaled"
        if measurement.heads_timed != shape.heads
        else ""
    )
    table = Table(
        title=f"Attention, one layer ({measurement.timing_dtype} on {measurement.device}{scaled})",
        title_justify="left",
        box=None,
        pad_edge=False,
    )
    for heading in ("n", "naive (n×n scores)", "× per doubling", "fused sdpa", "× per doubling"):
        table.add_column(heading, justify="right")
    naive_growth = [None, *measurement.growth("naive")]
    sdpa_growth = [None, *measurement.growth("sdpa")]
    for row, g_naive, g_sdpa in zip(measurement.sweep, naive_growth, sdpa_growth, strict=True):
        table.add_row(
            token_label(row.tokens),
            _milliseconds(row.naive_ms),
            _ratio(g_naive) if g_naive else "",
            _milliseconds(row.sdpa_ms),
            _ratio(g_sdpa) if g_sdpa else "",
        )
    console.print(table)
    console.print(
        "An n² cost grows 4× per doubling once it dominates fixed overheads; the fused kernel "
        "computes the same scores without keeping the n×n matrix in memory.",
        style="dim",
    )


def _measured(kv, human_bytes) -> str:
    """Bytes torch held; when they differ from the analytic figure, the exact count."""
    if kv.measured_bytes is None:
        return "-"
    if kv.measured_bytes == kv.analytic_bytes:
        return human_bytes(kv.measured_bytes)
    return f"{kv.measured_bytes} B"


def _attention(attention) -> str:
    if attention.sdpa_ms is None:
        return "-"
    prefix = "" if attention.source == "measured" else "~"
    return prefix + _milliseconds(attention.sdpa_ms)


def _milliseconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value / 1000:.2f} s" if value >= 1000 else f"{value:.1f} ms"


def _count(value: int) -> str:
    """Scores as a short figure: 2.15 G rather than 2147483648."""
    for unit, size in (("T", 10**12), ("G", 10**9), ("M", 10**6), ("K", 10**3)):
        if value >= size:
            return f"{value / size:.3g} {unit}"
    return str(value)


def _ratio(value: float) -> str:
    return f"{value:.3g}×"


COMMANDS = [kv]
