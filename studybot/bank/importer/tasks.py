"""Tasks: a question set as a task over its answer label, and a label over a list of tasks.

A line marked by its label (``题目：…``, ``**问题**：…``, ``**Question:** …``) is the
question; what is written under it before an answer label alone on its line
(``**答案**：``, ``Answer:``), statements, ``1. 从 PDF 中提取文本 → ?`` lines that ask
or a code stub, is its task: no question of its own, shown as the question's hint; what
follows the label is its answer. ``**Tasks:**`` (``练习：``) alone over a numbered list
makes each item a question.
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.collapsible import kept_source
from studybot.bank.importer.markers import ANSWER_MARKER, BARE_MARKER

_TASKS = re.compile(
    r"^(?:tasks?|exercises?|questions?|problems?|practice|练习题?|习题|思考题|任务)\s*[:：]?$",
    re.IGNORECASE,
)


def names_tasks(block: Block, after: list[Block]) -> bool:
    """``**Tasks:**`` (``Exercises:``, ``练习：``) alone over a numbered list: each item is one."""
    title = plain(block.raw).strip("*_ ")
    return bool(after) and after[0].kind == "ordered_list" and bool(_TASKS.match(title))


TASK_MOST = 3  # blocks between the marked question and a list of its task


def task_list(blocks: list[Block], block: Block) -> bool:
    """``block``, a list under a question marked by its label, with an answer label alone
    after it in its section: the question's task, not questions of its own."""
    at = next((k for k, b in enumerate(blocks) if b is block), None)
    if at is None:
        return False
    above = blocks[max(0, at - TASK_MOST) : at]
    asked = [k for k, b in enumerate(above) if b.kind == "paragraph" and _marked(b)]
    if not asked or any(b.kind in ("heading", "hr") for b in above[asked[-1] :]):
        return False
    for after in blocks[at + 1 :]:
        if after.kind in ("heading", "hr") or (after.kind == "paragraph" and _marked(after)):
            return False
        if _label(after):
            return True
    return False


def tasked(
    lines: list[str], hint: str | None, blocks: list[Block]
) -> tuple[str | None, list[Block]]:
    """The hint and the answer's blocks of a question whose ``blocks`` hold its task over an
    answer label alone (``**答案**：``): the task its hint, the blocks after the label its
    answer; else ``hint`` and ``blocks`` as they were."""
    at = next((k for k, b in enumerate(blocks) if k and _label(b)), None)
    if at is None or hint is not None:
        return hint, blocks
    return kept_source(lines, blocks[:at]).strip() or None, blocks[at + 1 :]


def _marked(block: Block) -> bool:
    return BARE_MARKER.match(plain(block.raw.split("\n", 1)[0]).strip()) is not None


def _label(block: Block) -> bool:
    """An answer label alone on its line: ``**答案**：``, ``答案：``, ``**Answer:**``."""
    if block.kind != "paragraph" or "\n" in block.raw.strip():
        return False
    found = ANSWER_MARKER.match(block.raw.strip())
    return found is not None and not block.raw.strip()[found.end() :].strip("*_ ")
