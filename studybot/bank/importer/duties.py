"""Lines that say what a thing does, not what to answer: a note's list of duties.

Under a sentence that states (``研发具备自主决策、工具调用、记忆的 AI 智能体。``,
``Transformer 是一种…架构。``), a run of short lines (bullets, or one-line paragraphs)
that ask nothing but by a task verb in front (``设计记忆机制（短期/长期记忆）``,
``计算序列中每个位置的注意力权重``) beside lines that do not read as questions at all
(``使用 Agent 框架``, ``捕捉长距离依赖关系``) lists what the thing does: none of them is a
question. A task verb over what reads as a question (``说明为什么…``) asks, and so does a
run whose every line opens with one (``实现 LRU`` beside ``设计短链系统``).

A numbered line that opens with a date (``1. 2020.07.15 投递简历``, ``2. 2021-03-02 一面``) is an
event of a timeline, a question only when it asks (``dated``).
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.markers import (
    ZH_TASK_START,
    asks,
    clean,
    items,
    numbered,
    reads_as_question,
)

DUTY_LEFT = "a line of what a thing does under a sentence that states, not a question"
_STATES = ("。", "！", "!")  # a sentence that ends so says something: no lead-in ("如下：")
_RUN_MOST = 12  # lines of a run read above a line: a note's list is short
# "2020.07.15 投递简历", "2021-3-2 一面", "2020/07": a date first, then what happened
_DATE_FIRST = re.compile(r"(?:19|20)\d\d([./-])\d{1,2}(?:\1\d{1,2})?(?!\d)")


def dated(text: str) -> bool:
    """A numbered line's text that opens with a date: an event of a timeline."""
    return _DATE_FIRST.match(text.strip()) is not None


def duty_list(lines: list[str], block: Block) -> list[tuple[int, str]] | None:
    """A list right under a sentence that states whose items (at any depth) ask at most by a
    task verb in front, one of them at least, and another not reading as a question: the
    items that read as questions (their lines and texts, none of them one); else None."""
    if block.start == 0 or lines[block.start][:1].isspace():
        return None
    above = next((line for line in reversed(lines[: block.start]) if line.strip()), "")
    listed = _item_texts(block)
    asking = [(line, text) for line, text in listed if reads_as_question(text)]
    if not (asking and _states(above) and _duties([text for _, text in listed])):
        return None
    return asking


def duty_line(lines: list[str], index: int) -> bool:
    """The one-line paragraph at ``index``, asking only by its task verb, in a run of one-line
    paragraphs right under a sentence that states, beside one that reads as no question."""
    if not _verb_only(_text(lines[index])):
        return False
    run: list[str] = []
    at = index - 1
    while at >= 0 and len(run) < _RUN_MOST:
        line = lines[at]
        if line.lstrip().startswith("#"):
            return False  # a heading above the run: no sentence introduces it
        if line.strip() and (at == 0 or not lines[at - 1].strip()):
            if _states(line):
                below = _next_alone(lines, index)
                return _duties([*run, _text(lines[index]), *below])
            run.append(_text(line))
        elif line.strip():
            return False  # a paragraph of several lines: no run of short ones
        at -= 1
    return False


def _next_alone(lines: list[str], index: int) -> list[str]:
    """The one-line paragraph after ``index``, if any."""
    at = index + 1
    while at < len(lines) and not lines[at].strip():
        at += 1
    alone = at < len(lines) and (at + 1 == len(lines) or not lines[at + 1].strip())
    return [_text(lines[at])] if alone else []


def _duties(texts: list[str]) -> bool:
    plain_lines = [t for t in texts if not reads_as_question(t)]
    return bool(plain_lines) and all(_verb_only(t) for t in texts if reads_as_question(t))


def _verb_only(text: str) -> bool:
    """``设计记忆机制（…）``: it reads as a question only by its task verb in front."""
    if asks(text):
        return False
    body = numbered(text)[1]
    task = ZH_TASK_START.match(body)
    if task is None:
        return False
    verb, rest = body[: task.end()], body[task.end() :].strip()
    return bool(rest) and not reads_as_question(verb) and not reads_as_question(rest)


def _states(line: str) -> bool:
    text = _text(line)
    return (
        not line[:1].isspace()
        and not line.lstrip().startswith(("#", "-", "*", "+", ">", "|"))
        and text.endswith(_STATES)
        and not reads_as_question(text)
    )


def _item_texts(block: Block) -> list[tuple[int, str]]:
    texts = []
    for item in items(block):
        paragraph = item.first_paragraph()
        if paragraph is not None:
            texts.append((paragraph.start, _text(paragraph.raw.split("\n")[0])))
        for child in item.children:
            if child.is_list:
                texts += _item_texts(child)
    return texts


def _text(line: str) -> str:
    return clean(plain(line.strip().lstrip("-*+ ").strip()))
