"""Notes cards whose topics are headings, with a few asking lines inside their answers.

A notes file where no heading asks (``#### MHA(多头注意力)``, ``#### Flow matching-ICLR23``),
most cards at one level hold long answers (prose, code) and only a few lines inside them ask
(``**RQ1:MHA与SA的区别**``, ``- 为什么必须在 latent 空间？``) is read as those cards: each
heading of that level a question, the text under it its answer, the asking lines kept in the
answers (``card_level``). A file whose cards' text mostly asks (``## Transformer`` over a list
of questions), that holds more list items than cards or fewer paragraphs, or numbered asking
lines (``1、下列哪些…``), is no such file; nor one where any heading asks.
"""

from __future__ import annotations

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.markers import clean, numbered, reads_as_question
from studybot.bank.importer.sections import asking_heading

_CARDS = 4  # cards with an answer a level needs
_SHARE = 4  # at most one text line in this many of the cards' answers asks


def _lines(block: Block, source: list[str]) -> list[str]:
    """The lines of text a block shows (code, tables and HTML tags aside)."""
    if block.kind in {"fence", "code", "table", "hr"}:
        return []
    if block.kind == "html":  # "<details><summary>What is …?</summary>": the summary's text
        after = "\n".join(source[block.start : block.end]).partition("<summary")[2]
        summary = clean(plain(after.partition(">")[2].partition("</summary>")[0]))
        return [summary] if summary else []
    if block.children:
        return [line for child in block.children for line in _lines(child, source)]
    return [line for line in (clean(plain(raw)) for raw in block.raw.split("\n")) if line]


def card_level(source: list[str], blocks: list[Block]) -> int | None:
    """The heading level whose headings are the file's notes cards (the module's docstring says
    when); None for any other file."""
    heads = [j for j, b in enumerate(blocks) if b.kind == "heading"]
    if not heads or any(asking_heading(blocks[j]) for j in heads):
        return None
    bodied: dict[int, int] = {}
    for j in heads:
        if j + 1 < len(blocks) and blocks[j + 1].kind != "heading":
            bodied[blocks[j].level] = bodied.get(blocks[j].level, 0) + 1
    if not bodied:
        return None
    level = max(bodied, key=lambda n: (bodied[n], n))
    if level == 1 or bodied[level] < _CARDS:
        return None
    paragraphs = sum(1 for b in blocks if b.kind == "paragraph")
    if _items(blocks) > bodied[level] or paragraphs < bodied[level]:
        return None  # lists of questions, or cards of lists and tables: no notes
    cards = [j for j in heads if blocks[j].level == level]
    asked = [_asking(source, blocks, j, level) for j in cards]
    if any(numbered(line)[0] is not None for lines in asked for line in lines):
        return None  # "1、下列哪些…？": numbered questions in paragraphs
    asking = [len(lines) for lines in asked]
    text = [line for b in blocks[cards[0] :] if b.kind != "heading" for line in _lines(b, source)]
    held = sum(1 for n in asking if n)  # cards an asking line sits in
    if not held or 2 * held > bodied[level] or sum(asking) > bodied[level]:
        return None  # the asking lines are the questions (one a card), or many
    return level if _SHARE * sum(asking) <= len(text) else None


def _items(blocks: list[Block]) -> int:
    """The list items among ``blocks``, nested ones too."""
    return sum((len(b.children) if b.is_list else 0) + _items(b.children) for b in blocks)


def _asking(source: list[str], blocks: list[Block], at: int, level: int) -> list[str]:
    """The asking lines in the card whose heading is ``blocks[at]``, its sub-sections too."""
    end = next(
        (
            j
            for j in range(at + 1, len(blocks))
            if blocks[j].kind == "heading" and blocks[j].level <= level
        ),
        len(blocks),
    )
    return [
        line
        for b in blocks[at + 1 : end]
        if b.kind != "heading"
        for line in _lines(b, source)
        if reads_as_question(line)
    ]
