"""Exports of flashcard tools: Anki's "Notes in Plain Text" and the HTML inside its fields.

Such a file starts with header lines (``#separator:tab``, ``#html:true``,
``#columns:Front	Back	Tags``, ``#deck column:2``, ``#tags column:5``,
``#notetype column:1``, ``#guid column:1``) and has no row of column
names: the columns are named by ``#columns:``, else the numbered columns
are the note type, deck, tags and GUID they are said to be, and the other
columns, in order, the question and the answer. With ``#html:true`` a
field is read as an Anki package's is (``htmltext``): line breaks
(``<br>``, ``<div>``, ``<p>``) become new lines, lists, bold and code
their Markdown, ``&nbsp;`` a space, the other formatting tags go, while
text in angle brackets that is no HTML (``</s>``, ``<think>``,
``<|im_end|>``, ``<eos>``) stays as written. A deck ``LLM::训练`` is the
chapter ``训练``; Anki's tags are separated by spaces. A cloze note asks its
text with the gaps shown as ``[…]`` (or the gap's hint), and what fills them
is its answer.

Anki's "Cards in Plain Text" has no header: a line per card, the front, a
tab and the back (``plain_cards``); so has its "Notes in Plain Text" from before header
lines were written, its fields and tags between tabs (``headerless`` reads its columns). A card without a back is its front
alone, without a tab, and a first line ``# …`` is the deck's title, the
chapter of every card (``title``). A headerless deck whose lines are ``front; back`` or
``front | back`` (``line_separator``) is read a card a line (``linecards``).

In a table of cards (``topics``), a front that opens with its topic in brackets
(``[LLM 基础原理] 请描述 …``) is in the chapter of that topic, and a level label before
the front (``【进阶】``, ``⭐⭐⭐【系统设计】``) and ⭐ marks before or after it are its tags.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from studybot.bank.importer.draft import Draft, Parsed
from studybot.bank.importer.htmltext import markdown_of
from studybot.bank.importer.markers import reads_as_question
from studybot.bank.importer.metadata import tag_word

_HEADER = re.compile(r"^#(?P<key>[a-z][a-z ]*?)\s*:(?P<value>.*)$", re.IGNORECASE)
KNOWN = {"separator", "html", "columns", "tags column", "deck column", "notetype column",
         "guid column", "notetype", "deck", "tags", "if matches"}  # fmt: skip
_SEPARATORS = {"tab": "\t", "comma": ",", "semicolon": ";", "pipe": "|", "space": " ",
               "colon": ":"}  # fmt: skip
_ROLES = {"deck column": "deck", "tags column": "tags", "notetype column": "notetype",
          "guid column": "guid"}  # fmt: skip
# a line of Markdown's own (a heading, a list item, a quote, a fence, a table row): no card
_MARKDOWN_LINE = re.compile(r"^(?:#|[-*+>|]\s|\d+[.)]\s|```|~~~)")
_TITLE = re.compile(r"^#\s+(?P<title>[^\t#].*?)\s*$")
_CLOZE = re.compile(r"\{\{c\d+::(?P<text>.*?)(?:::(?P<hint>[^{}]*?))?\}\}", re.DOTALL)


@dataclass
class Export:
    """What the header lines of a flashcard export say."""

    lines: int = 0  # how many header lines come before the notes
    delimiter: str | None = None
    html: bool = False
    columns: list[str] = field(default_factory=list)
    roles: dict[int, str] = field(default_factory=dict)  # 0-based column -> deck/tags/…
    deck: str | None = None  # "#deck:…": the deck of every note

    def names(self, width: int) -> list[str]:
        """The names of ``width`` columns: ``#columns:``, else roles and the fields in order."""
        if self.columns:
            names = list(self.columns)
            for index, role in self.roles.items():
                if index < len(names) and not names[index].strip():
                    names[index] = role
            return names + [f"column {n}" for n in range(len(names) + 1, width + 1)]
        fields = (f"field {n}" for n in range(1, width + 1))
        return [self.roles.get(index) or next(fields) for index in range(width)]

    def mapping(self, names: list[str]) -> tuple[tuple[str, str], ...]:
        """Without ``#columns:``, the first field is the question and the second the answer."""
        if self.columns:
            return ()
        return tuple(
            (role, name)
            for role, name in (("question", "field 1"), ("answer", "field 2"))
            if name in names
        )


