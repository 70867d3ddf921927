"""A turn's figures: the per-turn table of ``show`` (its columns, the rows under a question,
what fits a terminal) and the line a run prints after each answer.
"""

from __future__ import annotations

from studybot.cli.common import human_bytes
from studybot.cli.render import STYLES, bar, number

# The per-turn table, one (heading, cell) pair per column, so a new figure
# (cost, grade, rating) is one more entry here.
TURN_COLUMNS = (
    ("Q", lambda t, peak: f"{t.question_id}*" if t.answer_flag else str(t.question_id)),
    ("seg", lambda t, peak: str(t.segment + 1)),
    ("prompt", lambda t, peak: prompt_cell(t)),
    ("cached", lambda t, peak: number(t.cached_tokens)),
    ("answer", lambda t, peak: number(t.completion_tokens)),
    ("context n", lambda t, peak: number(t.context_tokens)),
    ("growth", lambda t, peak: bar(t.context_tokens, peak, width=8)),
    ("KV", lambda t, peak: human_bytes(t.kv_bytes)),
    ("latency", lambda t, peak: f"{t.latency_ms / 1000:.2f} s"),
)


def prompt_cell(turn) -> str:
    prompt = number(turn.prompt_tokens)
    if turn.usage_source == "provider" and turn.local_prompt_tokens != turn.prompt_tokens:
        prompt += f" (local {number(turn.local_prompt_tokens)})"
    if turn.usage_suspect:
        prompt += " !"  # explained under the table
    return prompt


def money_columns(money) -> list:
    """TURN_COLUMNS with the simulated cached tokens marked ~, and a cost column when priced."""

    def cached(t, peak) -> str:
        value = money.cached[t.question_id]
        return number(value) if value == t.cached_tokens else f"~{number(value)}"

    columns = [(h, cached if h == "cached" else cell) for h, cell in TURN_COLUMNS]
    if money.cost:
        columns.append(("cost", lambda t, peak: money.turn_cost(t.question_id).text()))
    return columns


# Columns a narrow terminal drops first, so every heading stays readable.
DROPPED_FIRST = ("growth", "latency", "seg", "KV", "context n")


def fitting(columns: list, turns, width: int) -> list:
    """The columns whose widest cells fit ``width``, dropping DROPPED_FIRST in order."""
    peak = max((t.context_tokens for t in turns), default=0)

    def needed(kept: list) -> int:
        widths = [max([len(h), *(len(cell(t, peak)) for t in turns)]) for h, cell in kept]
        return sum(widths) + 2 * (len(kept) - 1)

    for heading in DROPPED_FIRST:
        if needed(columns) <= width:
            break
        columns = [c for c in columns if c[0] != heading]
    return columns


def follow_up_row(item, columns=TURN_COLUMNS) -> list[str]:
    """A follow-up under its question: its own tokens, never part of the context n."""
    cells = {
        "Q": "↳",
        "seg": "追问",
        "prompt": number(item.prompt_tokens),
        "cached": number(item.cached_tokens),
        "answer": number(item.completion_tokens),
        "latency": f"{item.latency_ms / 1000:.2f} s",
    }
    return [cells.get(heading, "") for heading, _cell in columns]


def probe_row(probe, columns=TURN_COLUMNS) -> list[str]:
    """An interview's probe under its question: its side request and its answer's grading."""
    cells = {
        "Q": "↳",
        "seg": f"追问{probe.n}",
        "prompt": number(probe.prompt_tokens + probe.grade_prompt_tokens),
        "cached": number(probe.cached_tokens + probe.grade_cached_tokens),
        "answer": number(probe.completion_tokens + probe.grade_completion_tokens),
        "latency": f"{probe.latency_ms / 1000:.2f} s",
    }
    return [cells.get(heading, "") for heading, _cell in columns]


def turn_line(turn, position: int, total: int) -> str:
    """The per-turn figures: tokens, cached tokens, context n, KV, latency."""
    cached = f" (cached {number(turn.cached_tokens)})" if turn.cached_tokens else ""
    kv = f" · KV {human_bytes(turn.kv_bytes)}" if turn.kv_bytes else ""
    thrown = turn.discarded.requests
    sent = f" · {1 + thrown} requests, {thrown} thrown away" if thrown else ""
    return (
        f"[{STYLES['tokens']}][{position}/{total}] Q{turn.question_id}"
        f" · prompt {number(turn.prompt_tokens)}{cached} · answer {number(turn.completion_tokens)}"
        f" · n={number(turn.context_tokens)}{kv} · {turn.latency_ms / 1000:.1f} s{sent}[/]"
    )
