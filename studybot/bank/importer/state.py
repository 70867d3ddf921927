"""What the Markdown reader's rules share while they read one file, declared in one place.

The reader (``importer.markdown._Reader``) is this state with its rules: the
structure rules in ``markdown``, the list rules in ``lists.ListReading`` and
the paragraph rules in ``prose.ParagraphReading``, and ``tables.read_table``
hands a table to it. Each rule group inherits ``ReaderState``, so what one
group sets and another reads (the drafts taken from list items, a list's
last question still unanswered, …) is named and typed here, and so are the
ways a rule records what it found: a question (``_draft``), or a line not
taken and why (``_skip``); a question box over its answer is read here too (``_boxed``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from studybot.bank.importer.admonitions import answer_boxes
from studybot.bank.importer.blocks import Block, parse, plain, section_end, source_lines
from studybot.bank.importer.boxes import answer_callout, box_parts, stated
from studybot.bank.importer.circled import marked_lines
from studybot.bank.importer.collapsible import boxed_bold, boxes_listed, demoted
from studybot.bank.importer.decorations import (
    bold_line,
    bold_questions,
    mark_tags,
    without_tail_mark,
)
from studybot.bank.importer.draft import PROSE_LEFT, Draft, Options, Parsed, Skipped
from studybot.bank.importer.duties import DUTY_LEFT, duty_line
from studybot.bank.importer.exercises import exercise
from studybot.bank.importer.grouplabels import lettered_lists, level_titles
from studybot.bank.importer.indented import lifted
from studybot.bank.importer.labels import question_labelled, without_label
from studybot.bank.importer.markers import (
    MARKER,
    PARAGRAPH_NUMBER,
    asks,
    clean,
    field_line,
    marker,
    number_of,
    numbered,
    reads_as_question,
    unmarked,
)
from studybot.bank.importer.metadata import company_tags
from studybot.bank.importer.notebook import front_matter, title_line
from studybot.bank.importer.outline import outlined
from studybot.bank.importer.parts import book_sections
from studybot.bank.importer.resources import READING_LEFT, reading_line
from studybot.bank.importer.runs import number_mark, run_mark
from studybot.bank.importer.sections import (
    apart,
    asking_heading,
    bare_levels,
    closing,
    heading_items,
    question_level,
    question_lists,
)
from studybot.bank.importer.studynotes import (
    LABEL_LEFT,
    NOTES_LEFT,
    RHETORICAL_LEFT,
    cited,
    code_field,
    field_asks,
    note_headings,
    note_label,
    notes_after,
    plain_note,
    rhetorical,
)
from studybot.bank.importer.subitems import SENTENCE_END
from studybot.bank.importer.swallowed import unswallowed
from studybot.bank.importer.templates import one_question, section_headings, uncarded
from studybot.bank.importer.topiccards import card_level
from studybot.bank.importer.topiclists import topic_lists

Trail = tuple[tuple[int, str], ...]  # (line, title) of each section a block sits in
Linked = tuple[int, str, str, Trail]  # a numbered item a link away: (line, label, raw, trail)


class ReaderState:
    """One reading of one Markdown file: its lines and blocks, what was found so far."""

    lines: list[str]  # the file's lines, front matter blanked
    front_title: str | None  # the front matter's ``title``
    front_line: int  # the line of that title
    blocks: list[Block]  # the file's blocks, as the rules walk them
    where: Callable[[int], str]  # a line index to its "file:line" (a notebook's cell)
    options: Options  # the user's --level, --map, --force
    out: Parsed  # the drafts, lines not taken and suggestions so far
    strong: bool  # the file marks its questions ("Q1：…"): a bare numbered line is no question
    bold: bool  # its bold lines alone mostly ask ("**What is X?**"): each is a question
    bold_mark: str | None  # the mark after the numbers of those that ask ("." of "**12. …？**")
    run_mark: str | None  # that of its bold cards numbered in turn ("**1. …**", "**2. …**" …)
    level: int | None  # the heading level where this file's questions are, if any
    closing: set[int]  # the first lines of the headings that close the file ("## 总结")
    apart: set[int]  # those of question-level headings in a section where none asks
    outline: set[int]  # those of empty question-level headings among empty ones that ask
    parts: set[int]  # of those, a template's (``### 详细解答`` after each ``### N. …？``)
    card: Draft | None  # the last question-level heading question, for the parts after it
    bare: set[int]  # heading levels whose numbered headings are labels alone ("### Q5)")
    listed: set[int]  # id() of the drafts taken from list items
    loose: set[int]  # id() of the drafts started by a paragraph that asks
    # a list's last question, yet unanswered, the list's end, and whether those before it were
    lone: tuple[Draft, int, bool] | None
    links: list[Linked]  # numbered items that are a link away, the questions if nothing asks
    after_list: Draft | None  # the last question of a list, for an "答：" paragraph below it
    prose: dict[int, int]  # sections beside boxed questions, first line to end: none asks
    keyed: set[int]  # id() of the blocks of an answer key below a list (``answerkey``)
    boxed: set[int]  # id() of the drafts read from question boxes (``boxes.boxed_only``)
    asked_outside: bool  # a box labels an answer: questions are asked outside boxes too
    noted: list[tuple[Skipped, Trail]]  # numbered lines that do not ask, where they sit

    def __init__(self, text: str, where: Callable[[int], str], options: Options) -> None:
        self.lines = source_lines(text)
        self.front_line = title_line(self.lines)
        self.front_title = front_matter(self.lines)  # blanks the front matter's lines
        blocks = lifted(self.lines, parse("\n".join(self.lines)))  # "    GAN的原理" asks
        blocks = unswallowed(self.lines, blocks)  # "37 Question 37: …" after "1. Retrieval"
        blocks = boxes_listed(self.lines, blocks)  # "1. " over an indented "<details>"
        blocks = level_titles(lettered_lists(blocks))  # "a. 如何…", "b. …"; "🟢 Easy: …"
        self.blocks = demoted(self.lines, heading_items(blocks))  # "1. ### What is …"
        question_lists(self.blocks)  # "## 问答" over its list: each item asks
        topic_lists(self.blocks)  # "## 算法题" over "- 编辑距离": each item asks too
        self.where = where
        # notes cards with a few asking lines in their answers: read as "--level N" would
        # not where the lines that ask are marked: "**题1：**" beside "## 1. 算法基础认知"
        marked = marked_lines(self.blocks) >= 2
        cards = (
            None
            if options.level or marked or question_level(self.blocks)
            else card_level(self.lines, self.blocks)
        )
        self.options = replace(options, level=cards) if cards else options
        options = self.options
        self.out = Parsed(cards=cards)
        self.strong = marked
        self.bold = bold_questions(self.blocks, asks)
        self.bold_mark = bold_mark(self.blocks) if self.bold else None
        self.run_mark = run_mark(self.blocks)
        one = None if options.level else one_question(self.blocks)  # "## 题目" over it
        self.level = options.level or (one.level if one else question_level(self.blocks))
        # "**1. …？**" over "<summary>答案</summary>": the questions, not the prose headings
        boxed = (
            None if options.level or one else boxed_sections(self.lines, self.blocks, self.level)
        )
        self.level = None if boxed is not None else self.level
        self.closing = set() if options.level else closing(self.blocks, self.level)
        self.apart = set() if options.level else apart(self.blocks, self.level)
        self.outline = set() if options.level else outlined(self.blocks, self.level)
        self.parts = set() if options.level else section_headings(self.blocks, self.level)
        if one is not None:  # "## 一、…？" after "## 题目": its answer's parts
            self.parts |= one.parts
            self.apart |= one.titles
        self.apart |= self.parts
        self.card = None
        self.apart |= set() if options.level else uncarded(self.blocks, self.level)
        self.apart |= boxed[0] if boxed else set()
        self.apart |= book_sections(self.blocks) if self.level is None else set()  # 6.1
        self.prose = boxed[1] if boxed else {}
        if self.strong and not options.level and not boxed:  # "## 七、面试准备建议" after "### Q20"
            self.prose = notes_after(self.lines, self.blocks, self.level)
        for at in self.prose:  # "## 先补一个概念：GPU 到底在做什么": listed, never a question
            title = clean(plain(self.lines[at]))
            if reads_as_question(numbered(title)[1]):
                self._skip(at, title, PROSE_LEFT, counts=False)
        if self.strong and not options.level:  # "## 1. 算法基础认知" beside "**题1：**"
            self.apart |= self._notes(note_headings(self.blocks) - set(self.prose))
        self.bare = bare_levels(self.blocks)  # "### Q5)" over its task, no lost question
        self.listed = set()
        self.loose = set()
        self.lone = None
        self.links = []
        self.after_list = None
        self.keyed = set()
        self.boxed = set()
        self.asked_outside = answer_boxes(text)  # "Q？" over "??? success \"Show Answer\""
        self.noted = []

    def _walk(self, blocks: list[Block], path: Trail, in_meta: bool = False) -> None:
        raise NotImplementedError  # the structure rules (``markdown._Reader``) walk the blocks

    def _boxed(self, quote: Block, path: Trail, after: Sequence[Block] = ()) -> int:
        """A question box (``> [!question] Q``): Q, and its body as Q's answer, with the
        answer callouts at the start of ``after`` (``boxes``); how many of those it took."""
        before, taken = len(self.out.drafts), 0
        head, body = box_parts(self.lines, quote)
        self._walk(head, path)
        said = stated(quote) if head == quote.children[:1] else None  # asking or not
        if len(self.out.drafts) == before and said is not None:
            self._draft(said[0], None, said[1], path)
        if len(self.out.drafts) == before + 1:
            self.out.drafts[-1].blocks.extend(body)
            while taken < len(after) and (answer := answer_callout(after[taken])) is not None:
                self.out.drafts[-1].blocks.extend(answer)
                taken += 1
        else:
            self._walk(body, path)
        if not self.asked_outside:  # "Q？" over "??? success \"Show Answer\"": not a box file
            self.boxed.update(id(draft) for draft in self.out.drafts[before:])
        return taken

    def _exercise(self, title: str, heading: Block, inner: list[Block], path: Trail) -> bool:
        """``## 练习 2：…`` over its task and ``<details>`` answer: one question (``exercises``)."""
        found = exercise(title, inner, self.lines)
        if found is not None:
            draft = self._draft(heading.start, found.label, found.question, path)
            draft.hint, draft.reference = found.hint, found.answer
            task = [b for b in inner if b.kind != "html"]  # its lines are the card's hint
            draft.also = [self.where(n) for b in task for n in range(b.start, b.end)]
        return found is not None

    # -- recording --------------------------------------------------------------------

    def _draft(self, line: int, label: str | None, text: str, path: Trail) -> Draft:
        raw = self.lines[line] if line < len(self.lines) else ""
        tags = company_tags(raw) + mark_tags(raw) + _kind_tags(raw)  # "- Google …", "… [hard]"
        text = without_label(without_tail_mark(text.strip()) if tags else text.strip())
        return self.out.add(Draft(self.where(line), text, label=label, path=path, tags=tags))

    def _skip(self, line: int, text: str, why: str, counts: bool = True) -> None:
        self.out.skipped.append(Skipped(self.where(line), text, why, counts))

    def _skip_all(self, found: list[tuple[int, str]] | None, why: str) -> bool:
        """Each of ``found`` (a rule's lines, or None where it does not hold) listed, not counted."""
        for line, text in found or ():
            self._skip(line, text, why, counts=False)
        return found is not None

    def _skip_lines(self, block: Block, raw_lines: list[str], path: Trail) -> None:
        for k, raw_line in enumerate(raw_lines):
            text = plain(raw_line)
            if rhetorical(raw_line):  # "那么多头注意力是怎样的呢？" leads into what explains it
                self._skip(block.start + k, text, RHETORICAL_LEFT, counts=False)
            elif self.strong and cited(raw_line):  # "…问题：**“…？”**": listed as asking lines are
                continue
            elif asks(text) and len(text) > 3:
                self._skip(block.start + k, text, "a question mark inside prose, not a question")
            elif self.strong and note_label(raw_line) and reads_as_question(text):
                self._skip(block.start + k, text, LABEL_LEFT, counts=False)  # "**工程上怎么选**"
            elif reading_line(text) is not None:  # listed, not counted: a reader may want it
                self._skip(block.start + k, text, READING_LEFT, counts=False)
            elif self.strong and PARAGRAPH_NUMBER.match(text):
                self._noted(block.start + k, text, MARKED_LEFT.format("line"), True, path)
            elif len(raw_lines) == 1 and duty_line(self.lines, block.start):  # "设计记忆机制"
                self._skip(block.start, text, DUTY_LEFT, counts=False)

    def _asks(self, text: str, raw: str = "") -> bool:
        """Whether ``text`` (its line ``raw``) reads as a question here: in a file whose questions
        are marked, a notes line that holds a question word only (``- `x.py`：如何拉起 backend``)
        or cites one (``这一章要解决的问题：**“…？”**``), and a bold label (``note_label``) do not;
        nor, in any file, does a paragraph's rhetorical lead-in (``rhetorical``)."""
        marked_note = not field_asks(text) or cited(raw) or note_label(raw)
        if rhetorical(raw) or (self.strong and marked_note):
            return False
        if code_field(text) and not field_asks(text):  # "- `function`：object，说明如何使用该函数"
            return False
        return reads_as_question(text)

    def _notes(self, starts: set[int]) -> set[int]:
        """``starts``, the headings of a study note; those that would read as a question are
        listed (and no reading is measured by them)."""
        for block in self.blocks:
            title = clean(plain(block.raw)) if block.start in starts else ""
            if reads_as_question(title):
                self._skip(block.start, title, NOTES_LEFT, counts=False)
        return starts

    def _noted(self, line: int, text: str, why: str, counts: bool, path: Trail) -> None:
        """A numbered line that does not ask in a file whose questions are marked: a question
        left only where the section it sits in holds questions (``_settle_noted``)."""
        self._skip(line, text, why, counts)
        if counts and plain_note(self.lines, line, text):  # "路由器" may be a question
            self.noted.append((self.out.skipped[-1], path))

    def _noted_item(self, line: int, text: str, path: Trail) -> None:
        """A numbered item that does not ask in a marked file: a tip or step that ends as a
        sentence does (``1. 先讲直觉，再写公式；``) is listed only; any other is ``_noted``."""
        said = text.rstrip().endswith(SENTENCE_END) or field_line(text)
        self._noted(line, text, MARKED_LEFT.format("item"), not said, path)

    def _settle_noted(self) -> None:
        """The numbered steps, TODOs and labels (``1) **交互模式**``) of a section where no
        question was taken are a study note's: listed, never a reason to refuse the file."""
        notes = {id(s) for s, path in self.noted if not _holds(path, self.out.drafts)}
        skipped = self.out.skipped
        self.out.skipped = [replace(s, counts=False) if id(s) in notes else s for s in skipped]

    def _skip_meta(self, block: Block, path: Trail = ()) -> None:
        """An asking line in a contents, contributing or links section: listed, never a reason;
        a numbered one that does not ask in a marked file's notes, as elsewhere (``_noted``)."""
        for line in range(block.start, min(block.end, block.start + 50)):
            text = plain(self.lines[line]).lstrip("-*+ ") if line < len(self.lines) else ""
            prose = any(at <= line < end for at, end in self.prose.items())
            if (asks(text) or (prose and reads_as_question(text))) and len(text) > 3:
                why = PROSE_LEFT if prose else "in a section that holds no questions"
                self._skip(line, text, why, counts=False)
            elif prose and self.strong and (number := PARAGRAPH_NUMBER.match(text)):
                self._noted_item(line, number["text"], path)

    def _continues(self, number: re.Match[str], alone: bool) -> bool:
        """``**56. …**`` after question 55, or ``**1. …**`` alone opening a run of the file's
        bold numbered cards (``runs``)."""
        opens = alone and number["n"] == "1" and number_mark(number) == self.run_mark
        return opens or self._next_number(number_of(number))

    def _next_number(self, label: str | int) -> bool:
        """``19. 激活函数的比较`` right after the question numbered 18: the next question."""
        last = (self.out.drafts[-1].label if self.out.drafts else None) or ""
        return str(label).isdigit() and last.isdigit() and int(label) == int(last) + 1


