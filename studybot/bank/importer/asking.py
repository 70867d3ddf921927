"""Headings at the question level that ask in a way the line rules pass by, and where
a heading question's answer ends.

- a heading that sets its task after a leading statement (``# Latency, quality and cost
  pull apart. Pick one to give up and defend it.``), or holds a question mark mid-line
  (``# … Which backend would you start with and, above all, why? and list the costs.``), is
  a question like the asking headings beside it, with a body or without (``sets_task``);
- an answer ends at the next question (``next_question``): a marked line (``Q2：…``), a
  sub-question numbered under the card's own number, as a paragraph (``2.1 …？``) or a
  deeper heading (``#### 3.1 …？`` under ``### 3. …？``), a circled one (``**①…？**`` under
  ``#### 1.…``), or a heading that asks at the
  question level, or a question box (``> [!question] …``, an MkDocs ``??? question``). Under a numbered card that asks at the question level (``### 2. …？``),
  marked lines that answer themselves (``问：…？答：…``) are worked examples in its answer;
  ``问题：…？`` with its answer below, or a marked heading's ``**追问：…？**``, still asks.
- a heading question with nothing under it, right over a shallower heading that asks nothing
  and names its subject (``#### What is LoRA?`` over ``### 1. Fine-Tuning with LoRA``), is
  answered by that section and the shallower ones after it, up to the next heading at the
  question's level (``up_sections``); a shallower heading that asks, or one higher, ends it;
- an answer that announces a list (``…可以采取以下几种策略：``) takes the numbered headings
  at the question's level right after it (``### 1. **损失缩放**``, ``### 2. …``, none asking)
  as its sections, up to the next heading at that level; a heading whose own text is only a
  ``- [ ] TODO`` has no answer, and the sub-headings under it are read on their own.
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.boxes import question_callout
from studybot.bank.importer.circled import circled_part
from studybot.bank.importer.markers import (
    INLINE_ANSWER,
    asks,
    clean,
    marker,
    numbered,
    q_marker,
    reads_as_question,
)
from studybot.bank.importer.sections import asking_heading, sub_question
from studybot.bank.importer.signposts import unwritten
from studybot.bank.importer.subitems import follow_ups

# verbs that set a task in a heading's last sentence, besides those ``reads_as_question`` knows
_PROMPT = re.compile(
    r"^(?:pick|choose|name|suggest|recommend|argue|decide|defend|rank|prioriti[sz]e|convince"
    r"|persuade|make\s+the\s+case)\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_MID_MARK = re.compile(r"\w[?？]\s*\S")  # "… why? and …": asked before the line ends


def sets_task(text: str) -> bool:
    """A statement, then a task (``… pull apart. Pick one and defend it.``), or a line that asks
    before it ends (``… start with and, above all, why? and list the costs.``)."""
    if _MID_MARK.search(text) and not text.endswith(":"):
        return len(text.split()) >= 4 or len(text) >= 8
    sentences = _SENTENCE.split(text.strip())
    if len(sentences) < 2:
        return False
    last = sentences[-1]
    return len(last.split()) >= 2 and bool(_PROMPT.match(last) or reads_as_question(last))


def child_question(block: Block, label: str | None) -> bool:
    """A deeper heading numbered under the card's own number that asks (``#### 3.1 …？`` under
    ``### 3. …？``); ``#### 5.3 JWT 和 Cookie 的区别`` is a part of its answer."""
    if block.kind != "heading" or not label or not label.isdigit():
        return False
    number, rest = numbered(clean(plain(block.raw)))
    return bool(number and number.startswith(label + ".") and asks(rest))


def _worked(block: Block) -> bool:
    """``问：每线程64个寄存器会溢出吗？答：不会``: a marked line that answers itself, an example."""
    found = marker(block.raw.split("\n")[0])
    answered = INLINE_ANSWER.match(found[1]) if found else None
    return bool(answered and answered["a"].strip())


