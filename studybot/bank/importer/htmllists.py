"""The source's lines as the Markdown they stand for, before parsing: boxes, headings, HTML lists.

Hugo ``details`` shortcodes are ``shortcodes``' to rewrite, a card's ``Front:``/``Back:``
labels ``cardsides``', a deck's ``---`` card breaks ``cardbreaks``', MkDocs boxes and ``###2、`` or ``<h2>`` headings are ``admonitions``' to rewrite. An HTML
list written a line per item (``<ol>``, ``<li>为什么…？</li>``, ``</ol>``, perhaps inside a
``<div>`` with a ``<strong>`` title) is an HTML block to CommonMark: its items would be
neither questions nor list items, and its closing tags would read as an answer's text.
``markdown_lines`` rewrites such a block, a line for a line: each item as a ``1.`` or ``-``
item (an item's later lines as its continuation), a title wrapped in one tag as its text, the tags alone on their lines as blank lines.
A block with any other line (a table, a nested list) stays as written; ``residue`` tells a
line of its tags alone, which no reading takes as an answer's text.
"""

from __future__ import annotations

import re

from studybot.bank.importer.admonitions import spaced_headings, unboxed, unfenced
from studybot.bank.importer.cardbreaks import unbroken
from studybot.bank.importer.cardsides import unlabelled
from studybot.bank.importer.shortcodes import unshortcoded

_ITEM = re.compile(r"\s*<li\b[^>]{0,300}>(?P<text>(?:(?!</?li\b)[^\n]){1,2000}?)</li>\s*", re.I)
_LIST_TAG = re.compile(r"\s*<(?P<close>/?)(?P<tag>ol|ul)\b[^>]{0,300}>\s*", re.I)
_WRAPPER = re.compile(r"\s*</?(?:div|section|aside|blockquote)\b[^>]{0,300}>\s*", re.I)
_OPEN_ITEM = re.compile(r"\s*<li\b[^>]{0,300}>(?P<text>(?:(?!</?li\b)[^\n]){1,2000})", re.I)
_MORE = re.compile(r"\s*(?P<text>(?:(?!<li\b|</?[ou]l\b)[^\n]){1,2000}?)(?P<end></li>)?\s*", re.I)
# a line of nothing but a list's or a wrapper's tags ("</ol> </div>"): no answer's text
_RESIDUE = re.compile(r"\s*(?:</?(?:ol|ul|li|div|section|aside)\b[^>]{0,300}>\s*)+", re.I)
_TITLE = re.compile(
    r"\s*<(?P<tag>strong|b|p|span|em)\b[^>]{0,300}>(?P<text>[^<>\n]{1,500})</(?P=tag)>\s*", re.I
)


def markdown_lines(lines: list[str]) -> list[str]:
    """``lines`` with Hugo ``details`` shortcodes, MkDocs boxes, spaced headings and HTML
    lists as Markdown (the module's docstring says which)."""
    lines = unlabelled(spaced_headings(unboxed(unshortcoded(unbroken(lines)))))
    if not any("<li" in line.lower() for line in lines):
        return lines
    out = list(lines)
    outside = set(unfenced(lines))
    for index in sorted(outside):
        opened = _LIST_TAG.fullmatch(lines[index])
        if opened and not opened["close"]:
            _rewrite(lines, out, index, outside, opened["tag"].lower() == "ol")
    return out


def _rewrite(
    lines: list[str], out: list[str], opening: int, outside: set[int], ordered: bool
) -> None:
    """The HTML block holding the list opened at ``opening`` rewritten in ``out``, if every
    line of it is one this module reads."""
    first, last = opening, opening
    while first > 0 and lines[first - 1].strip() and first - 1 in outside:
        first -= 1
    while last + 1 < len(lines) and lines[last + 1].strip() and last + 1 in outside:
        last += 1
    rewritten: list[str] = []
    number = 0
    open_item = False  # an item over several lines, until its "</li>"
    for line in lines[first : last + 1]:
        item, title = _ITEM.fullmatch(line), _TITLE.fullmatch(line)
        more = _MORE.fullmatch(line) if open_item else None
        if more:
            rewritten.append("   " + more["text"].strip())
            open_item = not more["end"]
        elif open_item:
            return
        elif item or (item := _OPEN_ITEM.fullmatch(line)):
            number += 1
            rewritten.append(f"{number}. " if ordered else "- ")
            rewritten[-1] += item["text"].strip()
            open_item = item.re is _OPEN_ITEM
        elif _LIST_TAG.fullmatch(line) or _WRAPPER.fullmatch(line):
            rewritten.append("")
        elif title:
            rewritten.append(title["text"].strip())
        else:
            return
    if number and not open_item:
        out[first : last + 1] = rewritten


def residue(line: str) -> bool:
    """``line`` is nothing but the tags of a list or of what wraps it (``</ol> </div>``)."""
    return _RESIDUE.fullmatch(line) is not None
