"""Reading a user's own question list into a Bank: Markdown, notebooks, web pages, CSV/TSV,
JSON, JSONL, YAML, Anki.

The file is read safely (``source``: a regular file, at most 200 MB, UTF-8);
``KINDS`` names each kind of file, how it is recognised (its extensions, a
package's first bytes; ``kind_of`` looks at the text too) and its reader
(``markdown``, ``rows``, ``yamldoc``, ``decks``; a table whose first row is a card, not a
header, ``headerless``; ``<details>`` summaries it passes over, ``summaries``; where a JSON document's records sit, ``jsondoc``, and their lines, ``jsonplaces``; the lists of
objects a document refused holds, named with the ``--map`` that reads them, ``jsonlists``; an
assessment's rubric as its key points and its score as none, ``rubrics``; a web page as the
Markdown it shows, a form's text above each answer box a question, ``htmlpage``), which turns it into ``Draft`` questions (a Markdown
file's HTML lists, Hugo shortcodes (``shortcodes``), a card's ``Front:``/``Back:`` labels
(``cardsides``) and MkDocs boxes read first as the
Markdown they stand for, ``htmllists``; headings that ask after a statement and where a
heading question's answer ends, ``asking``;
the marked lines that make a file's headings a study note's, and the circled sub-questions
(``**①…？**``) under a numbered heading that do not, ``circled``; a file's list items that ask, beside its asking headings, ``listed``; the lists under a heading that says what was asked, bare topics and all, ``topiclists``; the terse prompts among the empty headings of an outline
that mostly asks, ``outline``; notes cards whose topic headings stay the
questions beside asking lines in their answers, ``topiccards``; a study note's headings that only name
what it covers beside its marked questions, ``studynotes``; an asking heading whose sub-headings ask its parts again, and a list's questions that answered headings restate, ``restated``) that remember their place (a level mark such as ``👶`` or ``[hard]`` left
out, ``decorations``; a label before what is asked, ``labels``; an exercise heading over its hidden answer, ``exercises``; ``**题目**：…`` over its task and ``**答案**：``, ``tasks``; labelled bullets under a question, its answer, ``answerparts``; a short list under it, its key points, ``keypoints``;
a list's labelled tasks beside its labelled questions and the tables a question gives, ``givens``;
what may follow the question mark of a line that asks (``…?"``, ``…? (e.g., …).``), ``tails``;
a list item that asks and answers itself on one line (``* What is X? It is …``), ``oneline``; a deck of ``front; back`` lines, a card a line, ``linecards``; a deck's ``---`` card breaks, no headings' underlines, ``cardbreaks``; a part's name, not a question, ``parts``; a label that names a group of questions (``1. Fundamentals``, ``🟢 Easy: …``, ``* Notes:``) and the lettered questions (``a. …``) under a heading, ``grouplabels``; bold numbered cards that restart at 1, ``runs``; lines that say what a thing does, no questions, ``duties``; a table's
self-rating columns, no answers, ``ratings``; a quiz record's options,
``choices``; questions kept only in a Markdown file's YAML front matter, ``frontmatter``; an answer key numbered as the questions above it, ``answerkey``; a quiz question in quotes over ticked options, and a file that is one quoted question, ``stems``), plus the
question-like lines it did not take and facts about the file (the key
mapping used, keys not used); the shared step
(``assemble``) reports repeats and chapters that come back, keeps a question's translation
on the line under it as its hint (``translations``), numbers the
questions (``numbering``), groups them into chapters and validates them
with the canonical format's own rules, except that key points are
optional. A problem names ``file:line`` (``file:cell N, line M`` in a
notebook); problems stop the import unless ``force``. What a reading gave,
when it is refused and its JSON are ``outcome``; a reader's hint (``--level 3``) the
preview names only where its reading harms nothing previewed, ``hints``, and a ``--level N``
that reads the file plainly better, ``levels``. This package builds on
the canonical format (``studybot.bank.format``); the catalogue (``studybot.bank``) sits above it.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from studybot.bank import bulk
from studybot.bank.format import Bank
from studybot.bank.importer import (
    cards,
    decks,
    flashcards,
    frontmatter,
    hints,
    htmlpage,
    levels,
    markdown,
    rows,
    selectors,
    source,
    steer,
    summaries,
    yamldoc,
)
from studybot.bank.importer.assemble import assemble
from studybot.bank.importer.draft import QUESTION_MARKS, LimitReached, Options, Parsed
from studybot.bank.importer.keys import field_of, parse_map
from studybot.bank.importer.outcome import (
    Import,
    command,
    default_name,
    preview_data,
    refusal,
    report_data,
    saved_data,
)
from studybot.errors import BankError

__all__ = [
    "KINDS",
    "Import",
    "Kind",
    "command",
    "default_name",
    "inspect",
    "kind_of",
    "parse_map",
    "preview_data",
    "read",
    "refusal",
    "report_data",
    "saved_data",
]

TextReader = Callable[[Path, str, Options], Parsed]
PackageReader = Callable[[Path, bytes, Options], Parsed]

# What a file of a kind needs when none of it was taken (the Markdown hint unless told).
_ASKING = (
    "a question is a heading, list item or line that asks (？, 为什么/如何/什么是…, "
    "what/why/how/explain…); with topics as headings, --level N takes each as one"
)


@dataclass(frozen=True)
class Kind:
    """A kind of file the importer reads: how it is recognised and what reads it."""

    extensions: tuple[str, ...]  # recognised by these; ``kind_of`` also looks at the text
    looked_for: str  # what a question is in it, named when none was found
    read: TextReader | None = None  # reads its decoded text
    read_package: PackageReader | None = None  # or its bytes: a zip package
    signature: bytes = b""  # a package is recognised by its first bytes too
    needs: str = _ASKING  # the hint when none of it was taken


KINDS: dict[str, Kind] = {
    "markdown": Kind(
        (".md", ".markdown", ".txt"),
        "questions: lines, headings or items that ask, `1. …`, `Q1：…`, `### 1. …`",
        markdown.read_markdown,
    ),
    "html": Kind(
        (".html", ".htm"),
        "questions in the page's text: headings, paragraphs or items that ask, the text "
        "above each answer box of a form",
        htmlpage.read_html,
    ),
    "notebook": Kind(
        (".ipynb",),
        "Markdown cells with questions: lines that ask, `1. …`, `Q1：…`, `### 1. …`",
        markdown.read_notebook,
    ),
    "csv": Kind(
        (".csv",),
        "rows under the header",
        rows.read_csv,
        needs="put one question per row under the header: question,answer (a header alone "
        "holds none)",
    ),
    "tsv": Kind(
        (".tsv", ".tab"),
        "rows under the header",
        rows.read_tsv,
        needs="put one question per row under the header: question<TAB>answer (a header alone "
        "holds none)",
    ),
    "json": Kind(
        (".json",),
        "a list of questions",
        rows.read_json,
        needs='give a list of questions: [{"question": "…", "answer": "…"}]',
    ),
    "jsonl": Kind(
        (".jsonl", ".ndjson"),
        "one question per line",
        rows.read_jsonl,
        needs='give one question per line: {"question": "…", "answer": "…"}',
    ),
    "yaml": Kind(
        (".yml", ".yaml"),
        "a list of questions",
        yamldoc.read_yaml,
        needs="give a list of questions: `- question: …` with `answer: …` under it",
    ),
    "crowdanki": Kind((), "notes in the CrowdAnki deck", decks.read_crowdanki),  # by its text
    "apkg": Kind(
        (".apkg", ".colpkg"),
        "notes in the Anki collection",
        read_package=decks.read_apkg,
        signature=b"PK\x03\x04",
    ),
}
_BY_EXTENSION = {extension: name for name, kind in KINDS.items() for extension in kind.extensions}
_ASKING_LINE = re.compile(rf"[{''.join(QUESTION_MARKS)}][ \t\r\u3000]*$", re.MULTILINE)


def read(path: Path | str, name: str | None = None, force: bool = False) -> Bank:
    """A user's question file as a validated Bank, or BankError naming file:line."""
    return inspect(path, name, force=force).bank