def header(text: str) -> Export | None:
    """The header of a flashcard export at the top of ``text``, else None."""
    found = Export()
    for line in text[:65536].splitlines():
        match = _HEADER.match(line.strip())
        if not match or match["key"].strip().lower() not in KNOWN:
            break
        key, value = match["key"].strip().lower(), match["value"].strip()
        found.lines += 1
        if key == "separator":
            found.delimiter = _SEPARATORS.get(value.lower(), value[:1] or None)
        elif key == "html":
            found.html = value.lower() == "true"
        elif key == "columns":
            found.columns = value.split(found.delimiter or "\t")
        elif key == "deck" and value:
            found.deck = value
        elif key in _ROLES and value.isdigit() and int(value) >= 1:
            found.roles[int(value) - 1] = _ROLES[key]
    return found if found.lines else None


def text_of(value: str) -> str:
    """A field written as HTML, as Markdown text (``htmltext``, as for Anki packages)."""
    return markdown_of(value)


def cloze(question: str, extra: str) -> tuple[str, str] | None:
    """A cloze note (``{{c1::RoPE}} 把位置编码成旋转``): the text with its gaps, and what fills
    them (then the note's extra text) as the answer; None for a note without gaps."""
    found = list(_CLOZE.finditer(question))
    if not found:
        return None
    text = _CLOZE.sub(lambda m: f"[{m['hint'].strip()}]" if m["hint"] else "[…]", question)
    filled = "；".join(dict.fromkeys(m["text"].strip() for m in found))
    return text, f"{filled}\n\n{extra.strip()}" if extra.strip() else filled


def deck(value: str) -> str:
    """``LLM面试::训练`` → ``训练``: the deck a note is in, without its parents."""
    return value.rsplit("::", 1)[-1].strip()


def tags(value: str) -> str:
    """Anki's tags are separated by spaces; the importer's by commas."""
    return ",".join(value.split())


def title(text: str) -> str | None:
    """The title line ``# My deck`` over a headerless export's cards, else None."""
    match = _TITLE.match(text.partition("\n")[0])
    return match["title"] if match else None


def plain_cards(text: str) -> bool:
    """Anki's "Cards in Plain Text": under an optional ``# title``, a line per card
    (of the first 200), ``front<TAB>back`` or a front alone; cards with a back are a quarter
    of them or more, no line without a tab is Markdown's own, and most fronts ask. Its
    "Notes in Plain Text" without header lines: as many tabs on every line, asking or not."""
    lines = [line for line in text[:262144].splitlines()[:201] if line.strip()]
    if lines and title(lines[0]) is not None:
        lines = lines[1:]
    lines = lines[:200]
    backed = [line for line in lines if "\t" in line]
    if len(lines) < 2 or len(backed) < 2 or 4 * len(backed) < len(lines):
        return False
    if len(backed) == len(lines) and len({line.count("\t") for line in lines}) == 1:
        return True  # as many fields on every line: "Notes in Plain Text" without its header
    if any(line.count("\t") != 1 for line in backed):
        return False
    alone = (line for line in lines if "\t" not in line)
    if any(_MARKDOWN_LINE.match(line) or line[:1].isspace() for line in alone):
        return False
    asking = sum(1 for line in lines if reads_as_question(line.split("\t")[0]))
    return 3 * asking >= 2 * len(lines)


