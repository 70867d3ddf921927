"""Questions a list swallowed: text exported from a PDF, read as Markdown.

A PDF's text has no blank lines, so a numbered step in an answer (``1.
Retrieval: …``) opens a list, and every line after it continues that list's
last item (Markdown's lazy continuation) — the next questions
(``37 Question 37: …``) included. A top-level list is cut before the first
line at the margin, right under the list's text, that carries a numbered
question marker; the lines from there are read again as blocks of their own. So is a raw
list's short label item (``1. sft``) right over the lines it names, the first of which asks
(``训练数据量级？``): they are questions of their own, the label asks nothing.
"""

from __future__ import annotations

from studybot.bank.importer.blocks import Block, parse, plain
from studybot.bank.importer.markers import clean, marker, reads_as_question

_LABEL_WORDS = 2  # words of a label item at most ("1. sft", "2. reward model")


def unswallowed(lines: list[str], blocks: list[Block]) -> list[Block]:
    """``blocks`` with each top-level list cut before a marked question it swallowed."""
    out: list[Block] = []
    for block in blocks:
        cut = _first_question(lines, block) if block.is_list else None
        if cut is None:
            out.append(block)
            continue
        out.extend(_shifted(parse("\n".join(lines[block.start : cut])), block.start))
        rest = _shifted(parse("\n".join(lines[cut : block.end])), cut)
        out.extend(unswallowed(lines, rest))
    return out


def _first_question(lines: list[str], block: Block) -> int | None:
    """The first line inside ``block`` that continues an item lazily and is a numbered
    question (``37 Question 37: …``, ``Q5: …``)."""
    for at in range(block.start + 1, min(block.end, len(lines))):
        line, above = lines[at], lines[at - 1]
        if not line[:1].strip() or not above.strip() or above.startswith(" "):
            continue
        found = marker(line)
        if (found is not None and found[0] is not None) or _under_label(block, at, line):
            return at
    return None


def _under_label(block: Block, at: int, line: str) -> bool:
    """Whether ``line`` (at ``at``) asks right under a short label item that asks nothing."""
    item = next((i for i in block.children if i.start == at - 1 and i.end > at), None)
    first = item.first_paragraph() if item is not None else None
    if first is None:
        return False
    label = clean(plain(first.raw.split("\n")[0]))
    short = 0 < len(label.split()) <= _LABEL_WORDS and len(label) <= 20
    return short and not reads_as_question(label) and reads_as_question(clean(plain(line)))


def _shifted(blocks: list[Block], offset: int) -> list[Block]:
    for block in blocks:
        block.start += offset
        block.end += offset
        _shifted(block.children, offset)
    return blocks
