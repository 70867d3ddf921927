"""List items: a question when it asks, or numbered in a list that mostly asks.

A part of the Markdown reader (``importer.markdown._Reader``), on the state
all its parts share (``importer.state.ReaderState``). A list
item's answer is inside the item: the lines after its question (``A：…``,
``答：…``, a line that does not ask) and the blocks nested under it; its
sub-list's asking items are questions of their own, the others its points.
A bullet that names a topic for the questions under it (``- Layer Norm 篇``) is no question,
nor a link alone (a contents list); a short list alone under a question gives its key points.
"""

from __future__ import annotations

import re

from studybot.bank.importer.admonitions import BRACKETED
from studybot.bank.importer.answerparts import labelled_answer
from studybot.bank.importer.blocks import Block, link_target, plain
from studybot.bank.importer.boxes import question_callout
from studybot.bank.importer.digests import first_lines as _first_lines
from studybot.bank.importer.draft import WORD, Draft
from studybot.bank.importer.duties import DUTY_LEFT, duty_list
from studybot.bank.importer.givens import give, label_task, sets_problem, shaped
from studybot.bank.importer.grouplabels import GROUP_LEFT, group_labels, notes_item
from studybot.bank.importer.labels import TERSE_LEFT, bold_answer, linked_question, terse, tips
from studybot.bank.importer.markers import (
    DASH_ANSWER,
    INLINE_ANSWER,
    asks,
    asks_inside,
    clean,
    items,
    marker,
    numbered,
    reads_as_question,
    split_answer,
)
from studybot.bank.importer.metadata import described
from studybot.bank.importer.notes import arrow_answer, without_pointer
from studybot.bank.importer.oneline import answered_on_line
from studybot.bank.importer.parts import glossary, numbered_chapter, topic_title
from studybot.bank.importer.resources import see_also, source_line
from studybot.bank.importer.signposts import enumeration
from studybot.bank.importer.state import ReaderState, Trail
from studybot.bank.importer.studynotes import LABEL_LEFT, outline_fields, summary_list
from studybot.bank.importer.subitems import (
    answered_inside,
    asked_run,
    asking,
    more_questions,
    mostly_asking,
    several_asking,
    sub_items,
    topic_part,
    under_label,
)
from studybot.bank.importer.tasks import task_list
from studybot.bank.importer.wrapping import join


