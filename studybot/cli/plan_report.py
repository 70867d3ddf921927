"""What ``plan`` prints: a range projected segmented and single, or an interview's requests.

The table of both strategies, the floor, the break point, the designed
versus the short prefix and the token-growth chart (bars fitted to the
terminal); for ``--mode interview`` its requests per kind and in all.
"""

from __future__ import annotations

from studybot.cli.common import emit_json, human_bytes, stdout_console
from studybot.cli.render import echo

CHART_ROWS = 40  # at most this many rows; longer ranges share a row per few questions
BAR_CELLS = 24
EIGHTHS = " ▏▎▍▌▋▊▉█"


def render_interview(p, as_json: bool, chosen: str, ids: list[int]) -> None:
    """An interview's projected requests, per kind and in all (``chosen``: the questions, in words)."""
    kinds = p.by_kind()
    cost = p.cost
    if as_json:
        emit_json(
            {
                "mode": "interview",
                "first": p.first,
                "last": p.last,
                "questions": ids,
                "segments": p.segments,
                "followups": p.followups,
                "live": p.live,
                "kinds": {
                    k: dict(zip(("requests", "prompt", "cached", "completion"), v, strict=True))
                    for k, v in kinds.items()
                },
                "cost": cost.to_json() if cost else None,
            }
        )
        return
    from rich.table import Table

    where = (
        "live: the model asks, probes and grades"
        if p.live
        else "offline: the probe and grading rows are what a live run sends"
    )
    table = Table(
        title=f"Interview plan {chosen} · {_segments(p.segments)} · "
        f"{p.followups} probe(s) per question · {where}",
        title_justify="left",
    )
    for heading in ("requests", "count", "prompt", "cached", "completion"):
        table.add_column(heading, justify="left" if heading == "requests" else "right")
    for kind, (n, prompt, cached, completion) in kinds.items():
        label = {"answer": "main (asks)"}.get(kind, kind)
        table.add_row(label, f"{n:,}", f"{prompt:,}", f"{cached:,}", f"{completion:,}")
    total = [sum(v[i] for v in kinds.values()) for i in range(4)]
    table.add_row("all", *(f"{v:,}" for v in total), style="bold")
    stdout_console().print(table)
    if cost is not None:
        echo(f"cost: {cost.text()}", err=False, wrap=False)


def render_projection(p, chosen: str) -> None:
    """The projection's table, its floor, break point and prefix choice, then the growth chart."""
    from rich.table import Table

    from studybot.costs.whatif import FLOOR_DEFINITION

    seg, single = p.segmented, p.single
    answers = (
        "answers from the offline answer key"
        if p.answer_tokens is None
        else f"answers of {p.answer_tokens} tokens each"
    )
    if p.live_answers:
        # the bank has no answer for these: a live model will answer them, at live length
        answers += f" ({p.live_answers} without one at the live length, {p.live_tokens} tokens)"
    console = stdout_console()
    table = Table(
        title=f"Plan {chosen} · {_segments(p.segments)} · {answers} · "
        f"cache rule {p.rule.describe()} · {p.prefix_style} prefix · window {p.window:,}",
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
    if p.price is not None:
        a, b = seg.cost(p.price), single.cost(p.price)
        times = f"{b.total / a.total:.1f}×" if a.total else ""
        table.add_row("cost", a.text(), b.text(), times)
    console.print(table, markup=False)
    console.print(
        f"Floor: {p.floor:,} uncached prompt tokens, {FLOOR_DEFINITION}. "
        f"Segmented is {seg.uncached_prompt_tokens / p.floor:.3f}× the floor under {p.rule.name}"
        + (
            f" and {p.exact.uncached_prompt_tokens / p.floor:.3f}× under exact"
            if p.rule.name != "exact"
            else ""
        )
        + f"; single is {single.uncached_prompt_tokens / p.floor:.3f}× under {p.rule.name}."
        + (
            " (deepseek also keeps each answer at its output end, so no answer is prefilled "
            "again and both can go below this floor.)"
            if p.rule.kind == "units"
            else ""
        ),
        markup=False,
    )
    console.print(_break_text(p), markup=False)
    console.print(_prefix_text(p), markup=False)
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
    for line in chart_lines(p, console.width):
        console.print(line, markup=False)


def _segments(n: int) -> str:
    return "1 segment" if n == 1 else f"{n} segments"


def _prefix_text(p) -> str:
    """Designed versus short prefix, in money when prices are known."""
    choice = p.prefixes
    d, s = choice.designed, choice.short
    cheaper = choice.cheaper(p.price)
    if p.price is not None:
        dc, sc = d.cost(p.price), s.cost(p.price)
        figures = f"designed {dc.text()} vs short {sc.text()}"
    else:
        figures = (
            f"designed {d.uncached_prompt_tokens:,} vs short {s.uncached_prompt_tokens:,} "
            "uncached prompt tokens"
        )
    extra = d.prompt_tokens - s.prompt_tokens
    saved = s.uncached_prompt_tokens - d.uncached_prompt_tokens
    cached = extra + saved  # the extra prompt tokens the cache serves
    why = (
        f"the designed prefix ({choice.designed_tokens:,} tokens against "
        f"{choice.short_tokens:,}) adds {extra:,} prompt tokens over the run, the cache serves "
        f"{cached:,} more, so it {'saves' if saved >= 0 else 'adds'} {abs(saved):,} uncached ones "
        f"under {p.rule.name}"
    )
    if cheaper == "short":
        why += '; prefix_style = "short" picks the short one'
    return f"Prefix: {figures}; {cheaper} is cheaper: {why}."


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


def chart_lines(p, width: int = 100) -> list[str]:
    """Context n per question, both strategies, as unicode bars scaled to the window.

    Each row fits ``width``: the bars shrink (BAR_CELLS at most) so that a row never
    wraps into the next.
    """
    seg = {r.question: r.context_tokens for r in p.segmented.requests if r.kind == "answer"}
    single = {r.question: r.context_tokens for r in p.single.requests}
    ids = [r.question for r in p.single.requests]
    size = max(1, -(-len(ids) // CHART_ROWS))
    lines = [f"Token growth: context n per question (bar = {p.window:,}-token window, » = past it)"]
    groups = [ids[start : start + size] for start in range(0, len(ids), size)]
    labels = [f"Q{g[0]}" if len(g) == 1 else f"Q{g[0]}–{g[-1]}" for g in groups]
    lead = max(map(len, labels), default=2)
    # "LABEL  seg BAR  9.9K   single BAR  9.9K": 30 cells around the label and two bars
    cells = max(4, min(BAR_CELLS, (width - lead - 30) // 2))
    for label, group in zip(labels, groups, strict=True):
        a = max(seg[q] for q in group)
        b = max(single[q] for q in group)
        lines.append(
            f"{label:>{lead}}  seg {_bar(a, p.window, cells)} {_short(a):>6}   "
            f"single {_bar(b, p.window, cells)} {_short(b):>6}"
        )
    return lines


def _bar(value: int, window: int, cells: int = BAR_CELLS) -> str:
    if value > window:
        return "█" * (cells - 1) + "»"
    eighths = round(value / window * cells * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (EIGHTHS[part] if part else "")).ljust(cells)


def _short(value: int) -> str:
    return f"{value / 1000:.1f}K" if value >= 1000 else str(value)
