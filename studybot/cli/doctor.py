"""``doctor``: diagnose the model channel, and say whether it is the channel or the history."""

from __future__ import annotations

from contextlib import nullcontext

import click

from studybot.cli.common import channel_options, emit_json, json_option
from studybot.cli.render import echo, fit, paint, printable

MARKS = {True: "ok", False: "FAIL", None: "--"}
MEANINGS = {True: "ok", False: "error", None: "tokens"}


@click.command()
@click.option("--probe", is_flag=True, help="Also send test questions (costs a few requests).")
@channel_options
@json_option
def doctor(probe: bool, as_json: bool, **flags) -> None:
    """Diagnose the channel: URL, key, model, and whether history length is the problem.

    Prints the effective settings (the key masked) and lints them. With
    --probe it lists the endpoint's models, asks Q23 (short) and Q76
    (longer) in fresh contexts and checks both come back whole, then asks
    Q34 alone and after a long history and compares tokens and latency.
    Exits 2 for wrong settings, 1 when a probe fails, 0 when all is well.

    \b
    Example:
      studybot doctor
      studybot doctor --probe --model deepseek-v3
    """
    from studybot import bank as banks
    from studybot.channel import config, doctor
    from studybot.channel.checks import describe
    from studybot.cli.config import CHANNEL_FIELDS, render
    from studybot.errors import ConfigError, ProviderError, StudybotError
    from studybot.storage.home import home
    from studybot.storage.store import DB_NAME
    from studybot.study.conversation import asker

    settings = config.load(config.flag_settings(flags))
    described = describe(settings)
    database = doctor.database_check(home() / DB_NAME)
    checks = doctor.settings_checks(settings)
    if not as_json:
        render(described, CHANNEL_FIELDS)
        click.echo("")
        for check in (database, *checks):
            _print(check)
    runnable = all(c.ok is not False for c in checks) and settings.live
    if probe and runnable:
        bank = banks.load(None)
        ask = asker(bank, settings.prefix_style)  # the requests a run would send
        for check in _probing(doctor.probe(settings, bank, ask), quiet=as_json):
            checks.append(check)
            if not as_json:
                _print(check)
    elif probe:
        why = "offline" if settings.offline or not settings.live else "the settings have problems"
        skipped = doctor.Check("probe", None, f"skipped: {why}, so nothing was sent")
        checks.append(skipped)
        if not as_json:
            _print(skipped)
    result = doctor.verdict(checks, probed=probe and runnable)
    if as_json:
        emit_json(
            {
                "config": described,
                "checks": [
                    {
                        "name": c.name,
                        "ok": c.ok,
                        "detail": c.detail,
                        "points_to": c.points_to,
                        "figures": c.figures,
                        "hint": c.hint,
                        "warning": c.warn,
                    }
                    for c in (database, *checks)
                ],
                "verdict": {"ok": result.ok, "kind": result.kind, "text": result.text},
            }
        )
    if result.ok and not database.ok:
        raise StudybotError(f"database check: {database.detail}", hint=database.hint)
    if result.ok:
        if not as_json:
            echo(f"\nVerdict: {printable(result.text)}", err=False)
            if result.hint:
                echo(printable(result.hint[0].upper() + result.hint[1:]), err=False)
        return
    if not as_json:
        click.echo("")
    error_class = ConfigError if result.exit_code == 2 else ProviderError
    raise error_class(result.text, hint=result.hint)


def _probing(checks, quiet: bool):
    """The probe's checks, with a spinner on the terminal while each one is asked."""
    from studybot.cli.common import stderr_console
    from studybot.cli.render import spinner

    console = stderr_console()
    while True:
        with spinner(console, "asking the endpoint…") if not quiet else nullcontext():
            check = next(checks, None)
        if check is None:
            return
        yield check


def _print(check) -> None:
    mark = (
        paint("warn", "warning")
        if check.warn
        else paint(f"{MARKS[check.ok]:>4}", MEANINGS[check.ok])
    )
    lead = " " * LEAD_CELLS  # later lines of a long detail sit under its first word
    lines = fit(f"{'':>4}  {check.name:<10} {printable(check.detail)}", err=False, hang=lead)
    click.echo(mark + lines[4:])  # the coloured mark in place of its four blank cells
    if check.ok is False and check.hint:
        click.echo(fit(f"{lead}hint: {printable(check.hint)}", err=False, hang=lead + "      "))


LEAD_CELLS = 17  # "  ok  database   ": the mark, two spaces, the name in 10, a space


COMMANDS = [doctor]
