"""A quiz item's own material: the code shown under a question, and its lettered options.

``###### 3. 输出是什么？`` over a fenced block and ``- A: …``/``- B: …``
asks about that code: the code is part of the question (a hundred items may
share the heading's words, never the code), and so are the options: a learner
needs them to answer. Options are lettered (``A: …``, ``B. …`` in turn) or
follow a question that says so (``以下哪个…``, ``which of…``) or come right before the
answer's label (``正确答案：…``, ``Answer: …``), unless one of them is
ticked (``- [x] …``): then the list is the answer. Code right
under a question counts when options follow it, when the question points
at it (``What is the output of below code``) or when the question's words
are those of other questions in the file, each over code of its own
(``求最终 left、right 的宽度`` twice, over different CSS): only the code tells
them apart, so each is kept, never "asked again". (``求下面函数的返回值`` over
code is left as it was: such files answer with the code as often as they
ask with it.) Otherwise a question's
worked example stays in its answer. Lettered options are never key points.
An option's own text ends at a hard line break; what follows in its item
(``*Explanation:* …``) is its note. The option marked right (bold end to end,
its siblings not) and the notes are the answer, never the question's text.
"""

from __future__ import annotations

import re
import textwrap

from studybot.bank.format import normalise
from studybot.bank.importer.blocks import Block, source
from studybot.bank.importer.draft import ALL_BOLD, Draft
from studybot.bank.importer.markers import ANSWER_MARKER, OPTIONS, items
from studybot.bank.importer.wrapping import joined

_FENCE_INFO = re.compile(r"^(`{3,}|~{3,})[^\n`]*$", re.MULTILINE)  # "```javascript" shown as "```"
# the question points at the code under it: "output of below code", "the following snippet"
_POINTS_AT = re.compile(
    r"\b(?:below|following)\b|\b(?:code|snippet|program)\s+(?:below|above)\b", re.IGNORECASE
)
_TICKED = re.compile(r"^\[[xX✓✔]\]\s")
_LETTERED = re.compile(r"([A-Ha-h])\s*[:：.、)）]\s*\S")
# an option's own text ends at a hard line break ("…networks.**  " over "*Explanation:* …"):
# what follows it in the item is the option's note
_HARD_BREAK = re.compile(r"(?: {2,}|\\)\n")


def lettered(block: Block) -> bool:
    """A list of two or more items that open with the letters A, B, C… in turn: ``- A: …``."""
    found = [i.first_paragraph() for i in items(block)] if block.is_list else []
    letters = [(_LETTERED.match(joined(p.raw)) if p else None) for p in found]
    return len(found) >= 2 and all(
        m is not None and m[1].upper() == "ABCDEFGH"[k] for k, m in enumerate(letters)
    )


def shared(lines: list[str], drafts: list[Draft]) -> set[str]:
    """The questions (``normalise``d) that other questions of the file share word for word,
    each over code of its own: the code right under each tells them apart (code that differs
    only in its spacing is the same question copied)."""
    codes: dict[str, list[str]] = {}
    for draft in drafts:
        fences = draft.blocks[: _code(draft.blocks)]
        codes.setdefault(normalise(draft.question), []).append(normalise(source(lines, fences)))
    return {
        key
        for key, code in codes.items()
        if key and len(code) > 1 and all(code) and len(set(code)) == len(code)
    }


def shown(
    lines: list[str],
    draft: Draft,
    blocks: list[Block],
    alike: frozenset[str] | set[str] = frozenset(),
) -> list[Block]:
    """Puts the code and options under ``draft``'s question into it, and the option marked
    right and the options' notes before its answer; returns the blocks left for its answer.
    ``alike``: the questions that share their words (``shared``)."""
    question = draft.question
    code = _code(blocks)
    listed = blocks[code] if code < len(blocks) else None
    own = code > 0 and bool(_POINTS_AT.search(question) or normalise(question) in alike)
    listed = listed if listed is not None and listed.is_list else None  # prose: its answer
    offered = listed is not None and (
        lettered(listed)
        or (not code and (OPTIONS.search(question) or _labelled(blocks[code + 1 :])))
        and not ticked(listed)
    )
    if not (offered or own):
        return blocks
    if code:
        question += "\n\n" + _FENCE_INFO.sub(r"\1", source(lines, blocks[:code]))
    draft.question = question
    if listed is None or not offered:
        return blocks[code:]
    options = [option(lines, i) for i in items(listed) if i.first_paragraph()]
    draft.question += "".join(f"\n- {text}" for text, _, _ in options)
    answer = "\n\n".join(filter(None, (draft.reference, marked(options))))
    draft.reference = answer or None
    return blocks[code + 1 :]


def option(lines: list[str], item: Block) -> tuple[str, bool, str]:
    """An option's item as (its text as shown, marked right: bold end to end, its note)."""
    paragraph = item.first_paragraph()
    own, *rest = _HARD_BREAK.split(paragraph.raw if paragraph else "", maxsplit=1)
    more = textwrap.dedent(source(lines, item.children[1:])) if len(item.children) > 1 else ""
    note = " ".join(rest[0].split("\n")) if rest else ""
    return (
        _option(joined(own)),
        bool(ALL_BOLD.fullmatch(own)),
        "\n\n".join(filter(None, (note, more.strip()))),
    )


def marked(options: list[tuple[str, bool, str]]) -> str:
    """What the options tell of the answer: the option marked right (some, not all, in bold),
    then each option's note, named by its letter (``- B: *Explanation:* …``)."""
    right = [text for text, bold, _ in options if bold]
    right = right if len(right) < len(options) else []
    notes = [f"- {_letter(text)}: {note}" for text, _, note in options if note]
    return "\n\n".join(filter(None, ("\n".join(right), "\n".join(notes))))


def _letter(text: str) -> str:
    found = _LETTERED.match(text)
    return found[1] if found else text


def _labelled(after: list[Block]) -> bool:
    """The answer's label right after the list (``正确答案：…``, ``Answer: …``): the list
    between it and the question is what the question offers."""
    return bool(after) and after[0].kind == "paragraph" and bool(ANSWER_MARKER.match(after[0].raw))


def ticked(block: Block) -> bool:
    """A task list with an item ticked (``- [x] …``): the tick is the answer, so the list stays
    in the answer, as under the file's other questions, never shown with the question."""
    return any(
        p is not None and _TICKED.match(joined(p.raw))
        for i in items(block)
        if (p := i.first_paragraph())
    )


def _option(text: str) -> str:
    """``A) QueryEngine``, ``b： …`` as ``A. QueryEngine``: one way to show a lettered option,
    as a quiz record's options are shown (``choices``); an option without a letter as written."""
    found = _LETTERED.match(text)
    return f"{found[1].upper()}. {text[found.end() - 1 :]}" if found else text


def _code(blocks: list[Block]) -> int:
    """How many of ``blocks`` are the code right under a question: the fences they open with."""
    return next((k for k, block in enumerate(blocks) if block.kind != "fence"), len(blocks))
