"""A streamed answer drawn as Markdown: cut into settled blocks, each printed once.

Only the open block is redrawn, in a live area under what is printed; what
ends on the screen is the whole answer rendered at once. It draws on a
console from ``render`` and cleans the chunks with ``render.PrintableStream``;
rich is imported only when an answer is drawn.
"""

from __future__ import annotations

import math
import re
import time

from studybot.cli.render import PrintableStream

REFRESHES = 10  # per second: how often the open block may be rendered again
# A line that may go on the block before a blank line: a list item (a loose list,
# whose numbering and spacing depend on all its items), indented text (an item's
# continuation, indented code) or HTML (some of its blocks run past blank lines).
_CONTINUES = re.compile(r"[ \t]|(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)|<")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_TABLE_ROW = re.compile(r" {0,3}\|")
_DELIMITER_ROW = re.compile(r" {0,3}\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")


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
            lines, _ = stream.render(drawable(stream.blocks.open))
            self.lines = stream._placed(lines)
        window = max(console.height - 4, 4)
        yield from _Lines(self.lines[-window:]).__rich_console__(console, options)


def drawable(text: str) -> str:
    """The open block as the live area shows it: a table still arriving waits for its
    delimiter row to end. Until then Markdown reads its head as a paragraph, and the
    screen would flash "| n | KV | |---" before the table is drawn."""
    lines = text.split("\n")
    end = len(lines) - 1 if lines[-1] == "" else len(lines)  # the last line may be partial
    start = end
    while start and _TABLE_ROW.match(lines[start - 1]):
        start -= 1
    rows = lines[start:end]
    ended = len(rows) > 2 or end < len(lines)  # the delimiter row is followed by a newline
    if not rows or (len(rows) >= 2 and _DELIMITER_ROW.match(rows[1]) and ended):
        return text
    return "\n".join(lines[:start]) + ("\n" if start else "")


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
