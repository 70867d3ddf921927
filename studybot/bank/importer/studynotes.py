"""A study note's own lines in a file whose questions are marked elsewhere.

A chapter's notes around its self-test (``### Q1：…`` cards, ``**题1：**``,
``**Q1: …？**``) have headings and bullets that name what the chapter covers
(``## 1. 算法基础认知``, ``## 你将学会什么``, ``## build_runtime() 做了什么``,
``- `x.py`：… 如何拉起 backend``) or cite the question it sets out to explain
(``这一章要解决的问题：**“…？”**``). In such a file only a line that ends in a
question mark, carries a mark, or opens on a question word after its label
(``## 验收题：为什么…``) asks. Its numbered steps (``1. 增加一个参数 …，观察 …``, a list
under ``TODO：``) and labels (``1) **交互模式（默认）**``) are no lost questions
(``plain_note``); a short topic (``5. 路由器``) may be one.
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block, plain, section_end
from studybot.bank.importer.draft import ALL_BOLD, CJK, QUESTION_MARKS
from studybot.bank.importer.markers import (
    CHECKBOX,
    ZH_TASK_START,
    asks,
    clean,
    field_line,
    items,
    marker,
    numbered,
    reads_as_question,
)
from studybot.bank.importer.templates import q_cards

NOTES_LEFT = "a study note's heading in a file whose questions are marked"  # listed, no question
LABEL_LEFT = "a study note's bold label in a file whose questions are marked"  # listed too
RHETORICAL_LEFT = "a rhetorical question that leads into the prose after it"  # listed too


def note_headings(blocks: list[Block]) -> set[int]:
    """The first lines of the headings that are a marked file's notes, its sections: those that
    do not open asking at a level where no heading ends in a question mark or carries a mark, or
    that sit apart from the marked questions (``_apart``)."""
    headings = [b for b in blocks if b.kind == "heading"]
    parent: dict[int, int] = {}
    above: list[Block] = []
    for b in headings:
        while above and above[-1].level >= b.level:
            above.pop()
        parent[b.start] = above[-1].start if above else -1
        above.append(b)
    asking = [b for b in headings if _marked(b) or asks(numbered(_title(b))[1])]
    among = {(parent[b.start], b.level) for b in asking}
    levels = {b.level for b in asking}
    plain_asks = {b.level for b in asking if not _marked(b)}
    found: set[int] = set()
    for at, b in enumerate(blocks):
        if b.kind != "heading" or _marked(b) or opens_asking(_title(b)):
            continue
        if b.level not in levels:
            found.add(b.start)
        elif (parent[b.start], b.level) not in among and b.level not in plain_asks:
            found |= {b.start} if _apart(b, blocks[at + 1 :]) else set()
    return found


def notes_after(lines: list[str], blocks: list[Block], level: int | None) -> dict[int, int]:
    """After a file's last Q-numbered question card (``### Q20: …？``, ``templates.q_cards``),
    the sections that a heading above the cards' level opens where no heading is marked or
    ends in a question mark and no line asks but a task list's (``## 七、面试准备建议`` over
    ``### 7.1 技术准备``, ``## 九、快速复盘清单`` over ``- [ ] 能否…？``): a study note's, each
    heading's first line to its section's end; their lines that ask are listed, not taken.
    A list of questions there (``1. …？``) is no note."""
    cards = q_cards(blocks, level)
    after: list[tuple[Block, int]] = []  # each heading after the last card, its section's end
    for at, block in enumerate(blocks):
        if cards and block.kind == "heading" and block.start > cards[-1].start:
            end = section_end(blocks, at)
            after.append((block, blocks[end].start if end < len(blocks) else len(lines)))
    found: dict[int, int] = {}
    for block, stop in after:
        if block.start in found or block.level >= (level or 0):
            continue
        own = [(b, end) for b, end in after if block.start <= b.start < stop]
        marked = any(_marked(b) or opens_asking(_title(b)) for b, _ in own)
        if not marked and not any(map(_asks_unticked, lines[block.end : stop])):
            found |= {b.start: end for b, end in own}
    return found


def _asks_unticked(raw: str) -> bool:
    """A line that asks and is no task list's item (``- [ ] 能否…？`` is a self-check)."""
    return asks(plain(raw)) and CHECKBOX.match(raw.strip().lstrip("-*+ ")) is None


def _apart(heading: Block, after: list[Block]) -> bool:
    """An unnumbered heading whose siblings ask nothing, at a level where only marked headings
    ask, its own lines asking nothing either (``### 数据质量控制`` under ``## 七、…`` beside
    ``### Q1：…？`` under ``## 六、面试常见问题``; ``### 快手`` over ``1、…？`` is no note)."""
    own = next((j for j, b in enumerate(after) if b.kind == "heading"), len(after))
    lines = (line for b in after[:own] for line in b.raw.split("\n"))
    return numbered(_title(heading))[0] is None and not any(
        reads_as_question(plain(ln)) for ln in lines
    )


