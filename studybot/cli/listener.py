"""What a run shows on the terminal, and the keys it reads between answers.

Questions and answers go to stdout, prompts and per-turn figures to
stderr, through this one listener. On a terminal answers are drawn as
Markdown while they stream, with a spinner until the first token; piped,
they are the model's raw text, each written once its reply is whole, so
stdout holds only replies that are kept (an attempt the provider
abandons and asks again is dropped, on a terminal taken off the screen). Every line is wrapped at word boundaries to
the terminal (``wrap.wrap``). In a quiz the reveal is the answer once,
with a mark beside each key point (``cli.reveal``); the per-turn figures
show in read mode, and in a quiz only with ``--stats``.
"""

from __future__ import annotations

import sys

from studybot.cli import reveal, terminal
from studybot.cli.common import stderr_console, stdout_console
from studybot.cli.markdown_stream import MarkdownStream
from studybot.cli.render import STYLES, PrintableStream, Spinner, echo, number, spinner
from studybot.cli.turn_table import turn_line
from studybot.learn.review import RATINGS as RATING_NAMES
from studybot.study.checking import ATTEMPT_CHARS
from studybot.study.selection import id_ranges
from studybot.study.session import FOLLOW_UP, NEXT, QUIT, AttemptInterrupted


class TerminalListener:
    """Prints questions and answers to stdout and the per-turn figures to stderr.

    ``interactive``: stdin and stdout are a terminal and no --json: keys are read.
    A quiz reads its keys and attempts from the terminal even under --json.
    ``stats``: a quiz shows each turn's tokens and KV too (read mode always does).
    """

    def __init__(
        self,
        record,
        quiet: bool,
        interactive: bool,
        bank=None,
        segments: int = 0,
        stats: bool = False,
    ) -> None:
        self.record = record
        self.quiet = quiet
        self.interactive = interactive
        self.quiz = record.mode != "read"
        self.stats = stats or not self.quiz
        self.bank = bank  # for the chapter titles of a segment
        self.segments = segments  # how many the session has, for "Segment 2/3"
        # A quiz under --json still needs its questions and answers on screen:
        # they go to stderr, so stdout stays one JSON document.
        self.shown = not quiet or self.quiz
        self.err = stderr_console()
        self.out = stdout_console()
        self.drawn = not quiet and self.out.is_terminal
        self.stream: MarkdownStream | None = None  # the answer being drawn
        self.cleaner = PrintableStream()  # a piped answer's chunks, without escape codes
        self.pending: list[str] = []  # a piped answer's text, written when its reply is whole
        self.reopen = False  # an abandoned answer was taken off the screen; its retry is drawn
        self.held: list[str] | None = None  # an answer key kept for the reveal (offline quiz)
        self.waiting: Spinner | None = None  # a summary's spinner, if one turns
        self.segment_shown: int | None = None
        self.summary_shown: str | None = None  # the summary just printed, not printed again
        self.recap = False  # asking a rating an earlier run left out: no follow-up
        self.draft = ""  # what the learner had typed when an earlier run stopped
        self.done = 0
        self.unanswered: list[int] = []  # questions offline could not answer

    meanwhile = staticmethod(terminal.meanwhile)  # the grader's build starts once drawn

    def notice(self, text: str) -> None:
        """A provider's notice (a retry, a second try with more room), on stderr."""
        echo(text)
        if self.reopen:  # the retry's answer is drawn below the notice, spinner first
            self._open_stream()

    def discarded(self) -> None:
        """The answer streamed so far is dropped: off the screen, or never written."""
        if self.stream is not None:
            self.stream.discard()
            self.stream = None
            self.reopen = True
        self.pending.clear()
        self.cleaner = PrintableStream()

    def _say(self, line: str = "", nl: bool = True, meaning: str | None = None) -> None:
        """A line of the question and answer: stdout (stderr under --json), wrapped."""
        if self.shown:
            echo(line, nl=nl, err=self.quiet, meaning=meaning)

    def question_started(self, segment, question) -> None:
        self.held = None
        if not self.quiet and segment.index != self.segment_shown:
            self.segment_shown = segment.index
            self._segment_started(segment)
        label = f"（原题号 {question.label}）" if question.label else ""
        self._say(
            f"\n── 第 {question.id} 题{label} · segment {segment.index + 1} ──", meaning="question"
        )
        self._say(question.question, meaning="question")
        self._say("")
        if not self.quiz:  # a quiz reads the attempt first; the request goes out after it
            self._open_stream()

    def draft_found(self, question, draft: str) -> None:
        self.draft = draft

    def attempt(self, question) -> str:
        commands = {"h": lambda: self._hint(question), "?": lambda: echo(reveal.ATTEMPT_KEYS)}
        text = self._read_attempt(reveal.ATTEMPT_HELP, commands)
        heading = "── answer ──" if text else "── answer (no attempt) ──"
        if self.record.live:
            self._say(heading)
            self._open_stream()
        else:  # the answer key: revealed with the marks beside it, once it is graded
            self.held = [heading]
        return text

    def _read_attempt(self, help_line: str, commands: dict) -> str:
        """The learner's answer in the editor, from a kept draft; Ctrl-C keeps what was typed."""
        draft, self.draft = self.draft, ""
        echo(help_line)
        if draft:
            echo("Your draft from the last run is back in the editor: finish it, or clear it.")
        try:
            text = terminal.read_text(
                "› ", multiline=True, default=draft, commands=commands, limit=ATTEMPT_CHARS
            )
        except terminal.Interrupted as stop:
            raise AttemptInterrupted(stop.text) from None
        return text or ""

    def text(self, chunk: str) -> None:
        if self.held is not None:
            self.held.append(chunk)
            return
        if self.reopen:
            self._open_stream()
        if self.stream is not None:
            self.stream.feed(chunk)
            return
        self.pending.append(self.cleaner.feed(chunk))  # a split escape code is held back

    def _write_pending(self) -> None:
        """A piped answer, its reply whole: written at once."""
        text = "".join(self.pending) + self.cleaner.close()
        self.pending.clear()
        if text:
            self._say(text, nl=False)
            (sys.stderr if self.quiet else sys.stdout).flush()

    def turn_recorded(self, turn, question) -> None:
        self.done += 1
        self._write_pending()
        if self.held is None and not self._close_stream():
            self._say("")
        if self.stats:
            self.err.print(turn_line(turn, self.record.answered + self.done, self.record.total))
        if turn.flag_text:
            echo(f"Warning: Q{turn.question_id} saved flagged: {turn.flag_text}")

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
            echo(f"Note: {result.note}")
        held, self.held, rest = self.held, None, None
        if held is not None:  # the answer key, kept back: the reveal shows it once
            rest = reveal.unmarked("".join(held[1:]), result)
            if rest is None:
                self._say(held[0])
                self._draw("".join(held[1:]))
            else:
                echo(held[0])  # the points with their marks are the answer
        if result.score is None:
            echo(f"Not graded: {result.advice}")
            return
        self._reveal(result, result.advice, rest)
        if result.usage is not None and self.stats:
            echo(
                f"grading request: prompt {number(result.usage.prompt_tokens)} (cached "
                f"{number(result.usage.cached_tokens)}) · answer "
                f"{number(result.usage.completion_tokens)} · not added to the main history",
                meaning="tokens",
            )

    def _reveal(self, result, advice: str = "", rest: str | None = None) -> None:
        """The grade, each point with its mark, ``rest`` of the key, the advice; wrapped."""
        echo(reveal.heading(result), meaning="question")
        width = self.err.width if self.err.is_terminal else 10**6
        for line in reveal.point_lines(result, width):
            self.err.print(line, soft_wrap=True)
        if rest:
            self._draw(rest)
        for line in reveal.advice_lines(advice, width):
            self.err.print(line, soft_wrap=True)

    def _draw(self, answer: str) -> None:
        """An answer that is not the key points themselves (a reference answer), drawn once."""
        if self.drawn:
            self._open_stream()
            self.text(answer)
            self._close_stream()
        else:
            self._say(answer)

    def confirm_marks(self, question, result):
        """The marks step: a point's number cycles its mark, u undoes one, Enter confirms."""
        if result.score is None or not result.points:
            return result
        keys = reveal.marks_keys(result.points)
        prompt = reveal.marks_prompt(result.points)
        changes = reveal.Changes(result)
        while True:
            key = terminal.read_key(prompt, keys)
            if key is None or key == terminal.ENTER:
                return changes.marks
            if key == "q":
                return QUIT
            if key == "?":
                echo(reveal.marks_help(result.points))
                continue
            if key == "h":
                self._hint(question)
                continue
            if not changes.press(key):
                echo("nothing to undo: these are the grader's marks")
                continue
            echo(reveal.marks_line(changes.marks, result))

    def rating_missing(self, question, result) -> None:
        """A question graded in an earlier run, its rating still to give."""
        self.recap = True
        self._say(f"\n── 第 {question.id} 题 · graded, not rated yet ──", meaning="question")
        self._say(question.question, meaning="question")
        self._reveal(result)

    def after_answer(self, question, suggestion: int | None):
        if not self.quiz and not self.interactive:
            return NEXT
        recap, self.recap = self.recap, False
        keys = self._keys(suggestion)
        if recap:
            keys.pop("f")
        if suggestion is None:
            prompt = "[Enter] next · f follow-up · h hint · 1-4 rate · ? keys · q stop: "
        else:
            prompt = (
                "Rate recall: 1 Again · 2 Hard · 3 Good · 4 Easy "
                f"[Enter = {suggestion} {RATING_NAMES[suggestion]}] · {'h' if recap else 'f h'} ? q: "
            )
        while True:
            key = terminal.read_key(prompt, keys)
            if key is None:  # piped input ran out: move on, rate nothing
                return NEXT
            if key == "h":
                self._hint(question)
            elif key == "?":
                echo(terminal.key_list(keys))
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
            echo(f"hint: {question.hint}", meaning="hint")
        else:
            echo(f"No hint for question {question.id} in this bank.")

    def rating_saved(self, question, rating: int, when: str) -> None:
        echo(f"saved: {rating} {RATING_NAMES[rating]} · next review {when}")

    def follow_up_text(self, question) -> str | None:
        text = terminal.read_text("追问 › ")
        if text and self.drawn:
            self._say("")
            self._open_stream()
        return text

    def follow_up_answered(self, follow_up) -> None:
        self._write_pending()
        if not self._close_stream():
            self._say("")
        from studybot.bank.key import answered_follow_up

        if not answered_follow_up(follow_up.answer):  # offline: no request, no figures
            echo("follow-up saved, not answered (offline)", meaning="tokens")
            return
        figures = (
            f" · prompt {number(follow_up.prompt_tokens)} · answer "
            f"{number(follow_up.completion_tokens)}"
            if self.stats
            else ""
        )
        echo(f"follow-up saved{figures} · not added to the main history", meaning="tokens")

    def unanswered_offline(self, question) -> None:
        self.unanswered.append(question.id)
        if not self.quiet:
            self.err.print(
                f"[dim]Q{question.id}: no reference answer; left for a live resume[/dim]"
            )

    def summary_started(self, segment) -> None:
        if not self.quiet and self.err.is_terminal:
            waiting = spinner(self.err, f"writing the summary of segment {segment.index + 1}…")
            waiting.__enter__()
            self.waiting = waiting

    def summary_made(self, segment, summary: str) -> None:
        self._stop_waiting()
        if self.quiet:
            return
        self.err.print(
            f"\n[bold]Segment {segment.index + 1} summary[/bold] (carried into the next segment):"
        )
        self.err.print(summary, markup=False, style=STYLES["summary"])
        self.summary_shown = summary

    def close(self) -> None:
        """Stop anything still drawing (an interrupted answer or summary).

        A piped answer cut short by the stop is not written: it is not kept.
        """
        self.pending.clear()
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
        if segment.summary_in and segment.summary_in != self.summary_shown:
            self.out.print("carried from the previous segment:", style=STYLES["summary"])
            self.out.print(segment.summary_in, style=STYLES["summary"], markup=False)

    def _open_stream(self) -> None:
        self.reopen = False
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
