"""``run`` and ``resume``: the study loop with a terminal around it."""

from __future__ import annotations

import sys

import click

from studybot.cli.common import (
    bank_option,
    channel_options,
    emit_json,
    is_interactive,
    json_option,
    segment_options,
    stderr_console,
)
from studybot.errors import ContextOverflow, StudybotError

ANSWER_KEYS = {"": "next", "n": "next", "f": "follow-up", "q": "quit"}


@click.command()
@click.option("--from", "first", type=int, required=True, help="First question number.")
@click.option("--to", "last", type=int, required=True, help="Last question number.")
@bank_option
@channel_options
@segment_options
@json_option
def run(first, last, bank_ref, as_json, **flags) -> None:
    """Study questions FROM..TO in segments of 5-8 questions.

    Each segment starts fresh from the stable system prefix plus a short
    summary of the previous segment, so the context never grows with the
    whole range. Without an API key the bank's answer key answers.

    In a terminal, after each answer: Enter = next, f = ask a follow-up
    (answered on the side, never added to the history), q = stop (resumable).

    \b
    Example:
      studybot run --from 1 --to 8
      studybot run --from 20 --to 39 --segment-max 6
    """
    from studybot import bank as banks
    from studybot import config, providers, session
    from studybot.store import Store

    settings = config.load(config.flag_settings(flags))
    bank = banks.load(bank_ref)
    bank.select(first, last)
    provider, notice = providers.choose(settings, bank)
    if notice:
        click.echo(notice, err=True)
    store = Store.open()
    study = session.Study(bank=bank, provider=provider, settings=settings)
    record = session.start(study, store, first, last, bank_ref=bank_ref)
    _study(study, store, record, as_json)


@click.command()
@click.argument("session_id", metavar="[SESSION]", required=False)
@channel_options
@json_option
def resume(session_id, as_json, **flags) -> None:
    """Continue an unfinished session at its first unanswered question.

    Without SESSION, the newest unfinished session. The session keeps its
    segments, bank and model; flags override the channel settings.

    \b
    Example:
      studybot resume
      studybot resume 3
    """
    from studybot import bank as banks
    from studybot import config, providers, session
    from studybot.errors import BadInput, ConfigError
    from studybot.store import Store

    store = Store.open()
    if session_id is None:
        record = store.latest_unfinished()
        if record is None:
            raise BadInput(
                "there is no unfinished session", hint="start one: studybot run --from 1 --to 8"
            )
    else:
        record = store.session(session_id)
    if record.complete:
        raise BadInput(
            f"session {record.id} is already complete",
            hint=f"see it with: studybot show {record.id}",
        )
    given = config.flag_settings(flags)
    if record.provider == "offline":
        given.setdefault("offline", True)
    else:
        given.setdefault("base_url", record.base_url)
        given.setdefault("model", record.model)
        given.setdefault("wire_api", record.wire_api)
    settings = config.load(given)
    if record.provider != "offline" and not settings.live and not settings.offline:
        raise ConfigError(
            f"session {record.id} was answered by {record.model}, but {settings.env_key} is not set",
            hint=f"export {settings.env_key}=... to resume it live, or add --offline to finish from the answer key",
        )
    bank = banks.load(None if record.bank == "default" else record.bank)
    provider, notice = providers.choose(settings, bank)
    if notice:
        click.echo(notice, err=True)
    study = session.Study(bank=bank, provider=provider, settings=settings)
    _study(study, store, record, as_json)


def _study(study, store, record, as_json: bool) -> None:
    from studybot.config import home
    from studybot.locks import session_lock

    with session_lock(home(), record.id):
        record = store.session(record.id)  # another process may have moved it on meanwhile
        _study_locked(study, store, record, as_json)


