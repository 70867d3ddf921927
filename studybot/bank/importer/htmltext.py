"""A flashcard field written as HTML, as the Markdown a bank keeps: Anki decks and CrowdAnki.

Anki stores what a card shows as HTML: ``<div>`` and ``<br>`` for lines,
``<ul><li>`` for lists, ``<b>``, ``<code>``, ``<pre>``, MathJax's ``\\(…\\)``.
Read back, a paragraph or a ``<div>`` is a line of its own (paragraphs
apart by a blank line), a list item a ``- `` line (``1. `` in a numbered
list), bold ``**…**``, code in backticks or a fenced block, a formula
``$…$``; images, sounds and the other formatting leave nothing but their
text. Text in angle brackets that is no HTML (``</s>``, ``<think>``,
``<|im_end|>``) is kept as written, whether the field escaped it or not.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from studybot.bank.importer.draft import one_blank_line

_BLOCKS = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "table", "tr", "hr"}
_LISTS = {"ul", "ol"}
_DROPPED = {"script", "style"}
# the tags whose text stays and whose marks go
_INLINE = {
    "span",
    "font",
    "u",
    "sub",
    "sup",
    "a",
    "mark",
    "small",
    "big",
    "center",
    "strike",
    "del",
    "ins",
    "td",
    "th",
    "thead",
    "tbody",
    "img",
    "abbr",
    "kbd",
    "section",
    "article",
    "body",
    "html",
    "head",
    "label",
    "tt",
}  # fmt: skip  (no "s": ``</s>`` in a field is the end-of-sequence token)
_MARKS = {"code": "`", "b": "**", "strong": "**", "i": "*", "em": "*"}
_SOUND = re.compile(r"\[sound:[^\]\n]*\]")
_MATH = re.compile(r"\\\((?P<inline>.+?)\\\)|\\\[(?P<display>.+?)\\\]", re.DOTALL)


def markdown_of(value: str) -> str:
    """The text of an HTML field, its lines, lists, emphasis and code kept as Markdown."""
    if "<" not in value and "&" not in value:
        return _math(_SOUND.sub("", value)).strip()
    reader = Reader()
    reader.feed(_SOUND.sub("", value))
    reader.close()
    return _math(reader.text())


def _math(text: str) -> str:
    return _MATH.sub(
        lambda m: f"${m['inline']}$" if m["inline"] is not None else f"$${m['display']}$$", text
    )


class Reader(HTMLParser):
    """Collects the text of the field, a line at a time."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.lists: list[
            list[int]
        ] = []  # for each open list, [number of the next item]; 0: bullets
        self.pre = 0  # inside <pre>: lines as written, no marks
        self.dropped = 0
        self.wrote = False  # any text yet

    def text(self) -> str:
        joined = "".join(self.out).replace("\xa0", " ")
        lines = [line.rstrip() for line in joined.split("\n")]
        return one_blank_line("\n".join(lines)).strip()

    def _tail(self, size: int = 4) -> str:
        """The last ``size`` characters written (without joining all that was written)."""
        tail = ""
        for piece in reversed(self.out):
            tail = piece + tail
            if len(tail) >= size:
                break
        return tail[-size:]

    def _break(self, blank: bool = False) -> None:
        """End the line being written (and leave a blank line after it)."""
        want = "\n\n" if blank else "\n"
        if not self.wrote:  # nothing above to end
            return
        tail = self._tail()
        ends = len(tail) - len(tail.rstrip("\n"))
        if ends < len(want):
            self.out.append(want[ends:])

    def _marked(self, tag: str) -> bool:
        """Code, bold or italic written as its mark (none inside <pre>), or a block's line
        break; False for any other tag."""
        if tag in _MARKS:
            if not self.pre:
                self.out.append(_MARKS[tag])
            return True
        if tag in _BLOCKS:
            self._break(blank=tag != "div")
            return True
        return False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROPPED:
            self.dropped += 1
        elif tag == "br":
            self.out.append("\n")
        elif tag in _LISTS:
            self._break(blank=not self.lists)
            self.lists.append([1 if tag == "ol" else 0])
        elif tag == "li":
            self._break()
            number = self.lists[-1] if self.lists else [0]
            indent = "  " * max(0, len(self.lists) - 1)
            self.out.append(f"{indent}{number[0]}. " if number[0] else f"{indent}- ")
            number[0] += 1 if number[0] else 0
        elif tag == "pre":
            self._break(blank=True)
            self.out.append("```\n")
            self.pre += 1
        elif tag == "code" and self.pre:  # <pre><code class="language-python">: the fence's
            language = dict(attrs).get("class") or ""
            if language.startswith("language-") and self.out and self.out[-1] == "```\n":
                self.out[-1] = "```" + language.removeprefix("language-") + "\n"
        elif not self._marked(tag) and tag not in _INLINE:
            self.out.append(self.get_starttag_text() or f"<{tag}>")  # <think>: text, not HTML

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROPPED:
            self.dropped = max(0, self.dropped - 1)
        elif tag in _LISTS:
            if self.lists:
                self.lists.pop()
            self._break(blank=not self.lists)
        elif tag == "li":
            self._break()
        elif tag == "pre":
            self.pre = max(0, self.pre - 1)
            if self._tail(1) != "\n":
                self.out.append("\n")
            self.out.append("```")
            self._break(blank=True)
        elif not self._marked(tag) and tag not in _INLINE and tag != "br":
            self.out.append(f"</{tag}>")  # </s>: the end-of-sequence token, as written

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "hr", "img") or tag in _INLINE or tag in _BLOCKS:
            self.handle_starttag(tag, attrs)
        else:
            self.out.append(self.get_starttag_text() or f"<{tag}/>")

    def handle_data(self, data: str) -> None:
        if self.dropped:
            return
        if not self.pre:
            data = re.sub(r"[ \t\r\n]+", " ", data)
            if not self.out or self._tail(1) == "\n":
                data = data.lstrip(" ")
        self.out.append(data)
        self.wrote = self.wrote or bool(data.strip())


