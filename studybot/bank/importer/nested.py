"""What a reading holds, line by line, and which of its questions a heading reading keeps inside
another question's answer: the measures the preview (``importer.steer``) compares readings by.

The file's lines that ask (``asking``, less those notes cards hold: ``held_in``) are what
every reading is measured against (``steer.reading``, ``steer.analyse``).

A reading holds the lines of its questions and of their answers, each folded (no marker,
number, markup or spacing), so one reading's line is found among another's whatever they
made of its markup.

Beside the reading previewed, a ``headings:N`` reading takes each question again, or keeps it,
whole, as a line of one of its answers:

- a *follow-up*: inside the answer of a question both take (``*Q: "How would you …"*`` or a
  ``**How It Works:**`` sub-heading under ``### 7. What is few-shot prompting?``);
- a *sub-heading*: a label that does not ask, inside the answer of a heading the reading
  previewed did not take (``**1. Objective:**`` under ``### Key Differences``);
- or it *loses* it: neither taken nor kept. A question numbered like the one it sits under
  (``Q16.`` under ``### Q14.``) is the next question written without its ``###``, no
  follow-up: the headings would bury it in an answer.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from pathlib import Path

from studybot.bank.importer.blocks import plain
from studybot.bank.importer.boxes import BOXED_LEFT
from studybot.bank.importer.draft import NOT_WORD, PROSE_LEFT, Draft, Parsed
from studybot.bank.importer.duties import DUTY_LEFT
from studybot.bank.importer.layout import Layout, Line, layout
from studybot.bank.importer.markers import (
    INLINE_ANSWER,
    REVERSE_LEFT,
    asks,
    field_line,
    meta,
    reads_as_question,
)
from studybot.bank.importer.notes import arrow_answer
from studybot.bank.importer.studynotes import LABEL_LEFT, NOTES_LEFT, RHETORICAL_LEFT


@dataclass(frozen=True)
class Nesting:
    """The previewed reading's questions as a heading reading takes or keeps them."""

    follow_ups: int  # kept as lines of the answer of a question both readings take
    sub_headings: int  # that do not ask, kept as lines of a heading's answer not previewed
    lost: int  # neither taken nor kept whole in an answer
    lost_asking: int  # of those, the questions that ask
    recovered: int  # lines the heading reading holds that the reading previewed holds nowhere


def folded(text: str) -> str:
    """A line as compared with the answers' lines: no marker, number, markup or spacing."""
    return NOT_WORD.sub("", plain(text.lstrip(" \t>-*+#0123456789.)"))).casefold()


def held(drafts: list[Draft]) -> set[str]:
    """The lines of the answers taken, folded: an asking line among them ("When we declare
    a variable …" inside a taken answer) is imported, as a line of that answer."""
    lines: set[str] = set()
    for draft in drafts:
        for line in "\n".join([draft.reference or "", *draft.key_points]).splitlines():
            line = folded(line)
            if line:
                lines.add(line)
    return lines


def asked_lines(drafts: list[Draft]) -> set[str]:
    """The lines of the questions taken, folded (a contents entry repeating one was taken),
    their hints too (an exercise's task, shown with it: ``exercises``)."""
    asked = (f"{draft.question}\n{draft.hint or ''}" for draft in drafts)
    return {folded(line) for text in asked for line in text.splitlines()} - {""}


def titled(drafts: list[Draft]) -> set[str]:
    """The titles of the sections that hold the questions taken, folded: a topic heading over
    its question (``### 3. 模型架构差异`` over ``**问题**: …？``) names it, it asks nothing."""
    return {folded(title) for draft in drafts for _, title in draft.path} - {""}


def within(line: str, taken: str) -> bool:
    """One of the ``taken`` lines, or 8 letters or more of one (a hard-wrapped line's half)."""
    return f"\n{line}\n" in f"\n{taken}\n" or (len(line) >= 8 and line in taken)


def asked(question: str) -> str:
    """A question's own words: the code and options a quiz item shows below them aside."""
    return question.split("\n\n", 1)[0]


def nesting(out: Layout, previewed: list[Draft], headings: list[Draft]) -> Nesting:
    """How the ``headings`` reading takes or keeps each of the ``previewed`` questions."""
    index = {out.where(line.index): line.index for line in out.found}
    ends = _sections(out, {index[d.where]: d for d in headings if d.where in index})
    starts = sorted(ends)
    taken = {d.where for d in headings}
    shown = {d.where: d for d in previewed}
    answers: dict[str, str] = {}  # each heading question's answer, its lines folded
    follow_ups = sub_headings = lost = lost_asking = 0
    for draft in previewed:
        if draft.where in taken:
            continue
        at = index.get(draft.where, -1)
        k = bisect_right(starts, at - 1) - 1
        parent = ends[starts[k]][1] if k >= 0 and at < ends[starts[k]][0] else None
        if parent is not None and parent.where not in answers:
            answers[parent.where] = "\n".join(held([parent]))
        answer = answers[parent.where] if parent else ""
        kept = within(folded(asked(draft.question).split("\n", 1)[0]), answer)
        twin = shown.get(parent.where) if parent else None
        asks = reads_as_question(asked(draft.question))
        if kept and twin is not None and not (draft.label and twin.label):
            follow_ups += 1
        elif kept and twin is None and not asks:
            sub_headings += 1
        else:
            lost += 1
            lost_asking += asks
    recovered = held(headings) - held(previewed) - asked_lines(previewed)
    return Nesting(follow_ups, sub_headings, lost, lost_asking, len(recovered))


