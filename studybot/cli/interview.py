"""``interview``: a mock interview over chosen questions, its probes, its feedback and ratings."""

from __future__ import annotations

import time

import click

from studybot.cli.common import (
    bank_option,
    channel_options,
    followups_option,
    grader_option,
    segment_options,
    selection_options,
    stats_option,
)
from studybot.cli.render import echo
from studybot.cli.run import notice_line
from studybot.errors import Interrupted, StudybotError


@click.command()
@selection_options
@followups_option("Probes (追问) per question at most, aimed at what the answer missed.")
@click.option(
    "--minutes",
    type=click.IntRange(min=1),
    metavar="M",
    help="Time box: after M minutes no new question starts (resumable).",
)
@bank_option
@channel_options
@grader_option
@segment_options
@stats_option
def interview(first, last, chapter, tags, ids, weak, followups, minutes, bank_ref, **flags) -> None:
    """A mock interview: the interviewer asks, listens, probes what you missed (追问).

    Choose questions as with `run` (exactly one of --from/--to, --chapter,
    --tag, --ids or --weak). Each question is put to you (live, in the
    interviewer's words, the bank's wording dim beneath); nothing of the
    answer is shown. Type your answer (an empty line or Ctrl-D sends it);
    the time it took is shown and kept. Up to --followups probes follow,
    one at a time, aimed at what your answer got wrong, left partly
    covered or missed; a probe answered well lifts that point.

    After the last question: the feedback (per question the graded rubric
    with each probe's effect, the key points, the time; per chapter a
    verdict with the two biggest gaps), then one screen of suggested FSRS
    ratings: type a question's number and a rating (2 3) to change one,
    Enter saves them all, q stops (resumable). Ctrl-C keeps your draft;
    `studybot resume` continues, asking the ratings not saved. The report:
    `studybot export SESSION -f md`.

    \b
    Example:
      studybot interview --ids 5,22,24
      studybot interview --chapter 3 --followups 1 --minutes 20
    """
    from studybot.cli.terminal import is_terminal
    from studybot.study.opening import Choice, Options, begin, open_study

    study, notice = open_study(Options(bank=bank_ref, flags=flags))
    choice = Choice(first, last, tuple(chapter), tuple(tags), tuple(ids), weak)
    begun = begin(
        study,
        choice,
        quiz=True,
        fresh=True,  # an interview's thread is its own: it carries no run's summary
        answerer=is_terminal(),
        mode="interview",
        extra={"followups": followups},
    )
    notice_line(notice)
    interview_session(study, begun.store, begun.record, minutes)


def interview_session(study, store, record, minutes: int | None = None) -> None:
    """Run (or resume) an interview under the session's lock, then say where its report is."""
    from studybot.storage.locks import session_lock

    with session_lock(store.path, record.id):
        record = store.session(record.id)
        _interview_locked(study, store, record, minutes)


def _interview_locked(study, store, record, minutes: int | None) -> None:
    from studybot.cli.interviewer import InterviewScreen
    from studybot.cli.run import _channel_line
    from studybot.study import interview
    from studybot.study.listening import AttemptInterrupted, Stopped

    segments = store.segments(record.id)
    listener = InterviewScreen(
        record,
        order=[q for segment in segments for q in segment.question_ids],
        bank=study.bank,
        segments=len(segments),
        stats=study.settings.stats,
    )
    listener.feedback = lambda: show_feedback(store.view(record.id))
    _channel_line(study)
    deadline = None if minutes is None else time.monotonic() + minutes * 60
    try:
        try:
            interview.run(
                study,
                store,
                record,
                listener,
                time_up=lambda: deadline is not None and time.monotonic() >= deadline,
            )
        finally:
            listener.close()
    except interview.TimeUp:
        echo(
            f"Time's up ({minutes} min): no new question. Resume with: studybot resume {record.id}"
        )
        return
    except Stopped:
        echo(f"Stopped. Resume with: studybot resume {record.id}")
        return
    except KeyboardInterrupt as exc:
        kept = isinstance(exc, AttemptInterrupted) and exc.draft.strip()
        raise Interrupted(
            "Interrupted; the interview is saved" + (", your draft answer too." if kept else "."),
            hint=f"Resume with: studybot resume {record.id}",
        ) from None
    except StudybotError as exc:
        exc.hint = f"{exc.hint + '; ' if exc.hint else ''}the interview is saved: studybot resume {record.id}"
        raise
    echo(f"Interview {record.id} saved. The report: studybot export {record.id} -f md")


def show_feedback(view) -> None:
    """The interview's feedback: the report drawn as Markdown on a terminal, its text when piped."""
    from studybot.cli.common import stdout_console
    from studybot.output.feedback import to_markdown

    console = stdout_console()
    console.print("\n━━ Feedback ━━", style="bold magenta")
    report = to_markdown(view)
    if not console.is_terminal:  # the text `export -f md` writes, for a pager or grep
        console.print(report, markup=False, soft_wrap=True)
        return
    from rich.markdown import Markdown

    from studybot.output.markup import readable_math

    console.print(Markdown(readable_math(report), hyperlinks=False))


COMMANDS = [interview]
