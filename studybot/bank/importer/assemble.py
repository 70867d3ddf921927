"""From drafts to a Bank: problems, repeats, chapters, numbers, the canonical rules.

What a file does is reported as a fact, never an error: a question asked
again is imported once, where it first appears (a later copy's answer fills
a first copy that has none), and each repeat is named with its line; a
chapter that comes back later in the file, or questions before the first
heading, are chapters like any other (the questions of a chapter that comes
back join its first part). A question with no text is left out and
listed as not taken: one empty heading never stops the rest. A record
that cannot be used as it is (an id that is no number, a lone surrogate,
more than 7 key points) is a problem: it stops the import, listed with
``file:line``, unless ``--force`` mends it (drops the bad id, keeps the
points as the answer, replaces what is no character with �). Numbering
is ``importer.numbering``'s; the result passes the canonical format's own
checks.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from studybot.bank.format import (
    IMPORTED_KEY_POINTS,
    Bank,
    Chapter,
    Question,
    normalise,
    parse_question,
)
from studybot.bank.importer import numbering
from studybot.bank.importer.draft import (
    CHAPTER,
    CJK,
    HINT_LABEL,
    OPERATOR,
    WORD,
    Draft,
    Parsed,
    Skipped,
    chapter_number,
    strict_cn_number,
    strip_emphasis,
)
from studybot.bank.importer.markers import reads_as_question
from studybot.bank.importer.metadata import difficulty_mark, leading_tags, without_source
from studybot.bank.importer.notes import approach_tail
from studybot.bank.importer.pointers import elsewhere, pointer_sources
from studybot.bank.importer.restated import restated
from studybot.bank.importer.translations import translated
from studybot.bank.text import named
from studybot.errors import BankError

_HINT = re.compile(rf"[（(【\[]\s*{HINT_LABEL}\s*(?P<text>.*?)\s*[）)】\]]", re.IGNORECASE)
_CLOSE = tuple(".,;:!?。，；：！？")  # punctuation that closes what comes before it
_NUMBERED_TITLE = re.compile(r"^(?P<n>\d+)\s*(?:[、．:：]|\.(?!\d))\s*")
MOST_POINTS = IMPORTED_KEY_POINTS[1]
_DECIMAL = re.compile(r"^(?P<whole>\d+)\.(?P<part>\d+)$")  # a label read as a decimal: "892.32位…"


@dataclass
class Assembled:
    bank: Bank
    numbering: list[str] = field(default_factory=list)  # how the source's numbers were kept
    repeats: list[str] = field(default_factory=list)  # "file:L repeats file:M" for each repeat
    chapters: list[str] = field(default_factory=list)  # chapters that come back
    forced: list[str] = field(default_factory=list)  # problems --force mended or left out
    left: list[Skipped] = field(default_factory=list)  # questions with no text: not taken


def assemble(path: Path, parsed: Parsed, name: str, force: bool) -> Assembled:
    """The Bank of ``parsed``: BankError listing every problem unless ``force``."""
    problems = list(parsed.problems)
    drafts: list[Draft] = []
    empty: list[Draft] = []  # questions with no text
    _decimal_labels(parsed.drafts)
    for draft in parsed.drafts:
        _take_hint(draft)
        draft.question, draft.reference = without_source(draft.question, draft.reference)
        if not draft.problem and not draft.question.strip():
            empty.append(draft)  # one empty heading never stops the rest
            continue
        own = _problem(draft)
        if own:
            problems.append(own)
            if not force:
                continue
            _mend(draft)
        drafts.append(draft)
    if empty and not drafts and not problems:  # nothing but questions with no text
        said = [f"{d.where}: {_no_text(d)}" for d in empty]
        raise BankError(in_file_order(path, said), hint="write each question after its number")
    if problems and not force:
        hint = f"see every problem with: studybot bank validate {shlex.quote(str(path))}"
        raise BankError(in_file_order(path, problems), hint=hint + "; --force imports the rest")
    left = [_left(draft) for draft in empty]
    out = Assembled(Bank(name, "", "en", (), ()), forced=in_file_order(path, problems), left=left)
    drafts = _once(restated(drafts, out.left), out.repeats)  # a list's line a heading restates
    groups = _chapters(drafts, out.chapters)
    ordered = [d for _, members in groups for d in members]
    out.numbering = numbering.number(ordered)
    out.bank = _bank(path, parsed.title, name, groups)
    return out


def _problem(draft: Draft) -> str | None:
    if draft.problem:
        return draft.problem
    if len(draft.key_points) > MOST_POINTS:
        number = f"Q{draft.label}" if draft.label else "a question"
        return (
            f"{draft.where}: {number} has {len(draft.key_points)} key points "
            f"(need at most {MOST_POINTS})"
        )
    return None


def _decimal_labels(drafts: list[Draft]) -> None:
    """``892.32位…`` between questions 891 and 893 is question 892, ``32位…``: a label that reads
    as a decimal is the whole number and the start of the text when its neighbours count by
    whole numbers and the whole number is the one between theirs."""
    for at, draft in enumerate(drafts):
        found = _DECIMAL.match(draft.label or "")
        if found is None or not draft.question[:1].strip():
            continue
        whole = int(found["whole"])
        near = [
            (drafts[at + step].label or "", step)
            for step in (-1, 1)
            if 0 <= at + step < len(drafts)
        ]
        if near and all(label.isdigit() and int(label) == whole + step for label, step in near):
            draft.label, draft.question = found["whole"], found["part"] + draft.question


def _no_text(draft: Draft) -> str:
    return f"Q{draft.label} has no question text" if draft.label else "a question with no text"


def _left(draft: Draft) -> Skipped:
    """A question with no text, left out and listed with what is under it."""
    under = next((ln.strip() for ln in (draft.reference or "").splitlines() if ln.strip()), "")
    return Skipped(draft.where, under[:80] or "(nothing under it)", _no_text(draft) + "; not taken")


def _mend(draft: Draft) -> None:
    """What --force makes of a record with a problem: the points beyond 7 become the answer."""
    if len(draft.key_points) > MOST_POINTS:
        listed = "\n".join(f"- {p}" for p in draft.key_points)
        draft.reference = f"{listed}\n\n{draft.reference}" if draft.reference else listed
        draft.key_points = []


def _once(drafts: list[Draft], repeats: list[str]) -> list[Draft]:
    """Each question once, where it first appears; a later copy's answer fills a bare first."""
    first: dict[str, Draft] = {}
    kept: list[Draft] = []
    for draft in drafts:
        key = normalise(draft.question)
        earlier = first.get(key) if key else None
        if earlier is None:
            if key:
                first[key] = draft
            kept.append(draft)
            continue
        first_at = earlier.where.rpartition(":")[2].strip()
        first_at = f"line {first_at}" if first_at.isdigit() else first_at
        repeats.append(f"{draft.where}: asked again (first at {first_at}): {draft.question[:60]}")
        if not (earlier.reference or earlier.key_points):
            earlier.reference, earlier.key_points = draft.reference, draft.key_points
    return kept


