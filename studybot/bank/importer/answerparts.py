"""A question's answer in labelled bullets: ``- 标准答：…``, ``- 反问点：…？``, ``- 坑位：…``.

``1) 多头注意力为何有效？`` over a bullet list whose every item opens with a short label and a
colon (``标准答：``, ``代码：`` over a code block, ``Pitfall:``) holds that question's answer,
every item of it, a labelled item that asks too (an interviewer's counter-question is part of
the answer, as other follow-ups are: ``importer.followups``). Such a list asks less than it
tells: at most half its items ask, and no label marks a question (``- Q：…？``, ``- 问题：…``).
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.markers import asks, clean, items, marker

# "标准答：", "**坑位**：", "Pitfall:", "Follow-up question:": a short label, then a colon
_LABEL = re.compile(
    r"^(?:\*\*|__)?(?P<label>[^\s:：?？*_`\[]{1,8}|[A-Za-z][A-Za-z-]*(?: [A-Za-z-]+){0,2})"
    r"(?:\*\*|__)?\s*[:：](?!//)(?:\*\*|__)?\s*(?P<rest>.*)$",
    re.DOTALL,
)


def labelled_answer(block: Block) -> bool:
    """A bullet list that answers the question above it: every item labelled, at most half of
    them asking, none marked as a question."""
    listed = items(block) if block.kind == "bullet_list" else []
    asking = 0
    for item in listed:
        paragraph = item.first_paragraph()
        first = paragraph.raw.split("\n")[0].strip() if paragraph is not None else ""
        found = _LABEL.match(first)
        if found is None or marker(first) is not None or asks(plain(found["label"])):
            return False
        asking += asks(clean(plain(found["rest"])))
    return bool(listed) and 2 * asking <= len(listed)
