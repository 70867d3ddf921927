"""Lists of what was asked, bare topics and all: every item a question.

In a file whose lists of questions make up several sections, a list right under a heading
that says its section holds what is asked (``## 算法题``, ``### 二面``, ``## Round 2``)
takes its items that ask nothing too (``- 编辑距离``, ``8. Cache memory.``, ``- 自我介绍``)
when one of them asks or every item is a short topic. Under a heading that only sits below
one that says so (``# 算法工程师面试`` over ``### 动态规划``) the list must be short topics
and asking items alone: a task in a sentence among them (``- Profile a query plan with
EXPLAIN ANALYZE``) leaves the list as it was, its items listed as not taken. A list of terms
under headings that say nothing of questions (``## Terms used in ML``) stays a list of
terms, and so does a list under a heading that names answers (``### Short answers (Round
2)``) or the section's meta (contents, links).
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block, link_target, plain
from studybot.bank.importer.markers import clean, items, meta, numbered, reads_as_question
from studybot.bank.importer.subitems import mostly_asking

# a heading that says its section lists what is asked: questions, an interview, its rounds
_ASKED = re.compile(
    r"面试|面经|笔试|题|考点|问答|interview|questions?\b|quiz|exam|faq|q\s*&\s*a"
    r"|\bround\s*\d|[一二三四五六七八九十]面|hr\s*面|电话面|现场面",
    re.IGNORECASE,
)
_ANSWERS = re.compile(r"answers?\b|solutions?\b|答案|解答|解析|参考答", re.IGNORECASE)
_TOPIC_CHARS = 30  # a topic's most characters: "八皇后，全排列，组合", "Agentic RAG."
_SENTENCE = re.compile(r"[。！；;]|[.!](?=\s)|[:：]\S")
_LISTS_NEEDED = 3  # lists that mostly ask, in a file whose topic lists this reads


def topic_lists(blocks: list[Block]) -> None:
    """Mark ``taken`` each list the module's docstring names, in place."""
    if sum(1 for b in blocks if b.is_list and mostly_asking(b)) < _LISTS_NEEDED:
        return
    above: list[Block] = []  # the headings over the current block, outermost first
    for at, block in enumerate(blocks):
        if block.kind == "heading":
            above = [h for h in above if h.level < block.level] + [block]
            continue
        if not block.is_list or at == 0 or blocks[at - 1].kind != "heading":
            continue
        heading = blocks[at - 1]
        title = _title(heading)
        if meta(heading.raw) or _ANSWERS.search(title) or reads_as_question(title):
            continue
        if _ASKED.search(title):
            block.taken = _of_questions(block, some_ask=True)
        elif any(_ASKED.search(_title(h)) for h in above):
            block.taken = _of_questions(block, some_ask=False)


def _title(heading: Block) -> str:
    return numbered(clean(plain(heading.raw)))[1]


def _of_questions(block: Block, some_ask: bool) -> bool:
    """Every item a line of its own (no link alone) that asks or is a short topic; under a
    heading that says questions, ``some_ask``, one item that asks is enough."""
    texts = []
    for item in items(block):
        own = item.first_paragraph()
        if own is None or link_target(own.raw) is not None:
            return False
        if any(not child.is_list for child in item.children[1:]):
            return False  # an item over its own paragraphs: notes, not a list of questions
        texts.append(clean(plain(own.raw.split("\n")[0])))
    asking = [reads_as_question(numbered(t)[1]) for t in texts]
    if some_ask and any(asking):
        return True
    return all(
        asked or (len(t) <= _TOPIC_CHARS and not _SENTENCE.search(t.rstrip(".")))
        for t, asked in zip(texts, asking, strict=True)
    )
