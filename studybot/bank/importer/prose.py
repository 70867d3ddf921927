"""Paragraphs: marked questions (``Q1：…``), lines that ask, and interview write-ups.

A part of the Markdown reader (``importer.markdown._Reader``), on the state all
its parts share (``importer.state.ReaderState``): a paragraph
line with a marker starts a question, and so does a line that asks outside
any answer; the lines after a question in its paragraph are its answer when
they do not ask too (``importer.markers.split_answer``). In an interview
write-up, ``问了：A；B；C`` gives one question each, ``问了 A、B，然后…`` each
clause in front that asks, and ``手撕：…``/``场景题：…`` one task, never the
answer of the question above;
``反问…`` is the candidate's own question and no question of the bank, and so is each line
under a ``我提问:`` label (the label answers nothing either). A line that
sets a task (``**Goal:** …``, ``… Implement …``) is one question; a line that opens
what follows (``以下是…``) right before a heading answers nothing.
"""

from __future__ import annotations

import re

from studybot.bank.importer.bare import (
    bare_before,
    bare_next,
    bare_prompt,
    bare_prompts,
    kind_label,
    line_questions,
    lost_number,
    one_a_line,
    said_question,
    unkeyed,
)
from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.decorations import bold_line
from studybot.bank.importer.draft import Draft
from studybot.bank.importer.duties import dated, duty_line
from studybot.bank.importer.htmltext import LINE_BREAK
from studybot.bank.importer.labels import labelled_task, statement_label
from studybot.bank.importer.lists import follow_up
from studybot.bank.importer.markers import (
    BOLD_LEAD,
    INLINE_ANSWER,
    PARAGRAPH_NUMBER,
    REVERSE,
    REVERSE_LEFT,
    SPEAKER,
    asks,
    clean,
    marker,
    number_of,
    numbered,
    reads_as_question,
    split_answer,
)
from studybot.bank.importer.metadata import source_tail_off
from studybot.bank.importer.notebook import explains
from studybot.bank.importer.notes import italic_note
from studybot.bank.importer.resources import ASIDE_LEFT, aside
from studybot.bank.importer.signposts import group_label
from studybot.bank.importer.state import ReaderState, Trail, number_mark
from studybot.bank.importer.studynotes import note_label
from studybot.bank.importer.wrapping import join, joined

# "问了：A；B" (a colon: each part), "问了 A、B，然后…" (no colon: the parts that ask),
# "手撕：…"/"场景题：…" (one task), "代码：手撕 …" (one, when it asks)
# "TODO:1、…", "FIXME: 2. …": the author's flag before a numbered line, no part of it
_FLAG = re.compile(r"^(?:TODO|FIXME|XXX)\s*[:：]\s*(?=\S)")
_LEAD = re.compile(
    r"^(?:(?P<asked>(?:面试官)?(?:又|还|再|也)?(?:问了|问到|追问|被问到?))(?P<colon>\s*[:：])?"
    r"|(?P<label>手撕(?:代码|题)?|coding|leetcode|(?:开放|场景|算法|编程|代码|智力|八股)题|代码)"
    r"\s*[:：])\s*(?P<rest>\S.*)$",
    re.IGNORECASE,
)

# "当然，以下是…的详细列表。", "Here are the questions of part two:": it opens what comes next
_LEAD_IN = re.compile(
    r"^(?:(?:当然|好的)[，,]\s*)?(?:以下|下面)(?:是|为|列出|给出)"
    r"|^(?:(?:sure|of course)[,!.]\s*)?(?:here|below) (?:are|is)\b|^the following (?:are|is)\b",
    re.IGNORECASE,
)


def introduces(block: Block, after: list[Block]) -> bool:
    """A one-line paragraph that opens what comes next (``以下是…``, ``Here are…``) right before
    a heading, or with nothing after it: no answer of the question above it."""
    raw = block.raw.strip()
    ahead = not after or after[0].kind == "heading"
    return ahead and "\n" not in raw and bool(_LEAD_IN.match(plain(raw)))