def boxed_sections(
    lines: list[str], blocks: list[Block], level: int | None
) -> tuple[set[int], dict[int, int]] | None:
    """When more of the file's questions are marked plain to see, each a numbered bold line
    over its answer box (``**1. …？**`` over ``<details><summary>答案</summary>``, three or
    more), than headings at ``level`` ask, and most of those ask nothing: the first lines of
    the headings that are sections, neither ending in a question mark nor labelled as one
    (``## 验收题：…`` is), and of those, the sections that hold none of the marked questions
    (prose: its lines that ask are listed, not taken); else None."""
    if level is None:
        return None
    headings = [b for b in blocks if b.kind == "heading"]
    asking = sum(asking_heading(b) for b in headings if b.level == level)
    boxed = boxed_bold(lines, blocks)
    if (
        len(boxed) < 3
        or len(boxed) <= asking
        or 2 * asking >= sum(b.level == level for b in headings)
    ):
        return None
    sections = {b.start for b in headings if not _marked(b)}
    ends = {
        b.start: section_end(blocks, j)
        for j, b in enumerate(blocks)
        if b.kind == "heading" and b.start in sections
    }
    end_line = {at: blocks[j].start if j < len(blocks) else len(lines) for at, j in ends.items()}
    prose = {
        at: end_line[at] for at in sections if not any(at < line < end_line[at] for line in boxed)
    }
    return sections, prose


