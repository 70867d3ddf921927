"""Markdown files and Jupyter notebooks: questions, their answers and chapters.

The block structure comes from markdown-it-py (``importer.blocks``); what makes text a
question is that it asks (``importer.markers``), wherever it sits, and its answer is what
follows it until the next question at its level:

- a heading asks, carries a marker (``### Q4 …``), or is a heading of the level where this
  file's questions are (the level most asking headings have: ``### SwiGLU 激活函数`` between two
  that ask, ``#### 3.1 单机单卡`` under ``### 3. 并行化策略选择篇``); everything below it up to the next
  heading of its level, or the next question, is its answer (under a heading of the question
  level, its sub-sections, ``## 答案`` right after it and rules between its sections too; under an
  empty one, the shallower sections that name its subject, ``importer.asking``). ``1. ### …`` is
  such a heading; a file that is one ``# 题目`` is one question; after the numbered questions,
  ``## Common Pitfalls``-like headings close the file; a bold question right under a heading
  that labels it is the question (``importer.labels``). Other headings, ``第一部分 …``/``一、…``/
  ``…篇`` titles and ``**第三章 …**`` lines are sections;
- a paragraph line with a marker (``Q1：…``, ``**Q1：**…``, ``第1题：…``, ``**12.** …``) or one that
  asks outside any answer starts a question; ``问了：A；B；C`` and ``手撕：…`` lines of a write-up give
  one each, ``反问…`` none;
- ``## 目录`` over a task list that asks is the questions (``importer.checklists``);
- a list item is a question when it asks (a checkbox aside), or is numbered in a list that
  mostly asks; its answer is inside the item: the lines after the question (``A：…``/``答：…``, or
  a line that does not ask), and the blocks nested under it. A list of several questions has no
  answer after it; a single numbered question does;
- where nothing else asks, ``1. [梯度裁剪的原理](https://…)`` items are questions, links answers;
- ``<details><summary>Q？</summary> answer </details>`` is a question, so is ``### 题目``'s
  paragraph in a ``## 第 3 题`` section (``importer.sections``) and ``## 练习 2：…`` (``exercises``);
- a table's cells under a question column (``问题``, ``Question``, or the column given by ``--map
  question=COLUMN``) are questions, the answer column their answers;
- a short list alone under a question gives its key points; any other answer is kept whole, as
  written; rules, ``back to top`` links and HTML comments are no part of it;
- the chapter is the outermost section level that tells questions apart; the first ``# …``
  heading before any question (or front matter ``title``) is the bank's title.

A line that reads like a question and is not taken is reported with why.
"""

from __future__ import annotations

import re
from pathlib import Path

from studybot.bank.importer import answerkey, keypoints, tables
from studybot.bank.importer.asking import child_question, next_question, sets_task, up_sections
from studybot.bank.importer.blocks import (
    Block,
    drawn_rule,
    html_comment,
    navigation,
    plain,
    section_end,
    source,
)
from studybot.bank.importer.boxes import boxed_only, listing, question_callout
from studybot.bank.importer.checklists import question_checklist, read_checklist
from studybot.bank.importer.collapsible import TEXT_FENCE, card, collapsible, kept_source, unwrapped
from studybot.bank.importer.digests import over_questions
from studybot.bank.importer.draft import CHAPTER, Draft, Options, Parsed
from studybot.bank.importer.followups import with_follow_ups
from studybot.bank.importer.labels import bold_question, kind_heading, topic_label
from studybot.bank.importer.listed import outline_asks
from studybot.bank.importer.lists import ListReading, labelled_questions
from studybot.bank.importer.markers import (
    ANSWER_MARKER,
    CONTRIBUTE,
    HINT_LINE,
    NUMBER,
    asks,
    asks_inside,
    clean,
    marker,
    meta,
    numbered,
    reads_as_question,
)
from studybot.bank.importer.notebook import answer_cell, notebook_lines
from studybot.bank.importer.notes import ANSWER_AFTER
from studybot.bank.importer.parts import card_heading, chapter_line, section_title, topic_title
from studybot.bank.importer.prose import ParagraphReading, introduces, reverse_label
from studybot.bank.importer.quiz import lettered, shared, shown
from studybot.bank.importer.resources import (
    about_itself,
    aside,
    faq,
    placeholder,
    source_line,
    sources_last,
)
from studybot.bank.importer.restated import parted
from studybot.bank.importer.sections import (
    BODY_LEFT,
    NO_TEXT,
    NUMBER_ALONE,
    answer_heading,
    answer_label,
    chapter_depth,
    contents,
    has_body,
    labelled,
    marks_inside,
    one_question,
    own_end,
    task_below,
)
from studybot.bank.importer.signposts import signposts_only, unwritten
from studybot.bank.importer.state import Trail
from studybot.bank.importer.stems import quoted_one, quoted_stem
from studybot.bank.importer.tasks import names_tasks, tasked