def _title(block: Block) -> str:
    return clean(plain(block.raw))


def _marked(block: Block) -> bool:
    return marker(block.raw, heading=True) is not None


def opens_asking(text: str) -> bool:
    """Whether a heading of a marked file asks: it ends in a question mark, or what follows its
    label opens on a question word or a task (``验收题：为什么…``, ``How does …``); a label
    alone (``附加挑战题：``) may head one."""
    rest = numbered(text)[1]
    after = rest.replace(":", "：").rpartition("：")[2].strip()
    if asks(rest) or not after:
        return True
    if CJK.search(after):
        return ZH_TASK_START.match(after) is not None
    return reads_as_question(after)


def field_asks(text: str) -> bool:
    """Whether a ``key：value`` line of a marked file asks: a value with no question mark that
    does not open asking (``- `x.py`：React TUI 如何拉起 backend``) names what a file does."""
    head, colon, after = numbered(text)[1].replace(":", "：").partition("：")
    if not (colon and head.strip()) or any(mark in after for mark in QUESTION_MARKS):
        return True
    return opens_asking(after)


def code_field(text: str) -> bool:
    """A field named in code before a colon (``- `function`：object，详细说明了如何使用该函数``):
    its value describes it in any file, whether or not its questions are marked."""
    head = numbered(text)[1].replace(":", "：").partition("：")[0].strip()
    return len(head) > 2 and head.startswith("`") and head.endswith("`") and "`" not in head[1:-1]


def cited(raw: str) -> bool:
    """``这一章要解决的问题：**“…？”**``: a question quoted in bold after a lead-in that is not
    bold, the premise a note sets out to explain, no question of its own."""
    head, colon, after = raw.strip().replace(":", "：").partition("：")
    after = after.strip()
    quoted = after.startswith(("**“", '**"')) and after.endswith(("”**", '"**'))
    return bool(colon and head and not head.startswith(("**", "__")) and quoted)


def note_label(raw: str) -> bool:
    """A bold line alone that carries no mark and ends in no question mark (``**工程上怎么选**``,
    ``**5）热点与集群：怎么把 Redis 用到“能抗流量”**``): in a file whose questions are marked,
    the label of a note's part, however it is worded."""
    return ALL_BOLD.fullmatch(raw) is not None and marker(raw) is None and not asks(plain(raw))


def outline_fields(block: Block) -> bool:
    """Three or more items, each a short key and its value, all but one asking nothing
    (``- 目标：想解决什么问题？`` beside ``- 设计：整体架构和方案取舍。``): in a file whose
    questions are marked, the parts of a note's outline, its one asking value among them."""
    firsts = [
        clean(plain(p.raw.split("\n")[0])) for i in items(block) if (p := i.first_paragraph())
    ]
    keyed = [t for t in firsts if _KEYED.match(t)]
    return len(firsts) >= 3 and len(keyed) == len(firsts) and sum(map(asks, firsts)) <= 1


_KEYED = re.compile(r"[^：:？?*`]{1,8}[：:]\s*\S")  # "目标：…": a short key, then its value


def summary_list(block: Block) -> bool:
    """A list of two or more items, each a bold key and its value that ask nothing
    (``1. **本质相同**: 都是 next token prediction``): a note's summary, no questions."""
    firsts = [p.raw.split("\n")[0] for i in items(block) if (p := i.first_paragraph())]
    return len(firsts) >= 2 and all(
        numbered(t)[1].startswith(("**", "__")) and field_line(clean(plain(t))) for t in firsts
    )


def plain_note(lines: list[str], line: int, text: str) -> bool:
    """Whether the numbered line ``text`` (at ``line`` of ``lines``) is plainly no question: a
    bold label, a sentence, or a step of a list under a lead-in (``你需要完成的 TODO：``)."""
    if ALL_BOLD.fullmatch(numbered(lines[line].strip())[1]) or len(text) >= SENTENCE_LEAST:
        return True
    above = line - 1
    while above >= 0 and (not lines[above].strip() or numbered(plain(lines[above]))[0]):
        above -= 1  # the items before it, numbered as it is
    return above >= 0 and plain(lines[above]).rstrip().endswith((":", "："))


SENTENCE_LEAST = 12  # characters: "从任务队列拉取任务" is a step, "路由器" may be a topic asked


def rhetorical(raw: str) -> bool:
    """A plain paragraph line that opens on "so" and asks with 呢 (``那么多头注意力是怎样的呢？``):
    a note's lead-into what follows, the question it asks answered by the prose after it."""
    return _RHETORICAL.fullmatch(raw.strip()) is not None


_RHETORICAL = re.compile(r"(?:那么|那)[^*_#`|？?\n]{2,40}呢[？?]")
