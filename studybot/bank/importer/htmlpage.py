"""A web page (``.html``, ``.htm``) as the Markdown it shows, then read as Markdown is.

A page is read by its structure: ``<h1>``–``<h6>`` are headings, ``<p>``,
``<div>`` and ``<label>`` paragraphs, ``<li>`` list items, bold, italics and
code their marks (``htmltext``). What a page does not show as text is
dropped: its ``<head>``, scripts and styles, comments, the controls of a
form (inputs, buttons, menus) and what a reader types into it (an empty
``<textarea>`` is an answer box, not an answer). A form's question sits
between answer boxes: the text after the last box (or heading) up to the
next box is one question (where the page has two boxes or more: a single
box is for a comment), read as ``Q. …`` is, without its title label
(``Question 1.4 8 points``: a short first line that ends no sentence);
the text between a form's last box and its end (a pledge to tick, the
submit button) is the form's, no answer.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from studybot.bank.importer import markdown
from studybot.bank.importer.draft import Options, Parsed
from studybot.bank.importer.htmltext import Reader

_RAW_HTML = re.compile(r"\.\.\s+raw::\s*html\s*", re.IGNORECASE)  # fullmatch: RST's directive
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
# what a page does not show as its text: the whole element goes
_HIDDEN = {"head", "script", "style", "noscript", "template", "svg", "button", "select", "textarea"}
# a form's controls and the page's frame: the tag goes, its text stays
_FRAME = {
    "label", "form", "section", "article", "input", "fieldset", "legend", "main", "nav", "header", "footer", "aside", "figure",
    "figcaption", "dl", "dt", "dd", "option", "meta", "link", "iframe", "canvas", "source",
}  # fmt: skip
_TOGGLE = "button"  # inside a heading, an accordion's toggle: the heading's text
_BOX = "textarea"  # an answer box: the text above it since the last one is one question


class _Page(Reader):
    """The Markdown a page shows, the page's line of each of its lines in ``places``."""

    def __init__(self, boxes: bool) -> None:
        super().__init__()
        self.boxes = boxes  # a form of answer boxes, not one box for a comment
        self.hidden = 0
        self.asked: list[int] = []  # where the text since the last box began, in ``out``
        self.boxed: int | None = None  # where the text after a form's last box began
        self.heading = 0  # inside a heading: its button's text is the heading's

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == _TOGGLE and self.heading:
            return  # an accordion's button: its text is the heading's
        if tag in _HIDDEN:
            self.hidden += 1
        elif tag in _HEADINGS and not self.hidden:
            self.heading += 1
            self._break(blank=True)
            self.out.append("#" * _HEADINGS[tag] + " ")
            self.asked = [len(self.out)]
        elif tag in _FRAME and not self.hidden:
            self._break(blank=True)  # a label, a form's field: a paragraph of its own
        elif not self.hidden:
            super().handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self.boxed is not None and not self.hidden:
            del self.out[self.boxed :]  # a pledge, the submit button: the form's, no answer
            self._break(blank=True)
            self.boxed = None
        elif tag == _TOGGLE and self.heading:
            return
        elif tag in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)
            if tag == _BOX and self.boxes and not self.hidden:
                self._box()
        elif tag in _HEADINGS and not self.hidden:
            self.heading = max(0, self.heading - 1)
            self._break(blank=True)
            self.asked = [len(self.out)]
        elif tag in _FRAME and not self.hidden:
            self._break(blank=True)
        elif not self.hidden:
            super().handle_endtag(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _HIDDEN and tag not in _FRAME and not self.hidden:
            super().handle_startendtag(tag, attrs)

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            super().handle_data(data)

    def _box(self) -> None:
        """An answer box ends a question: the text above it, since the last box or heading,
        is one question (``Q. …``, its paragraphs joined by a space), its title label left
        out."""
        start = self.asked[0] if self.asked else 0
        lines = [line.strip() for line in "".join(self.out[start:]).split("\n")]
        blocks = "\n".join(lines).strip().split("\n\n")
        title = blocks[0] if len(blocks) > 1 and _title(blocks[0]) else None
        asked = " ".join(" ".join(b.split("\n")) for b in blocks[1 if title else 0 :] if b)
        del self.out[start:]
        self._break(blank=True)
        self.out.append(f"Q. {asked}\n\n" if asked else "")
        self.asked = [len(self.out)]
        self.boxed = len(self.out)


def _title(block: str) -> bool:
    """A question's title label: a short line that ends no sentence (``Question 1.4 8
    points``)."""
    words = block.split()
    return 0 < len(words) <= 8 and not block.rstrip().endswith((".", "?", "!", ":", "？", "。"))


def page_markdown(text: str) -> str:
    """The Markdown an HTML page shows."""
    page = _Page(text.lower().count(f"<{_BOX}") >= 2)
    page.feed(text)
    page.close()
    return page.text()


def raw_html(text: str) -> str | None:
    """The HTML of a reStructuredText file that is its ``.. raw:: html`` blocks (they hold
    half its lines of text or more): each block's lines dedented, the directive's line
    blank, the other lines as they are; None for any other text."""
    if "raw::" not in text:
        return None
    lines = text.splitlines()
    out, raw = list(lines), 0
    index = 0
    while index < len(lines):
        if _RAW_HTML.fullmatch(lines[index]):
            out[index], end = "", index + 1
            while end < len(lines) and (not lines[end].strip() or lines[end][:1].isspace()):
                end += 1
            block = textwrap.dedent("\n".join(lines[index + 1 : end])).split("\n")
            out[index + 1 : end] = block
            raw += sum(1 for line in block if line.strip())
            index = end
        else:
            index += 1
    shown = sum(1 for line in lines if line.strip())
    return "\n".join(out) if raw and 2 * raw >= shown else None


def read_html(path: Path, text: str, options: Options) -> Parsed:
    return markdown.read_markdown(path, page_markdown(raw_html(text) or text), options)
