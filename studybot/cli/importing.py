"""What ``bank import`` and ``bank validate`` print: the preview, the saved bank, the facts.

Every line that reads like a question and was not imported is printed with
its place and why (a repeat, a problem ``--force`` got past, a line the
reader did not take), and when a file was not read as well as it could be,
the option that would read more of it. A preview says where its questions
were found, lists every asking line it left, names the ``--questions``
option that reads the file clearly better, and ends with the command to run.
"""

from __future__ import annotations

import shlex
from collections import Counter
from pathlib import Path
from typing import Any

import click

from studybot.cli.common import emit_json


def remembered(file: str, name: str | None) -> tuple[str, ...]:
    """The selectors the bank ``name`` was imported with, when it was imported from ``file``."""
    from studybot import bank as banks
    from studybot.bank.text import named

    found = banks.imported_with(name) if name else None  # the file as named: no lone surrogate
    if found is None or found[0] != named(str(Path(file).resolve())):
        return ()
    return found[1]


def selectors_of(
    options: tuple[str, ...],
) -> tuple[str | None, str | None, str | None, int | None]:
    """(--questions, --answers, --map, --level) from the options a bank remembers (a level
    that is not one, from an edited ``bank.toml``, is left out)."""
    given = dict(zip(options[::2], options[1::2], strict=False))
    level = given.get("--level", "")
    number = int(level) if level.isdigit() and 1 <= int(level) <= 6 else None
    return given.get("--questions"), given.get("--answers"), given.get("--map"), number


def save(report, file: str, name: str, force: bool, as_json: bool) -> None:
    """Save the imported bank (unless the importer refuses it) and say what happened."""
    from studybot import bank as banks
    from studybot.bank import importer

    refused = None if force else importer.refusal(report, file)
    if refused is not None:
        raise refused
    loaded = report.bank
    source = str(Path(file).resolve())
    remembered = (*report.given, *report.options)  # --level, --map, --questions, --answers
    folder = banks.save(loaded, name, source=source, force=force, options=remembered)
    if as_json:
        emit_json(importer.saved_data(report, name, folder))
        return
    _say(
        f"Imported {len(loaded.questions)} questions (Q{loaded.first}–Q{loaded.last}) in "
        f"{len(loaded.chapters)} chapter(s) as {name!r}: {folder}"
    )
    print_facts(report, forced=True)
    answered = sum(1 for q in loaded.questions if q.key_points or q.reference)
    if answered < len(loaded.questions):
        _say(
            f"{len(loaded.questions) - answered} question(s) have no reference answer or key "
            "points: offline, studybot leaves them unanswered; a live model answers them."
        )
    _say(f"Study it: studybot run --bank {name} --from {loaded.first} --to {loaded.last}")


def print_facts(report, forced: bool = False) -> None:
    """The key mapping, numbering, repeats, chapters that come back, lines not taken."""
    for note in report.notes:
        _say(note[:1].upper() + note[1:])
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
    _ignored([(s.where, s.why) for s in report.skipped if not s.counts])
    for suggestion in report.suggestions:
        _say(f"Try: {suggestion}")


def _ignored(noise: list[tuple[str, str]], before: str = "") -> None:
    """What was left on purpose (links, notes, closing sections, short topics): one line a
    reason, with how many and where the first is, never a reason to refuse."""
    if not noise:
        return
    first: dict[str, str] = {}
    for where, why in noise:
        first.setdefault(why, where)
    counted = Counter(why for _, why in noise)
    _say(f"{before}Left on purpose ({len(noise)}):")
    for why, where in first.items():
        _say(f"  {counted[why]} × {why}, first at {where}", hang="    ")


