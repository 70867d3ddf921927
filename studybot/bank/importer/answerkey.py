"""An answer key below a list of questions: the answers numbered as the questions are.

Under a numbered list of questions, a label alone (``***答案***``, ``**参考答案**``,
``## Answers``) over items numbered ``1.`` … ``N.`` (one list, or a list
each, as a notebook's answer cells are) is the key: item k, and what follows
it up to item k+1, answers question k. A numbered list inside an answer
(``1. 划分法`` under ``8. 聚类``) is part of it, never a question, and so are
its headings (``### k-means``); the key ends where a heading asks, or opens a
list that mostly asks (the next set of questions). A label over anything
else is no key: the reader goes on as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.collapsible import answer_box, collapsible, unwrapped
from studybot.bank.importer.draft import ALL_BOLD, Draft, Parsed
from studybot.bank.importer.markers import clean, reads_as_question

# "***答案***", "**参考答案：**", "## Answers", "Answer key", "### Short answers (Round 2)"
_LABEL = re.compile(
    r"^(?:参考)?答案|^(?:(?:short|sample|model|suggested|brief)\s+)?"
    r"(?:answers?|answer key|solutions?)$",
    re.IGNORECASE,
)
_NOTE = re.compile(r"\s*[(（][^()（）]*[)）]$")  # "(simple + interview ready)" after the label


def _label(block: Block) -> bool:
    if block.kind not in ("paragraph", "heading") or "\n" in block.raw.strip():
        return False
    text = _NOTE.sub("", plain(block.raw).strip().strip("*_:： ")).strip("*_:： ")
    return bool(_LABEL.match(text)) and len(text) <= 16


def _asking_list(block: Block | None) -> bool:
    """A list most of whose items ask: questions, not an answer's points."""
    if block is None or not block.is_list:
        return False
    texts = [p.raw for item in block.children if (p := item.first_paragraph()) is not None]
    return bool(texts) and 2 * sum(map(reads_as_question, texts)) > len(texts)


def _ends(blocks: list[Block], index: int, label: Block) -> bool:
    """``blocks[index]`` opens what comes after the key: a heading that asks, one over a
    list of questions, or one at the level of the key's own heading or above it (the next
    round's ``## …`` after ``### Short answers``)."""
    block = blocks[index]
    if block.kind != "heading":
        return False
    if label.kind == "heading" and block.level <= label.level:
        return True
    below = blocks[index + 1] if index + 1 < len(blocks) else None
    return reads_as_question(plain(block.raw)) or _asking_list(below)


def pair(
    blocks: list[Block],
    label: Block,
    out: Parsed,
    where: Callable[[int], str],
    keyed: set[int],
    lines: list[str],
) -> bool:
    """When ``label``, one of the file's ``blocks``, labels an answer key for the list of
    questions just above it, give each of them its answer and add the key's blocks to
    ``keyed`` (by ``id``: the reader passes over them); else False, nothing changed."""
    index = next((i for i, block in enumerate(blocks) if block is label), 0)
    drafts, notes = out.drafts, out.notes
    if label.kind == "html" and answer_box(lines, label):  # "<summary>参考答案</summary>"
        return _boxed(blocks, index, drafts, where, keyed, lines, notes)
    if index >= 2 and label.kind == "ordered_list" and answer_box(lines, blocks[index - 1]):
        # the box's tags were left out: the questions' own box holds it (nested)
        return _boxed(blocks, index - 1, drafts, where, keyed, lines, notes)
    above = blocks[index - 1] if index else None
    if above is None or not above.is_list or not _label(label):
        return False
    first = blocks[index + 1] if index + 1 < len(blocks) else None
    if first is None or first.kind != "ordered_list" or first.children[0].number != "1":
        return False
    places = {where(line) for line in range(above.start, above.end)}
    questions = [draft for draft in drafts if draft.where in places]
    if len(questions) < 2 or any(d.reference or d.blocks for d in questions):
        return False
    if _in_turn(blocks, index) == len(above.children) > len(questions):
        questions = _every_item(above, questions, out, where)  # "8. Cache memory." too
    answering: Draft | None = None
    end = index + 1
    while end < len(blocks) and not _ends(blocks, end, label):
        block = blocks[end]
        expected = str(questions.index(answering) + 2) if answering else "1"
        if block.kind == "ordered_list" and block.children[0].number == expected:
            for item in block.children:
                answering = _answer(item, questions, answering)
        elif answering is not None:
            answering.blocks.append(block)
        keyed.add(id(block))
        end += 1
    for draft in questions:  # "1) **Proudest project.**" over its answer: the answer's title
        if draft.blocks and ALL_BOLD.fullmatch(draft.reference or ""):
            draft.reference = None
    return True