class ListReading(ReaderState):
    """The list rules of the Markdown reader."""

    def _list(self, block: Block, path: Trail, current: Draft | None) -> Draft | None:
        if numbered_chapter(self.blocks, block):  # "6. 简历要点" after "5. 面试常见问题"
            current = None
        if self._skip_all(group_labels(self.lines, block), GROUP_LEFT):  # "1. Fundamentals"
            return None  # over "  - What is …?"
        if self._skip_all(duty_list(self.lines, block), DUTY_LEFT):  # "- 计算…的注意力权重"
            if current is not None:
                current.blocks.append(block)
            return current
        if current is not None and not current.blocks and give(current, block, _lines_of(block)):
            return current  # "22. Write a query …" over "   - Table: `orders`", not nested
        if current is not None and current.question and labelled_answer(block):
            current.blocks.append(block)  # "- 标准答：…" "- 反问点：…？" under "1) Q？"
            return current
        if current is not None and not current.question and not current.blocks:
            found = under_label(block)  # "**问题：**" (or "19. **问题：**") over "- 中文：…"
            if found is not None:
                self._held(current, found, block)
                return current
            if several_asking(block):  # "**追问**：" labels the questions below it: no question
                self.out.drafts.remove(current)
                current = None
        if current is not None and task_list(self.blocks, block):  # "**题目**：…" over its task
            current.blocks.append(block)  # "1. … → ?" before "**答案**：": no question
            return current
        if (
            current is not None
            and (self.strong or self.bold)  # or "**Q？**" over its answer's list
            and not _marked_or_asking(block)
            and not _continues(block, current)
        ):
            current.blocks.append(block)  # a marked question's answer, numbered or not
            return current
        lone = self.lone
        bullets = block.kind == "bullet_list"
        if lone and lone[1] == block.start and bullets and self._sibling_answer(block, *lone):
            self.lone = None  # "8) Q？", then "- Tuple. …" answers it before "9) …"
            lone[0].blocks.append(block)
            return lone[0]
        before = len(self.out.drafts)
        taken = self._items(block, path, free=current is None)
        # a list item's answer is inside the item: a list after it is not that answer, unless
        # it follows with no blank line ("67. **Q？**" then "- **Data**: …" on the next line)
        tight = block.start > 0 and bool(self.lines[block.start - 1].strip())
        if taken is None and current is not None and (id(current) not in self.listed or tight):
            current.blocks.append(block)
            return current
        lone, self.lone = self.lone, None
        if taken is None and lone and lone[2] and lone[1] == block.start and bullets:
            lone[0].blocks.append(block)  # "54. **Q？**", then its answer as a bullet list
            return lone[0]
        if taken is None:
            return current
        new = self.out.drafts[before:]
        answered = len(new) == 1 or any(d.blocks or d.reference for d in new[:-1])
        if block.kind == "ordered_list" and not (taken.blocks or taken.reference):
            self.lone = (taken, block.end, answered)  # the last of answered questions has none yet
        if len(new) > 1:
            self.after_list = taken
            return None  # the prose after a list of questions answers none of them
        return taken

    def _sibling_answer(self, block: Block, question: Draft, end: int, answered: bool) -> bool:
        """A bullet list right after a numbered question, not asking, is its answer where it
        follows with no blank line, the questions before it were answered, or the numbering
        goes on after the list."""
        if _marked_or_asking(block):
            return False
        if block.start > 0 and self.lines[block.start - 1].strip():
            return True  # "7) Group by vs order by" then "- <u>Group by</u> …" on the next line
        after = next((line for line in self.lines[block.end :] if line.strip()), "")
        label, _ = numbered(after.strip())
        goes_on = label is not None and (question.label or "").isdigit()
        return answered or (goes_on and int(label or 0) == int(question.label or 0) + 1)

    def _items(self, block: Block, path: Trail, free: bool = False) -> Draft | None:
        """Questions among the items of a list (and their sub-lists); the last one taken. A list
        that is ``free`` (no answer's part) and mostly asks is questions, numbered item each."""
        if enumeration(block):  # "- 是什么、" "- 为什么（动机）、": one sentence in bullets
            return None
        last: Draft | None = None
        run = asked_run(block) and not (self.strong and summary_list(block)) and not glossary(path)
        mostly = block.taken or mostly_asking(block) or run
        nested = mostly and answered_inside(block)  # its questions over their answers
        tip_list = tips(block)
        tasks = shaped(block)  # "**Acme**: …?" beside "**Acme**: Write a query …"
        for item in items(block):
            paragraph = item.first_paragraph()
            if paragraph is None:
                for child in item.children:
                    if child.is_list:
                        last = self._items(child, path) or last
                continue
            rest = item.children[1:]
            raw_lines = paragraph.raw.split("\n")
            subs = sub_items(self.lines, item, paragraph)  # "    26. [E] …" under "43. Stem."
            if subs:
                last = self._sub_items(paragraph, raw_lines[0], subs, rest, path) or last
                continue
            label, text, found = self._item_text(block, item, raw_lines[0])
            if found and not text and rest and rest[0].is_list:  # "1. **问题：**" over "- 中文：…"
                last = self._labelled(paragraph, label, rest, path) or last
                continue
            below = any(asks_inside([child]) for child in rest)
            target = link_target(paragraph.raw)
            dash = DASH_ANSWER.match(text)
            asking = found or self._asks(text) or bool(dash and reads_as_question(dash["q"]))
            asking = asking or (not rest and answered_on_line(text) is not None)  # "Q? A."
            if asking and not (found or rest) and self.strong and outline_fields(block):
                self._skip(paragraph.start, text, LABEL_LEFT, counts=False)  # 目标：…？
                continue
            lead_in = text.endswith((":", "：")) and any(child.is_list for child in rest)
            labelled = lead_in or _field(raw_lines[0]) or tip_list  # "**Sleep well**: …"
            if asking and not found and not asks(text) and labelled:
                asking = False  # "- **Why?**: because …", "* How LDA works:" over its steps
            asking = asking or (tasks and label_task(raw_lines[0])) or sets_problem(text, rest)
            away = target is not None and target.startswith(("http://", "https://"))
            if target is not None and (target.startswith("#") or away or not asking):
                pointer = away and linked_question(block, text)  # "- [new 原理](…)" among questions
                if pointer:
                    last = self._draft(paragraph.start, label, text, path)
                    last.reference = paragraph.raw.strip()
                elif asking or label is not None:
                    why = "a table-of-contents link" if target.startswith("#") else "a link only"
                    self._skip(paragraph.start, text, why, counts=False)
                numbered_link = label is not None and block.kind == "ordered_list"
                if away and not pointer and (numbered_link or asking):  # "- [如何…？](…)" too
                    self.links.append((paragraph.start, label, paragraph.raw, path))
                for child in rest:
                    if child.is_list:
                        last = self._items(child, path) or last
                continue
            listed = label is not None and block.kind == "ordered_list"
            listed = listed and (mostly or self._next_number(label))
            top = not self.lines[block.start][:1].isspace()  # not an outline's leaves
            owned = run or block.taken or (nested and bool(rest))  # or over its own answer
            listed = listed or (block.kind == "bullet_list" and owned and top)
            # a list of them takes its items that do not ask (outside answers if marked), not "..."
            named = not below and WORD.search(text) is not None and not notes_item(text)
            open_list = listed and named and (not self.strong or (free and mostly))
            if (asking or open_list) and not (below and topic_title(text)):
                last = self._item_question(paragraph, raw_lines, label, text, rest, path)
                continue
            if label is not None and not below and self.strong:
                self._noted_item(paragraph.start, text, path)
            elif terse(text, rest, mostly and not self.strong):  # "- 事件类型": listed
                self._skip(paragraph.start, text, TERSE_LEFT, counts=False)
            for child in rest:
                if child.is_list:
                    last = self._items(child, path) or last
                elif child.kind == "quote" and question_callout(child):  # "- Basics" over boxes
                    self._boxed(child, path)
        return last

    def _sub_items(self, paragraph: Block, first: str, subs, rest, path: Trail) -> Draft | None:
        """The stem when it asks, then each numbered sub-item that is a question."""
        stem = clean(plain(first))
        label, text = numbered(stem)
        last = None
        if reads_as_question(text):
            last = self._draft(paragraph.start, label, text, path)
        for line, number, sub in asking(subs):
            last = self._draft(line, number, numbered(sub)[1] or sub, path)
            self.listed.add(id(last))
        if last is not None:
            last.blocks.extend(rest)  # what is nested below answers the last one
        return last

    def _labelled(self, paragraph: Block, label, rest, path: Trail) -> Draft | None:
        """A bare ``**问题：**`` item: its question is in the sub-items below it."""
        found = under_label(rest[0])
        if found is None:
            return None
        draft = self._draft(paragraph.start, label, "", path)
        self._held(draft, found, rest[0])
        draft.blocks.extend(rest[1:])
        self.listed.add(id(draft))
        return draft

    def _held(self, draft: Draft, found: tuple[str, str | None], below: Block) -> None:
        """``draft`` asks what the sub-items ``below`` its label say: its place is theirs."""
        draft.question, draft.hint = found
        lines = [i.start for i in items(below)]
        draft.where, draft.also = self.where(lines[0]), [self.where(n) for n in lines[1:]]

    def _item_question(self, paragraph: Block, raw_lines, label, text, rest, path: Trail) -> Draft:
        end = split_answer(raw_lines)
        while end < len(raw_lines) and self._aside(paragraph.start + end, raw_lines[end]):
            end += 1  # "2. Why …？" over "  （注意和第一个问题的区别）": the question's note
        for line in raw_lines[1:end]:
            text = join(text, plain(line))
        inline = INLINE_ANSWER.match(text) or DASH_ANSWER.match(text) if end == 1 else None
        if inline and not reads_as_question(inline["q"]):  # "- What is X? — X is …" is one
            inline = None
        answer = inline["a"].strip() if inline else ""
        text = inline["q"] if inline and answer else text
        arrow = arrow_answer(raw_lines[0], text) if end == 1 and not answer else None
        arrow = arrow or (bold_answer(raw_lines[0]) if end == 1 and not answer else None)
        arrow = arrow or (answered_on_line(text) if end == 1 and not (answer or rest) else None)
        text, answer = arrow or (text, answer)  # "- *Q:…?* → its answer", "**Q?** answer"
        draft = self._draft(paragraph.start, label, clean(text), path)
        if answer:
            draft.reference = "\n".join([answer, *raw_lines[1:]]).strip()
        self.listed.add(id(draft))
        if end < len(raw_lines) and not answer:
            draft.blocks.append(Block("paragraph", paragraph.start + end, paragraph.end))
        last = owner = draft
        for child in rest:
            found = follow_up(child.raw.split("\n")[0]) if child.kind == "paragraph" else None
            found = found or (None if asks(text) else topic_part(child))  # "3. DeepFM"
            about = described(_lines_of(child)) if child.is_list and owner is draft else None
            if owner is draft and give(draft, child, _lines_of(child)):
                continue  # "- Table: `orders`": what the question gives, no answer
            if about is not None:  # "- Type: Multiple Choice", "- Choices: a; b": no answer
                draft.tags.extend(about[0])
                draft.hint = draft.hint or (about[1] and f"Choices: {about[1]}")
            elif child.is_list and more_questions(child, bool(owner.blocks)):
                last = self._mixed(child, draft, path)
            elif found is not None:  # "a) Where would you put it, and why?" under the item
                last = owner = self._draft(child.start, None, clean(found[1]), path)
                self.listed.add(id(owner))
                if child.end > child.start + 1:
                    owner.blocks.append(Block("paragraph", child.start + 1, child.end))
            else:
                owner.blocks.append(child)
        return last

    def _aside(self, index: int, raw: str) -> bool:
        """An indented line wholly in brackets under an item's question: a note on it
        (``(source: …)`` says where it comes from: ``resources``)."""
        line, text = self.lines[index] if index < len(self.lines) else "", plain(raw).strip()
        return line[:1].isspace() and bool(BRACKETED.fullmatch(text)) and not source_line(text)

    def _linked(self) -> None:
        """A file whose only questions are numbered links to their answers (``1. [梯度裁剪
        的原理](https://…)``): each is a question, its link the answer."""
        taken = set()
        for line, label, raw, path in self.links:
            first = _FIRST_LINK.match(raw)  # "[A](…)[B](…)": A asks, both answer
            text = clean(plain(first[1] if first else raw))
            self._draft(line, label, text, path).reference = raw.strip()
            taken.add(self.where(line))
        self.out.skipped = [s for s in self.out.skipped if s.where not in taken]

    def _mixed(self, sub: Block, parent: Draft, path: Trail) -> Draft:
        """A question's sub-list: asking items are questions, the others its points."""
        points = Block(sub.kind, sub.start, sub.end)
        points.children = [i for i in items(sub) if not asks_inside([i])]
        if points.children:
            parent.blocks.append(points)
        asking = Block(sub.kind, sub.start, sub.end)
        asking.children = [i for i in items(sub) if asks_inside([i])]
        return self._items(asking, path) or parent

    def _item_text(self, block: Block, item: Block, first: str):
        found = marker(first)
        if found:
            return found[0], found[1].strip(), True
        text = clean(plain(without_pointer(first)))
        label, rest = numbered(text)
        if block.kind == "ordered_list" and (label is None or _QUANTITY.match(text)):
            return item.number, text.strip(), False  # "124. 90 秒怎么…？": 90 is no number
        return label, rest.strip(), False


