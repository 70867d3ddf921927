"""Follow-up questions inside an answer, each answered in the parenthesis after it.

``- **追问点**：`` over ``  - 如果不除以 √d_k 会怎样？（答：梯度趋近零）``: a sub-list
whose every item asks and carries its answer in a parenthesis that opens with an
answer marker (``（答：…）``, ``(A: …)``) holds questions of their own. Each is
taken right after the question whose answer held it, the parenthesis its answer
(never part of its text); the item holding that sub-list (the label) leaves the
answer, the rest of the answer stays as it was.

A heading that gathers questions and asks nothing (``### 12. 面试追问汇总``), over lists whose
every item asks and answers on its own line (``- 什么时候不用缓存？答：数据常变时。``), a bold
label (``**架构追问**：``) before each list, is no question: each item is one, its answer the
text after the marker (``gathered``).

An item of a list in an answer labelled a follow-up, its question in quotes and its answer
after a dash (``3. **追问："如何保持可控？"** — 限制权限…``), is a question of its own too,
taken the same way (``_labelled``).

``#### 追问`` (``Follow-ups``) inside an answer, over a list whose every item asks: each
item is a question of its own, with no answer, taken right after the question whose answer
held it; the heading and its list leave that answer. So is a deeper heading that quotes a
follow-up after its number (``#### Q1: "Why is X better than Y?"``), its section its answer
(``_without_quoted``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.draft import Draft
from studybot.bank.importer.markers import INLINE_ANSWER, asks, clean, items, reads_as_question
from studybot.bank.importer.wrapping import joined

# "#### 追问", "### Follow-up questions": a heading over follow-ups
_FOLLOW_UP_HEADING = re.compile(
    r"^(?:常见|延伸|扩展)?追问(?:题|点)?[:：]?$|^follow[- ]?ups?(?:\s+questions?)?[:：]?$", re.I
)
# '**追问："…？"** — its answer', '**Follow-up: "…?"** — …': an item labelled a follow-up
_LABELLED = re.compile(
    r"^(?:面试官?)?追问\s*\d{0,3}\s*[:：]|^follow[- ]?up(?:\s+question)?\s*\d{0,3}\s*:", re.I
)
_LABELLED_REST = re.compile(
    r"\s*[\"“「]?(?P<q>[^\"“”「」\n]+?[？?])[\"”」]?\s*(?:——|—|–|--?|[:：])\s*(?P<a>\S.*)$",
    re.DOTALL,
)
# '#### Q1: "Why …?"': a follow-up the interviewer may ask, quoted after its number
_QUOTED = re.compile(
    r"^(?:Q|问题?|追问)\s*\d{1,3}\s*[:：.]\s*[\"“「](?P<q>[^\"“”「」\n]+?[？?])[\"”」]$", re.I
)
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
        if found := gathered(draft):
            out.extend(Draft(where(line), q, reference=a, path=draft.path) for line, q, a in found)
            continue
        out.append(draft)
        kept: list[Block] = []
        for block in draft.blocks:
            kept.extend(_taken_out(block, draft, where, out) if block.is_list else [block])
        draft.blocks = _without_quoted(_without_headed(kept, draft, where, out), draft, where, out)
    return out


def _without_quoted(
    blocks: list[Block], draft: Draft, where: Callable[[int], str], out: list[Draft]
) -> list[Block]:
    """``blocks`` without each ``#### Q1: "…?"`` heading and its section; each a question of
    its own appended to ``out``, its section its answer."""
    kept: list[Block] = []
    index = 0
    while index < len(blocks):
        block = blocks[index]
        found = _QUOTED.match(clean(plain(block.raw))) if block.kind == "heading" else None
        if found is None or not asks(found["q"]):
            kept.append(block)
            index += 1
            continue
        end = index + 1
        while end < len(blocks) and not (
            blocks[end].kind == "heading" and blocks[end].level <= block.level
        ):
            end += 1
        asked = Draft(where(block.start), clean(found["q"]), path=draft.path)
        asked.blocks = blocks[index + 1 : end]
        out.append(asked)
        index = end
    return kept


def _without_headed(
    blocks: list[Block], draft: Draft, where: Callable[[int], str], out: list[Draft]
) -> list[Block]:
    """``blocks`` without each ``#### 追问`` heading and the list of questions right under it;
    each of those questions appended to ``out``."""
    kept: list[Block] = []
    index = 0
    while index < len(blocks):
        block, after = blocks[index], blocks[index + 1 : index + 2]
        asked = _asked(after[0]) if after and _heads_follow_ups(block) else []
        if not asked:
            kept.append(block)
            index += 1
            continue
        out.extend(Draft(where(line), question, path=draft.path) for line, question in asked)
        index += 2
    return kept


def _heads_follow_ups(block: Block) -> bool:
    return block.kind == "heading" and bool(_FOLLOW_UP_HEADING.match(clean(plain(block.raw))))


def _asked(block: Block) -> list[tuple[int, str]]:
    """(line, question) of each item of the list ``block`` when every one asks and holds no
    more than its text; [] otherwise."""
    found = []
    for item in items(block) if block.is_list else []:
        text = clean(_text(item))
        if len(item.children) != 1 or not asks(text):
            return []
        found.append((item.start, text))
    return found


def _taken_out(
    block: Block, draft: Draft, where: Callable[[int], str], out: list[Draft]
) -> list[Block]:
    """The parts of the list ``block`` left once the items that hold answered follow-ups are
    out; each follow-up appended to ``out``."""
    parts: list[list[Block]] = [[]]
    for item in items(block):
        found = _answered(item) or _labelled(item)
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
        match = _ANSWERED.fullmatch(_text(sub))
        if match is None or len(sub.children) != 1 or not asks(clean(match["q"])):
            return []
        found.append((sub.start, clean(match["q"]), match["a"].strip()))
    return found


def _labelled(item: Block) -> list[tuple[int, str, str]]:
    """[(line, question, answer)] of an item labelled a follow-up that asks in quotes and
    answers after a dash (``**追问："…？"** — …``); [] otherwise."""
    text = _text(item)
    label = _LABELLED.match(text) if len(item.children) == 1 else None
    found = _LABELLED_REST.match(text, label.end()) if label else None
    if found is None or not asks(clean(found["q"])):
        return []
    return [(item.start, clean(found["q"]), found["a"].strip())]


def gathered(draft: Draft) -> list[tuple[int, str, str]]:
    """(line, question, answer) of each item under a heading that gathers questions answered
    on their own lines (``- …？答：…``): the heading asks nothing, its section holds only such
    lists (two items at least), labels and lists that ask nothing (a list to read); []
    otherwise."""
    if reads_as_question(draft.question) or draft.reference or not draft.blocks:
        return []
    found: list[tuple[int, str, str]] = []
    for block in draft.blocks:
        if block.kind == "paragraph" and not asks(clean(plain(joined(block.raw)))):
            continue  # "**架构追问**："
        texts = [_text(item) for item in items(block)] if block.is_list else [""]
        if block.is_list and not any(asks(clean(t)) or INLINE_ANSWER.fullmatch(t) for t in texts):
            continue  # "- MCP 官方文档：<https://…>": a list to read, it asks nothing
        for item, text in zip(items(block) if block.is_list else [block], texts, strict=True):
            match = INLINE_ANSWER.fullmatch(text)
            if match is None or len(item.children) != 1 or not match["a"].strip():
                return []
            if not asks(clean(match["q"])):
                return []
            found.append((item.start, clean(match["q"]), match["a"].strip()))
    return found if len(found) > 1 else []


def _text(item: Block) -> str:
    paragraph = item.first_paragraph()
    return plain(joined(paragraph.raw)).strip() if paragraph is not None else ""
