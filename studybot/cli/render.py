"""What a terminal shows: colours with a meaning, consoles, spinners, numbers.

Colour and motion are for people at a terminal. Piped output and ``--json``
stay plain text, what the model wrote. ``NO_COLOR`` (any non-empty value,
see no-color.org) or ``studybot --no-color`` turns colours off everywhere.
rich is imported only when something is drawn. A streamed answer is drawn
as Markdown by ``markdown_stream`` on a console made here.

Text from a file or a server (a bank, an answer, a file name in an error)
may hold control characters that a terminal obeys: ``ESC ] 0 ; … BEL``
retitles the window, ``ESC [ 31 m`` recolours it. ``printable`` removes
them; every console made here applies it to what it draws, and ``paint``
to what it styles. Storage keeps the text as it came.
"""

from __future__ import annotations

import os
import re
import sys
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import click

from studybot.cli.wrap import CODE_STYLE, break_lines_for_rich, wrap

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
    "code": CODE_STYLE,
}
CLICK_STYLES: dict[str, dict[str, Any]] = {  # the same meanings for lines written with click.echo
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

# Whole escape sequences first, as ESC pairs or as single C1 characters (CSI; OSC, DCS,
# PM, APC up to their terminator), so no "[31m" is left behind; then every C0 control but
# tab and newline, DEL and C1.
_SEQUENCES = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"
    r"|(?:\x1b[\]P^_X]|[\x9d\x90\x9e\x9f\x98])[^\x07\x1b\x9c]{0,4096}(?:\x07|\x1b\\|\x9c)"
)
_CONTROLS = dict.fromkeys([*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)])
_ANY_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

# The start of a sequence a chunk may end in, its end still to come in the next chunk.
_UNFINISHED = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*$|\x1b$"
    r"|(?:\x1b[\]P^_X]|[\x9d\x90\x9e\x9f\x98])[^\x07\x1b\x9c]{0,4096}$"
)

_no_color_flag = False

# A line narrower than this draws nothing useful (rich draws nothing at 0): such a width,
# from COLUMNS or the terminal, is taken as the usual 80 instead, as rich takes 0.
NARROWEST = 20  # cells
USUAL_WIDTH = 80  # cells


class PrintableStream:
    """``printable`` for text that arrives in chunks: a sequence split across two is held back."""

    def __init__(self) -> None:
        self.tail = ""

    def feed(self, chunk: str) -> str:
        text = self.tail + chunk
        unfinished = _UNFINISHED.search(text)
        self.tail = unfinished.group() if unfinished else ""
        return printable(text[: len(text) - len(self.tail)])

    def close(self) -> str:
        """What was held back, when no end came: cleaned as it is."""
        tail, self.tail = self.tail, ""
        return printable(tail)


def printable(text: str) -> str:
    """``text`` without the control characters a terminal would obey (newline and tab stay)."""
    if not _ANY_CONTROL.search(text):
        return text
    return _SEQUENCES.sub("", text).translate(_CONTROLS)


def configure(*, no_color: bool) -> None:
    """Record the global ``--no-color`` flag (set on every invocation)."""
    global _no_color_flag
    _no_color_flag = no_color


def colour() -> bool:
    return not _no_color_flag and not os.environ.get("NO_COLOR")


def paint(text: str, meaning: str) -> str:
    """``text`` styled for click.echo, which drops the styling when not on a terminal."""
    text = printable(text)
    return click.style(text, **CLICK_STYLES[meaning]) if colour() else text


def width(err: bool = True) -> int | None:
    """Cells per line of the terminal that stderr (or stdout) is; None when it is not one.

    ``COLUMNS`` wins, as it does for rich, so both wrap at the same width.
    """
    stream = sys.stderr if err else sys.stdout
    try:
        if not stream.isatty():
            return None
        columns = os.environ.get("COLUMNS", "")
        cells = int(columns) if columns.isdigit() else os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError):
        return None
    return usable_width(cells)


def usable_width(cells: int) -> int:
    """``cells``, or the usual width when it is too narrow to draw anything (``COLUMNS=0``)."""
    return cells if cells >= NARROWEST else USUAL_WIDTH


def fit(text: str, err: bool = True, hang: str = "") -> str:
    """``text`` wrapped to the terminal it goes to (unchanged when that is no terminal)."""
    cells = width(err)
    if cells is None:
        return text
    # A prompt's trailing space stays: the key or the text typed goes after it.
    return "\n".join(wrap(text, cells, hang)) + text[len(text.rstrip(" ")) :]


def echo(
    text: str = "",
    *,
    nl: bool = True,
    err: bool = True,
    meaning: str | None = None,
    wrap: bool = True,
) -> None:
    """A line (or a prompt, ``nl=False``) on stderr unless ``err=False``, never with the
    control codes a terminal obeys (a bank's, a file's or a model's text may carry them).

    On a terminal it is wrapped at word boundaries, unless ``wrap=False`` (a file's or a
    server's text as it is, a line already fitted); ``meaning`` colours it (``STYLES``).
    """
    shown = printable(text)
    if wrap:
        shown = fit(shown, err)
    click.echo(paint(shown, meaning) if meaning else shown, nl=nl, err=err)


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
    """A rich Console that wraps by ``break_offsets`` on a terminal and draws only printable text.

    Piped, lines are never wrapped (rich would assume 80 columns).
    """
    break_lines_for_rich()
    target = _printable_console()(
        stderr=stderr, highlight=False, soft_wrap=True, no_color=not colour()
    )
    target.soft_wrap = not target.is_terminal
    target.width = usable_width(target.width)  # COLUMNS=0 would otherwise draw nothing at all
    return target


_console_class = None


def _printable_console():
    """The Console class (made once, when rich is first needed) that cleans what it draws."""
    global _console_class
    if _console_class is None:
        from rich.console import Console
        from rich.segment import Segment

        class PrintableConsole(Console):
            # Strings are cleaned whole before rich drops their BELs, so no "]0;" is left.
            def render_str(self, text, **options):
                return super().render_str(printable(text), **options)

            # Every renderable (text, table, Markdown, a live area) ends as segments here;
            # control segments are rich's own cursor moves, the others carry the text.
            def render(self, renderable, options=None):
                for segment in super().render(renderable, options):
                    text = segment.text
                    if segment.control is None and _ANY_CONTROL.search(text):
                        segment = Segment(printable(text), segment.style)
                    yield segment

            # rich ends the process quietly (exit 1) when a write fails with a broken pipe;
            # the boundary (studybot.launch) decides what a gone reader or a closed stdout
            # means, and a run first says the session is saved.
            def on_broken_pipe(self):
                self.quiet = True
                raise sys.exc_info()[1]

        _console_class = PrintableConsole
    return _console_class


Spinner = AbstractContextManager[Any]  # a spinner turning while its block runs


def spinner(target, text: str) -> Spinner:
    """A spinner on ``target`` (a rich Console) while the block runs; nothing off a terminal."""
    if not target.is_terminal:
        return nullcontext()
    return target.status(text, spinner="dots")