_QUANTITY = re.compile(r"\d{1,4}\s+(?![\d.、．:：)）])")
_FIELD = re.compile(r"^\s*(?:\*\*|__)(?P<key>[^*_\n]{1,40})(?:\*\*|__)\s*[:：]\s*\S")
_FIRST_LINK = re.compile(r"\s*\[([^\]\n]{1,300})\]\(")


def _field(raw_line: str) -> bool:
    """``**Key**: value`` whose key asks nothing (``**Why?**``), or a link and its page's gist."""
    field = _FIELD.match(raw_line)
    return see_also(raw_line) or (field is not None and not reads_as_question(plain(field["key"])))


def _continues(block: Block, current: Draft) -> bool:
    """``2. 聊聊…`` after the answer of ``1. 讲讲…`` (a number or two may be skipped): the next
    question, not part of that answer."""
    listed = items(block)
    label = current.label or ""
    if block.kind != "ordered_list" or not listed or not label.isdigit():
        return False
    paragraph = listed[0].first_paragraph()
    text = clean(plain(paragraph.raw.split("\n")[0])) if paragraph else ""
    number = str(listed[0].number or "")
    nearby = number.isdigit() and 0 < int(number) - int(label) <= 3  # "13." after "11."
    return nearby and reads_as_question(text)


