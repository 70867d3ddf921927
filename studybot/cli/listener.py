"""What a run shows on the terminal, and the keys it reads between answers.

Questions and answers go to stdout, prompts and per-turn figures to
stderr, all as plain text through this one listener, so a renderer can
replace the printing without touching the loop.
"""

from __future__ import annotations

import sys

import click

from studybot.cli import terminal
from studybot.cli.common import stderr_console
from studybot.review import RATINGS as RATING_NAMES
from studybot.session import FOLLOW_UP, NEXT, QUIT

ATTEMPT_HELP = "Your answer (an empty line or Ctrl-D ends it; Enter on an empty first line = think, then reveal):"


class TerminalListener:
    """Prints questions and answers to stdout and the per-turn figures to stderr.

    ``interactive``: stdin and stdout are a terminal and no --json: keys are read.
    In quiz mode keys and attempts are read from a pipe too, so scripts can answer.
    """

    def __init__(self, record, quiet: bool, interactive: bool) -> None:
        self.record = record
        self.quiet = quiet
        self.interactive = interactive
        self.quiz = record.mode != "read"
        # A quiz under --json still needs its questions and answers on screen:
        # they go to stderr, so stdout stays one JSON document.
        self.shown = not quiet or self.quiz
        self.err = stderr_console()
        self.done = 0

    def _say(self, line: str = "", nl: bool = True) -> None:
        if self.shown:
            click.echo(line, nl=nl, err=self.quiet)

    def question_started(self, segment, question) -> None:
        self._say(f"\n── 第 {question.id} 题 · segment {segment.index + 1} ──")
        self._say(question.question)
        self._say("")

    def attempt(self, question) -> str:
        click.echo(ATTEMPT_HELP, err=True)
        text = terminal.read_text("› ", multiline=True) or ""
        self._say("── answer ──" if text else "── answer (no attempt) ──")
        return text

    def text(self, chunk: str) -> None:
        self._say(chunk, nl=False)
        (sys.stderr if self.quiet else sys.stdout).flush()

    def turn_recorded(self, turn, question) -> None:
        from studybot.cli.common import human_bytes

        self.done += 1
        self._say("")
        cached = f" (cached {turn.cached_tokens})" if turn.cached_tokens else ""
        kv = f" · KV {human_bytes(turn.kv_bytes)}" if turn.kv_bytes else ""
        self.err.print(
            f"[dim][{self.record.answered + self.done}/{self.record.total}] Q{turn.question_id}"
            f" · prompt {turn.prompt_tokens}{cached} · answer {turn.completion_tokens}"
            f" · n={turn.context_tokens}{kv} · {turn.latency_ms / 1000:.1f} s[/dim]"
        )
        if turn.flag_text:
            self.err.print(f"Warning: Q{turn.question_id} saved flagged: {turn.flag_text}")

    def segment_split(self, segment, question) -> None:
        self.err.print(
            f"Q{question.id} does not fit segment {segment.index + 1}'s context any more: "
            f"summarising the segment, then Q{question.id} starts a fresh one",
            markup=False,
        )

    def usage_suspect(self, turn) -> None:
        self.err.print(
            f"Warning: Q{turn.question_id}: the provider reported {turn.prompt_tokens} prompt "
            f"tokens but the request holds about {turn.local_prompt_tokens}; studybot keeps both "
            "and sizes the context from its own count (said once per session; `studybot show` "
            "marks such turns)",
            markup=False,
        )

    def graded(self, question, result) -> None:
        if result.note:
            click.echo(f"Note: {result.note}", err=True)
        if result.score is None:
            click.echo(f"Not graded: {result.advice}", err=True)
            return
        label = "grade" if result.source == "live" else "grade (offline estimate)"
        click.echo(
            f"\n{label}: {result.covered}/{result.total} key points covered · {result.score:.0%}",
            err=True,
        )
        for n, point in enumerate(result.points, start=1):
            mark = "covered" if point.covered else "missed "
            click.echo(f"  {mark}  {n}. {point.point}", err=True)
        click.echo(f"advice: {result.advice}", err=True)
        if result.usage is not None:
            click.echo(
                f"grading request: prompt {result.usage.prompt_tokens} (cached "
                f"{result.usage.cached_tokens}) · answer {result.usage.completion_tokens}"
                " · not added to the main history",
                err=True,
            )

    def after_answer(self, question, suggestion: int | None):
        if not self.quiz and not self.interactive:
            return NEXT
        keys = self._keys(suggestion)
        if suggestion is None:
            prompt = "[Enter] next · f follow-up · h hint · 1-4 rate · ? keys · q stop: "
        else:
            prompt = (
                "Rate recall: 1 Again · 2 Hard · 3 Good · 4 Easy "
                f"[Enter = {suggestion} {RATING_NAMES[suggestion]}] · f h ? q: "
            )
        while True:
            key = terminal.read_key(prompt, keys)
            if key is None:  # piped input ran out: move on, rate nothing
                return NEXT
            if key == "h":
                self._hint(question)
            elif key == "?":
                click.echo(terminal.key_list(keys), err=True)
            elif key == "f":
                return FOLLOW_UP
            elif key == "q":
                return QUIT
            elif key == terminal.ENTER:
                return NEXT if suggestion is None else suggestion
            else:
                return int(key)

    def _keys(self, suggestion: int | None) -> dict[str, str]:
        enter = "next" if suggestion is None else f"accept {RATING_NAMES[suggestion]}"
        keys = {terminal.ENTER: enter}
        keys |= {str(n): f"rate {name}" for n, name in RATING_NAMES.items()}
        keys |= {"f": "follow-up", "h": "hint", "?": "keys", "q": "stop (resumable)"}
        return keys

    def _hint(self, question) -> None:
        # The bank's hint is for the user only; it is never sent to the model.
        if question.hint:
            click.echo(f"hint: {question.hint}", err=True)
        else:
            click.echo(f"No hint for question {question.id} in this bank.", err=True)

    def rating_saved(self, question, rating: int, when: str) -> None:
        click.echo(f"saved: {rating} {RATING_NAMES[rating]} · next review {when}", err=True)

    def follow_up_text(self, question) -> str | None:
        return terminal.read_text("追问 › ")

    def follow_up_answered(self, follow_up) -> None:
        self._say("")
        self.err.print(
            f"[dim]follow-up saved · prompt {follow_up.prompt_tokens} · answer {follow_up.completion_tokens}"
            " · not added to the main history[/dim]"
        )

    def summary_made(self, segment, summary: str) -> None:
        if self.quiet:
            return
        self.err.print(
            f"\n[bold]Segment {segment.index + 1} summary[/bold] (carried into the next segment):"
        )
        self.err.print(summary, markup=False)
