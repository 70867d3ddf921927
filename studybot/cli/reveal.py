"""The reveal of a quiz: each key point with its mark beside it, and the learner's marks.

A mark per point: ✓ covered · ½ partly · ✗ missed · ⚠ contradicted, in
its colour. A contradicted point shows both texts ("you: … · key: …"). The
points are drawn from their Markdown (code spans styled, no backticks) and
wrapped to the terminal under their own start, so a point and its mark
read as one block. After the reveal the learner may change any mark: a
point's number cycles it ✓ → ½ → ✗ → ⚠ → ✓ and Enter confirms; the rating
suggested follows the confirmed marks.
"""

from __future__ import annotations

from collections.abc import Sequence

from studybot.learn import grading
from studybot.learn.marks import MARKS
from studybot.learn.review import RATINGS, suggest_rating
from studybot.output.figures import percent

MARK_STYLES = {
    grading.COVERED: "green",
    grading.PARTLY: "yellow",
    grading.MISSED: "red",
    grading.CONTRADICTED: "bold red",
}
CYCLE = {
    grading.COVERED: grading.PARTLY,
    grading.PARTLY: grading.MISSED,
    grading.MISSED: grading.CONTRADICTED,
    grading.CONTRADICTED: grading.COVERED,
}
TOGGLED = 9  # points 1-9 have a key; a tenth and later keep the grader's mark
MARK_HELP = "✓ covered · ½ partly · ✗ missed · ⚠ contradicted"
# What the quiz says while an attempt is typed (the listener reads it).
ATTEMPT_HELP = (
    "Your answer (an empty line or Ctrl-D ends it; Enter on an empty first line = think, "
    "then reveal; h or ? alone on a line = hint or keys):"
)
ATTEMPT_KEYS = (
    "keys while you type: Enter a new line · Enter on an empty line or Ctrl-D send · "
    "h alone on a line the hint · ? these keys · Ctrl-C stop (your draft is kept)"
)


def tally(result: grading.Grade) -> str:
    """ "3 ✓ · 1 ½ · 1 ⚠": how many points have each mark (marks no point has are left out)."""
    counts = [(sum(p.state == state for p in result.points), mark) for state, mark in MARKS.items()]
    return " · ".join(f"{count} {mark}" for count, mark in counts if count)


def heading(result: grading.Grade) -> str:
    """The grade in one line: "grade 60% · 3 ✓ · 2 ✗ (offline rubric)", naming its grader."""
    label = "" if result.source == grading.LIVE else f" (offline {result.grader})"
    return f"grade {_percent(result.score)} · {tally(result)}{label}"


def point_lines(result: grading.Grade, width: int) -> list:
    """Each point as rich Text lines: its mark, its number, its text wrapped under itself."""
    from rich.cells import cell_len
    from rich.text import Text

    from studybot.cli.render import printable
    from studybot.cli.wrap import hang_lines, inline_markdown

    digits = len(str(len(result.points)))
    lines = []
    for n, point in enumerate(result.points, start=1):
        style = MARK_STYLES[point.state]
        lead = Text.assemble((MARKS[point.state], style), " ", (f"{n:>{digits}}", "bold"), " ")
        body, keep = inline_markdown(printable(point.point))  # a bank's text: no escape codes
        lines += hang_lines(lead, body, width, keep)
        parts = _detail(point)
        room = width - lead.cell_len
        if parts and cell_len(" · ".join(parts)) <= room:
            parts = [" · ".join(parts)]  # "you: … · key: …" on one line when it fits
        for part in parts:
            lines += hang_lines(
                Text(" " * lead.cell_len), Text(printable(part), style=style), width
            )
    return lines


def advice_lines(advice: str, width: int) -> list:
    """``advice: …`` as rich Text lines, its code spans drawn as the points draw them."""
    from rich.text import Text

    from studybot.cli.render import printable
    from studybot.cli.wrap import hang_lines, inline_markdown

    if not advice:
        return []
    body, keep = inline_markdown(printable(advice))  # a model's advice: no escape codes
    return hang_lines(Text("advice: "), body, width, keep)


def _detail(point: grading.PointResult) -> list[str]:
    """What decided the point, in the attempt's words (and the key's, when contradicted)."""
    if point.state == grading.CONTRADICTED:
        you = [f"you: {point.evidence}"] if point.evidence else []
        return you + ([f"key: {point.key}"] if point.key else [])
    if point.mentioned and point.evidence:
        return [f"mentioned only: {point.evidence}"]
    if point.state != grading.MISSED and point.evidence:
        return [f"you: {point.evidence}"]
    return []