def _chapters(drafts: list[Draft], notes: list[str]) -> list[tuple[str | None, list[Draft]]]:
    """Drafts grouped by chapter in order of first appearance; a chapter may come back."""
    groups: dict[str | None, list[Draft]] = {}
    previous: str | None = None
    for draft in drafts:
        key = draft.chapter
        if key in groups and key != previous:
            notes.append(
                f"{draft.where}: chapter {key or '(no chapter)'!r} comes back; "
                "its questions here join its first part"
            )
        groups.setdefault(key, []).append(draft)
        previous = key
    return list(groups.items())


def _bank(path: Path, title: str | None, name: str, groups) -> Bank:
    """The Bank of the numbered drafts, each checked as the canonical format checks a question."""
    title = title or named(path.stem)
    chapters: list[Chapter] = []
    questions: list[Question] = []
    problems: list[str] = []
    every = [d for _, ds in groups for d in ds]
    drafts = [(d.question, d.reference, bool(d.key_points)) for d in every]
    pointing = elsewhere(drafts)  # "[答案&解析](…)" under each question: answers kept elsewhere
    _approaches(every)
    for number, (heading, members) in enumerate(groups, start=1):
        chapter = Chapter(
            number, _chapter_title(heading, number, title), members[0].id, members[-1].id
        )
        chapters.append(chapter)
        for draft in members:
            question = _question(draft, chapter, problems, pointing)
            if question is not None:
                questions.append(question)
    ids = [q.id for q in questions]
    if ids != list(range(ids[0], ids[0] + len(ids))) if ids else False:
        problems.append(f"{path}: the questions could not be numbered in order")  # a bug
    if problems:
        raise BankError(in_file_order(path, problems))
    language = "zh-CN" if any(CJK.search(q.question) for q in questions) else "en"
    return Bank(name, title, language, tuple(chapters), tuple(questions))


