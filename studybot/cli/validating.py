"""What ``bank validate`` prints: the bank's findings, at their ``file:line``, and its self-test."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import click

from studybot.cli.render import echo
from studybot.errors import FAILURE, Reported

if TYPE_CHECKING:  # loaded when a bank is checked, not at start-up
    from studybot.bank import Bank
    from studybot.bank.findings import Finding, Places
    from studybot.bank.importer import Import


@dataclass(frozen=True)
class Checked:
    """A bank that loads, what the checks found in it, and where its rubric is written."""

    bank: Bank
    findings: list[Finding]  # in the bank's order
    report: Import | None  # a question file's: what its reader found
    places: Places  # (question, point, claim) -> (file, line) of a TOML bank


def checked(ref: str | None) -> Checked | list[str]:
    """The bank ``ref`` checked, or the problems that keep it from loading."""
    from studybot import bank as banks
    from studybot.bank.findings import WARNING, from_problem, rubric_places
    from studybot.errors import BankError
    from studybot.learn.rubric_lint import lint

    report = None  # a question file is read once: its bank, then what the reader found
    try:
        if ref is not None and banks.is_question_file(ref):
            from studybot.bank import importer

            report = importer.inspect(ref)
            loaded = report.bank
        else:
            loaded = banks.load(ref)
    except BankError as exc:
        return list(exc.problems)
    folder = banks.folder_of(ref)
    places = rubric_places(folder) if folder is not None else {}
    found = lint(loaded, places)
    if report is not None:  # the lines not taken: a question may be lost there
        found += [from_problem(f"{s.where}: {s.why}: {s.text}", WARNING) for s in report.lost]
    return Checked(loaded, found, report, places)


def print_findings(checked: Checked, notes: bool) -> None:
    """OK, the warnings (a question file's facts instead), and the notes or their count."""
    from studybot.bank.findings import NOTE
    from studybot.cli.importing import print_facts

    loaded, report = checked.bank, checked.report
    click.echo(
        f"OK: {len(loaded.questions)} questions in {len(loaded.chapters)} chapter(s), "
        f"Q{loaded.first}–Q{loaded.last}."
    )
    # A question file's warnings are its lines not taken: print_facts lists them with the rest.
    warnings = [f for f in checked.findings if f.level != NOTE and report is None]
    styled = [f for f in checked.findings if f.level == NOTE]
    for finding in warnings + (styled if notes else []):
        echo(finding.shown(), wrap=False)
    if warnings:
        click.echo(f"{len(warnings)} rubric warning(s); they do not fail the bank.", err=True)
    if styled and not notes:
        click.echo(
            f"{len(styled)} note(s) on style (alias words of one character); --notes lists them."
        )
    if report is not None:
        print_facts(report)


def self_test_report(checked: Checked) -> None:
    """Grade the bank's rubric against itself; list each case it fails, exit 1 on any."""
    from studybot.learn import selftest

    counted, failed = selftest.run(checked.bank)
    if not counted:
        click.echo("self-test: the bank has no rubric (its points get a term estimate)")
        return
    for failure in failed:
        case = failure.case
        at = (case.question, case.point or 0, case.claim or 0)
        place = checked.places.get(at) or checked.places.get(at[:2] + (0,))
        where = f"{place[0]}:{place[1]}" if place else f"Q{case.question}"
        where += f" point {case.point}" if case.point and not place else ""
        where += f" claim {case.claim}" if case.claim and not place else ""
        echo(f"{where}: {case.kind}: {failure.got} — {' '.join(case.text.split())}", wrap=False)
    click.echo(f"self-test: {sum(counted.values())} cases, {len(failed)} failed")
    for line in selftest.summary(counted, failed):
        click.echo("  " + line)
    if failed:
        raise Reported(FAILURE)
