"""Notes whose topics are headings: the preview names ``headings:N`` for them.

A notes file (``<h1>BPE tokenizer</h1>`` over what its author learnt, no question
mark in any heading) has no question for the default reader to find: it takes
the statements of the notes that read a little like questions (``旋转矩阵的性质``,
``上述结论也可以证明``). Topic headings are not taken by default when they have no
number (any README's sections would become cards); numbered ones are
(``### 3.4 Transformer``). The preview names ``headings:N`` when most questions
the reading previewed takes are lines of prose that do not ask (``MARGIN`` or
more; a list of short topics, ``- cuda加速原理``, is a list of questions) and
level N's headings (the shallowest level with ``MARGIN`` of them, one taken at
most) hold the notes: an answer under nine in ten, four fifths of the text.

Notes whose topic headings sit beside a few that ask (``### PPO``, ``### GPTQ`` and
``### 为什么需要RLHF？``, all level 3) lose the topics by default; the preview names
``headings:N`` (``mixed``) when ``MARGIN`` or more of level N's headings are taken, three in
four of the questions taken are such headings, at least as many level-N headings are not
taken and have notes under them (not a marked file's study-note headings, ``studynotes``),
and ``headings:N`` takes them all.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from studybot.bank.importer.circled import marked_lines
from studybot.bank.importer.draft import Draft
from studybot.bank.importer.layout import Layout
from studybot.bank.importer.markers import reads_as_question
from studybot.bank.importer.nested import asked, under
from studybot.bank.importer.studynotes import note_headings, notes_after
from studybot.bank.importer.templates import uncarded

MARGIN = 3  # asking lines (or non-asking questions) a suggestion must gain at least; headings a rule needs


def notes_level(out: Layout, drafts: list[Draft]) -> tuple[int, int] | None:
    """(N, the topics with notes under level N's headings) for a notes file whose reading
    previewed takes mostly statements (the module's docstring says when); None otherwise."""
    headings = [h for h in out.found if out.section_heading(h)]
    kinds = {out.where(line.index): line.kind for line in out.found}
    taken = [d for d in drafts if d.question.strip()]
    said = [d for d in taken if not reads_as_question(asked(d.question))]
    lines = [d for d in said if kinds.get(d.where) == "paragraph"]  # items: a list of topics
    if len(lines) < MARGIN or 2 * len(lines) <= len(taken):
        return None
    took = {d.where for d in taken}
    text = [line.index for line in out.found if line.kind != "heading"]
    for level in sorted({h.level for h in headings}):
        at = [h for h in headings if h.level == level]
        if len(at) < MARGIN:
            continue
        if sum(1 for h in at if out.where(h.index) in took) > 1:
            return None
        held = under(at, headings, text)
        topics = len(set(held.values()))
        if 10 * topics >= 9 * len(at) and 5 * len(held) >= 4 * len(text):
            return level, topics
        return None
    return None


def suggested(out: Layout, drafts: list[Draft], others: tuple) -> Any:
    """Of the preview's readings (``others``), ``headings:N`` for notes whose topics are
    level N's headings, with why; None when ``notes_level`` finds no such level."""
    found = notes_level(out, drafts)
    option = f"--questions headings:{found[0]}" if found else ""
    reading = next((r for r in others if found and r.option == option), None)
    if found is None or reading is None:
        return None
    return replace(
        reading, why=f"{found[1]} topics with their notes under level {found[0]}'s headings"
    )


def mixed(out: Layout, drafts: list[Draft], others: tuple) -> Any:
    """``headings:N`` for level-N topic headings with notes beside level-N questions (the
    module's docstring says when), with why; None otherwise."""
    headings = [h for h in out.found if out.section_heading(h)]
    took = {d.where for d in drafts if d.question.strip()}
    text = [line.index for line in out.found if line.kind != "heading"]
    marked = marked_lines(out.blocks) >= 2
    noted = note_headings(out.blocks) if marked else set()
    for level in sorted({h.level for h in headings}):
        at = [h for h in headings if h.level == level]
        if marked:  # the notes before a marked file's Q-numbered cards and after them
            noted |= uncarded(out.blocks, level) | set(notes_after(out.lines, out.blocks, level))
        taken = {h.index for h in at if out.where(h.index) in took}
        # a title that comes back ("### 详细解答" in every card) is a template's part, no topic
        again = Counter(h.text for h in at)
        parts = {h.index for h in at if again[h.text] >= 2}
        topics = set(under(at, headings, text).values()) - parts - noted  # a marked file's notes
        topics -= taken
        if len(taken) < MARGIN or len(topics) < len(taken) or 4 * len(taken) < 3 * len(took):
            continue
        option = f"--questions headings:{level}"
        reading = next((r for r in others if r.option == option), None)
        if reading is not None and reading.questions >= len(taken) + len(topics):
            why = f"{len(topics)} topics with notes beside {len(taken)} questions at level {level}"
            return replace(reading, why=why)
    return None
