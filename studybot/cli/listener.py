"""What a run shows on the terminal, and the keys it reads between answers.

Questions and answers go to stdout, prompts and per-turn figures to
stderr, through this one listener. On a terminal answers are drawn as
Markdown while they stream, with a spinner until the first token; piped,
they are the model's raw text.
"""

from __future__ import annotations

import sys

import click

from studybot.cli import terminal
from studybot.cli.common import stderr_console, stdout_console
from studybot.cli.render import STYLES, MarkdownStream, number, paint, printable, spinner, wrap_cjk
from studybot.learn.review import RATINGS as RATING_NAMES
from studybot.study.session import FOLLOW_UP, NEXT, QUIT

POINT_STYLES = {"covered": STYLES["ok"], "partly": STYLES["warning"]}  # missed: plain
ATTEMPT_HELP = "Your answer (an empty line or Ctrl-D ends it; Enter on an empty first line = think, then reveal):"


class TerminalListener:
    """Prints questions and answers to stdout and the per-turn figures to stderr.

    ``interactive``: stdin and stdout are a terminal and no --json: keys are read.
    In quiz mode keys and attempts are read from a pipe too, so scripts can answer.
    """

    def __init__(
        self, record, quiet: bool, interactive: bool, bank=None, segments: int = 0
    ) -> None:
        self.record = record
        self.quiet = quiet
        self.interactive = interactive
        self.quiz = record.mode != "read"
        self.bank = bank  # for the chapter titles of a segment
        self.segments = segments  # how many the session has, for "Segment 2/3"
        # A quiz under --json still needs its questions and answers on screen:
        # they go to stderr, so stdout stays one JSON document.
        self.shown = not quiet or self.quiz
        self.err = stderr_console()
        self.out = stdout_console()
        self.drawn = not quiet and self.out.is_terminal
        self.stream: MarkdownStream | None = None  # the answer being drawn
        self.waiting = None  # the spinner of a summary in the making
        self.segment_shown: int | None = None
        self.done = 0
        self.unanswered: list[int] = []  # questions offline could not answer

    def notice(self, text: str) -> None:
        """A provider's notice (a retry, a second try with more room), on stderr."""
        click.echo(printable(text), err=True)

    def _say(self, line: str = "", nl: bool = True) -> None:
        if self.shown:
            click.echo(line, nl=nl, err=self.quiet)

    def question_started(self, segment, question) -> None:
        if not self.quiet and segment.index != self.segment_shown:
            self.segment_shown = segment.index
            self._segment_started(segment)
        label = f"（原题号 {question.label}）" if question.label else ""
        heading = f"\n── 第 {question.id} 题{label} · segment {segment.index + 1} ──"
        self._say(paint(heading, "question"))
        self._say(paint(question.question, "question"))
        self._say("")
        if not self.quiz:  # a quiz reads the attempt first; the request goes out after it
            self._open_stream()

    def attempt(self, question) -> str:
        click.echo(ATTEMPT_HELP, err=True)
        text = terminal.read_text("› ", multiline=True) or ""
        self._say("── answer ──" if text else "── answer (no attempt) ──")
        self._open_stream()
        return text

    def text(self, chunk: str) -> None:
        if self.stream is not None:
            self.stream.feed(chunk)
            return
        self._say(printable(chunk), nl=False)
        (sys.stderr if self.quiet else sys.stdout).flush()

    def turn_recorded(self, turn, question) -> None:
        self.done += 1
        if not self._close_stream():
            self._say("")
        self.err.print(turn_line(turn, self.record.answered + self.done, self.record.total))
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
            click.echo(printable(f"Note: {result.note}"), err=True)
        if result.score is None:
            click.echo(printable(f"Not graded: {result.advice}"), err=True)
            return
        label = "grade" if result.source == "live" else "grade (offline estimate)"
        partly = f", {result.partly} partly" if result.partly else ""
        click.echo(
            f"\n{label}: {result.covered}/{result.total} key points covered{partly}"
            f" · {result.score:.0%}",
            err=True,
        )
        rows = []
        for n, point in enumerate(result.points, start=1):
            mark = point.state.ljust(7)
            if point.coverage is not None and point.state != "covered":
                mark = f"{mark} {point.coverage:>4.0%}"  # how near the estimate came
            rows.append((mark, f"{n}. {point.point}", POINT_STYLES.get(point.state)))
        if self.err.is_terminal:
            self._point_table(rows)
        else:
            for mark, text, _style in rows:
                click.echo(printable(f"  {mark}  {text}"), err=True)
        click.echo(printable(f"advice: {result.advice}"), err=True)
        if result.usage is not None:
            click.echo(
                f"grading request: prompt {number(result.usage.prompt_tokens)} (cached "
                f"{number(result.usage.cached_tokens)}) · answer "
                f"{number(result.usage.completion_tokens)}"
                " · not added to the main history",
                err=True,
            )

    def _point_table(self, rows) -> None:
        """Key points with their mark in a column, so a long point wraps under itself."""
        from rich.padding import Padding
        from rich.table import Table
        from rich.text import Text

        table = Table.grid(padding=(0, 2))
        table.add_column(no_wrap=True)
        table.add_column()
        room = max(20, self.err.width - 2 - max(len(m) for m, _t, _s in rows) - 2)
        for mark, text, style in rows:
            lines = "\n".join(wrap_cjk(text, room))
            table.add_row(Text(mark), Text(lines, overflow="fold"), style=style)
        self.err.print(Padding(table, (0, 0, 0, 2)))

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
            click.echo(f"{paint('hint:', 'hint')} {printable(question.hint)}", err=True)
        else:
            click.echo(f"No hint for question {question.id} in this bank.", err=True)

    def rating_saved(self, question, rating: int, when: str) -> None:
        click.echo(f"saved: {rating} {RATING_NAMES[rating]} · next review {when}", err=True)

    def follow_up_text(self, question) -> str | None:
        text = terminal.read_text("追问 › ")
        if text and self.drawn:
            self._say("")
            self._open_stream()
        return text

    def follow_up_answered(self, follow_up) -> None:
        if not self._close_stream():
            self._say("")
        self.err.print(
            f"[dim]follow-up saved · prompt {number(follow_up.prompt_tokens)} · answer "
            f"{number(follow_up.completion_tokens)} · not added to the main history[/dim]"
        )

    def unanswered_offline(self, question) -> None:
        self.unanswered.append(question.id)
        if not self.quiet:
            self.err.print(
                f"[dim]Q{question.id}: no reference answer; left for a live resume[/dim]"
            )

    def summary_started(self, segment) -> None:
        if not self.quiet and self.err.is_terminal:
            self.waiting = spinner(self.err, f"writing the summary of segment {segment.index + 1}…")
            self.waiting.__enter__()

    def summary_made(self, segment, summary: str) -> None:
        self._stop_waiting()
        if self.quiet:
            return
        self.err.print(
            f"\n[bold]Segment {segment.index + 1} summary[/bold] (carried into the next segment):"
        )
        self.err.print(summary, markup=False, style=STYLES["summary"])

    def close(self) -> None:
        """Stop anything still drawing (an interrupted answer or summary)."""
        self._close_stream()
        self._stop_waiting()

    # -- drawing ---------------------------------------------------------------

    def _segment_started(self, segment) -> None:
        """The segment's chapter and question range, and the summary it starts from."""
        chapters = []
        for question_id in segment.question_ids:
            chapter = self.bank.chapter(self.bank.get(question_id).chapter) if self.bank else None
            if chapter and chapter not in chapters:
                chapters.append(chapter)
        where = "".join(f" · 第 {c.number} 章 {c.title}" for c in chapters)
        of = f"/{self.segments}" if self.segments else ""
        self.out.print(
            f"\n━━ Segment {segment.index + 1}{of} · {id_ranges(segment.question_ids)}{where} ━━",
            style=STYLES["segment"],
            markup=False,
        )
        if segment.summary_in:
            self.out.print("carried from the previous segment:", style=STYLES["summary"])
            self.out.print(segment.summary_in, style=STYLES["summary"], markup=False)

    def _open_stream(self) -> None:
        if self.drawn:
            self.stream = MarkdownStream(self.out)

    def _close_stream(self) -> bool:
        """Finish the drawn answer; False when there was none."""
        if self.stream is None:
            return False
        self.stream.close()
        self.stream = None
        return True

    def _stop_waiting(self) -> None:
        if self.waiting is not None:
            self.waiting.__exit__(None, None, None)
            self.waiting = None


def turn_line(turn, position: int, total: int) -> str:
    """The per-turn figures: tokens, cached tokens, context n, KV, latency."""
    from studybot.cli.common import human_bytes

    cached = f" (cached {number(turn.cached_tokens)})" if turn.cached_tokens else ""
    kv = f" · KV {human_bytes(turn.kv_bytes)}" if turn.kv_bytes else ""
    return (
        f"[{STYLES['tokens']}][{position}/{total}] Q{turn.question_id}"
        f" · prompt {number(turn.prompt_tokens)}{cached} · answer {number(turn.completion_tokens)}"
        f" · n={number(turn.context_tokens)}{kv} · {turn.latency_ms / 1000:.1f} s[/]"
    )


def id_ranges(ids) -> str:
    """Question ids as ranges: "Q1–Q8", "Q5", or a review's "Q2, Q6–Q8, Q23"."""
    runs: list[list[int]] = []
    for question_id in ids:
        if runs and question_id == runs[-1][-1] + 1:
            runs[-1].append(question_id)
        else:
            runs.append([question_id])
    return ", ".join(f"Q{r[0]}" if len(r) == 1 else f"Q{r[0]}–Q{r[-1]}" for r in runs)