def _sections(out: Layout, questions: dict[int, Draft]) -> dict[int, tuple[int, Draft]]:
    """Each heading question's line, with the line its section ends at (the next heading as
    high) and the question."""
    headings = [line for line in out.found if out.section_heading(line)]
    ends: dict[int, tuple[int, Draft]] = {}
    for k, line in enumerate(headings):
        if line.index in questions:
            ends[line.index] = (_end(headings[k + 1 :], line.level), questions[line.index])
    return ends


def _end(after: list[Line], level: int) -> int:
    """Where a level-``level`` heading's section ends: at the first of the headings ``after``
    it at its level or above (beyond the file's end when none is)."""
    return next((h.index for h in after if h.level <= level), 1 << 62)


def under(chosen: list[Line], headings: list[Line], text: list[int]) -> dict[int, int]:
    """The text lines in the sections of the ``chosen`` headings, each with the line of the
    (innermost) heading whose section holds it."""
    order = sorted(headings, key=lambda line: line.index)
    held: dict[int, int] = {}
    for h in chosen:
        end = _end(order[bisect_right(order, h.index, key=lambda line: line.index) :], h.level)
        lo, hi = bisect_right(text, h.index), bisect_right(text, end)
        for i in text[lo:hi]:
            held[i] = h.index
    return held


def topic(text: str, titles: set[str]) -> bool:
    """A heading over its question that asks by a word only, no question mark."""
    return not text.rstrip().endswith(("?", "？")) and folded(text) in titles


def answered(line: Line, answers: str) -> bool:
    """A sentence or sub-heading of an answer taken that only reads like a question ("When
    we declare …", "How closures work:", an item that ends as a sentence does); another list
    item, or a line that asks with a question mark (``*Q:…?* → its answer`` too), is listed
    even there: a follow-up the user may want. A key and its value (``为什么需要：…``, a point
    of a numbered answer, joined with the others into one key point) is said, not asked."""
    said = line.kind in ("paragraph", "heading") or line.text.endswith((".", "。", "!", "！"))
    said = said or field_line(line.text)
    arrow = arrow_answer(line.text, line.text)
    inline = INLINE_ANSWER.match(line.text)  # "…？答：…" asks, with its answer beside it
    text = arrow[0] if arrow else inline["q"] if inline else line.text
    return said and not asks(text) and within(folded(line.text), answers)


def laid_out(path: Path, text: str, kind: str) -> Layout | None:
    """The file's lines as the selectors see them; None for records and files not laid out."""
    out = layout(path, text, kind) if kind in ("markdown", "notebook") else None
    return None if out is None or isinstance(out, Parsed) else out


def asking(out: Layout, parsed: Parsed) -> dict[str, Line]:
    """The file's lines that ask, by place: not a candidate's own (nor one beside question
    boxes, ``boxes.boxed_only``), not a heading of a section
    that holds no questions ("🤝 如何贡献") or one over its question named by a word only."""
    # the candidate's own, a study note's heading or label, prose beside marked questions or boxes
    theirs = {s.where for s in parsed.skipped if s.why in _NOT_ASKED}
    titles = titled(parsed.drafts)
    return {
        where: line
        for where, line in ((out.where(line.index), line) for line in out.found)
        if line.asks
        and where not in theirs
        and not (line.kind == "heading" and (meta(line.text) or topic(line.text, titles)))
    }


def held_in(lines: dict[str, Line], parsed: Parsed) -> set[str]:
    """Notes cards (``topiccards``): the asking lines their answers hold stay in them."""
    if not parsed.cards:
        return set()
    taken, answers = lines_taken(parsed.drafts), "\n".join(held(parsed.drafts))
    return {w for w, line in lines.items() if w not in taken and answered(line, answers)}


_NOT_ASKED = (
    REVERSE_LEFT,
    NOTES_LEFT,
    LABEL_LEFT,
    RHETORICAL_LEFT,
    PROSE_LEFT,
    BOXED_LEFT,
    DUTY_LEFT,
)


def lines_taken(drafts: list[Draft]) -> set[str]:
    """The "file:line" of each line the drafts hold: a question's own and any it spans."""
    return {where for draft in drafts for where in (draft.where, *draft.also)}
