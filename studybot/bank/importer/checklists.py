"""A checklist of questions: ``## 目录`` over ``- [x] 1. 什么是 …？`` items at any depth.

A contents section is no part of the questions when it points to them; a task list under
it, with no link into the file, is the questions themselves (ticked as each is answered
elsewhere), so it holds no answers:

- an item with items under it is a group (``- [x] **[微调面](./微调面.md)**``,
  ``- [x] 1. LLMs 复读机问题``): a question when it asks, else a section over its items;
- an item with none under it is a question, asking or not (``23. 模型参数迭代实验``),
  unless it is a label (``优点：``);
- an item that is only a link to another file is that file's title, never a question;
- the number in front (``1. ``, ``4.1.3 ``, ``一、``) and a numbered label (``痛点2：``)
  are not part of the question.
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block, link_target, plain
from studybot.bank.importer.draft import HAN_COMMON, strip_emphasis
from studybot.bank.importer.markers import CHECKBOX, clean, items, numbered, reads_as_question
from studybot.bank.importer.sections import own_end
from studybot.bank.importer.state import ReaderState, Trail

_CONTENTS = re.compile(r"目录|contents|\btoc\b", re.IGNORECASE)
_ANCHOR_LINK = re.compile(r"\]\(#")  # "[…](#q1)": a link into the file itself
_NUMBERED_LABEL = re.compile(rf"^[{HAN_COMMON}A-Za-z]{{1,6}}\s*\d{{1,3}}\s*[:：]\s*(?=\S)")
_LABEL_END = ("：", ":")  # "优点：": what an answer's outline names, no question
LABEL_LEFT = "a label in a checklist of questions"


def question_checklist(title: str, inner: list[Block]) -> bool:
    """``## 目录`` over two or more ticked items that ask, none a link into the file."""
    if not _CONTENTS.search(title):
        return False
    ticked = [line for _, line, _ in _listed(inner[: own_end(inner)]) if CHECKBOX.match(line)]
    asking = sum(map(reads_as_question, ticked))
    return asking >= 2 and not any(_ANCHOR_LINK.search(line) for line in ticked)


def read_checklist(reader: ReaderState, inner: list[Block], path: Trail) -> list[Block]:
    """The questions of the checklist's lists (``question_checklist``); the other blocks."""
    own = own_end(inner)
    groups: list[tuple[int, Trail]] = []  # the depth of each group's items, the trail there
    for item, line, depth in _listed(inner[:own]):
        while groups and groups[-1][0] >= depth:
            groups.pop()
        trail = groups[-1][1] if groups else path
        text = clean(plain(line))
        label, text = numbered(text)
        text = _NUMBERED_LABEL.sub("", text, count=1)
        at = item.start
        if link_target(strip_emphasis(CHECKBOX.sub("", line.strip()))) is not None:
            groups.append((depth, (*trail, (at, text))))  # another file's title
        elif _grouping(item):
            if reads_as_question(text):
                reader._draft(at, label, text, trail)
            groups.append((depth, (*trail, (at, text))))
        elif text.endswith(_LABEL_END):
            reader._skip(at, text, LABEL_LEFT, counts=False)
        elif text:
            reader._draft(at, label, text, trail)
    return [b for b in inner[:own] if not b.is_list] + inner[own:]


def _grouping(item: Block) -> bool:
    return any(child.is_list for child in item.children)


def _listed(blocks: list[Block], depth: int = 0) -> list[tuple[Block, str, int]]:
    """Each list item among ``blocks``, at any depth, with its first line and its depth."""
    found = []
    for block in blocks:
        if not block.is_list:
            continue
        for item in items(block):
            paragraph = item.first_paragraph()
            if paragraph is not None:
                found.append((item, paragraph.raw.split("\n", 1)[0], depth))
            found += _listed(item.children, depth + 1)
    return found
