"""An interview's feedback, from its ``SessionView``: per question, per chapter, as Markdown.

Per question: the graded rubric with each probe's effect (the state after
the answer, the state after the probes), the reference (the bank's key
points, as the grade holds them), the time taken, the rating. Per chapter,
the verdict an interviewer would write: strong, borderline or weak, with
the two most important gaps (a wrong claim before a missed point before a
partly covered one). ``export -f md`` and ``show`` render it.
"""

from __future__ import annotations

from dataclasses import dataclass

from studybot.learn.marks import CONTRADICTED, COVERED, MARKS, MISSED, PARTLY, clip, mean_credit
from studybot.learn.review import RATINGS
from studybot.output.figures import local_minute, percent
from studybot.output.markup import escape_html_like
from studybot.storage.store import ProbeRecord, SessionView

WORDS = {COVERED: "答到", PARTLY: "部分", MISSED: "遗漏", CONTRADICTED: "说错"}
STRONG, BORDERLINE, WEAK = "strong", "borderline", "weak"
STRONG_FROM, BORDERLINE_FROM = 0.75, 0.45  # a chapter's mean final grade
GAP_ORDER = {CONTRADICTED: 0, MISSED: 1, PARTLY: 2}
GAP_CHARS = 36  # a gap names its key point in this many characters


@dataclass(frozen=True)
class PointFeedback:
    n: int
    point: str
    before: str  # its state after the answer
    after: str  # its state after the probes
    probed: tuple[int, ...]  # the probes aimed at it


@dataclass(frozen=True)
class QuestionFeedback:
    question_id: int
    question: str
    asked: str  # what the interviewer said (offline: the bank's wording)
    chapter: int
    chapter_title: str
    attempt: str
    seconds: float | None  # None: not readable (a newer studybot's)
    points: tuple[PointFeedback, ...]
    score_before: float | None
    score_after: float | None
    probes: tuple[ProbeRecord, ...]
    rating: int | None  # the rating saved, None if not yet
    whole: bool = True  # False: its answer or grade could not be read (a newer studybot's)


@dataclass(frozen=True)
class ChapterVerdict:
    chapter: int
    title: str
    verdict: str  # STRONG, BORDERLINE or WEAK
    mean: float
    gaps: tuple[str, ...]  # the two most important, in words


def questions(view: SessionView) -> list[QuestionFeedback]:
    """Every answered interview question, in the order asked."""
    out = []
    for segment in view.segments:
        for question_id in segment.question_ids:
            answer, turn = view.interview.get(question_id), view.turn(question_id)
            graded = view.grades.get(question_id)
            whole = answer is not None and graded is not None
            if turn is None or (not whole and not view.unread):
                continue  # not answered yet; with rows left out (view.unread), what is read
            probes = tuple(view.probes_of(question_id))
            before = (graded.estimate or graded.points) if graded else ()
            points = tuple(
                PointFeedback(
                    n,
                    final.point,
                    first.state,
                    final.state,
                    tuple(p.n for p in probes if p.point == n),
                )
                for n, (first, final) in enumerate(
                    zip(before, graded.points if graded else (), strict=False), 1
                )
            )
            review = view.reviews.get(question_id)
            out.append(
                QuestionFeedback(
                    question_id=question_id,
                    question=turn.question,
                    asked=turn.answer,
                    chapter=answer.chapter if answer else 0,
                    chapter_title=answer.chapter_title if answer else "",
                    attempt=answer.attempt if answer else (graded.attempt if graded else ""),
                    seconds=answer.seconds if answer else None,
                    points=points,
                    score_before=_score([p.before for p in points]),
                    score_after=_score([p.after for p in points]),
                    probes=probes,
                    rating=review.rating if review else None,
                    whole=whole,
                )
            )
    return out