def line_separator(text: str) -> str | None:
    """A deck of ``front; back`` or ``front | back`` lines with no header (Anki's "Notes in
    Plain Text" with another separator): under an optional ``# title``, of the first 200
    lines, three in four or more hold that separator once with text on both sides, none is
    Markdown's own, and a third of the fronts or more ask. The separator, else None."""
    lines = [line for line in text[:262144].splitlines()[:201] if line.strip()]
    if lines and title(lines[0]) is not None:
        lines = lines[1:]
    lines = lines[:200]
    if len(lines) < 3 or any(_no_card(line) for line in lines):
        return None
    for separator in (";", "|"):
        fronts = [
            front
            for front, mark, back in (line.partition(separator) for line in lines)
            if mark and front.strip() and back.strip() and separator not in back
        ]
        asking = sum(1 for front in fronts if reads_as_question(front))
        if 4 * len(fronts) >= 3 * len(lines) and 3 * asking >= len(fronts):
            return separator
    return None


def _no_card(line: str) -> bool:
    """A line no ``front; back`` deck holds: Markdown's own, a table's rule, a tab's fields."""
    return bool(_MARKDOWN_LINE.match(line)) or set(line) <= set("-:| ") or "\t" in line


def plain_deck(text: str) -> bool:
    """A headerless plain-text deck: ``front<TAB>back`` lines, or ``front; back`` ones."""
    return plain_cards(text) or line_separator(text) is not None


# "[LLM 基础原理] 请描述 …": the card's topic in brackets before its front
_TOPIC = re.compile(r"^\s*\[(?P<topic>[^\[\]\n]{1,60}?)\]\s+(?=[^\s(])")
# "【进阶】", "【基础 ⭐⭐⭐】", "⭐⭐⭐【系统设计】", "【开放/系统设计】": a level label opening a front
_LABEL = re.compile(
    r"^\s*(?P<before>⭐*)\s*【(?P<label>[^【】\n⭐]{1,12}?)\s*(?P<inside>⭐*)】\s*(?=\S)"
)
_STARS_TAIL = re.compile(r"\s*(?P<stars>⭐+)\s*$")  # "…？ ⭐⭐": how hard, after the front
_STARS_HEAD = re.compile(r"^\s*(?P<stars>⭐+)\s*(?=\S)")  # "⭐⭐ …？": the same, before it
_DIFFICULTY = re.compile(r"(?:[EMH]|easy|medium|hard|简单|中等|困难)", re.IGNORECASE)
_LEVELS = ("基础", "进阶", "高级", "入门", "实战")


def topics(out: Parsed) -> Parsed:
    """Cards whose fronts open with ``[topic] `` (two in three or more, a difficulty such as
    ``[E]`` aside) in chapters by topic (a tag where the card has a chapter already); a
    front's level label (``【进阶】``, ``⭐⭐⭐【系统设计】``) and ⭐ marks at either end are tags."""
    drafts = out.drafts
    found = [_TOPIC.match(d.question) for d in drafts]
    topical = [m for m in found if m and not _DIFFICULTY.fullmatch(m["topic"].strip())]
    by_topic = len(drafts) >= 2 and 3 * len(topical) >= 2 * len(drafts)
    for draft, match in zip(drafts, found, strict=True):
        if by_topic and match and not _DIFFICULTY.fullmatch(match["topic"].strip()):
            topic, draft.question = match["topic"].strip(), draft.question[match.end() :]
            if draft.chapter:
                draft.tags.append(tag_word(topic))
            else:
                draft.chapter = topic
        draft.tags.extend(_labels(draft))
    return out


def _labels(draft: Draft) -> list[str]:
    """The tags of a front's level label and stars, which leave its text."""
    tags = []
    label = _LABEL.match(draft.question)
    if label is not None:
        draft.question = draft.question[label.end() :]
        for part in re.split(r"\s*[/→、]\s*", label["label"].strip()):
            tags.append(f"level:{part}" if part in _LEVELS else tag_word(part))
        stars = label["before"] or label["inside"]
        tags += [f"stars:{len(stars)}"] if stars else []
    head = _STARS_HEAD.match(draft.question) if label is None else None
    if head is not None:
        draft.question = draft.question[head.end() :]
        tags.append(f"stars:{len(head['stars'])}")
    tail = _STARS_TAIL.search(draft.question)
    if tail is not None:
        draft.question = draft.question[: tail.start()]
        tags.append(f"stars:{len(tail['stars'])}")
    return tags
