"""Markdown text as the model writes it, made safe for each place it is shown.

Answers are Markdown with formulas in ``$…$``, ``$$…$$``, ``\\(…\\)`` or
``\\[…\\]``. A Markdown renderer mangles formulas (``_`` and ``*`` become
emphasis, ``\\(`` loses its backslash), and HTML-like text such as
``<think>`` disappears into the page. Every function here treats code
(fenced blocks and backtick spans) as untouchable and formulas as opaque.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator

# Fenced code blocks (closed, or running to the end of the text) and inline code spans.
CODE = re.compile(
    r"^ {0,3}(?P<fence>`{3,}|~{3,})[^\n]*\n.*?(?:^ {0,3}(?P=fence)[ \t]*$|\Z)"
    r"|(?P<ticks>`+).+?(?P=ticks)",
    re.M | re.S,
)
# Display math first, then inline; a lone "$5 and $10" is money, not a formula
# (the pandoc rule: no space just inside the dollars, no digit right after).
MATH = re.compile(
    r"\$\$(?P<display>.+?)\$\$"
    r"|\\\[(?P<bracket>.+?)\\\]"
    r"|\\\((?P<paren>.+?)\\\)"
    r"|(?<![\\$\w])\$(?P<inline>[^\s$](?:[^$\n]*?[^\s$\\])?)\$(?!\d)",
    re.S,
)
PLACEHOLDER = "STUDYBOTMATH{}X"  # letters only, so no Markdown rule can touch it


def _parts(text: str) -> Iterator[tuple[bool, str]]:
    """(is_code, chunk) pieces of ``text`` in order."""
    end = 0
    for match in CODE.finditer(text):
        if match.start() > end:
            yield False, text[end : match.start()]
        yield True, match.group(0)
        end = match.end()
    if end < len(text):
        yield False, text[end:]


def _prose(text: str, change: Callable[[str], str]) -> str:
    """``text`` with ``change`` applied outside code."""
    return "".join(chunk if code else change(chunk) for code, chunk in _parts(text))


def _formula(match: re.Match[str]) -> tuple[str, bool]:
    """The formula's body and whether it is display math."""
    for name, display in (("display", True), ("bracket", True), ("paren", False)):
        if match.group(name) is not None:
            return match.group(name), display
    return match.group("inline"), False


def readable_math(text: str) -> str:
    """Formulas as code spans, so a terminal Markdown renderer shows them as written."""

    def quote(match: re.Match[str]) -> str:
        formula = match.group(0)
        if "\n" in formula:
            return f"\n```\n{formula.strip()}\n```\n"
        ticks = "`" * (max((len(t) for t in re.findall(r"`+", formula)), default=0) + 1)
        return f"{ticks}{formula}{ticks}" if ticks == "`" else f"{ticks} {formula} {ticks}"

    return _prose(text, lambda chunk: MATH.sub(quote, chunk))


def escape_html_like(text: str) -> str:
    """``<think>``, ``</s>`` and friends as visible text in CommonMark (code, formulas untouched)."""

    def escape(chunk: str) -> str:
        pieces, end = [], 0
        for match in MATH.finditer(chunk):
            pieces += [chunk[end : match.start()].replace("<", "&lt;"), match.group(0)]
            end = match.end()
        pieces.append(chunk[end:].replace("<", "&lt;"))
        return "".join(pieces)

    return _prose(text, escape)


def to_html(text: str) -> str:
    """Markdown to HTML for Anki: raw HTML shown as text, formulas kept for MathJax.

    Anki's MathJax reads ``\\(…\\)`` and ``\\[…\\]``, so dollar formulas are
    rewritten to those; each formula is hidden from the Markdown parser
    behind a placeholder and put back, HTML-escaped, afterwards.
    """
    from markdown_it import MarkdownIt

    formulas: list[str] = []

    def hide(match: re.Match[str]) -> str:
        body, display = _formula(match)
        formulas.append(rf"\[{body}\]" if display else rf"\({body}\)")
        return PLACEHOLDER.format(len(formulas) - 1)

    hidden = _prose(text, lambda chunk: MATH.sub(hide, chunk))
    rendered = MarkdownIt("commonmark", {"html": False}).enable("table").render(hidden)
    for index, formula in enumerate(formulas):
        rendered = rendered.replace(PLACEHOLDER.format(index), html.escape(formula, quote=False))
    return rendered.strip()
