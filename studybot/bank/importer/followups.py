"""Follow-up questions inside an answer, each answered in the parenthesis after it.

``- **追问点**：`` over ``  - 如果不除以 √d_k 会怎样？（答：梯度趋近零）``: a sub-list
whose every item asks and carries its answer in a parenthesis that opens with an
answer marker (``（答：…）``, ``(A: …)``) holds questions of their own. Each is
taken right after the question whose answer held it, the parenthesis its answer
(never part of its text); the item holding that sub-list (the label) leaves the
answer, the rest of the answer stays as it was.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.draft import Draft
from studybot.bank.importer.markers import asks, clean, items
from studybot.bank.importer.wrapping import joined

# "…？（答：…）", "…? (A: …)": the question, then its answer in parentheses
_ANSWERED = re.compile(
    r"^(?P<q>.+?[？?])\s*[（(]\s*(?:答|答案|简答|A|Answer)\s*[:：]\s*(?P<a>.+)[）)]$",
    re.DOTALL,
)


def with_follow_ups(drafts: list[Draft], where: Callable[[int], str]) -> list[Draft]:
    """``drafts`` with the follow-ups their answers list placed after each, taken out of the
    answer that held them."""
    out: list[Draft] = []
    for draft in drafts:
        out.append(draft)
        kept: list[Block] = []
        for block in draft.blocks:
            kept.extend(_taken_out(block, draft, where, out) if block.is_list else [block])
        draft.blocks = kept
    return out


def _taken_out(
    block: Block, draft: Draft, where: Callable[[int], str], out: list[Draft]
) -> list[Block]:
    """The parts of the list ``block`` left once the items that hold answered follow-ups are
    out; each follow-up appended to ``out``."""
    parts: list[list[Block]] = [[]]
    for item in items(block):
        found = _answered(item)
        if not found:
            parts[-1].append(item)
            continue
        for line, question, answer in found:
            out.append(Draft(where(line), question, reference=answer, path=draft.path))
        parts.append([])
    if len(parts) == 1:
        return [block]
    return [
        Block(block.kind, part[0].start, part[-1].end, children=part, taken=block.taken)
        for part in parts
        if part
    ]


def _answered(item: Block) -> list[tuple[int, str, str]]:
    """(line, question, answer) of each item of the sub-list under ``item``, when every one
    asks with its answer in parentheses; [] otherwise."""
    subs = [child for child in item.children[1:] if child.is_list]
    if len(subs) != 1 or len(item.children) != 2 or item.first_paragraph() is None:
        return []
    found = []
    for sub in items(subs[0]):
        paragraph = sub.first_paragraph()
        text = plain(joined(paragraph.raw)).strip() if paragraph is not None else ""
        match = _ANSWERED.fullmatch(text)
        if match is None or len(sub.children) != 1 or not asks(clean(match["q"])):
            return []
        found.append((sub.start, clean(match["q"]), match["a"].strip()))
    return found