_BR = re.compile(LINE_BREAK, re.IGNORECASE)


# "**Goal:** Identify …", "… from. Implement a threaded version …", "Your task is to write …"
_GOAL = re.compile(r"^(?:goal|task|objective|exercise)\s*[:：]\s*(?P<rest>\S.*)$", re.IGNORECASE)
_TASK_SENTENCE = re.compile(r"(?i)(?<=[.!])\s+(?:your task is to|implement|write an? )\b")


def _sets_a_task(text: str) -> bool:
    """A line outside any answer that sets a task after a label or a sentence or two of setting
    (a take-home's section): one question."""
    goal = _GOAL.match(text)
    if goal is not None:
        return reads_as_question(goal["rest"])
    task = _TASK_SENTENCE.search(text)
    return task is not None and text[: task.start()].count(". ") < 2 and len(text) <= 500


def _ends_reverse(block: Block) -> bool:
    raw = block.raw.strip()
    said = block.kind == "paragraph" and "\n" not in raw and raw.endswith((":", "："))
    return block.kind in ("heading", "hr") or said  # "总结:" after the candidate's questions


_REVERSE_LABEL_MOST = 12  # characters of a label: "反问环节", "我提问", "我的提问"


def reverse_label(block: Block) -> bool:
    """A paragraph (or a quote of one) that only labels the candidate's own questions:
    ``我提问:``, ``> **反问**``."""
    if block.kind == "quote" and len(block.children) == 1:
        block = block.children[0]
    if block.kind != "paragraph":
        return False
    raw = block.raw.strip()
    return "\n" not in raw and _reverse_line(raw)


def _reverse_line(raw_line: str) -> bool:
    label = plain(raw_line).strip().rstrip(":：").strip()
    return len(label) <= _REVERSE_LABEL_MOST and bool(REVERSE.search(label))


