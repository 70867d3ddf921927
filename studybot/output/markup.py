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
# Letters and digits only, so no Markdown rule can touch it; lengthened while the text holds it.
PLACEHOLDER = "STUDYBOTMATH"


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


def unclosed(text: str) -> bool:
    """Whether text after ``text`` could still change how it reads: a fenced block
    running to its end, or a formula or code span opened and not closed in it."""
    prose = []
    for code, chunk in _parts(text):
        if not code:
            prose.append(chunk)
        elif chunk.lstrip(" ").startswith(("```", "~~~")) and not _fence_closed(chunk):
            return True
    rest = MATH.sub("", "".join(prose))
    return any(mark in rest for mark in ("$$", "\\[", "\\(", "`"))


def _fence_closed(block: str) -> bool:
    """Whether a fenced block (as ``CODE`` matched it) ends with its closing fence."""
    lines = block.rstrip("\n").split("\n")
    opened = re.match(r" {0,3}(`{3,}|~{3,})", lines[0])
    return opened is not None and len(lines) > 1 and lines[-1].strip() == opened.group(1)


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
    behind a placeholder and put back, HTML-escaped, afterwards. A card is a
    web page Anki draws: nothing written in an answer may become an
    attribute, and links and images may only point at http(s) or relative
    URLs (``safe_url``).
    """
    from markdown_it import MarkdownIt

    formulas: list[str] = []  # as MathJax reads them, for the card's text
    written: list[str] = []  # as the answer wrote them, for a link or a title
    mark = PLACEHOLDER
    while mark in text:  # an answer that writes the placeholder itself keeps its words
        mark += "Q"

    def hide(match: re.Match[str]) -> str:
        body, display = _formula(match)
        formulas.append(rf"\[{body}\]" if display else rf"\({body}\)")
        written.append(match.group(0))
        return f"{mark}{len(formulas) - 1}X"

    hidden = _prose(text, lambda chunk: MATH.sub(hide, chunk))

    class SafeLinks(MarkdownIt):
        def validateLink(self, url: str) -> bool:
            return safe_url(url)  # markdown-it's own rule lets mailto:, ftp: and data:image in

    parser = SafeLinks("commonmark", {"html": False}).enable("table")
    tokens = parser.parse(hidden)
    hidden_at = re.compile(rf"{mark}(\d+)X")

    def as_written(value: str) -> str:
        return hidden_at.sub(lambda m: written[int(m[1])], value)

    for token in _every(tokens):
        _restore_attributes(token, parser, as_written)
    rendered = parser.renderer.render(tokens, parser.options, {})
    # quote=True: a placeholder left in an attribute (an image's alt) must not end it.
    return hidden_at.sub(lambda m: html.escape(formulas[int(m[1])]), rendered).strip()


# A URL's scheme, read as a browser reads it once leading spaces and controls are dropped.
SCHEME = re.compile(r"[\x00-\x20]*([a-zA-Z][a-zA-Z0-9+.-]*):")
SAFE_SCHEMES = {"http", "https"}
URL_ATTRIBUTES = ("href", "src")


def safe_url(url: str) -> bool:
    """Whether a card may link to or load ``url``: http(s), or relative (no scheme at all)."""
    found = SCHEME.match(re.sub(r"[\t\n\r]", "", url))  # browsers drop these anywhere
    return found is None or found.group(1).lower() in SAFE_SCHEMES


def _every(tokens) -> Iterator:
    for token in tokens:
        yield token
        yield from _every(token.children or [])


def _restore_attributes(token, parser, restore: Callable[[str], str]) -> None:
    """A formula hidden in a URL or a title is put back as it was written, then checked.

    In an attribute it is not a formula but characters of the URL or title,
    which markdown-it escapes when it writes the tag; a URL it leads to that
    is not http(s) or relative is dropped (the link stays as its text).
    """
    for name, value in list(token.attrs.items()):
        restored = restore(str(value))
        if name in URL_ATTRIBUTES and restored != value:
            restored = parser.normalizeLink(restored)
        value = restored
        if name in URL_ATTRIBUTES and not safe_url(value):
            del token.attrs[name]
            continue
        token.attrs[name] = value