def cycled(result: grading.Grade, number: int) -> grading.Grade:
    """``result`` with point ``number`` (from 1) moved on to its next mark, rescored."""
    states = [p.state for p in result.points]
    states[number - 1] = CYCLE[states[number - 1]]
    return result.with_states(states)


def changed(marks: grading.Grade, estimate: grading.Grade) -> int:
    return sum(a.state != b.state for a, b in zip(marks.points, estimate.points, strict=True))


def marks_line(marks: grading.Grade, estimate: grading.Grade) -> str:
    """After a change: every mark, the grade it makes, and the rating Enter will suggest."""
    each = " ".join(f"{n}{MARKS[p.state]}" for n, p in enumerate(marks.points, start=1))
    was = f" (estimate {_percent(estimate.score)})" if changed(marks, estimate) else ""
    rating = suggest_rating(marks.score, marks.contradicted)
    return (
        f"marks {each} · grade {_percent(marks.score)}{was} · [suggests {rating} {RATINGS[rating]}]"
    )


class Changes:
    """The marks as the learner changes them, one point at a time; ``u`` takes back the last."""

    def __init__(self, estimate: grading.Grade) -> None:
        self.steps = [estimate]  # the grader's marks, then the marks after each change

    @property
    def marks(self) -> grading.Grade:
        return self.steps[-1]

    def press(self, key: str) -> bool:
        """A point's number moves its mark on (✓→½→✗→⚠→✓); ``u`` takes back the last
        change. False: ``u`` with no change to take back."""
        if key != "u":
            self.steps.append(cycled(self.marks, int(key)))
        elif len(self.steps) == 1:
            return False
        else:
            self.steps.pop()
        return True


def marks_keys(points: Sequence) -> dict[str, str]:
    """The keys of the marks step (``terminal.read_key``'s allowed keys)."""
    from studybot.cli.terminal import ENTER

    count = min(len(points), TOGGLED)
    keys = {str(n): f"change point {n}'s mark" for n in range(1, count + 1)}
    keys |= {ENTER: "confirm the marks, then rate", "u": "undo the last change"}
    return keys | {"h": "hint", "?": "keys", "q": "stop (resumable)"}


def _which(points: Sequence) -> str:
    count = min(len(points), TOGGLED)
    return "1" if count == 1 else f"1-{count}"


def marks_prompt(points: Sequence) -> str:
    return f"Marks: {_which(points)} change (✓→½→✗→⚠) · [Enter = confirm] · u h ? q: "


def marks_help(points: Sequence) -> str:
    """What ``?`` says at the marks step."""
    later = f" (points after {TOGGLED} keep the grader's mark)" if len(points) > TOGGLED else ""
    return (
        f"{MARK_HELP}. Keys: {_which(points)} change that point's mark, ✓ → ½ → ✗ → ⚠ → ✓"
        f"{later} · Enter confirm the marks, then rate · u undo (the grader's marks) · "
        "h hint · q stop (resumable)"
    )


def unmarked(answer: str, result: grading.Grade) -> str | None:
    """What of the answer key the marked points do not show: its code blocks ("" for none).

    None when ``answer`` is not the points of ``result`` themselves (or it
    has no marks). It is when it holds them one numbered line each (key
    points), or when it is a reference answer the grader split into them
    (an imported bank's: its prose, line by line or sentence by sentence),
    so the reveal shows that text once.
    """
    import re

    prose: list[str] = []
    code: list[str] = []
    fenced = False
    for line in answer.splitlines():
        if re.match(r"^\s*(?:`{3,}|~{3,})", line):
            fenced = not fenced
            code.append(line)
        elif fenced:
            code.append(line)
        elif not line.lstrip().startswith("#"):
            prose.append(re.sub(r"^\s*(?:[-*+]|\d+[.、)）])\s*", "", line))

    def bare(text: str) -> str:
        return "".join(text.split())

    points = "".join(bare(p.point) for p in result.points)
    if result.score is None or not points or bare("".join(prose)) != points:
        return None
    return "\n".join(code)


def _percent(score: float | None) -> str:
    """A grade's share; a dash for none (an attempt with nothing to grade is never revealed)."""
    return "—" if score is None else percent(score)