class ParagraphReading(ReaderState):
    """The paragraph rules of the Markdown reader."""

    def _reversed(self, blocks: list[Block], index: int) -> int:
        """The blocks after a ``我提问:`` label up to the next heading, rule or label (``总结:``)
        are the candidate's questions, none the bank's: each line that asks is listed. The
        index past them."""
        end = index + 1
        while end < len(blocks) and not _ends_reverse(blocks[end]):
            for line in range(blocks[end].start, blocks[end].end):
                text = plain(self.lines[line]).lstrip("-*+> ")
                if reads_as_question(numbered(clean(text))[1]):
                    self._skip(line, clean(text), REVERSE_LEFT, counts=False)
            end += 1
        return end

    def _paragraph(self, block: Block, path: Trail, current: Draft | None) -> Draft | None:
        raw_lines = block.raw.split("\n")
        if len(raw_lines) == 1 and self._titled(block.start, raw_lines[0]):
            return None  # "**1) Attention（伪代码）**" among "**12. …？**": a snippet's title
        starts: list[tuple[int, str | None, str]] = []  # (line in paragraph, label, text)
        for k, raw_line in enumerate(raw_lines):
            found = marker(raw_line)
            unflagged = _FLAG.sub("", plain(raw_line), count=1)  # "TODO:1、考查…": a note to itself
            number = PARAGRAPH_NUMBER.match(unkeyed(unflagged)) if found is None else None
            lost = lost_number(unflagged) if found is None and number is None else None
            if lost and (not self.strong or reads_as_question(lost)):
                found = (None, lost)  # ". deepspeed框架介绍": a number lost before its dot
            bold = raw_line.startswith("**") and source_tail_off(raw_line.rstrip()).endswith("**")
            if number and bold and self._continues(number, len(raw_lines) == 1):
                pass  # "**56. Name an example …**" after question 55: the next question
            elif number and (self.strong or number["p"] or number["c"] or dated(number["text"])):
                # with markers in the file, "（1）首先…" in an answer, "1. 2020.07.15 投递简历": if it asks
                alone = len(raw_lines) == 1 or not self.strong
                titled = self.strong and note_label(raw_line)  # "**5）…：怎么把 Redis 用好**"
                if titled or not (alone and reads_as_question(number["text"])):
                    number = None
            if number:
                found = (number_of(number), number["text"])
            found = found or follow_up(raw_line)
            strong = bold_line(raw_line) if found is None and self.bold else None
            if strong is not None and (len(raw_lines) == 1 or asks(strong)):  # "**What is X?**"
                found = numbered(strong)
            if found is not None:
                starts.append((k, *found))
        if not starts:
            first = plain(raw_lines[0])
            # "场景题：…", "Interviewer: Let's move on." answer nothing above them
            if current is None or _LEAD.match(first) or SPEAKER.match(first) or kind_label(first):
                return self._loose(block, raw_lines, path)
            opens = asks(first) or (len(raw_lines) == 1 and labelled_task(first))
            opens = opens or bare_next(current, raw_lines, self.out.drafts)
            loose = id(current) in self.loose and opens
            if not loose or explains(current, raw_lines, self.where(block.start)):  # next cell
                current.blocks.append(block)
                return current
            return self._loose(block, raw_lines, path)
        if starts[0][0] > 0 and _reverse_line(raw_lines[0]):  # "我提问:" over them
            for k, _, text in starts:
                self._skip(block.start + k, clean(text), REVERSE_LEFT, counts=False)
            return None
        if starts[0][0] > 0:
            before = Block("paragraph", block.start, block.start + starts[0][0])
            if current is not None and not group_label(raw_lines[: starts[0][0]]):  # " 安卓\\"
                current.blocks.append(before)
            else:
                self._skip_lines(before, raw_lines[: starts[0][0]], path)
        bounds = [s[0] for s in starts[1:]] + [len(raw_lines)]
        answered = False
        for (k, label, text), stop in zip(starts, bounds, strict=True):
            beside = _beside(raw_lines[k])  # "**Q？**<br />answer", "**1. Q？** answer"
            found = marker(beside[0]) if beside else None
            if beside is not None and found is not None and found[1]:
                current = self._draft(block.start + k, label, clean(found[1]), path)
                current.reference = "\n".join([beside[1], *raw_lines[k + 1 : stop]]).strip() or None
                answered = True
                continue
            asked = self._asked_above(label, path) if not text and k + 1 < stop else None
            if asked is not None and not reads_as_question(plain(raw_lines[k + 1])):
                asked.blocks.append(Block("paragraph", block.start + k + 1, block.start + stop))
                current, answered = asked, True  # "**问题 1：**" over the answer to "1. …？"
                continue
            inline = INLINE_ANSWER.match(text)  # "问：…？答：…" on one line
            current = self._draft(
                block.start + k, label, clean(inline["q"] if inline else text), path
            )
            if inline and inline["a"].strip():
                current.reference = "\n".join([inline["a"].strip(), *raw_lines[k + 1 : stop]])
                answered = True
                continue
            body = k + 1
            if not current.question and body < stop:  # "**Q3：**" alone takes the line below
                body += split_answer(raw_lines[body:stop])
                current.question = clean(joined("\n".join(raw_lines[k + 1 : body])))
            else:
                body = k + split_answer(raw_lines[k:stop])
                for at in range(k + 1, body):  # a question wrapped over lines holds them all
                    current.question = join(current.question, plain(raw_lines[at]))
                    current.also.append(self.where(block.start + at))
            if body < stop:
                current.blocks.append(Block("paragraph", block.start + body, block.start + stop))
                answered = True
        if len(starts) > 1 and not answered:
            self.after_list = current  # a run of questions, one a line, as a list of them:
            return None  # the prose after it answers none of them ("答：…" aside)
        return current

    def _titled(self, line: int, raw_line: str) -> bool:
        """A bold numbered line that does not ask, numbered with another mark than the file's
        bold questions (``1)`` among ``12.``) and not the next of them: a title, listed."""
        text = bold_line(raw_line) if self.bold_mark else None
        number = PARAGRAPH_NUMBER.match(text) if text else None
        if number is None or number_mark(number) == self.bold_mark or asks(number["text"]):
            return False
        if self._next_number(number_of(number)):
            return False
        self._skip(line, number["text"], "a numbered title among numbered questions", counts=False)
        return True

    def _asked_above(self, label: str | None, path: Trail) -> Draft | None:
        """The question numbered ``label`` in this section, yet unanswered, that a label alone
        (``**问题 1：**``) over prose answers: a digest's list of questions, answered below it."""
        for draft in reversed(self.out.drafts[-20:]):
            if draft.path != path:
                return None
            if draft.label == label and label is not None:
                answered = draft.blocks or draft.reference or draft.key_points
                return None if answered else draft
        return None

    def _loose(self, block: Block, raw_lines: list[str], path: Trail) -> Draft | None:
        """Questions among lines outside any answer: each asking line, ``问了：…``, ``手撕：…``."""
        texts = [plain(line) for line in raw_lines]
        if len(texts) == 1 and aside(texts[0]):  # "要不要我帮你…？" closing a chat's answers
            self._skip(block.start, texts[0], ASIDE_LEFT, counts=False)
            return None
        if len(texts) == 1 and italic_note(raw_lines[0]):  # "*考察对…的理解。*": a section's note
            return None
        if len(texts) > 1 and kind_label(texts[0]):  # "系统设计题：" over its questions
            for k, text in enumerate(texts[1:], 1):
                self._draft(block.start + k, *numbered(clean(text)), path)
            return None
        if any(_LEAD.match(t) for t in texts):
            last = None
            for k, text in enumerate(texts):
                lead = _LEAD.match(text)
                if lead:
                    last = self._lead(block.start + k, lead, path) or last
                elif reads_as_question(text):
                    last = self._draft(block.start + k, *numbered(clean(text)), path)
            return None
        if REVERSE.search(texts[0]):
            if reads_as_question(texts[0]):
                self._skip(block.start, texts[0], REVERSE_LEFT, counts=False)
            return None
        if one_a_line(texts):
            draft = None
            for k, text, asked in line_questions(texts):  # one question a line, or listed
                if asked:
                    draft = self._draft(block.start + k, *numbered(clean(text)), path)
                else:
                    self._skip(block.start + k, text, "a line that asks, ending like a statement")
            self.loose.add(id(draft))
            return None
        if len(texts) > 1 and all(reads_as_question(t) for t in texts):
            for k, text in enumerate(texts):
                draft = self._draft(block.start + k, *numbered(clean(text)), path)
            self.loose.add(id(draft))
            return draft
        if len(texts) == 1 and _sets_a_task(texts[0]):
            self._draft(block.start, None, clean(texts[0]), path)
            return None  # what follows a task is its brief ("**Instructions:** …"), no answer
        round_ = any(_ROUND.search(title) for _, title in path)  # a write-up's "## 一面"
        said = len(texts) == 1 and said_question(texts[0]) and bare_before(self.out.drafts)
        if (said and not round_) or bare_prompt(self.lines, block, self.out.drafts, path):
            self._draft(block.start, *numbered(clean(texts[0][:-1] if said else texts[0])), path)
            return None  # in a run of bare questions, what follows is the next
        task = len(texts) == 1 and labelled_task(texts[0])  # "Label: Explain …."
        asked = (task or self._asks(texts[0], raw_lines[0])) and not statement_label(raw_lines[0])
        if not asked or (len(texts) == 1 and duty_line(self.lines, block.start)):  # "设计…机制"
            told = _told(texts) if round_ else []
            for k, text in told:  # "他先问了：“…？”我说…" in a write-up's round
                self._draft(block.start + k, None, clean(text), path)
            if not told:
                self._skip_lines(block, raw_lines, path)
            return None
        if bare_prompts(self.out.drafts, texts):  # "…开根号？" over "位置嵌入": two questions
            for k, text in enumerate(texts):
                self._draft(block.start + k, *numbered(clean(text)), path)
            return None
        inline = INLINE_ANSWER.match(texts[0])
        if inline and inline["a"].strip():
            draft = self._draft(block.start, *numbered(clean(inline["q"])), path)
            draft.reference = "\n".join([inline["a"].strip(), *raw_lines[1:]]).strip()
            return draft
        end = split_answer(raw_lines)
        draft = self._draft(block.start, *numbered(clean(joined("\n".join(raw_lines[:end])))), path)
        if end < len(raw_lines):
            draft.blocks.append(Block("paragraph", block.start + end, block.end))
        self.loose.add(id(draft))
        return draft

    def _lead(self, line: int, lead: re.Match[str], path: Trail) -> Draft | None:
        """``问了：A；B；C`` (one question each), ``问了 A、B，然后…`` (each that asks) or
        ``手撕：…`` (one task)."""
        rest = lead["rest"]
        if lead["asked"]:
            parts = [q for part in re.split(r"[；;。]", rest) for q in _asked(part, lead["colon"])]
        else:
            parts = [rest.split("。")[0].strip()]
            if lead["label"] == "代码" and not reads_as_question(parts[0]):
                parts = []  # "代码：见下" is no task
        last = None
        for part in (p for p in parts if len(p) > 1):
            last = self._draft(line, None, clean(part), path)
        return last