def inspect(
    path: Path | str,
    name: str | None = None,
    force: bool = False,
    mapping: tuple[tuple[str, str], ...] = (),
    level: int | None = None,
    questions: str | None = None,
    answers: str | None = None,
    steering: bool = False,
) -> Import:
    """Read ``path`` and report what was taken, what was not, and what the file does.

    ``questions``/``answers`` are the user's selectors (``importer.selectors``);
    with ``steering`` every selector is also tried and measured (``importer.steer``).
    """
    chosen = selectors.selector(questions) if questions is not None else None
    with_answers = selectors.answers(answers)
    with bulk.steady():  # a great many small objects, no cycles
        return _inspect(
            Path(path), name, Options(force, mapping, level), chosen, with_answers, steering
        )


def _inspect(
    path: Path,
    name: str | None,
    options: Options,
    chosen: selectors.Selector | None,
    with_answers: bool,
    steering: bool,
) -> Import:
    force = options.force
    data = source.read_bytes(path)
    text = ""
    mended: list[str] = []  # notes on mended bytes (a deck is read as bytes: none)
    try:
        package = _package(path, data)
        if package is not None:
            kind, read_package = package
            if chosen is not None:  # a deck's notes are its questions: --map names the field
                selectors.read(path, "", kind, chosen)
            parsed = read_package(path, data, options)
        else:
            text, mended = source.decode(path, data, force)
            kind = kind_of(path, text)
            if kind in ("markdown", "notebook", "html"):
                _count_before_parsing(path, text)
            if chosen is not None:
                parsed = selectors.read(path, text, kind, chosen, with_answers)
            else:
                parsed = _text_reader(kind)(path, text, options)
                if kind == "markdown":  # a Hugo review page: its quiz in its front matter
                    parsed = frontmatter.front_records(path, text, options, parsed)
                if not options.level:  # a deck of <details> cards with topic summaries
                    parsed = (
                        cards.as_deck(path, text, kind, parsed)
                        or summaries.as_summaries(path, text, kind, parsed)
                        or parsed
                    )
    except LimitReached:
        raise source.too_many(path) from None
    hint = parsed.suggestions[0] if parsed.suggestions else None
    given = _given(options)
    kept = given[2:] if options.level else given  # --questions: no --level
    kept += () if with_answers else ("--answers", "none")
    if not parsed.drafts and not parsed.fatal:
        hint = _steer_hint(path, text, kind, parsed, kept) or hint  # the selector that takes most
    if parsed.fatal:
        hint = hint or f"see every problem with: studybot bank validate {shlex.quote(str(path))}"
        raise BankError(parsed.fatal, hint=hint)
    if not parsed.drafts:
        hint = hint or _steer_hint(path, text, kind, parsed, kept) or KINDS[kind].needs
        raise BankError(
            [f"{path}:1: no questions found (looked for {KINDS[kind].looked_for})"], hint=hint
        )
    if not with_answers and chosen is None:
        for draft in parsed.drafts:
            draft.reference, draft.key_points = None, []
    used = _options_used(chosen, with_answers)
    found = steer.analyse(path, text, kind, parsed, " ".join(used)) if steering else None
    suggestions = tuple(parsed.suggestions)
    if found is not None and chosen is None:  # a hint whose reading harms is not named
        suggestions = hints.screened(
            parsed.suggestions,
            parsed,
            found.current,
            lambda option, value: _read_with(path, text, kind, options, option, value),
            lambda got, option: steer.reading(path, text, kind, got, option),
        )
        if not suggestions and not options.level:  # where nothing else is named
            found = levels.suggested(
                found, parsed.drafts, lambda level: _level(path, text, kind, options, level)
            )
    done = assemble(path, parsed, name or str(path), force)
    return Import(
        str(path),
        done.bank,
        (*parsed.skipped, *done.left),
        tuple(done.numbering),
        notes=(*mended, *parsed.notes),
        repeats=tuple(done.repeats),
        chapters=tuple(done.chapters),
        forced=tuple(done.forced),
        suggestions=suggestions,
        options=used,
        given=given,
        steer=found,
    )


