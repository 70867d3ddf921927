"""What reading a file gave (``Import``), when it is too lossy to save, and its JSON.

The refusal rule and its message live here, not in the CLI: ``refusal``
gives the error ``bank import`` raises without ``--force``. ``--preview
--json`` (``preview_data``) and ``import --json`` (``saved_data``) are laid
out differently (kept as users' scripts read them) but take their counts
from ``totals`` and the facts of the reading from ``report_data``, so a
key both carry is computed once.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studybot.bank.format import Bank, Question
from studybot.bank.importer import steer
from studybot.bank.importer.draft import Skipped, too_lossy
from studybot.errors import BadInput


@dataclass(frozen=True)
class Import:
    """What reading a file gave: the bank, the lines not taken, and what the file does."""

    source: str  # the file read
    bank: Bank
    skipped: tuple[Skipped, ...]  # question-like lines that were not taken, with why
    numbering: tuple[str, ...]  # notes when the source's numbers could not be kept
    notes: tuple[str, ...] = ()  # facts: the key mapping, keys not used, mended bytes
    repeats: tuple[str, ...] = ()  # each question asked again, imported once
    chapters: tuple[str, ...] = ()  # chapters that come back
    forced: tuple[str, ...] = ()  # problems that --force mended or left out
    suggestions: tuple[str, ...] = ()  # the option that would read more of the file
    options: tuple[str, ...] = ()  # the selectors it was read with: ("--questions", "items")
    given: tuple[str, ...] = ()  # the user's --level and --map: ("--level", "2")
    steer: steer.Steer | None = None  # where questions were found, what was left, a better option

    @property
    def lost(self) -> tuple[Skipped, ...]:
        """The skipped lines that may be questions (a table of contents is not)."""
        return tuple(s for s in self.skipped if s.counts)

    @property
    def refused(self) -> bool:
        """Too many question-like lines were not taken to import without --force."""
        return too_lossy(len(self.lost), len(self.bank.questions))


def refusal(report: Import, file: str) -> BadInput | None:
    """Why ``file`` (as the user named it) is not saved without --force, or None to save it."""
    if not report.refused:
        return None
    first = report.lost[0]
    return BadInput(
        f"{len(report.lost)} question-like line(s) of {file} were not taken "
        f"(first at {first.where}: {first.why}); {len(report.bank.questions)} would be imported",
        hint=f"see them with: studybot bank import {shlex.quote(file)} --preview; "
        "add --force to import anyway",
    )


def totals(report: Import) -> dict[str, int]:
    """The counts of a reading; ``not_taken`` also counts the asking lines no rule listed."""
    questions = report.bank.questions
    return {
        "questions": len(questions),
        "chapters": len(report.bank.chapters),
        "with_reference": sum(1 for q in questions if q.reference),
        "with_key_points": sum(1 for q in questions if q.key_points),
        "not_taken": len(report.lost) + len(_asking_left(report)),
        "repeats": len(report.repeats),
        "problems": len(report.forced),
    }


def preview_data(report: Import, name: str | None = None) -> dict[str, Any]:
    """What ``bank import --preview`` shows (and prints with --json): stable keys."""
    loaded = report.bank

    def brief(question: Question) -> dict[str, Any]:
        return {"id": question.id, "label": question.label, "question": question.question}

    chapters = []
    members: dict[int, list[Question]] = {}
    for question in loaded.questions:
        members.setdefault(question.chapter, []).append(question)
    for chapter in loaded.chapters:
        own = members.get(chapter.number, [])
        chapters.append(
            {
                "number": chapter.number,
                "title": chapter.title,
                "questions": len(own),
                "first": brief(own[0]),
                "last": brief(own[-1]),
            }
        )
    facts = report_data(report, name)
    return {
        "file": report.source,
        "title": loaded.title,
        "chapters": chapters,
        **{key: facts[key] for key in ("numbering", "notes", "repeats", "chapters_again")},
        "problems": facts["problems"],
        "not_taken": facts["not_taken_lines"],
        "suggestions": facts["suggestions"],
        "totals": totals(report),
        "refused": report.refused,
        **{key: facts[key] for key in ("options", "steer", "command")},
    }


def saved_data(report: Import, name: str, folder: Path) -> dict[str, Any]:
    """What ``bank import --json`` prints once the bank is saved in ``folder``: its counts at
    the top (``not_taken`` there: every line skipped, notes included), then the facts."""
    loaded = report.bank
    counts = totals(report)
    return {
        "name": name,
        "path": str(folder),
        "title": loaded.title,
        **{key: counts[key] for key in ("questions", "chapters")},
        "first": loaded.first,
        "last": loaded.last,
        **{key: counts[key] for key in ("with_key_points", "with_reference")},
        "not_taken": len(report.skipped),
        **report_data(report, name),
    }


def _asking_left(report: Import) -> list[tuple[str, str]]:
    """The asking lines not taken besides those listed with why: the preview lists both, and
    its Total counts both; a line an answer taken holds is imported, as a line of it."""
    listed = {s.where for s in report.lost}
    kept = set(report.steer.kept if report.steer else ())
    return [
        m
        for m in (report.steer.missed if report.steer else ())
        if m[0] not in listed and m not in kept
    ]


def report_data(report: Import, name: str | None = None) -> dict[str, Any]:
    """The facts of a reading that ``--preview --json`` and ``import --json`` both carry."""
    found = report.steer
    return {
        "numbering": list(report.numbering),
        "notes": list(report.notes),
        "repeats": list(report.repeats),
        "chapters_again": list(report.chapters),
        "problems": list(report.forced),
        "not_taken_lines": [
            {"where": s.where, "text": s.text, "why": s.why, "counts": s.counts}
            for s in report.skipped
        ],
        "suggestions": list(report.suggestions),
        "options": list(report.options),
        "steer": None if found is None else _steer_data(found),
        "command": command(report, name),
    }


def _steer_data(found: steer.Steer) -> dict[str, Any]:
    def reading(r: steer.Reading) -> dict[str, Any]:
        return {
            "option": r.option,
            "questions": r.questions,
            "asking": r.asking,
            "non_asking": r.non_asking,
            "answered": r.answered,
            "needs_force": r.refused,
            "takes_not_taken": r.gained + r.split,  # asking lines listed as not taken it takes
            **({"why": r.why} if r.why else {}),
        }

    return {
        "found_in": dict(found.found_in),
        "asking_lines": found.asking_lines,
        "asking_not_taken": [{"where": where, "text": text} for where, text in found.missed],
        # of those, the lines an answer taken holds, imported as its text
        "asking_in_answers": [{"where": where, "text": text} for where, text in found.kept],
        "items_not_taken": [{"where": where, "text": text} for where, text in found.left],
        "taken": reading(found.current),
        "readings": [reading(r) for r in found.others],
        "suggestion": reading(found.better) if found.better else None,
    }


def command(report: Import, name: str | None = None) -> str:
    """The command that imports what the preview showed (``--force`` where it would refuse)."""
    name = name or default_name(report.source)
    words = ["studybot", "bank", "import", report.source, "--name", name, *report.given]
    words += report.options
    if report.refused or report.forced:  # what the preview showed needs --force to import
        words.append("--force")
    return shlex.join(words)


def default_name(path: str) -> str:
    """A bank name made from a file's name, in the letters a name may have: ``LLM 200.md`` → ``LLM-200``."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", Path(path).stem).strip("-")[:64]
    return stem or "imported"