# a field is HTML where it holds markup that breaks lines (``<br>``, ``<p>``, ``</div>``) or
# entities with no bare tag beside them, or a formatting element closed around its text
# (``<code>Dataset</code>``, ``<a href="…">a book</a>``) in a field with no bare ``<`` (HTML
# writes ``&lt;``); "<div> and <span>" or "turn < into &lt; in <b>it</b>" is text about HTML
LINE_BREAK = r"<br\s*/?>"  # "<br>", "<br/>", "<br />" (case aside)
MARKUP = re.compile(rf"{LINE_BREAK}|<p\b[^<>]*>|</p>|</div>|</li>|&nbsp;", re.IGNORECASE)
_ENTITY = re.compile(r"&(?:[a-z]+|#\d+|#x[0-9a-f]+);", re.IGNORECASE)
_TAG = re.compile(r"<[a-z][^<>]*>", re.IGNORECASE)
_ELEMENT = re.compile(
    r"<(?P<tag>a|b|i|em|strong|code|u|span|font|sub|sup|mark|kbd|tt)\b[^<>]*>[^<>]+</(?P=tag)>",
    re.IGNORECASE,
)
_BARE_LT = re.compile(r"<(?![a-z/!])", re.IGNORECASE)  # "x < 3": a "<" that opens no tag


def written_as_html(text: str) -> bool:
    """Whether a table's text holds HTML in any field (then each field is looked at)."""
    return bool(MARKUP.search(text) or _ELEMENT.search(text) or "&" in text)


def holds_markup(field: str) -> bool:
    """Whether a record's field is written as HTML rather than as text that names tags."""
    if MARKUP.search(field) or (_ELEMENT.search(field) and not _BARE_LT.search(field)):
        return True
    return bool(_ENTITY.search(field) and not _TAG.search(field))
