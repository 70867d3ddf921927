"""Lines that break where a reader expects: CJK-aware, never inside a word, a flag or a formula.

``break_offsets`` is the one line breaker; ``wrap`` and ``fit`` (in
``render``) use it for click lines, and ``break_lines_for_rich`` makes rich
use it for Markdown answers and tables. ``inline_markdown`` and
``hang_lines`` lay a key point out under its mark.
"""

from __future__ import annotations

import re
import unicodedata

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

CODE_STYLE = "cyan"  # a code span in a key point (render.STYLES["code"])
CLOSING = set("，。、；：！？）】」』》〉〕”’…‥％・,.;:!?)]}%")
OPENING = set("（【「『《〈〔“‘([{")
OPERATORS = {"=", "≈", "×", "+", "−", "-", "/", "→", "←", "≤", "≥", "<", ">", "~", "∝", "≠"}
NO_BREAK_BEFORE = OPERATORS | {"·", "|", "—", "–"}
UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "KB", "MB", "GB", "s", "ms", "%", "K", "M", "G"}
KEEP = re.compile(r"`[^`\n]+`|\$[^$\n]+\$|\[[^\[\]\n]{1,40}\]")
NUMBER = re.compile(r"[\d.,]+")
# What inline Markdown may change: markers, escapes, entities, tags and links, line breaks,
# and the outer spaces it trims.
MARKUP = re.compile(r"[\\`*_<>\[\]!&\n\r]|^\s|\s$")
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
    from rich.text import Text

    if not MARKUP.search(text):  # nothing a Markdown reader would change: spare loading one
        return Text(text), []
    from markdown_it import MarkdownIt

    out, keep, styles = Text(), [], []
    for token in MarkdownIt("commonmark").parseInline(text)[0].children or []:
        if token.type in ("strong_open", "em_open"):
            styles.append("bold" if token.type == "strong_open" else "italic")
        elif token.type in ("strong_close", "em_close"):
            del styles[-1:]
        elif token.type == "code_inline":
            start = len(out.plain)
            out.append(token.content, style=CODE_STYLE)
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
