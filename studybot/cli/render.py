"""What a terminal shows: colours with a meaning, Markdown answers, spinners, numbers.

Colour and motion are for people at a terminal. Piped output and ``--json``
stay plain text, what the model wrote. ``NO_COLOR`` (any non-empty value,
see no-color.org) or ``studybot --no-color`` turns colours off everywhere.
rich is imported only when something is drawn.

Text from a file or a server (a bank, an answer, a file name in an error)
may hold control characters that a terminal obeys: ``ESC ] 0 ; … BEL``
retitles the window, ``ESC [ 31 m`` recolours it. ``printable`` removes
them; every console made here applies it to what it draws, and ``paint``
to what it styles. Storage keeps the text as it came.
"""

from __future__ import annotations

import math
import os
import re
import sys
import time
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


def echo(text: str = "", *, nl: bool = True, err: bool = True, meaning: str | None = None) -> None:
    """A line (or a prompt, ``nl=False``) on stderr, wrapped at word boundaries on a terminal.

    ``meaning`` colours it (``STYLES``) where colours are on.
    """
    shown = fit(printable(text), err)  # a bank's or a model's text may carry escape codes
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


def spinner(target, text: str) -> AbstractContextManager[Any]:
    """A spinner on ``target`` (a rich Console) while the block runs; nothing off a terminal."""
    if not target.is_terminal:
        return nullcontext()
    return target.status(text, spinner="dots")


REFRESHES = 10  # per second: how often the open block may be rendered again
# A line that may go on the block before a blank line: a list item (a loose list,
# whose numbering and spacing depend on all its items), indented text (an item's
# continuation, indented code) or HTML (some of its blocks run past blank lines).
_CONTINUES = re.compile(r"[ \t]|(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)|<")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


class Blocks:
    """Streamed Markdown cut where a block is settled: what follows cannot change it.

    A block settles at a blank line outside fenced code when the next line
    starts a block of its own (``_CONTINUES`` says which lines may not) and
    no formula or code span is left open before it (``markup.unclosed``).
    Each line is read once, so cutting is linear in the text.
    """

    __slots__ = ("open", "read", "fence", "blank", "version")

    def __init__(self) -> None:
        self.open = ""  # the text not settled yet, from the start of its block
        self.read = 0  # characters of ``open`` read line by line
        self.fence: str | None = None  # the opening fence of a code block being read
        self.blank = False  # the last line read was blank, outside code
        self.version = 0  # counts the changes of ``open``

    def feed(self, text: str) -> list[str]:
        """Add ``text``; the blocks it settled, in order."""
        from studybot.output.markup import unclosed

        self.open += text
        self.version += 1
        settled = []
        while (end := self.open.find("\n", self.read)) >= 0:
            start, self.read = self.read, end + 1
            line = self.open[start:end]
            if self.fence is not None:
                closing = line.strip()
                if closing.startswith(self.fence) and not closing.strip(self.fence[0]):
                    self.fence = None
                continue
            if not line.strip():
                self.blank = True
                continue
            if self.blank and not _CONTINUES.match(line) and not unclosed(self.open[:start]):
                settled.append(self.open[:start])
                self.open = self.open[start:]
                self.read -= start
            self.blank = False
            fence = _FENCE.match(line)
            if fence:
                self.fence = fence.group(1)
        return settled

    def close(self) -> str:
        """The open block, which nothing more will change."""
        rest, self.open, self.read = self.open, "", 0
        self.version += 1
        return rest


