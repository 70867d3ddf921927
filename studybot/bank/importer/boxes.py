"""Question boxes: an Obsidian ``> [!question] Q`` callout, or an MkDocs ``??? question "Q"``
box (``importer.admonitions`` rewrites it as one), is one question and its body the answer.

The body answers the title, the lines in it that ask included (``When is perplexity
misleading???`` inside the answer, ``- Where dropout appears`` over its points), unless
the body holds question boxes of its own, or the title asks nothing (``[!question]
面试题``) while lines of the body do: then the body is read as any other text is.
"""

from __future__ import annotations

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.markers import asks, q_marker
from studybot.bank.importer.notes import CALLOUT, callout_asks


def question_callout(quote: Block) -> bool:
    """``> [!question] …``, ``> 第 152 题：…``: a quote that is a question, not the answer above."""
    first = quote.children[0] if quote.children else None
    if first is None or first.kind != "paragraph":
        return False
    return bool(callout_asks(first.raw)) or q_marker(first)


def box_parts(lines: list[str], quote: Block) -> tuple[list[Block], list[Block]]:
    """A question box's blocks: those that hold its question, and those that answer it
    (none when the body is to be read for questions of its own)."""
    head, body = quote.children[:1], quote.children[1:]
    title = CALLOUT.sub("", plain(head[0].raw.split("\n")[0])) if head else ""
    inner = any(b.kind == "quote" and question_callout(b) for b in body)
    if inner or (not asks(title) and _asking_lines(lines, body)):
        return quote.children, []
    return head, body


def _asking_lines(lines: list[str], blocks: list[Block]) -> bool:
    """Whether a line of ``blocks`` (outside code) ends in a question mark."""
    spans = (b for b in blocks if b.kind != "fence")
    return any(asks(plain(lines[n])) for b in spans for n in range(b.start, min(b.end, len(lines))))