def next_question(block: Block, label: str | None, level: int | None, card: bool) -> bool:
    """Whether ``block`` starts the next question inside the answer of the one labelled
    ``label``; ``card``: that question is a numbered heading at the question level."""
    if sub_question(block, label) or child_question(block, label):  # "2.1 …？" under "### 2、…？"
        return True
    if circled_part(block, label):  # "**①…？**" under "#### 1.…"
        return True
    if block.kind == "paragraph":  # "Q2：…" ("问：…？答：…" under "### 2. …？" is its answer)
        return q_marker(block) and not (card and _worked(block))
    if block.is_list:  # "- **Q：…？**" follow-ups after the answer ("- **Q**：查询；" no)
        return follow_ups(block)
    if block.kind == "quote":  # "??? question …" under "### Quando usar …?": a question
        return question_callout(block)
    if block.kind != "heading":
        return False
    if marker(block.raw, heading=True) is not None:
        return True
    number, rest = numbered(clean(plain(block.raw)))
    if number is not None and "." not in number and asks(rest):
        return True
    return level is not None and block.level <= level and reads_as_question(rest)


# the words of a question that name no subject ("What is …", "How does …")
_ASKING_WORDS = {
    *("what", "which", "when", "where", "why", "who", "how", "are", "was", "were", "does", "did"),
    *("the", "and", "for", "with", "from", "into", "can", "could", "would", "should"),
    *("explain", "describe", "define"),
}
_SUBJECT_WORD = re.compile(r"[^\W\d_][\w-]{2,}")


def _subject(text: str) -> set[str]:
    return {w.lower() for w in _SUBJECT_WORD.findall(text)} - _ASKING_WORDS


def up_sections(
    blocks: list[Block], question: Block, inner: list[Block], end: int
) -> tuple[list[Block], int]:
    """(the answer's blocks, where it ends) of ``question``, a heading over ``inner`` whose
    section ends at ``end``: the shallower sections from ``end`` when ``inner`` is empty and
    the first names its subject (the module's docstring says when); else as given."""
    if unwritten(inner):  # "## ELMO" over "- [ ] TODO": its sub-headings are no answer of it
        own = next((k for k, b in enumerate(inner) if b.kind == "heading"), len(inner))
        return inner[:own], end - len(inner) + own
    if inner:  # "…以下几种策略：" over "### 1. **…**", "### 2. **…**": the points it announces
        last = _announced_end(blocks, question, inner, end)
        return [*inner, *blocks[end:last]], last
    last = _up_end(blocks, question, end)
    return (blocks[end:last], last) if last > end else (inner, end)


def _announced_end(blocks: list[Block], question: Block, inner: list[Block], end: int) -> int:
    """After the numbered headings at the question's level (``1.``, ``2.`` … in turn, none
    asking) right after an answer whose last paragraph ends in a colon: the points it
    announces, its answer's sections; ``end`` when there are not two of them."""
    said = inner[-1]
    if said.kind != "paragraph" or not plain(said.raw).rstrip().endswith((":", "：")):
        return end
    count, last = 0, end
    for last in range(end, len(blocks) + 1):
        block = blocks[last] if last < len(blocks) else None
        if block is None or (block.kind == "heading" and block.level < question.level):
            break
        if block.kind != "heading" or block.level > question.level:
            continue
        label, rest = numbered(clean(plain(block.raw)))
        if label != str(count + 1) or reads_as_question(rest):
            break
        count += 1
    return last if count >= 2 else end


def _up_end(blocks: list[Block], question: Block, end: int) -> int:
    """The next heading at the question's level, above the first shallower one, or one as
    high as it that asks (a label such as ``### Why This Is Useful:`` aside)."""
    first = blocks[end] if end < len(blocks) else None
    if first is None or first.kind != "heading" or first.level >= question.level:
        return end
    title = clean(plain(first.raw))
    if asking_heading(first) or not _subject(title) & _subject(clean(plain(question.raw))):
        return end
    for later in range(end + 1, len(blocks)):
        block = blocks[later]
        if block.kind != "heading":
            continue
        if block.level < first.level or block.level == question.level:
            return later
        label = plain(block.raw).rstrip().endswith((":", "："))  # "### Why This Is Useful:"
        if block.level == first.level and asking_heading(block) and not label:
            return later
    return len(blocks)