def _study_locked(study, store, record, as_json: bool) -> None:
    from studybot import session
    from studybot.cache.recorded import prefix_findings
    from studybot.cli.reports import render_session
    from studybot.export import session_data

    for finding in prefix_findings(store, record):  # once per run, before any request
        click.echo(f"Warning: {finding.message}: {finding.example}", err=True)
    listener = TerminalListener(record, quiet=as_json, interactive=is_interactive() and not as_json)
    try:
        record = session.run(study, store, record, listener)
    except session.Stopped:
        click.echo(f"Stopped. Resume with: studybot resume {record.id}", err=True)
        return
    except KeyboardInterrupt:
        click.echo(
            f"\nInterrupted; the answer in flight was not saved. Resume with: studybot resume {record.id}",
            err=True,
        )
        sys.exit(130)
    except ContextOverflow as exc:
        # resume would keep the segment that overflowed; the rest needs a new, finer cut
        answered = {t.question_id for t in store.turns(record.id)}
        rest = min(
            (q for s in store.segments(record.id) for q in s.question_ids if q not in answered),
            default=record.last_question,
        )
        exc.hint = (
            f"answered questions are saved in session {record.id}; study the rest in smaller "
            f"segments: studybot run --from {rest} --to {record.last_question} --segment-max 4"
        )
        raise
    except StudybotError as exc:
        exc.hint = f"{exc.hint + '; ' if exc.hint else ''}the session is saved: studybot resume {record.id}"
        raise
    if as_json:
        emit_json(session_data(store, record.id))
    else:
        render_session(store, record.id)


class TerminalListener:
    """Prints questions and answers to stdout and the per-turn figures to stderr."""

    def __init__(self, record, quiet: bool, interactive: bool) -> None:
        self.record = record
        self.quiet = quiet
        self.interactive = interactive
        self.err = stderr_console()
        self.done = 0

    def question_started(self, segment, question) -> None:
        if self.quiet:
            return
        click.echo(f"\n── 第 {question.id} 题 · segment {segment.index + 1} ──")
        click.echo(question.question)
        click.echo("")

    def text(self, chunk: str) -> None:
        if not self.quiet:
            click.echo(chunk, nl=False)
            sys.stdout.flush()

    def turn_recorded(self, turn, question) -> None:
        from studybot.cli.common import human_bytes

        self.done += 1
        if not self.quiet:
            click.echo("")
        cached = f" (cached {turn.cached_tokens})" if turn.cached_tokens else ""
        kv = f" · KV {human_bytes(turn.kv_bytes)}" if turn.kv_bytes else ""
        self.err.print(
            f"[dim][{self.record.answered + self.done}/{self.record.total}] Q{turn.question_id}"
            f" · prompt {turn.prompt_tokens}{cached} · answer {turn.completion_tokens}"
            f" · n={turn.context_tokens}{kv} · {turn.latency_ms / 1000:.1f} s[/dim]"
        )
        if turn.flag_text:
            self.err.print(f"Warning: Q{turn.question_id} saved flagged: {turn.flag_text}")

    def after_answer(self, question) -> str:
        if not self.interactive:
            return "next"
        while True:
            choice = (
                click.prompt(
                    "[Enter] next · f follow-up · q stop", default="", show_default=False, err=True
                )
                .strip()
                .lower()
            )
            if choice in ANSWER_KEYS:
                return ANSWER_KEYS[choice]

    def follow_up_text(self, question) -> str | None:
        text = click.prompt("追问", default="", show_default=False, err=True).strip()
        return text or None

    def follow_up_answered(self, follow_up) -> None:
        click.echo("")
        self.err.print(
            f"[dim]follow-up saved · prompt {follow_up.prompt_tokens} · answer {follow_up.completion_tokens}"
            " · not added to the main history[/dim]"
        )

    def warning(self, message: str) -> None:
        self.err.print(f"Warning: {message}", markup=False)

    def summary_made(self, segment, summary: str) -> None:
        if self.quiet:
            return
        self.err.print(
            f"\n[bold]Segment {segment.index + 1} summary[/bold] (carried into the next segment):"
        )
        self.err.print(summary, markup=False)


COMMANDS = [run, resume]