def chapters(items: list[QuestionFeedback]) -> list[ChapterVerdict]:
    """Per chapter, in the order first asked: its verdict and its two most important gaps."""
    order: dict[int, list[QuestionFeedback]] = {}
    for item in items:
        if item.whole:  # a question whose grade could not be read has no verdict to give
            order.setdefault(item.chapter, []).append(item)
    out = []
    for chapter, asked in order.items():
        scores = [q.score_after for q in asked if q.score_after is not None]
        mean = sum(scores) / len(scores) if scores else 0.0
        wrong = any(p.after == CONTRADICTED for q in asked for p in q.points)
        verdict = (
            STRONG
            if mean >= STRONG_FROM and not wrong
            else BORDERLINE
            if mean >= BORDERLINE_FROM
            else WEAK
        )
        gaps = sorted(
            (
                (GAP_ORDER[p.after], q.question_id, p)
                for q in asked
                for p in q.points
                if p.after in GAP_ORDER
            ),
            key=lambda g: (g[0], g[1], g[2].n),
        )
        named = tuple(
            f"Q{qid} 要点 {p.n}（{WORDS[p.after]}）：{_clip(p.point)}" for _, qid, p in gaps[:2]
        )
        out.append(ChapterVerdict(chapter, asked[0].chapter_title, verdict, mean, named))
    return out


def to_markdown(view: SessionView) -> str:
    """The interview report: the verdicts first, then every question with its probes."""
    record = view.record
    items = questions(view)
    lines = [
        f"# 模拟面试：{escape_html_like(record.bank_title)}",
        "",
        f"- session {record.id} · {record.status} · {record.done}/{record.total} done · "
        f"asked by {record.provider} ({record.model}) · started {local_minute(record.created)}",
        "",
        "## 面试官的结论",
        "",
    ]
    for verdict in chapters(items):
        title = escape_html_like(verdict.title) or "未分章"
        lines.append(
            f"- **第 {verdict.chapter} 章 {title}：{verdict.verdict}**（平均 {percent(verdict.mean)}）"
        )
        lines += [f"  - {escape_html_like(gap)}" for gap in verdict.gaps] or ["  - 没有明显短板"]
    lines.append("")
    for item in items:
        lines += question_lines(item)
    return "\n".join(lines).rstrip() + "\n"


def question_lines(item: QuestionFeedback) -> list[str]:
    """One question of the report, in Markdown."""
    probe_time = sum(p.seconds or 0 for p in item.probes)
    rating = f"rating {item.rating} {RATINGS[item.rating]}" if item.rating else "not rated yet"
    lines = [
        f"## 第 {item.question_id} 题：{escape_html_like(item.question)}",
        "",
        f"- time: answer {'?' if item.seconds is None else f'{item.seconds:.0f}'} s"
        + (f" · {len(item.probes)} probe(s) {probe_time:.0f} s" if item.probes else " · no probe"),
        f"- grade: {_percent(item.score_before)} after the answer → "
        f"{_percent(item.score_after)} after the probes · {rating}",
        "",
    ]
    if item.asked.strip() and item.asked.strip() != item.question.strip():
        lines += [f"**面试官：** {escape_html_like(item.asked.strip())}", ""]
    lines += ["**我的回答：**", "", *_quoted(item.attempt), ""]
    for probe in item.probes:
        after = probe.state_after or probe.state_before
        effect = f"{MARKS[probe.state_before]} → {MARKS[after]}"
        lines += [
            f"**追问 {probe.n}**（要点 {probe.point}，{WORDS[probe.state_before]}；"
            f"{'model' if probe.source == 'model' else 'rubric'}）：{escape_html_like(probe.question)}",
            "",
            *_quoted(probe.answer or ""),
            "",
            f"要点 {probe.point}：{effect}" + _probe_time(probe),
            "",
        ]
    lines += ["**评分细则与参考要点**（回答后 → 追问后）：", ""]
    for p in item.points:
        change = MARKS[p.before] if p.before == p.after else f"{MARKS[p.before]} → {MARKS[p.after]}"
        lines.append(f"{p.n}. {change} {escape_html_like(p.point)}")
    lines.append("")
    return lines


def _probe_time(probe: ProbeRecord) -> str:
    if probe.seconds is not None:
        return f" · {probe.seconds:.0f} s"
    return " · not answered yet" if probe.answer is None else " · ? s"  # a time not readable


def _quoted(text: str) -> list[str]:
    quoted = [f"> {escape_html_like(line)}" for line in text.strip().splitlines()]
    return quoted or ["> _（没有作答）_"]


def _score(states: list[str]) -> float | None:
    return mean_credit(states) if states else None


def _percent(score: float | None) -> str:
    return "—" if score is None else percent(score)


def _clip(text: str) -> str:
    return clip(text, GAP_CHARS)
