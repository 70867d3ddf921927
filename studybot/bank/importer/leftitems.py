"""List items left out of a file whose questions are list items: listed, and the option that takes them.

In a file read by its list items, an item that neither asks nor sits inside
an answer taken (``- Code a basic fine-tuning loop with PyTorch`` among
asking bullets, a numbered list of tasks under its own heading) would
vanish without a word: the preview lists each with its line, and the
import's JSON carries the same list. ``--questions items`` (or
``items:N``) is named when it takes ``MARGIN`` of them or more while it
takes every asking line the reading previewed took, loses no answer, and
takes no question that does not ask besides them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from studybot.bank.importer.blocks import Block, link_target, plain
from studybot.bank.importer.draft import WORD, Draft, Parsed
from studybot.bank.importer.layout import Layout
from studybot.bank.importer.markers import ANSWER_MARKER, items, meta
from studybot.bank.importer.nested import folded, within
from studybot.bank.importer.topics import MARGIN

if TYPE_CHECKING:  # the type only: steer imports this module
    from studybot.bank.importer.steer import Reading


def left_items(
    out: Layout, parsed: Parsed, asked: str, answers: str, listed: set[str]
) -> tuple[tuple[str, str], ...]:
    """The items (where, text) of the top-level lists of questions in ``out`` that no question
    nor answer of ``parsed`` holds, none of them ``listed`` already (``_question_lists``)."""
    drafts = [d for d in parsed.drafts if d.question.strip()]
    taken = {where for d in drafts for where in (d.where, *d.also)}
    skipped = {s.where for s in parsed.skipped}
    left = []
    for block in _question_lists(out, taken, len(drafts)):
        for item in items(block):
            own = item.first_paragraph()
            where = out.where(own.start) if own is not None else ""
            text = plain(own.raw.split("\n")[0]).strip() if own is not None else ""
            if (
                own is None
                or where in taken | skipped | listed
                or own.start in out.boxed
                or not WORD.search(text)
                or link_target(own.raw) is not None
                or within(folded(text), asked)
                or within(folded(ANSWER_MARKER.sub("", text, count=1)), answers)  # "- **A：** …"
            ):
                continue
            left.append((where, text))
    return tuple(left)


def _question_lists(out: Layout, taken: set[str], questions: int) -> list[Block]:
    """Top-level lists of a file whose questions are mostly their items: each list with an
    item taken, and each list that is a whole section's text (its heading right above it, the
    next heading, a closing line or the end right below) in a file where ``MARGIN`` sections or more are so
    and had half their items or more taken (``## Super Hard Challenges`` over ``1. Convert
    nf4 to Triton``…, after sections of asking bullets)."""
    blocks = out.blocks
    found: list[Block] = []
    whole: list[tuple[Block, bool]] = []
    in_items = 0
    for at, block in enumerate(blocks):
        if not block.is_list:
            continue
        starts = [i.first_paragraph() for i in items(block)]
        took = sum(1 for own in starts if own is not None and out.where(own.start) in taken)
        in_items += took
        if took:  # "1. 自我介绍；" taken, "1. 二分查找；" beside it: listed too
            found.append(block)
        before = blocks[at - 1] if at else None
        after = blocks[at + 1] if at + 1 < len(blocks) else None
        if (
            before is not None
            and before.kind == "heading"
            and not meta(before.raw)
            and (after is None or after.kind in ("heading", "paragraph"))  # "等等" below
        ):
            whole.append((block, 2 * took >= len(starts) > 0))
    if 2 * in_items < questions:
        return []
    if sum(1 for _, of_questions in whole if of_questions) >= MARGIN:
        found += [block for block, of_questions in whole if not of_questions]
    return found


def suggested(
    current: Reading,
    others: tuple[Reading, ...],
    tried: dict[str, Parsed],
    left: tuple[tuple[str, str], ...],
) -> Reading | None:
    """The ``items`` reading that takes the most of the items ``left`` (the docstring says when)."""
    wanted = {where for where, _ in left}
    best: tuple[int, Reading] | None = None
    for r in others:
        if not r.option.startswith("--questions items") or r.option not in tried:
            continue
        got: list[Draft] = tried[r.option].drafts
        gained = len(wanted & {where for d in got for where in (d.where, *d.also)})
        clean = r.non_asking - current.non_asking <= gained and not (r.lost or r.dropped)
        if (
            gained >= MARGIN
            and clean
            and r.asking >= current.asking
            and (current.refused or not r.refused)
            and (best is None or gained > best[0])
        ):
            best = (gained, r)
    if best is None:
        return None
    gained, r = best
    return replace(r, why=f"{gained} of the list items left out, every asking line taken")