def _approaches(drafts: list[Draft]) -> None:
    """Unanswered tasks that name their approach after an arrow (``最长有效括号组合 -> 栈``),
    two or more in the file: the approach is each one's answer, no part of what it asks."""
    found = []
    for draft in drafts:
        split = None if draft.reference or draft.key_points else approach_tail(draft.question)
        if split is not None and not reads_as_question(split[1]):
            found.append((draft, split))
    for draft, (task, approach) in found if len(found) >= 2 else ():
        draft.question, draft.reference = task, approach


def _question(
    draft: Draft, chapter: Chapter, problems: list[str], pointing: bool
) -> Question | None:
    """``draft`` as a Question: by ``parse_question`` when it has a field of an unusual shape."""
    points = [p.strip() for p in draft.key_points if p.strip()]
    found, draft.reference = leading_tags(draft.reference)  # "**Difficulty:** Medium" lines
    translation = None if draft.hint else translated(draft.question, draft.reference)
    if translation is not None:  # "   How do you …?" under "**如何…？**": its hint
        draft.hint, draft.reference = translation
    if draft.reference and not (WORD.search(draft.reference) or OPERATOR.search(draft.reference)):
        draft.reference = None  # "> ☞", "---": marks with no word are no answer; "<~>" is one
    marked, draft.question = difficulty_mark(draft.question)  # "[E] …"
    found = [*marked, *found]
    tags = list(dict.fromkeys(t for t in (*draft.tags, *found) if t))
    sources = pointer_sources(draft.question, draft.reference) if pointing else None
    if sources is not None:
        draft.reference = None
    simple = all(t == t.strip().lower() for t in tags) and draft.question.strip()
    if not simple:
        entry: dict[str, object] = {"id": draft.id, "question": draft.question}
        entry.update(key_points=points, tags=tags)
        for key in ("hint", "reference", "label"):
            if getattr(draft, key):
                entry[key] = getattr(draft, key)
        if sources:
            entry["sources"] = [{"cite": s.cite, "ref": s.ref} for s in sources]
        return parse_question(entry, chapter, _at(draft.where), problems, IMPORTED_KEY_POINTS)
    assert draft.id is not None  # every draft is numbered (importer.numbering) before this
    return Question(
        id=draft.id,
        chapter=chapter.number,
        question=draft.question.strip(),
        key_points=tuple(points),
        tags=tuple(tags),
        hint=(draft.hint or "").strip() or None,
        reference=(draft.reference or "").strip() or None,
        label=(draft.label or "").strip() or None,
        sources=sources or (),
    )


def in_file_order(path: Path, problems: list[str]) -> list[str]:
    """Problems sorted by their place in the file, so the first one reported is the first met."""
    prefix = str(path)

    def place(problem: str) -> tuple[int, int]:
        rest = problem[len(prefix) :] if problem.startswith(prefix) else ""
        match = re.match(r":(?:cell (\d+), line |item )?(\d+)", rest)
        return (int(match[1] or 0), int(match[2])) if match else (0, 0)

    return sorted(problems, key=place)


def _at(place: str) -> Callable[..., str]:
    """A ``where(key)`` for bank.parse_question: every field of a record is at its line."""
    return lambda key=None: place


def _take_hint(draft: Draft) -> None:
    """Move ``（提示：…）`` out of the question text; unwrap a hint written that way."""
    text = draft.question if draft.blanks else strip_emphasis(draft.question)
    match = _HINT.search(text)
    if match:
        draft.hint = draft.hint or match["text"].strip() or None
        head, tail = text[: match.start()], text[match.end() :]
        text = (head.rstrip() if tail[:1] in _CLOSE else head) + tail  # "X (hint: y)." is "X."
        text = text.strip()
    draft.question = text
    wrapped = _HINT.fullmatch(draft.hint.strip()) if draft.hint else None
    if wrapped:
        draft.hint = wrapped["text"].strip() or None


def _chapter_title(heading: str | None, number: int, bank_title: str) -> str:
    """``第3章 注意力`` as chapter 3 is titled ``注意力``; a bare number becomes ``第 N 章``.

    The part's own number is dropped only when it is the chapter's number, so
    a file that starts at ``第9章`` still shows the user its 9.
    """
    if not heading:
        return bank_title
    if heading.isdigit():
        return f"第 {heading} 章"
    match = CHAPTER.match(heading) or _NUMBERED_TITLE.match(heading)
    rest = heading[match.end() :].strip() if match else ""
    if match and rest and strict_cn_number(chapter_number(match)) == number:
        return rest
    return heading
