"""Question boxes: an Obsidian ``> [!question] Q`` callout, or an MkDocs ``??? question "Q"``
box (``importer.admonitions`` rewrites it as one), is one question and its body the answer.

A ``[!question]`` or ``[!faq]`` callout is a question whatever its title says
(``Draw the architecture of …`` asks nothing, ``stated``), and a callout of an answer's
kind right after it (``> [!answer]-``, ``[!success]``, ``[!check]``, ``[!done]``,
``[!explanation]``, or one titled as an answer, ``> [!example]- Answer``) answers it too
(``answer_callout``).

The body answers the title, the lines in it that ask included (``When is perplexity
misleading???`` inside the answer, ``- Where dropout appears`` over its points), unless
the body holds question boxes of its own, or the title asks nothing (``[!question]
面试题``) while lines of the body do: then the body is read as any other text is.

A ``<details>`` whose summary only names what it holds (``<summary>查看问题</summary>``
over a list of bold questions) is no question and no answer: what it holds is read as if
the tags were not there (``listing``), each item of its lists a question when the summary
names questions (``查看问题``, ``Show questions``).

In a file whose questions are boxes (two or more, and no box titled as the answer of a
question above it, ``??? success "Show Answer"``), a line that asks outside any box and
carries no number or marker (``- **Precisão**: … corretas?``, ``### Quando usar o F1?``, a
rhetorical ``…, qual é o melhor?`` in prose) is no question: ``boxed_only`` leaves it out and
lists it as left on purpose.
"""

from __future__ import annotations

import re

from studybot.bank.importer.admonitions import ANSWER_TITLE
from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.collapsible import ANSWER_SUMMARY, unwrapped
from studybot.bank.importer.draft import Draft, Parsed, Skipped
from studybot.bank.importer.markers import asks, asks_inside, clean, q_marker, reads_as_question
from studybot.bank.importer.notes import CALLOUT, callout_asks
from studybot.bank.importer.resources import faq


def question_callout(quote: Block) -> bool:
    """``> [!question] …``, ``> 第 152 题：…``: a quote that is a question, not the answer above."""
    first = quote.children[0] if quote.children else None
    if first is None or first.kind != "paragraph":
        return False
    return bool(callout_asks(first.raw)) or q_marker(first)


def box_parts(lines: list[str], quote: Block) -> tuple[list[Block], list[Block]]:
    """A question box's blocks: those that hold its question, and those that answer it
    (none when the body is to be read for questions of its own)."""
    head, body = quote.children[:1], quote.children[1:]
    title = CALLOUT.sub("", plain(head[0].raw.split("\n")[0])) if head else ""
    inner = any(b.kind == "quote" and question_callout(b) for b in body)
    if inner:
        return quote.children, []
    rest = [*_untitled(head[0]), *body] if head else body
    if not asks(title) and _asking_lines(lines, rest):
        return rest, []  # "Mid-senior checkpoint" over what asks: a label, no question
    return head, body


# the kinds of callout that answer the question box right above them ("> [!answer]-")
ANSWER_CALLOUTS = frozenset(
    {"answer", "answers", "solution", "success", "check", "done", "explanation"}
)


def stated(quote: Block) -> tuple[int, str] | None:
    """The line and text of what a ``> [!question]`` or ``> [!faq]`` callout states, asking or
    not (``Draw the architecture of …``): its title, else its first paragraph; else None."""
    head = quote.children[0] if quote.children else None
    if head is None or head.kind != "paragraph" or not callout_asks(head.raw):
        return None
    title, _, rest = head.raw.partition("\n")
    title = plain(CALLOUT.sub("", title.strip())).strip()
    if title:
        return head.start, title
    text = " ".join(plain(rest).split())
    return (head.start + 1, text) if text else None


def answer_callout(quote: Block) -> list[Block] | None:
    """The blocks that answer in a callout right after a question box (``> [!answer]-``,
    ``[!success]``, ``[!check]``, ``[!done]``, ``[!explanation]``, or any callout titled as an
    answer: ``> [!example]- Answer``), its title line left out; None for any other quote."""
    head = quote.children[0] if quote.children else None
    found = (
        CALLOUT.match(head.raw.strip()) if head is not None and head.kind == "paragraph" else None
    )
    if head is None or found is None or callout_asks(head.raw):
        return None
    title = head.raw.strip().partition("\n")[0][found.end() :].strip()
    if found["kind"].lower() not in ANSWER_CALLOUTS and not ANSWER_TITLE.match(title):
        return None
    return [*_untitled(head), *quote.children[1:]]


def _untitled(head: Block) -> list[Block]:
    """The box's first paragraph without its title line (none when that line is all of it)."""
    first, _, rest = head.raw.partition("\n")
    if head.kind != "paragraph" or not rest.strip():
        return [] if head.kind == "paragraph" else [head]
    return [Block("paragraph", head.start + 1, head.end, raw=rest)]


def listing(
    lines: list[str], blocks: list[Block], found: list[tuple[int, str, str]], closed: bool
) -> list[Block] | None:
    """The blocks inside one closed ``<details>`` whose summary only names what it holds
    (``查看问题``, ``Questions``: it neither asks nor hides an answer) when questions are
    among them, to be read as if the tags were not there; None for any other box."""
    if len(found) != 1 or not closed:
        return None
    summary = clean(plain(found[0][1].replace("\n", " ")))
    if not summary or reads_as_question(summary) or ANSWER_SUMMARY.fullmatch(summary):
        return None
    inside = unwrapped(lines, blocks)
    named = bool(_QUESTIONS.fullmatch(summary)) or faq(summary)  # "查看问题": each item asks
    for block in inside or []:
        block.taken = block.taken or (named and block.is_list)
    return inside if inside and (named or asks_inside(inside)) else None


# a summary that names the questions it hides: "查看问题", "展开面试题", "Show questions"
_QUESTIONS = re.compile(
    r"(?:(?:点击)?(?:查看|展开|显示)(?:全部|所有)?)?(?:面试)?(?:问题|题目)(?:列表|清单)?"
    r"|(?:(?:show|view|see|expand)\s+(?:all\s+|the\s+)?)?(?:interview\s+)?questions?(?:\s+list)?",
    re.IGNORECASE,
)


def _asking_lines(lines: list[str], blocks: list[Block]) -> bool:
    """Whether a line of ``blocks`` (outside code) ends in a question mark."""
    spans = (b for b in blocks if b.kind != "fence")
    return any(asks(plain(lines[n])) for b in spans for n in range(b.start, min(b.end, len(lines))))


BOXED_LEFT = "an asking line outside the question boxes of a file whose questions are boxes"


def boxed_only(out: Parsed, boxed: set[int]) -> None:
    """``out``'s drafts without the unnumbered, unmarked ones read outside a question box when
    two or more were read from boxes (``boxed``: their ids); those are listed as left."""
    if len(boxed) < 2:
        return
    kept: list[Draft] = []
    for draft in out.drafts:
        if id(draft) in boxed or draft.label is not None:
            kept.append(draft)
        else:
            out.skipped.append(Skipped(draft.where, draft.question, BOXED_LEFT, counts=False))
    out.drafts = kept
