"""A quiz question in quotes: ``> 4、看一下…`` and its quoted code over ``- [ ]``/``- [x]`` options.

A run of block quotes (nothing but blank lines between them) right above a task list with
an option ticked is one question: every paragraph of the quotes, in order, and the code
quoted between them (``>       a = np.random.randn(2, 3)``), so two stems with the same
words and different code stay apart; a line that only shows an image is left out. The
ticked list is the answer, with the notes under its options (``- [x] …`` over an indented
```` ```diff ```` block), as under any other question. Without a ticked list right below,
a quote is read as before, its paragraphs one by one.

A file that opens with a quote that asks (``> 了解 ELMo 和 BERT 吗？简述…``), over sections
none of whose headings ends in a question mark or carries a marker (``### ELMo 和 BERT 简述``,
``### 实现示例``), holds that one question: the rest of the file is its answer.
"""

from __future__ import annotations

from studybot.bank.importer.blocks import Block, plain, source
from studybot.bank.importer.boxes import question_callout
from studybot.bank.importer.markers import (
    CHECKBOX,
    asks,
    clean,
    items,
    marker,
    reads_as_question,
)
from studybot.bank.importer.quiz import ticked


def quoted_stem(
    lines: list[str], blocks: list[Block], index: int
) -> tuple[int, str, str, int] | None:
    """(the stem's first line, its text, the ticked list as written, the index after it) when
    the quotes from ``blocks[index]`` are a quiz question's stem; else None. The list is
    the answer as written, ticks and all: never key points, which would drop the ticks."""
    end = index
    while end < len(blocks) and blocks[end].kind == "quote" and not question_callout(blocks[end]):
        end += 1
    listed = blocks[end] if index < end < len(blocks) else None
    if listed is None or not listed.is_list or not ticked(listed) or not _options(listed):
        return None
    quoted = [child for quote in blocks[index:end] for child in quote.children]
    said = [clean(plain(b.raw)) for b in quoted if b.kind == "paragraph"]
    if not any(map(reads_as_question, said)):
        return None
    parts = [_shown(lines, block) for block in quoted]
    return quoted[0].start, "\n\n".join(filter(None, parts)), source(lines, [listed]), end + 1


def quoted_one(blocks: list[Block]) -> tuple[Block, str, list[Block]] | None:
    """(the quote, the question it asks, the blocks after it) in a file that is one quoted
    question over its answer's sections; None in any other file."""
    first = blocks[0] if blocks else None
    if first is None or first.kind != "quote" or question_callout(first):
        return None
    said = first.children[0] if len(first.children) == 1 else None
    text = clean(plain(said.raw)) if said is not None and said.kind == "paragraph" else ""
    headings = [b for b in blocks[1:] if b.kind == "heading"]
    if not (text and reads_as_question(text) and headings):
        return None
    if any(asks(clean(plain(b.raw))) or marker(b.raw, heading=True) for b in headings):
        return None
    return first, text, blocks[1:]


def _options(listed: Block) -> bool:
    """Every item of the list is a checkbox: options to tick, not an answer's points."""
    found = [item.first_paragraph() for item in items(listed)]
    return all(p is not None and CHECKBOX.match(p.raw) for p in found)


def _shown(lines: list[str], block: Block) -> str:
    """A block of the stem as the question shows it: a paragraph's text, code fenced."""
    if block.kind == "paragraph":
        return "\n".join(filter(None, (clean(plain(line)) for line in block.raw.split("\n"))))
    if block.kind == "fence":
        code = source(lines, [block])
        return code if code.startswith(("```", "~~~")) else f"```\n{code}\n```"
    return ""