def _in_turn(blocks: list[Block], index: int) -> int:
    """How many items of the key under its label ``blocks[index]`` are numbered 1, 2, 3… in
    turn (an answer's own list, ``1. 划分法``, is out of turn)."""
    label = blocks[index]
    count, end = 0, index + 1
    while end < len(blocks) and not _ends(blocks, end, label):
        if blocks[end].kind == "ordered_list":
            for item in blocks[end].children:
                count += item.number == str(count + 1)
        end += 1
    return count


def _every_item(
    above: Block, questions: list[Draft], out: Parsed, where: Callable[[int], str]
) -> list[Draft]:
    """Each item of the list ``above`` as a question, in its place among ``questions`` (those
    already taken): a key that answers every item by its number makes each one a question,
    one that names only a topic (``8. Cache memory.``) too."""
    taken = {draft.where: draft for draft in questions}
    every: list[Draft] = []
    for item in above.children:
        text = item.first_paragraph()
        place = where(text.start if text is not None else item.start)
        draft = taken.get(place)
        if draft is None:
            title = clean(plain(text.raw)) if text is not None else ""
            draft = Draft(place, title, label=item.number, path=questions[0].path)
            at = out.drafts.index(every[-1]) + 1 if every else out.drafts.index(questions[0])
            out.drafts.insert(at, draft)
            out.skipped = [s for s in out.skipped if s.where != place]
        every.append(draft)
    return every


def _answer(item: Block, questions: list[Draft], answering: Draft | None) -> Draft | None:
    """Item k of the key answers question k: its own text, then what is nested in it; an item
    out of turn is part of the answer being read."""
    at = questions.index(answering) + 1 if answering else 0
    if at < len(questions) and item.number == str(at + 1):
        answering = questions[at]
        text = item.first_paragraph()
        answering.reference = text.raw.strip() if text is not None else None
        answering.blocks.extend(item.children[1:] if text is not None else item.children)
    elif answering is not None:
        answering.blocks.append(item)
    return answering


def _boxed(
    blocks: list[Block],
    index: int,
    drafts: list[Draft],
    where: Callable[[int], str],
    keyed: set[int],
    lines: list[str],
    notes: list[str],
) -> bool:
    """The answer box ``blocks[index]`` under a numbered list of questions: its numbered
    items 1..N answer questions 1..N, when the numbers line up (else a note says why)."""
    above = blocks[index - 1] if index else None
    if above is None or above.kind != "ordered_list":
        return False
    end, found, closed = collapsible(lines, blocks, index)
    inside = unwrapped(lines, blocks[index:end]) if closed and len(found) == 1 else None
    if not inside or not inside[0].is_list:
        return False
    places = {where(line) for line in range(above.start, above.end)}
    questions = [draft for draft in drafts if draft.where in places]
    if not questions or any(d.reference or d.blocks for d in questions):
        return False
    asked = [item.number for item in above.children]
    answers = [
        item.number for block in inside if block.kind == "ordered_list" for item in block.children
    ]
    count = len(questions)
    if asked != answers or asked != [str(n) for n in range(1, count + 1)]:
        notes.append(
            f"{where(blocks[index].start)}: the answers in the <details> box were not paired "
            f"with the {count} question(s) above it: its numbers ({_span(answers)}) do not "
            f"line up with theirs ({_span(asked)})"
        )
        return False
    answering: Draft | None = None
    for block in inside:
        if block.kind == "ordered_list":
            for item in block.children:
                answering = _answer(item, questions, answering)
        elif answering is not None:
            answering.blocks.append(block)
    keyed.update(id(block) for block in blocks[index:end])
    notes.append(
        f"{where(blocks[index].start)}: answers 1–{count} in the <details> box paired with "
        f"the {count} question(s) above it, by number"
    )
    return True


def _span(numbers: list[str | None]) -> str:
    """``1–4`` for the numbers 1 to 4 in turn, else them all: ``1, 2, 2``."""
    if numbers and numbers == [str(n) for n in range(1, len(numbers) + 1)]:
        return f"1–{len(numbers)}"
    return ", ".join(str(n) for n in numbers) or "none"