def print_preview(data: dict[str, Any]) -> None:
    _say(f"{data['file']}: {data['title']} (nothing saved)")
    for chapter in data["chapters"]:
        _say(f"\n第 {chapter['number']} 章 {chapter['title']}: {chapter['questions']} question(s)")
        for label, which in (("first:", "first"), ("last: ", "last")):
            shown = _first_line(chapter[which]["question"])
            _say(f"  {label} Q{chapter[which]['id']} {shown}", hang=" " * 9)
    if data["notes"] or data["numbering"]:  # else the next part opens with its own blank line
        _say("")
    for note in data["notes"]:
        _say(note[:1].upper() + note[1:])
    _numbering(data["numbering"])
    here = data["file"]  # named above: each place below is a line of it
    _listed(
        f"\n{len(data['repeats'])} question(s) asked again, imported once, where first asked:",
        [_in_file(repeat, here) for repeat in data["repeats"]],
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
    lost_lines = [f"{_line_of(s['where'], here)}: {s['why']}: {s['text']}" for s in lost]
    _listed(f"\nNot taken ({len(lost)}):", lost_lines)
    noise = [(_line_of(s["where"], here), s["why"]) for s in data["not_taken"] if not s["counts"]]
    _ignored(noise, "\n")
    totals = data["totals"]
    _say(
        f"\nTotal: {totals['questions']} question(s) in {totals['chapters']} chapter(s); "
        f"{totals['with_reference']} with a reference answer, {totals['with_key_points']} with "
        f"key points; {totals['not_taken']} question-like line(s) not taken."
    )
    if data["refused"]:
        _say("Import would refuse this file: too many lines not taken (--force overrides).")
    steering = data["steer"]
    if not (steering and steering["suggestion"]):  # else the one option that reads it better
        for suggestion in data["suggestions"]:
            _say(f"Try: {suggestion}")
    if steering is not None:
        listed = {s["where"] for s in data["not_taken"]}  # left on purpose too: shown once
        _steering(steering, data["file"], listed, _merged(data), _to_try(data))
    _say("")
    _command("Run: ", _to_run(data))


def _to_run(data: dict[str, Any]) -> str:
    """The command that imports what was shown or, when an option reads the file better, the
    same with that option (``--force`` where that reading needs it)."""
    better = (data["steer"] or {}).get("suggestion")
    if not better:
        return data["command"]
    words = shlex.split(data["command"])
    head, rest = words[:4], words[4:]  # studybot bank import FILE, then the options
    named = shlex.split(better["option"])[0]  # "--questions" reads without "--level"
    for option in {named, "--level"} if named == "--questions" else {named}:
        _drop(rest, option)
    if "--force" in rest and not data["problems"]:
        rest.remove("--force")  # the reading shown needed it; the one named may not
    rest += shlex.split(better["option"])
    if better["needs_force"] and "--force" not in rest:
        rest.append("--force")
    return shlex.join(head + rest)


def _to_try(data: dict[str, Any]) -> str:
    """The preview of the reading a preview suggests: the command to run, the user's options
    kept, less its ``--name``."""
    words = shlex.split(_to_run(data))
    _drop(words, "--name")
    return shlex.join([*words, "--preview"])


def _drop(words: list[str], option: str) -> None:
    """``option`` and its value out of ``words``, where it is there."""
    if option in words:
        at = words.index(option)
        del words[at : at + 2]


def _merged(data: dict[str, Any]) -> str:
    """Why the questions taken outnumber the Total: those asked again, imported once."""
    extra = data["steer"]["taken"]["questions"] - data["totals"]["questions"]
    if extra <= 0:
        return ""
    why = "asked again, imported once" if extra == len(data["repeats"]) else "merged or empty"
    return f" ({extra} {why}: {data['totals']['questions']} in the Total)"


def _steering(
    found: dict[str, Any], file: str, listed: set[str], merged: str = "", to_try: str = ""
) -> None:
    """Where the questions were found, the asking lines left (those not ``listed`` above with
    why), and a better --questions (``to_try`` previews it); ``merged`` says why the Total has
    fewer questions."""
    taken = found["taken"]
    how = " ".join(["read with", taken["option"]]) if taken["option"] else "read by default"
    _say(f"\nFound in: {_found_in(found['found_in'])} ({how}).", hang="  ")
    _say(
        f"Took {taken['questions']} question(s){merged}: {taken['asking']} of the file's "
        f"{found['asking_lines']} asking line(s), {taken['non_asking']} that do not ask.",
        hang="  ",
    )
    inside = [line for line in found["asking_in_answers"] if line["where"] not in listed]
    missed = [
        line
        for line in found["asking_not_taken"]
        if line["where"] not in listed and line not in inside
    ]
    besides = ", besides those above" if listed else ""
    _lines_at(f"Asking lines not taken{besides}", missed, file)
    _lines_at("Asking lines kept in an answer, not as questions", inside, file)
    _lines_at("List items neither taken nor inside an answer", found["items_not_taken"], file)
    better = found["suggestion"]
    if better:
        gained = better["takes_not_taken"]
        counts = better.get("why") or (  # why: named for the file's sections, not asking lines
            f"{better['answered']} asking with an answer, {better['non_asking']} non-asking "
            f"({better['asking']} of {found['asking_lines']} asking lines"
            + (f", {gained} of those not taken" if gained else "")
            + ")"
        ) + (", needs --force" if better["needs_force"] else "")
        _say(f"\nTry {better['option']}: {better['questions']} questions, {counts}", hang="  ")
        _command("  ", to_try)


def _lines_at(title: str, lines: list[dict[str, str]], file: str) -> None:
    """``title (N):`` over each line's place in ``file`` and its text; nothing when none."""
    if lines:
        _say(f"{title} ({len(lines)}):")
        for line in lines:
            _say(f"  {_line_of(line['where'], file)}: {line['text']}", hang="      ")


def _found_in(counts: dict[str, int]) -> str:
    return ", ".join(f"{count} {where}" for where, count in counts.items()) or "nothing"


def _in_file(note: str, file: str) -> str:
    """A note that starts with ``FILE:12:`` as ``line 12:`` (``_line_of``)."""
    if not note.startswith(file + ":"):
        return note
    where, colon, said = note[len(file) + 1 :].partition(":")
    return _line_of(where, file) + colon + said


def _line_of(where: str, file: str) -> str:
    """``line 12`` for ``FILE:12`` (``cell 3, line 2`` in a notebook): the file is named above."""
    rest = where[len(file) + 1 :] if where.startswith(file + ":") else where
    return f"line {rest}" if rest.isdigit() else rest


def _first_line(question: str) -> str:
    """A question's first line, and how many more it has (a quiz's options, its code)."""
    lines = [line for line in question.splitlines() if line.strip()]
    more = len(lines) - 1
    return lines[0].strip() + (f" (+{more} line{'s' if more > 1 else ''})" if more > 0 else "")


def _say(text: str, hang: str = "") -> None:
    """A line of the preview, broken at word boundaries to fit the terminal."""
    from studybot.cli.render import fit, printable  # printable: no escape codes from a file

    click.echo(fit(printable(text), err=False, hang=hang))


def _command(lead: str, command: str) -> None:
    """A command to copy after ``lead``: broken only between its words, each line but the
    last ending in `` \\``, so what is copied from a narrow terminal still runs in a shell."""
    from rich.cells import cell_len

    from studybot.cli.render import printable, width

    cells = width(err=False)
    words = [shlex.quote(word) for word in shlex.split(printable(command))]
    lines, line = [], lead + words[0]
    # Lines after the first hang under it; less when the widest word and its " \\" need it.
    hang = len(lead) + 4
    if cells is not None:
        hang = min(hang, max(0, cells - max(cell_len(w) for w in words) - 2))
    for word in words[1:]:
        if cells is not None and cell_len(f"{line} {word} \\") > cells:
            lines.append(line + " \\")
            line = " " * hang + word
        else:
            line += " " + word
    for shown in [*lines, line]:
        click.echo(shown)


def _numbering(notes) -> None:
    if notes:
        _say("Numbered 1..N in file order, the source's numbers kept as labels:")
        for note in notes:
            _say(f"  - {note}")


def _listed(title: str, lines) -> None:
    if lines:
        _say(title)
        for line in lines:
            _say(f"  {line}", hang="    ")
