"""The interview on the terminal: the interviewer's question, the timed answer, the probes, the ratings.

Built on the run's ``TerminalListener`` (segments, summaries, the streamed
text, the quiz editor). Nothing of the answer is shown during the
interview: no hint, no key points, no marks. The feedback comes once, after
the last question, then the closing screen confirms the ratings.
"""

from __future__ import annotations

from collections.abc import Callable

from studybot.cli import terminal
from studybot.cli.listener import TerminalListener
from studybot.cli.render import echo
from studybot.cli.turn_table import turn_line
from studybot.learn.review import RATINGS
from studybot.output.figures import percent
from studybot.study.interview import InterviewListener

ANSWER_HELP = (
    "Your answer (Enter a new line · an empty line or Ctrl-D sends it · "
    "Ctrl-C stops, your draft is kept):"
)
ANSWER_KEYS = "keys while you type: Enter a new line · an empty line or Ctrl-D send · Ctrl-C stop"
RATINGS_HELP = "Enter saves these ratings · a number then a rating changes one (e.g. 2 3) · q stops (resumable)"


class InterviewScreen(TerminalListener, InterviewListener):
    """The interview's listener; ``feedback`` draws the report before the ratings."""

    def __init__(
        self, record, *, order=(), bank=None, segments: int = 0, stats: bool = False
    ) -> None:
        super().__init__(record, quiet=False, interactive=True, bank=bank, segments=segments)
        self.stats = stats
        self.feedback: Callable[[], None] = lambda: None
        self.order = list(order)  # the session's questions in the order asked, for "2/3"
        self.position = 0

    def question_started(self, segment, question) -> None:
        if segment.index != self.segment_shown:
            self.segment_shown = segment.index
            self._segment_started(segment)
        order = self.order
        self.position = order.index(question.id) + 1 if question.id in order else self.position + 1
        total = len(order) or self.record.total
        self._say(
            f"\n── 面试官 · 第 {question.id} 题 ({self.position}/{total}) ──", meaning="question"
        )
        self._open_stream()

    def turn_recorded(self, turn, question) -> None:
        self._write_pending()
        if not self._close_stream():
            self._say("")
        if turn.answer.strip() != question.question.strip():
            echo(f"（题库原题：{question.question}）", meaning="summary")  # the bank's wording, dim
        if self.stats:
            self.err.print(turn_line(turn, self.position, self.record.total))

    def attempt(self, question) -> str:
        return self._read_attempt(ANSWER_HELP, {"?": lambda: echo(ANSWER_KEYS)})

    def answer_timed(self, question, seconds: float, result) -> None:
        echo(f"answered in {seconds:.0f} s · saved", meaning="tokens")

    def grade_noted(self, question, note: str) -> None:
        echo(f"Note: {note}")  # as run and grade say it; the grade itself waits for the feedback

    def probe_asked(self, question, probe, of: int) -> None:
        self._say(f"\n── 追问 {probe.n}/{of} ──", meaning="question")
        self._say(probe.question)
        if self.stats and probe.prompt_tokens:
            echo(
                f"probe request: prompt {probe.prompt_tokens} (cached {probe.cached_tokens}) · "
                f"answer {probe.completion_tokens} · not added to the main history",
                meaning="tokens",
            )

    def probe_answered(self, question, probe) -> None:
        echo(f"answered in {probe.seconds or 0:.0f} s · saved", meaning="tokens")

    def rating_saved(self, question, rating: int, when: str) -> None:
        echo(f"Q{question.id} saved: {rating} {RATINGS[rating]} · next review {when}")

    def ratings(self, rows) -> dict[int, int] | None:
        """The closing screen: the suggestions listed; ``N R`` changes one, Enter saves all."""
        self.feedback()
        chosen = {row.question.id: row.suggestion for row in rows}
        while True:
            self._say("\n── Ratings (FSRS) ──", meaning="question")
            for shown in _rating_lines(rows, chosen):
                self._say(shown)
            echo(RATINGS_HELP)
            line = terminal.read_text("ratings › ")
            if line is None or line.strip().lower() == "q":
                return None
            if not line.strip():
                return chosen
            change = _change(line, len(rows))
            if change is None:
                echo(
                    f"Not a change: {line.strip()!r}; type a number 1-{len(rows)}, then 1-4 (e.g. 2 3)"
                )
                continue
            row, rating = change
            chosen[rows[row - 1].question.id] = rating


def _rating_lines(rows, chosen: dict[int, int]) -> list[str]:
    """One line per question, its number, grade and rating in columns that line up."""
    from studybot.cli.columns import aligned

    cells = []
    for n, row in enumerate(rows, start=1):
        rating = chosen[row.question.id]
        grade = "—" if row.result.score is None else percent(row.result.score)
        mark = "" if rating == row.suggestion else " (changed)"
        cells.append(
            [f"{n}.", f"Q{row.question.id}", "grade", grade, f"→ {rating} {RATINGS[rating]}{mark}"]
        )
    return ["  " + line for line in aligned(cells, right=(0, 3), gap=" ")]


def _change(line: str, count: int) -> tuple[int, int] | None:
    """ "2 3" (or "2:3", "2,3") -> (row 2, rating 3); None when it is not one."""
    parts = line.replace(":", " ").replace(",", " ").split()
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return None
    row, rating = int(parts[0]), int(parts[1])
    if not 1 <= row <= count or rating not in RATINGS:
        return None
    return row, rating
