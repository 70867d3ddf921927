"""``run`` and ``resume``: the study loop with a terminal around it (``review`` uses it too)."""

from __future__ import annotations

import click

from studybot.cli.common import (
    bank_option,
    channel_options,
    emit_json,
    grader_option,
    is_interactive,
    json_option,
    segment_options,
    selection_options,
    stats_option,
)
from studybot.cli.render import echo
from studybot.errors import ContextOverflow, Interrupted, StudybotError


@click.command()
@selection_options
@click.option("--quiz", is_flag=True, help="Answer first; graded against the key points; rate 1-4.")
@bank_option
@channel_options
@grader_option
@segment_options
@click.option(
    "--fresh",
    is_flag=True,
    help="Start without the summary of a session that ended just before FROM.",
)
@stats_option
@json_option
def run(first, last, chapter, tags, ids, weak, quiz, bank_ref, fresh, as_json, **flags) -> None:
    """Study chosen questions in segments of 5-8 questions.

    Choose with exactly one of --from/--to, --chapter, --tag, --ids or
    --weak. Each segment starts fresh from the stable system prefix plus a
    short summary of the previous segment, so the context never grows with
    the whole range. Without an API key the bank's answer key answers. A run
    that continues a finished session (--from 9 after one that ended at 8)
    starts from that session's last summary, unless --fresh.

    With --quiz (in a terminal), each question waits for your attempt (h or ?
    alone on a line: the hint or the keys; Ctrl-D or an empty line ends it),
    then the answer is revealed with a mark beside each key point (✓ covered,
    ½ partly, ✗ missed, ⚠ contradicted). Press a point's number to change
    its mark, Enter to confirm, then rate your recall (1 Again, 2 Hard,
    3 Good, 4 Easy; Enter takes the suggestion). --stats adds each turn's
    tokens and KV size.

    In a terminal, after each answer (single keys, no Enter needed):
    Enter/space = next, f = follow-up (answered on the side, never added to
    the history), h = the bank's hint, 1-4 = rate, ? = keys, q = stop
    (resumable). Ctrl-C saves the session and prints how to resume.

    \b
    Example:
      studybot run --from 1 --to 8
      studybot run --chapter 3 --quiz
      studybot run --ids 5,23,34,76 --segment-max 6
    """
    from studybot.cli.terminal import is_terminal
    from studybot.study.opening import Choice, Options, begin, open_study

    study, notice = open_study(Options(bank=bank_ref, flags=flags))
    choice = Choice(first, last, tuple(chapter), tuple(tags), tuple(ids), weak)
    begun = begin(study, choice, quiz=quiz, fresh=fresh, answerer=is_terminal())
    notice_line(notice)
    if begun.carried is not None:
        echo(
            f"Continuing session {begun.carried.session_id}: its last summary starts this run "
            "(--fresh to start without)."
        )
    study_session(study, begun.store, begun.record, as_json)


@click.command()
@click.argument("session_id", metavar="[SESSION]", required=False)
@channel_options
@grader_option
@stats_option
@json_option
def resume(session_id, as_json, **flags) -> None:
    """Continue an unfinished session at its first unanswered question.

    Without SESSION, the newest unfinished session. The session keeps its
    segments, bank, mode (read or quiz) and model; flags override the
    channel settings. A quiz asks first for the ratings a stopped run left
    out, and offers an attempt you were typing when it stopped.

    \b
    Example:
      studybot resume
      studybot resume 3
    """
    from studybot.cli.terminal import is_terminal
    from studybot.storage.store import Store
    from studybot.study.opening import reopen

    store = Store.open()
    reopened = reopen(store, session_id, flags, answerer=is_terminal())
    record, edited, removed = reopened.record, reopened.edited, reopened.removed
    if edited or removed:
        gone = f"; not in the bank any more: {_ids(removed)}" if removed else ""
        echo(
            f"Warning: the bank changed since session {record.id} started: "
            f"edited {_ids(edited) or 'none'}{gone} (saved answers keep the old wording; "
            "unanswered questions are asked as the bank says now)"
        )
    notice_line(reopened.notice)
    if record.mode == "interview":  # its own loop and screen (cli/interview.py)
        from studybot.cli.interview import interview_session

        interview_session(reopened.study, store, record)
        return
    study_session(reopened.study, store, record, as_json)


def notice_line(notice: str | None) -> None:
    """Which provider answers, said once before the first question (stderr)."""
    if notice:
        echo(notice, meaning="warning")


def _ids(ids) -> str:
    return ", ".join(f"Q{q}" for q in ids)


def study_session(study, store, record, as_json: bool) -> None:
    from studybot.storage.locks import session_lock

    with session_lock(store.path, record.id):
        record = store.session(record.id)  # another process may have moved it on meanwhile
        _study_locked(study, store, record, as_json)


def _study_locked(study, store, record, as_json: bool) -> None:
    from studybot.cli.listener import TerminalListener
    from studybot.cli.session_report import render_session
    from studybot.output.export import session_json
    from studybot.study import resuming, session
    from studybot.study.recorded import prefix_findings

    for finding in prefix_findings(store.view(record.id)):  # once per run, before any request
        echo(f"Warning: {finding.message}: {finding.example}", meaning="warning")
    listener = TerminalListener(
        record,
        quiet=as_json,
        interactive=is_interactive() and not as_json,
        bank=study.bank,
        segments=len(store.segments(record.id)),
        stats=study.settings.stats,
    )
    if not as_json:
        _channel_line(study)
    try:
        record = _drawn(session.run, study, store, record, listener)
    except session.Stopped:
        echo(f"Stopped. Resume with: studybot resume {record.id}")
        return
    except KeyboardInterrupt as exc:  # Ctrl-C, and SIGTERM or SIGHUP (studybot.launch)
        kept = isinstance(exc, session.AttemptInterrupted) and exc.draft.strip()
        raise Interrupted(
            "Interrupted; the session is saved"
            + (", your draft answer too." if kept else " (an answer in flight is not)."),
            hint=f"Resume with: studybot resume {record.id}",
        ) from None
    except BrokenPipeError:  # stdout's reader went away (| head): not a crash
        raise StudybotError(
            "stopped: the output was closed; the session is saved (an answer in flight is not)",
            hint=f"Resume with: studybot resume {record.id}",
        ) from None
    except ContextOverflow as exc:
        exc.hint = (
            f"answered questions are saved in session {record.id}; study the rest in smaller "
            f"segments: {resuming.rest_command(store, record)}"
        )
        raise
    except StudybotError as exc:
        exc.hint = f"{exc.hint + '; ' if exc.hint else ''}the session is saved: studybot resume {record.id}"
        raise
    if as_json:
        emit_json(session_json(store.view(record.id)))
    else:
        render_session(store.view(record.id), texts=False)  # the run has just shown them
    if listener.unanswered:
        echo(
            f"{len(listener.unanswered)} question(s) have no reference answer and were left "
            f"unanswered offline (Q{', Q'.join(map(str, listener.unanswered))}); answer them "
            f"live: set an API key, then studybot resume {record.id}"
        )


def _drawn(run, study, store, record, listener):
    """Run the loop; whatever ends it, the terminal is left clean for the last message."""
    try:
        return run(study, store, record, listener)
    finally:
        listener.close()


def _channel_line(study) -> None:
    """In live mode, the first line says who answers: provider, model, base URL."""
    from studybot.channel.urls import masked

    if not study.provider.live:
        return
    echo(
        f"live · {study.provider.name} · model {study.provider.model} · "
        f"{masked(study.settings.base_url)}",
        meaning="tokens",
    )


COMMANDS = [run, resume]