class MarkdownStream:
    """An answer rendered as Markdown while it streams, a spinner until its first text.

    Drawing is linear in the answer's length: each block that the rest of
    the answer can no longer change (``Blocks``) is rendered once and
    printed above the live area; the live area holds only the open block,
    the tail of it that fits on the screen (a taller live area cannot be
    redrawn in place and would repeat). rich's refresh thread renders it at
    most ``REFRESHES`` times a second, so a fast stream is never held up by
    drawing; ``close`` prints the final open block whole. What ends on the
    screen is the whole answer rendered at once: the same lines, lists and
    blank lines (``tests/cli/test_stream_render.py`` holds it to that).
    """

    def __init__(self, target, waiting: str = "waiting for the first token…") -> None:
        from rich.live import Live
        from rich.spinner import Spinner

        self.console = target
        self.cleaner = PrintableStream()  # a split escape code waits for its end
        self.blocks = Blocks()
        self.printed = 0  # lines printed above the live area (what ``discard`` erases)
        self.parted = False  # the printed text ends in a block the next is parted from
        self.tail = _OpenTail(self)
        self.shown = False  # the live area shows the open block (no longer the spinner)
        self.live = Live(
            Spinner("dots", waiting, style="dim"),
            console=target,
            refresh_per_second=2 * REFRESHES,  # redraws what is rendered; renders at most 10/s
            transient=True,
            vertical_overflow="crop",
        )
        self.live.start()

    def feed(self, chunk: str) -> None:
        text = self.cleaner.feed(chunk)
        # The refresh thread must not draw the open block between the moment a block
        # leaves it and the moment that block is printed: it would vanish for a frame.
        with self.live._lock:
            for block in self.blocks.feed(text):
                self.tail.settled()
                self._print(block)
        if not self.shown and self.blocks.open.strip():
            self.shown = True
            self.live.update(self.tail)

    def close(self) -> None:
        """The live area cleared, and what is still open printed whole, once."""
        blocks = self.blocks.feed(self.cleaner.close())
        self.live.stop()
        for block in [*blocks, self.blocks.close()]:
            self._print(block)

    def discard(self) -> None:
        """Take the answer off the screen: the live area, and the lines printed above it
        that are still on the screen (those scrolled off it cannot be reached)."""
        from rich.control import Control, ControlType

        self.live.stop()
        lines = min(self.printed, max(self.console.height - 1, 0))
        if lines:
            self.console.control(
                Control(*[(ControlType.CURSOR_UP, 1), (ControlType.ERASE_IN_LINE, 2)] * lines)
            )
        self.printed = 0

    def render(self, text: str) -> tuple[list, bool]:
        """``text`` rendered as lines, and whether a block after it is parted by a blank line.

        rich parts two blocks with a blank line unless the first is a rule.
        """
        from rich.markdown import Markdown

        from studybot.output.markup import readable_math

        markdown = Markdown(readable_math(text), hyperlinks=False)
        lines = self.console.render_lines(markdown, self.console.options, pad=False)
        closing = [token for token in markdown.parsed if token.level == 0]
        return lines, bool(closing) and closing[-1].type != "hr"

    def _placed(self, lines: list) -> list:
        """A block's lines as the whole answer has them after what is printed.

        rich starts a list, table or quote with a blank line of its own (an empty
        line); any other block gets one when the block before it asks for it.
        """
        if not self.printed:
            return _without_leading_blanks(lines)
        if self.parted and lines and lines[0]:
            return [[], *lines]
        return lines

    def _print(self, block: str) -> None:
        if not block.strip():
            return
        lines, parted = self.render(block)
        lines = self._placed(lines)
        if not lines:
            return
        self.console.print(_Lines(lines), soft_wrap=False)
        self.printed += len(lines)
        self.parted = parted


class _OpenTail:
    """The live area: the open block's tail that fits on the screen.

    rich draws it on every refresh and after every block printed above it;
    the block is rendered again only when it changed, and at most
    ``REFRESHES`` times a second, whoever asks.
    """

    def __init__(self, stream: MarkdownStream) -> None:
        self.stream = stream
        self.version = -1  # the ``Blocks.version`` the lines were rendered from
        self.lines: list = []
        self.rendered_at = -math.inf  # time.monotonic() of the last rendering

    def settled(self) -> None:
        """The block shown was printed above: the area stays empty until the next rendering."""
        self.lines = []
        self.rendered_at = time.monotonic()

    def __rich_console__(self, console, options):
        stream = self.stream
        now = time.monotonic()
        if stream.blocks.version != self.version and now - self.rendered_at >= 1 / REFRESHES:
            self.version, self.rendered_at = stream.blocks.version, now
            lines, _ = stream.render(stream.blocks.open)
            self.lines = stream._placed(lines)
        window = max(console.height - 4, 4)
        yield from _Lines(self.lines[-window:]).__rich_console__(console, options)


def _without_leading_blanks(lines: list) -> list:
    """Rendered lines without the blank lines some blocks (lists) start with."""
    first = 0
    while first < len(lines) and not "".join(segment.text for segment in lines[first]).strip():
        first += 1
    return lines[first:]


class _Lines:
    """Already rendered lines as a rich renderable."""

    def __init__(self, lines: list) -> None:
        self.lines = lines

    def __rich_console__(self, console, options):
        from rich.segment import Segment

        for line in self.lines:
            yield from line
            yield Segment.line()