def _marked_or_asking(block: Block) -> bool:
    """A list of questions after a marked one: items with markers, or mostly ending in ？.
    A legend (``- Q: Queries, K: Keys``) is no marker and a word's meaning (``- Query: What
    am I looking for?``) asks nothing: such a list is the answer of the question above."""
    for item in items(block):
        paragraph = item.first_paragraph()
        found = marker(paragraph.raw.split("\n")[0]) if paragraph is not None else None
        if found is not None and not _LEGEND.match(found[1]):
            return True
    texts = _first_lines(block)
    asking = sum(1 for t in texts if asks(clean(t)) and not _MEANING.match(clean(t)))
    return bool(texts) and 2 * asking > len(texts)


def _lines_of(block: Block) -> list[str]:
    """Every line of a list's items, when each item is one paragraph (else one empty line)."""
    found = []
    for item in items(block):
        if len(item.children) != 1 or item.children[0].kind != "paragraph":
            return [""]
        found += item.children[0].raw.split("\n")
    return found


def labelled_questions(blocks: list[Block]) -> bool:
    """A bold label alone (``**常见问题**``) right over a list of items that mostly ask: the
    file's questions are in lists, so a heading over the whole file is its title."""
    return any(
        first.kind == "paragraph"
        and "\n" not in first.raw.strip()
        and first.raw.strip().startswith(("**", "__"))
        and not asks(plain(first.raw))
        and second.is_list
        and mostly_asking(second)
        for first, second in zip(blocks, blocks[1:], strict=False)
    )


_LEGEND = re.compile(r"^[^?？,，]{1,30}[,，]\s*[B-Z]\s*[:：]")  # "Queries, K: Keys, V: Values"
_MEANING = re.compile(r"^[A-Z][a-z]+:\s+\S")  # "Query: What am I looking for?"
_LETTERED = re.compile(r"^[（(]?[a-h][)）]\s*(?P<text>\S.*)$")


def follow_up(raw_line: str) -> tuple[None, str] | None:
    """``a) Where would you put it?``: a lettered follow-up that asks, inside an answer."""
    found = _LETTERED.match(plain(raw_line))
    return (None, found["text"].strip()) if found and asks(found["text"]) else None