def _marked(heading: Block) -> bool:
    title = clean(plain(heading.raw))
    return asks(title) or question_labelled(title) or bool(marker(heading.raw, heading=True))


def _kind_tags(raw_line: str) -> list[str]:
    """``type:判断题`` from ``### Q4（判断题）：…``, ``level:初级`` from ``Q1（初级）：…``: the kind
    in brackets after a question's label is a tag, never its text."""
    found = (
        MARKER.match(unmarked(plain(raw_line).lstrip("#-*+> \t")))
        if "）" in raw_line or ")" in raw_line
        else None
    )
    kind = found["kind"].strip() if found and found["kind"] else ""
    return (mark_tags(f"（{kind}）") or [f"type:{kind.lower()}"]) if kind else []


MARKED_LEFT = "a numbered {} in a file whose questions are marked"


def _holds(path: Trail, drafts: list[Draft]) -> bool:
    """Whether a question was taken in the section ``path`` ends in (or below it)."""
    return any(draft.path[: len(path)] == path for draft in drafts)


def bold_mark(blocks: list[Block]) -> str | None:
    """The one mark after the numbers of the bold lines alone that ask (``**12. What …？**``),
    when ``MARK_LEAST`` or more are numbered and all alike; else None."""
    marks = set()
    count = 0
    for block in blocks:
        text = bold_line(block.raw.split("\n", 1)[0]) if block.kind == "paragraph" else None
        number = PARAGRAPH_NUMBER.match(text) if text else None
        if number is not None and asks(number["text"]):
            marks.add(number_mark(number))
            count += 1
    return marks.pop() if count >= MARK_LEAST and len(marks) == 1 else None


MARK_LEAST = 5