def _asked(part: str, colon: str | None) -> list[str]:
    """The questions of one part of ``问了…``: the clauses in front that ask, two or more
    (``A 为什么快、B 的区别，然后聊了…``); else the part when a colon says so, or when it
    is one clause that asks (``问了 LoRA、QLoRA 的区别``, not ``问了职业规划，能实习多久``)."""
    clauses = [c.strip() for c in re.split(r"[、，,]", part)]
    asking = 0
    while asking < len(clauses) and reads_as_question(clauses[asking]):
        asking += 1
    if asking >= 2:
        return clauses[:asking]
    part = part.strip()
    return [part] if colon or (reads_as_question(part) and not re.search("[，,]", part)) else []


# a round of an interview write-up, where its prose tells the questions asked
_ROUND = re.compile(r"[一二三四五六]面|终面|hr面|面试|面经|interview|round", re.IGNORECASE)
_QUOTED = re.compile(r"[“「『]([^“”「」『』\n]{4,200}?[？?])[”」』]")
_TOLD = re.compile(
    r"(?:问了|问我|问到|(?:接着|又|还|就|再)问|追问|让我|要我|要求我|手撕(?:代码|题)?[:：]"
    r"|(?:场景|开放|算法)题[:：])\s*"
)


def _told(texts: list[str]) -> list[tuple[int, str]]:
    """The questions a write-up's sentences tell: quoted (``“…？”``), or after ``问了``/
    ``让我``/``手撕：`` (up to the question mark, else the first clause, when it asks)."""
    found = []
    for k, text in enumerate(texts):
        quoted = _QUOTED.findall(text)
        found += [(k, q) for q in quoted]
        for sentence in [] if quoted else re.split(r"[。！；;]", text):
            lead = _TOLD.search(sentence)
            rest = sentence[lead.end() :].strip("：: ") if lead else ""
            mark = min((rest.find(m) for m in "？?" if m in rest), default=-1)
            clause = rest[: mark + 1] if mark >= 0 else rest.split("，")[0].strip()
            if len(clause) > 3 and reads_as_question(clause):
                found.append((k, clause))
    return found


def _beside(raw_line: str) -> tuple[str, str] | None:
    """(question, answer) on one line: ``**Q？**<br />answer``, ``**1. Q？** answer``."""
    head, *tail = _BR.split(raw_line, maxsplit=1)
    if tail and tail[0].strip():
        return head, tail[0]
    lead = BOLD_LEAD.match(raw_line)
    if lead and lead["rest"] and asks(plain(lead["q"])):
        return raw_line[: lead.start("rest")], lead["rest"]
    return None