def _level(
    path: Path, text: str, kind: str, options: Options, level: int
) -> tuple[Parsed, steer.Reading | None]:
    """What ``--level level`` reads in the file, and that reading measured."""
    got = _read_with(path, text, kind, options, "--level", str(level))
    return got, steer.reading(path, text, kind, got, "")


def _read_with(
    path: Path, text: str, kind: str, options: Options, option: str, value: str
) -> Parsed:
    """What ``option value`` (``--level 3``, ``--questions headings:1``) reads in the file."""
    if option == "--level":
        return _text_reader(kind)(path, text, replace(options, level=int(value)))
    return selectors.read(path, text, kind, selectors.selector(value))


def _package(path: Path, data: bytes) -> tuple[str, PackageReader] | None:
    """The kind of a package read from its bytes, by its extension or its first bytes."""
    for name, kind in KINDS.items():
        by_name = path.suffix.lower() in kind.extensions
        if kind.read_package and (by_name or (kind.signature and data.startswith(kind.signature))):
            return name, kind.read_package
    return None


def _text_reader(kind: str) -> TextReader:
    reader = KINDS[kind].read
    if reader is None:  # kind_of names a package by its extension; _package read it first
        raise AssertionError(f"{kind} is read from its bytes")
    return reader


def _steer_hint(
    path: Path, text: str, kind: str, parsed: Parsed, kept: tuple[str, ...]
) -> str | None:
    """When nothing was taken: the selector that takes the most of the file, as a hint, with
    the options the user gave (``kept``) in its command."""
    found = steer.analyse(path, text, kind, parsed, "")
    better = found.better if found else None
    if better is None:
        return None
    return (
        f"try {better.option}: {better.questions} questions, "
        f"{better.why or f'{better.answered} with an answer, {better.non_asking} non-asking'} "
        f"(studybot bank import {shlex.join([str(path), *kept])} {better.option} --preview)"
    )