def read_markdown(path: Path, text: str, options: Options) -> Parsed:
    return _Reader(text, lambda line: f"{path}:{line + 1}", options).read()


def read_notebook(path: Path, text: str, options: Options) -> Parsed:
    found = notebook_lines(path, text)
    if isinstance(found, Parsed):
        return found
    lines, places, problems = found
    reader = _Reader("\n".join(lines), lambda line: places[min(line, len(places) - 1)], options)
    out = reader.read()
    out.problems.extend(problems)
    return out


class _Reader(ParagraphReading, ListReading):
    """The structure rules (headings, sections, ``<details>``) over the list and paragraph
    rules it inherits; what they all share is declared in ``state.ReaderState``."""

    def read(self) -> Parsed:
        one = None if self.options.level else one_question(self.blocks) or quoted_one(self.blocks)
        if one is not None:  # "# 题目" over the one question, "# 标准答案" … its answer
            self._draft(one[0].start, *numbered(one[1]), ()).blocks.extend(one[2])
        else:
            self._walk(self.blocks, ())
        if not self.out.drafts and len(self.links) >= 3:  # nothing asks but numbered links
            self._linked()
        titled = not self.out.drafts and reads_as_question(self.front_title or "")
        if titled:  # a post whose front matter's title asks: the post is its answer
            self.out.title = post = self.front_title or ""
            self._draft(self.front_line, None, clean(post), ()).blocks.extend(self.blocks)
        self.out.title = self.front_title if self.out.title is None else self.out.title
        boxed_only(self.out, self.boxed)  # "??? question …" boxes: asking lines outside are left
        self.out.drafts = with_follow_ups(self.out.drafts, self.where)  # "- 追问：…？（答：…）"
        depth, alike = chapter_depth(self.out.drafts), shared(self.lines, self.out.drafts)
        for draft in self.out.drafts:
            if len(draft.path) > depth:
                line, draft.chapter = draft.path[depth]
                draft.section = line + 1
            self._finish(draft, alike)
        self._settle_noted()  # a study note's steps are no lost questions
        if one is None and not titled:  # a one-question file's sections are its answer
            tables.suggest_level(self.out, self.blocks, self.level)
        return self.out

    # -- structure --------------------------------------------------------------------

    def _walk(self, blocks: list[Block], path: Trail, in_meta: bool = False) -> None:
        current: Draft | None = None  # the question whose answer the next blocks are
        index = 0
        while index < len(blocks):
            block = blocks[index]
            after_list, self.after_list = self.after_list, None
            key = (self.blocks, block, self.out, self.where, self.keyed, self.lines)
            if id(block) in self.keyed or (after_list and answerkey.pair(*key)):  # "***答案***"
                index, current = index + 1, None
                continue
            if block.kind == "heading":
                cell = answer_cell(blocks, index, current, self.where)  # a notebook's next cell
                if current is not None and (cell or answer_heading(block)):  # "## Answer guide"
                    end = cell or section_end(blocks, index)
                    current.blocks.extend(blocks[index + 1 : end])
                    index = end
                else:
                    index = self._heading(blocks, index, path, in_meta)
                current = None
                continue
            if block.kind == "hr" or drawn_rule(block):
                current = None
            elif block.kind == "html" and source(self.lines, [block])[:8].lower() == "<details":
                index, current = self._details(blocks, index, path, current, in_meta)
                continue
            elif block.kind == "paragraph" and chapter_line(block.raw.split("\n")[0]):
                headings = (j for j in range(index + 1, len(blocks)) if blocks[j].kind == "heading")
                end = next(headings, len(blocks))
                # "**第三章 …**" in "## 第二部分 …" (or after "=== Basics ===") is the next part
                above = path[-1] if path else None
                sibling = above and (CHAPTER.match(above[1]) or chapter_line(self.lines[above[0]]))
                outer = path[:-1] if sibling else path
                title, _, rest = block.raw.partition("\n")
                inner = blocks[index + 1 : end]
                if rest:  # "【一、基础】" over its questions, in one paragraph
                    inner = [Block("paragraph", block.start + 1, block.end, raw=rest), *inner]
                self._walk(inner, (*outer, (block.start, section_title(title))))
                index, current = end, None
                continue
            elif reverse_label(block):  # "> 我提问:" over the candidate's own questions
                index, current = self._reversed(blocks, index), None
                continue
            elif in_meta:
                self._skip_meta(block, path)
            elif navigation(block):
                pass
            elif block.kind == "paragraph":
                if current is None and after_list and ANSWER_MARKER.match(block.raw):
                    after_list.blocks.append(block)
                elif current is not None and introduces(block, blocks[index + 1 :]):
                    current = None  # "以下是…列表。" over the next heading: it opens what follows
                elif current is None and names_tasks(block, blocks[index + 1 :]):
                    blocks[index + 1].taken = True  # "**Tasks:**" over "1. Read the file."
                else:
                    current = self._paragraph(block, path, current)
            elif block.is_list:
                current = self._list(block, path, current)
            elif stem := quoted_stem(self.lines, blocks, index):  # "> 4、…？" over "- [x] …"
                index, current = stem[3], self._draft(stem[0], *numbered(stem[1]), path)
                current.reference = stem[2]  # the options as written, the ticked one its answer
                continue
            elif block.kind == "quote" and question_callout(block):  # "> [!question] …"
                index += self._boxed(block, path, blocks[index + 1 :])  # its answer callouts
                current = None
            elif current is not None:
                current.blocks.append(block)
            elif block.kind == "table":
                tables.read_table(self, block, path)
            elif block.kind == "quote":
                self._walk(block.children, path)  # "> Q1：…" outside any answer
            index += 1

    def _heading(self, blocks: list[Block], index: int, path: Trail, in_meta: bool) -> int:
        block = blocks[index]
        end = section_end(blocks, index)
        title = clean(plain(block.raw))
        if block.level == 1 and title and title == self.out.title:
            return index + 1  # the title again (a README pasted twice): no section
        untitled = not (self.out.title or self.out.drafts or path or marker(block.raw, True))
        # "# 如何通过…面试" over "**常见问题**" and its list of questions is the title
        if (
            block.level == 1
            and untitled
            and (not reads_as_question(title) or labelled_questions(self.blocks))
        ):
            self.out.title = title
            return index + 1
        if block.start in self.parts and self.card:  # "### 详细解答" after "### 3. …？": its answer
            self.card.blocks.extend(blocks[index:end])
            return end
        self.card = None
        inner = blocks[index + 1 : end]
        itself = faq(title) and about_itself(source(self.lines, inner))
        if not in_meta and question_checklist(title, inner):  # "## 目录" over "- [x] 1. …？"
            inner = read_checklist(self, inner, path)  # the questions; what else is there
        elif in_meta or meta(title) or itself or contents(inner) or block.start in self.prose:
            own = own_end(inner)
            self._walk(inner[:own], (*path, (block.start, title)), in_meta=True)
            self._walk(inner[own:], path, in_meta or bool(CONTRIBUTE.match(title)))  # its example
            return end
        if NUMBER_ALONE.fullmatch(title):  # "## 3.": the question text is lost, said so, unless
            bare = block.level in self.bare  # "### Q5)" over its task, "## 第 3 题" over "### 题目"
            quiz = labelled(inner, self.lines) or task_below(inner, self.lines, bare)
            if quiz is not None:
                number = re.search(r"\d+", title)
                draft = self._draft(quiz[0].start, number and number[0], quiz[1], path)
                draft.blocks.extend(b for b in quiz[2] if not navigation(b))
                return end
            own = own_end(inner)
            self._skip(block.start, block.raw.strip(), NO_TEXT + (BODY_LEFT if own else ""))
            self._walk(inner[own:], path)
            return end
        if self._exercise(title, block, inner, path):  # "## 练习 2：…" over its "<details>" answer
            return end
        found = None if block.start in self.closing else self._heading_question(block, inner)
        if block.start in self.closing:
            self._skip(block.start, title, "a closing section after the questions", counts=False)
        if found is None:
            self._walk(inner, (*path, (block.start, title)))
            return end
        while end < len(blocks) and answer_label(blocks[end], block.level):  # "## 答案"
            after = section_end(blocks, end)
            inner, end = [*inner, *blocks[end + 1 : after]], after
        inner, end = up_sections(blocks, block, inner, end)  # "### 1. …LoRA" under "…LoRA?"
        asked = bold_question(title, inner, self.lines)  # "### Question 3: …" over "**Which …?**"
        at = inner[0].start if asked else block.start  # the line that asks, a card's "Q：" too
        if asked is not None:
            label, text = numbered(asked[0])
            found, inner = (found[0] or label, text), inner[1:]
        draft = self._draft(at, *found, path)
        self.card = draft if block.level == self.level else None
        draft.reference = asked[1] if asked else None  # "- **A：** …" below "- **Q：** …"
        own = block.level == self.level  # its answer runs to the next heading at its level
        may_ask = (
            j
            for j, b in enumerate(inner)
            if not own or b.kind != "heading" or child_question(b, found[0])
        )
        # "### 2. …？" (not "### Q1：…"): "问：…？答：…" lines under it are its answer
        card = own and found[0] is not None and reads_as_question(found[1])
        card = card and not marker(block.raw, heading=True)
        stop = next(
            (j for j in may_ask if next_question(inner[j], found[0], self.level, card)), len(inner)
        )
        # a rule ends the answer (not one right under it), unless its sub-sections go on
        rule = next((j for j, b in enumerate(inner[:stop]) if b.kind == "hr" and j), stop)
        if own and any(b.kind == "heading" for b in inner[rule:stop]):
            rule = stop
        draft.blocks.extend(b for b in inner[:rule] if not (navigation(b) or b.kind == "hr"))
        if rule < len(inner):
            self._walk(inner[rule:], path)
        return end

    def _heading_question(self, block: Block, inner: list[Block]) -> tuple[str | None, str] | None:
        text = clean(plain(block.raw))
        card = card_heading(block, inner, self.level)  # "#### 4、…组成部分 ####"
        if topic_title(text, card) or aside(text) or block.start in self.apart:  # "#### 本文原…"
            return None
        found = marker(block.raw, heading=True) or kind_heading(text, inner)
        if found:  # "## 问题1：context length" over asking lines: a section
            return None if topic_label(text, found, inner) else found
        label, rest = numbered(text)
        if self.options.level:
            return (label, rest) if block.level == self.options.level else None
        numbered_card = label is not None and block.level == self.level  # "### 2. …？（易错）"
        part = parted(rest, inner) or (marks_inside(inner) and not asks(rest) and not numbered_card)
        part = part or (self.level is None and outline_asks(inner))  # "### 如何…？" over "- …？"
        if (reads_as_question(rest) or unwritten(inner)) and not part:  # "## ELMO" over "TODO"
            return label, rest
        body = has_body(inner) or block.start in self.outline  # "### docker预热"
        if block.level == self.level and block.start not in self.apart:
            # a section only when questions sit in headings below it
            below = [b for b in inner if b.kind == "heading"]
            topic = asks_inside(below) or over_questions(inner) or marks_inside(inner)
            return (label, rest) if (body or label or sets_task(rest)) and not topic else None
        if label is not None and (self.level is None or block.level > self.level):
            return (label, rest) if not asks_inside(inner) else None
        return None

    def _details(self, blocks: list[Block], index: int, path: Trail, current, in_meta):
        """``<details><summary>Q？</summary>answer</details>``, as many as the blocks hold."""
        end, found, closed = collapsible(self.lines, blocks, index)
        free = current is None and not in_meta  # a box that lists questions, not an answer
        listed = listing(self.lines, blocks[index:end], found, closed) if free else None
        if listed is not None:  # "<summary>查看问题</summary>" over a list of questions
            self._walk(listed, path)
            return end, None
        if current is not None:  # its answer, inside "<summary>Answer</summary>" (_finish)
            summary = clean(plain(found[0][1].replace("\n", " "))) if len(found) == 1 else ""
            hidden = summary and not reads_as_question(summary) and not current.blocks
            if closed and hidden and unwrapped(self.lines, blocks[index:end]) is None:
                current.reference = found[0][2] or None  # one line of tags and the answer
            else:
                current.blocks.extend(blocks[index:end])
            return end, current
        if not found:
            return end, None
        draft = None
        for line, summary, answer in found:
            text, cloze, answer = card(summary, answer)  # "…__…": a blank to fill in asks too
            if in_meta or not (cloze or reads_as_question(text)):
                continue
            draft = self._draft(line, *numbered(text), path)
            draft.reference, draft.blanks = answer or None, cloze
        # never closed: the blocks after it answer its question, until the next question
        return end, (None if closed else draft)

    # -- recording --------------------------------------------------------------------

    def _finish(self, draft: Draft, alike: set[str]) -> None:
        """Hint, options, key points and the reference answer from the blocks below a question."""
        blocks = [b for b in draft.blocks if not html_comment(self.lines, b) and not navigation(b)]
        blocks = unwrapped(self.lines, blocks) or blocks  # "<details><summary>Answer</summary>"
        blocks = [] if signposts_only(blocks) else blocks  # "- **QLoRA篇**", a badge: no answer
        after = None if draft.cell else ANSWER_AFTER.match(draft.question)
        hinted = after is not None and HINT_LINE.match(after["a"].strip())  # "(hint: …)"
        if after and not hinted and not blocks and draft.reference is None:  # "选 bge？（中文好…）"
            draft.question, draft.reference = after["q"], after["a"].strip()
        draft.blocks = []
        first = blocks[0] if blocks else None
        hint = HINT_LINE.match(plain(first.raw)) if first and first.kind == "paragraph" else None
        if hint and first is not None and "\n" not in first.raw and draft.hint is None:
            draft.hint = hint["text"].strip()
            blocks.pop(0)
        blocks = shown(self.lines, draft, blocks, alike)  # code, options, the option marked right
        draft.hint, blocks = tasked(self.lines, draft.hint, blocks)  # its task over "**答案**："
        listed = blocks and blocks[0].is_list and not lettered(blocks[0])  # options, no points
        points = keypoints.key_points_of(blocks[0]) if listed else None
        if points and not any(map(source_line, points)) and not all(map(placeholder, points)):
            draft.key_points = points
            if len(blocks) == 1:
                return
        reference = ANSWER_MARKER.sub("", kept_source(self.lines, blocks), count=1).strip()
        boxed = TEXT_FENCE.fullmatch(reference)  # prose in a ```text box, not code
        reference = boxed["body"].strip() if boxed else reference
        reference = "" if placeholder(reference) else reference  # "_TODO: add answer_"
        # an answer beside the question ("**Q？** answer") and the blocks after it, in order
        draft.reference = (
            sources_last("\n\n".join(filter(None, (draft.reference, reference)))) or None
        )


__all__ = ["NUMBER", "read_markdown", "read_notebook"]
