"""What a terminal shows: colours with a meaning, Markdown answers, spinners, numbers.

Colour and motion are for people at a terminal. Piped output and ``--json``
stay plain text, byte for byte what the model wrote. ``NO_COLOR`` (any
non-empty value, see no-color.org) or ``studybot --no-color`` turns colours
off everywhere. rich is imported only when something is drawn.
"""

from __future__ import annotations

import os
import re
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import click

# What each colour means; the same words are used wherever it is drawn.
STYLES = {
    "question": "bold cyan",
    "segment": "bold magenta",
    "summary": "dim",
    "tokens": "dim",
    "warning": "yellow",
    "error": "bold red",
    "hint": "yellow",
    "ok": "green",
}
CLICK_STYLES = {  # the same meanings for lines written with click.echo
    "question": {"fg": "cyan", "bold": True},
    "segment": {"fg": "magenta", "bold": True},
    "summary": {"dim": True},
    "tokens": {"dim": True},
    "warning": {"fg": "yellow"},
    "error": {"fg": "red", "bold": True},
    "hint": {"fg": "yellow"},
    "ok": {"fg": "green"},
}
SPARKS = "▁▂▃▄▅▆▇█"
EIGHTHS = " ▏▎▍▌▋▊▉"  # a cell filled 0/8 … 7/8 from the left

_no_color_flag = False


def configure(*, no_color: bool) -> None:
    """Record the global ``--no-color`` flag (set on every invocation)."""
    global _no_color_flag
    _no_color_flag = no_color


def colour() -> bool:
    return not _no_color_flag and not os.environ.get("NO_COLOR")


def paint(text: str, meaning: str) -> str:
    """``text`` styled for click.echo, which drops the styling when not on a terminal."""
    return click.style(text, **CLICK_STYLES[meaning]) if colour() else text


def number(value: float | None) -> str:
    """``12,814``: every count a user reads has thousands separators."""
    if value is None:
        return "-"
    return f"{value:,.0f}" if isinstance(value, float) else f"{value:,}"


def sparkline(values: list[int]) -> str:
    """One block character per value, scaled to the largest."""
    top = max(values, default=0)
    if top <= 0:
        return ""
    return "".join(SPARKS[min(len(SPARKS) - 1, v * len(SPARKS) // (top + 1))] for v in values)


def bar(value: int, top: int, width: int = 12) -> str:
    """``value`` as a bar of eighth blocks, ``top`` filling ``width`` cells."""
    if top <= 0:
        return ""
    eighths = round(value * width * 8 / top)
    return "█" * (eighths // 8) + (EIGHTHS[eighths % 8] if eighths % 8 else "")


def console(stderr: bool = False):
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True, no_color=not colour())


def spinner(target, text: str) -> AbstractContextManager[Any]:
    """A spinner on ``target`` (a rich Console) while the block runs; nothing off a terminal."""
    if not target.is_terminal:
        return nullcontext()
    return target.status(text, spinner="dots")


class MarkdownStream:
    """An answer rendered as Markdown while it streams, a spinner until its first text.

    The live area shows the tail of the answer, never more than fits on the
    screen (a taller live area cannot be redrawn in place and would repeat);
    when the answer is complete the live area is cleared and the whole
    answer is printed once.
    """

    def __init__(self, target, waiting: str = "waiting for the first token…") -> None:
        from rich.live import Live
        from rich.spinner import Spinner

        self.console = target
        self.text = ""
        self.live = Live(
            Spinner("dots", waiting, style="dim"),
            console=target,
            refresh_per_second=10,
            transient=True,
            vertical_overflow="crop",
        )
        self.live.start()

    def feed(self, chunk: str) -> None:
        self.text += chunk
        if self.text.strip():
            window = max(self.console.height - 4, 4)
            self.live.update(_Lines(self._lines()[-window:]))

    def close(self) -> None:
        self.live.stop()
        if self.text.strip():
            self.console.print(_Lines(self._lines()), soft_wrap=False)

    def _markdown(self):
        from rich.markdown import Markdown

        from studybot.output.markup import readable_math

        return Markdown(readable_math(self.text), hyperlinks=False)

    def _lines(self) -> list:
        """The rendered answer without the blank lines some blocks (lists) start with."""
        lines = self.console.render_lines(self._markdown(), self.console.options, pad=False)
        while lines and not "".join(segment.text for segment in lines[0]).strip():
            lines.pop(0)
        return lines


class _Lines:
    """Already rendered lines as a rich renderable."""

    def __init__(self, lines: list) -> None:
        self.lines = lines

    def __rich_console__(self, console, options):
        from rich.segment import Segment

        for line in self.lines:
            yield from line
            yield Segment.line()


_UNITS = re.compile(r"[A-Za-z0-9_.+\-^/²³×%]+|\s+|.", re.S)


def wrap_cjk(text: str, width: int) -> list[str]:
    """Lines of at most ``width`` cells, breaking between CJK characters as well as at spaces.

    rich breaks lines only at white space, so a long run of Chinese wraps as
    one word; here each CJK character is a place to break and a latin word
    stays whole (a word longer than the line is left to the renderer).
    """
    from rich.cells import cell_len

    lines, line = [], ""
    for unit in _UNITS.findall(text):
        if line and cell_len(line + unit) > width:
            lines.append(line.rstrip())
            line = "" if unit.isspace() else unit
        else:
            line += unit
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines
