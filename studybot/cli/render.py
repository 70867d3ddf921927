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

import os
import re
import sys
import unicodedata
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
    "code": "cyan",
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
        return int(columns) if columns.isdigit() else os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError):
        return None


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

        _console_class = PrintableConsole
    return _console_class


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

        return Markdown(readable_math(printable(self.text)), hyperlinks=False)

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


# -- lines that break where a reader expects -----------------------------------
#
# rich and the terminal break lines only at spaces, or anywhere: a run of
# Chinese wraps as one word and a Latin word in it is cut in two. The rules
# here follow UAX #14 in small: a line may break at a space or between two
# CJK characters; never inside a Latin word, a number, a flag or an
# identifier; never before closing punctuation (，。）…) or after opening
# punctuation (（「…); never inside a code span, a $formula$ or a short
# [bracketed key hint]; never beside a lone operator (``d × d``, ``n = 8``),
# between a number and its unit (``86.8 MiB``) or a flag and its value. Only what is wider than
# a whole line is broken inside, at its own spaces first.

CLOSING = set("，。、；：！？）】」』》〉〕”’…‥％・,.;:!?)]}%")
OPENING = set("（【「『《〈〔“‘([{")
OPERATORS = {"=", "≈", "×", "+", "−", "-", "/", "→", "←", "≤", "≥", "<", ">", "~", "∝", "≠"}
NO_BREAK_BEFORE = OPERATORS | {"·", "|", "—", "–"}
UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "KB", "MB", "GB", "s", "ms", "%", "K", "M", "G"}
KEEP = re.compile(r"`[^`\n]+`|\$[^$\n]+\$|\[[^\[\]\n]{1,40}\]")
NUMBER = re.compile(r"[\d.,]+")
PUNCTUATION = re.compile(
    "["
    + re.escape("".join(c for c in CLOSING | OPENING if unicodedata.east_asian_width(c) in "WF"))
    + "]"
)


def _wide(char: str) -> bool:
    from rich.cells import get_character_cell_size

    return get_character_cell_size(char) == 2


def _space_breaks(text: str, glue: bool) -> tuple[set[int], list[tuple[int, int]]]:
    """Offsets just after a run of spaces where a line may start, and the glued words.

    A space that may not break (beside an operator, in "86.8 MiB", after a
    flag) joins the words on either side: they are returned as spans to keep
    whole, so "层数 × kv_heads" is not broken between 层 and 数 either.
    """
    out, glued = set(), []
    for match in re.finditer(r" +", text):
        start, end = match.span()
        if start == 0 or end >= len(text):
            continue
        before = text[:start].rsplit(" ", 1)[-1]
        after = text[end:].split(" ", 1)[0]
        if glue and _joined(before, after):
            # Only the run beside the space: a clause before "，" may still end a line.
            near, far = PUNCTUATION.split(before)[-1], PUNCTUATION.split(after)[0]
            glued.append((start - len(near), end + len(far)))
            continue
        out.add(end)
    return out, glued


def _joined(before: str, after: str) -> bool:
    """Whether the space between two words must not break."""
    if before in OPERATORS or after[:1] in NO_BREAK_BEFORE:
        return True
    if NUMBER.fullmatch(before) and after in UNITS:
        return True
    return before.startswith("--") and after[:1] not in ("-", "")  # a flag and its value


def _breaks(text: str, keep: tuple[tuple[int, int], ...], level: int = 0) -> list[int]:
    """Every offset of ``text`` where a line may start.

    ``level`` 0: by all the rules above; 1: at any space only (a piece too
    wide for a line, such as a long formula); 2: at any space or between CJK
    characters.
    """
    out, glued = _space_breaks(text, glue=level == 0)
    if level == 1:
        return sorted(out)
    for i in range(1, len(text)):
        a, b = text[i - 1], text[i]
        if a == " " or b == " " or not (_wide(a) or _wide(b)):
            continue  # spaces are handled above; Latin runs stay whole
        if b in CLOSING or a in OPENING:
            continue
        out.add(i)
    if level == 0:
        spans = [m.span() for m in KEEP.finditer(text)] + glued + list(keep)
        out = {i for i in out if not any(start < i < end for start, end in spans)}
    return sorted(out)


def break_offsets(text: str, width: int, *, hang: int = 0, keep=(), fold: bool = True) -> list[int]:
    """Offsets at which to break one line of ``text`` (no newlines) into lines of ``width`` cells.

    Lines after the first have ``hang`` cells less room (their indent);
    ``keep`` holds more (start, end) spans to keep whole. A piece wider than
    a line is broken at its spaces, then between CJK characters too, then
    (``fold``) by cells.
    """
    from rich.cells import cell_len, chop_cells

    width = max(1, width)
    narrow = max(1, width - hang)

    def fit(piece: str, level: int) -> list[str]:
        if cell_len(piece.rstrip(" ")) <= narrow:
            return [piece]
        if level > 2:
            return chop_cells(piece, narrow) if fold else [piece]
        parts = _split(piece, _breaks(piece, tuple(keep) if level == 0 else (), level))
        return [small for part in parts for small in fit(part, level + 1)]

    fitted = [
        small for piece in _split(text, _breaks(text, tuple(keep))) for small in fit(piece, 1)
    ]
    offsets: list[int] = []
    position = used = 0
    room = width
    for piece in fitted:
        if used and used + cell_len(piece.rstrip(" ")) > room:
            offsets.append(position)
            used, room = 0, narrow
        used += cell_len(piece)
        position += len(piece)
    return offsets


def _split(text: str, offsets: list[int]) -> list[str]:
    bounds = [0, *offsets, len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False) if b > a]


def wrap(text: str, width: int, hang: str = "") -> list[str]:
    """``text`` as lines of at most ``width`` cells; lines after the first start with ``hang``.

    Each line of ``text`` is wrapped on its own; trailing spaces are dropped.
    """
    from rich.cells import cell_len

    out: list[str] = []
    for line in text.split("\n"):
        parts = _split(line, break_offsets(line, width, hang=cell_len(hang)))
        out.extend((hang if n else "") + part.rstrip(" ") for n, part in enumerate(parts or [""]))
    return out


def wrap_cjk(text: str, width: int) -> list[str]:
    """Lines of at most ``width`` cells (``wrap`` without an indent)."""
    return wrap(text, width)


def _divide_line(text: str, width: int, fold: bool = True) -> list[int]:
    """rich's line breaker (``rich._wrap.divide_line``), with the rules above."""
    return break_offsets(text, width, fold=fold)


def break_lines_for_rich() -> None:
    """Make every rich Text wrap by the rules above (Markdown answers, tables, notices).

    rich looks its breaker up in ``rich.text`` at each wrap; the replacement
    takes the same arguments and returns the same offsets.
    """
    import rich.text

    rich.text.divide_line = _divide_line


# -- inline Markdown, laid out in lines ------------------------------------------


def inline_markdown(text: str):
    """``text`` (one line of Markdown: code spans, emphasis) as a rich Text, no raw markers.

    Returns the Text and the spans of its code, which a line keeps whole.
    Formulas stay as written (``$…$``), as in a drawn answer.
    """
    from markdown_it import MarkdownIt
    from rich.text import Text

    out, keep, styles = Text(), [], []
    for token in MarkdownIt("commonmark").parseInline(text)[0].children or []:
        if token.type in ("strong_open", "em_open"):
            styles.append("bold" if token.type == "strong_open" else "italic")
        elif token.type in ("strong_close", "em_close"):
            del styles[-1:]
        elif token.type == "code_inline":
            start = len(out.plain)
            out.append(token.content, style=STYLES["code"])
            keep.append((start, len(out.plain)))
        elif token.type in ("softbreak", "hardbreak"):
            out.append(" ")
        elif token.content:  # text, and html-like text such as <think>, as written
            out.append(token.content, style=" ".join(styles) or None)
    return out, keep


def hang_lines(lead, body, width: int, keep=()) -> list:
    """``lead`` then ``body`` (rich Texts) in lines of ``width`` cells, later lines under the body."""
    from rich.text import Text

    indent = lead.cell_len
    offsets = break_offsets(body.plain, width - indent, keep=keep)
    lines = []
    for n, part in enumerate(body.divide(offsets)):
        part.rstrip()
        lines.append(Text.assemble(lead if n == 0 else " " * indent, part))
    return lines
