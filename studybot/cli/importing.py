"""What ``bank import`` and ``bank validate`` print: the preview, the saved bank, the facts.

Every line that reads like a question and was not imported is printed with
its place and why (a repeat, a problem ``--force`` got past, a line the
reader did not take), and when a file was not read as well as it could be,
the option that would read more of it.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from studybot.cli.common import echo, emit_json  # echo: a file's text without escape codes


def save(report, file: str, name: str, force: bool, as_json: bool) -> None:
    """Save the imported bank (unless too much was not taken) and say what happened."""
    from studybot import bank as banks
    from studybot.errors import BadInput

    if report.refused and not force:
        first = report.lost[0]
        raise BadInput(
            f"{len(report.lost)} question-like line(s) of {file} were not taken "
            f"(first at {first.where}: {first.why}); {len(report.bank.questions)} would be imported",
            hint=f"see them with: studybot bank import {shlex.quote(file)} --preview; "
            "add --force to import anyway",
        )
    loaded = report.bank
    folder = banks.save(loaded, name, source=str(Path(file).resolve()), force=force)
    if as_json:
        emit_json(
            {
                "name": name,
                "path": str(folder),
                "title": loaded.title,
                "questions": len(loaded.questions),
                "chapters": len(loaded.chapters),
                "first": loaded.first,
                "last": loaded.last,
                "with_key_points": sum(1 for q in loaded.questions if q.key_points),
                "with_reference": sum(1 for q in loaded.questions if q.reference),
                "not_taken": len(report.skipped),
                "numbering": list(report.numbering),
                "notes": list(report.notes),
                "repeats": list(report.repeats),
                "chapters_again": list(report.chapters),
                "problems": list(report.forced),
                "not_taken_lines": [_skipped(s) for s in report.skipped],
                "suggestions": list(report.suggestions),
            }
        )
        return
    echo(
        f"Imported {len(loaded.questions)} questions (Q{loaded.first}–Q{loaded.last}) in "
        f"{len(loaded.chapters)} chapter(s) as {name!r}: {folder}"
    )
    print_facts(report, forced=True)
    answered = sum(1 for q in loaded.questions if q.key_points or q.reference)
    if answered < len(loaded.questions):
        echo(
            f"{len(loaded.questions) - answered} question(s) have no reference answer or key "
            "points: offline, studybot leaves them unanswered; a live model answers them."
        )
    echo(f"Study it: studybot run --bank {name} --from {loaded.first} --to {loaded.last}")


def print_facts(report, forced: bool = False) -> None:
    """The key mapping, numbering, repeats, chapters that come back, lines not taken."""
    for note in report.notes:
        echo(note[:1].upper() + note[1:])
    _numbering(report.numbering)
    _listed(
        f"{len(report.repeats)} question(s) asked again, imported once, where first asked:",
        report.repeats,
    )
    _listed("Chapters that come back (their questions join the first part):", report.chapters)
    if forced:
        _listed(f"--force imported past {len(report.forced)} problem(s):", report.forced)
    lost = report.lost
    _listed(
        f"{len(lost)} question-like line(s) were not taken:",
        [f"{s.where}: {s.why}: {s.text}" for s in lost],
    )
    noise = [s for s in report.skipped if not s.counts]
    if noise:
        echo(f"Ignored as links or notes ({len(noise)}), first at {noise[0].where}")
    for suggestion in report.suggestions:
        echo(f"Try: {suggestion}")


def print_preview(data: dict[str, Any]) -> None:
    echo(f"{data['file']}: {data['title']} (nothing saved)")
    for chapter in data["chapters"]:
        echo(f"\n第 {chapter['number']} 章 {chapter['title']}: {chapter['questions']} question(s)")
        echo(f"  first: Q{chapter['first']['id']} {chapter['first']['question']}")
        echo(f"  last:  Q{chapter['last']['id']} {chapter['last']['question']}")
    echo("")
    for note in data["notes"]:
        echo(note[:1].upper() + note[1:])
    _numbering(data["numbering"])
    _listed(
        f"\n{len(data['repeats'])} question(s) asked again, imported once, where first asked:",
        data["repeats"],
    )
    _listed(
        "\nChapters that come back (their questions join the first part):", data["chapters_again"]
    )
    _listed(
        f"\nProblems ({len(data['problems'])}): the import stops at them unless --force "
        "(which mends what it can and leaves out a record with no question text):",
        data["problems"],
    )
    lost = [s for s in data["not_taken"] if s["counts"]]
    noise = [s for s in data["not_taken"] if not s["counts"]]
    _listed(f"\nNot taken ({len(lost)}):", [f"{s['where']}: {s['why']}: {s['text']}" for s in lost])
    if noise:
        echo(f"\nIgnored as links or notes ({len(noise)}), first at {noise[0]['where']}")
    totals = data["totals"]
    echo(
        f"\nTotal: {totals['questions']} question(s) in {totals['chapters']} chapter(s); "
        f"{totals['with_reference']} with a reference answer, {totals['with_key_points']} with "
        f"key points; {totals['not_taken']} question-like line(s) not taken."
    )
    if data["refused"]:
        echo("Import would refuse this file: too many lines not taken (--force overrides).")
    for suggestion in data["suggestions"]:
        echo(f"Try: {suggestion}")


def _numbering(notes) -> None:
    if notes:
        echo("Numbered 1..N in file order, the source's numbers kept as labels:")
        for note in notes:
            echo(f"  - {note}")


def _listed(title: str, lines) -> None:
    if lines:
        echo(title)
        for line in lines:
            echo(f"  {line}")


def _skipped(skipped) -> dict[str, Any]:
    return {
        "where": skipped.where,
        "text": skipped.text,
        "why": skipped.why,
        "counts": skipped.counts,
    }