def _options_used(chosen: selectors.Selector | None, with_answers: bool) -> tuple[str, ...]:
    used = ("--questions", str(chosen)) if chosen is not None else ()
    return used + (() if with_answers else ("--answers", "none"))


def _given(options: Options) -> tuple[str, ...]:
    """The ``--level`` and ``--map`` the user gave, for the command a preview ends with."""
    level = ("--level", str(options.level)) if options.level else ()
    mapped = ",".join(f"{field}={key}" for field, key in options.mapping)
    return level + (("--map", mapped) if mapped else ())


def _count_before_parsing(path: Path, text: str) -> None:
    """Refuse a Markdown file with more asking lines than a bank holds, before parsing it."""
    for count, _ in enumerate(_ASKING_LINE.finditer(text), start=1):
        if count > source.MAX_QUESTIONS:
            raise source.too_many(path)


def kind_of(path: Path, text: str) -> str:
    """The reader for ``path``: by extension, else by a look at the content."""
    if flashcards.header(text) is not None:  # a flashcard export, whatever its extension
        return "csv" if path.suffix.lower() == ".csv" else "tsv"
    kind = _BY_EXTENSION.get(path.suffix.lower())
    if kind == "markdown" and path.suffix.lower() == ".txt" and flashcards.plain_deck(text):
        return "tsv"  # Anki's "Cards in Plain Text": question TAB answer, a line each
    if kind == "json" and decks.crowdanki(text):
        return "crowdanki"
    head = text[:65536].lstrip()
    if kind in (None, "markdown") and htmlpage.raw_html(text) is not None:
        return "html"  # reStructuredText that is a ".. raw:: html" block: the page it holds
    if kind:
        return kind
    if head.startswith("{"):
        if decks.crowdanki(text):
            return "crowdanki"
        if '"cells"' in head and '"cell_type"' in head:
            return "notebook"
        first = head.partition("\n")[0].rstrip()
        return "jsonl" if first.endswith("}") and "\n{" in head else "json"
    if head.startswith("["):
        return "json"
    first = head.splitlines()[0] if head else ""
    if first.startswith("#"):
        return "markdown"  # "# Interview Questions" is a heading, not a header row
    for delimiter, kind in (("\t", "tsv"), (",", "csv")):
        cells = first.split(delimiter)
        named = any(field_of(cell) == "question" for cell in cells)
        if named and (len(cells) > 1 or first.strip().lower() in ("question", "问题", "题目")):
            return kind
    if flashcards.plain_deck(text):
        return "tsv"
    return "markdown"
