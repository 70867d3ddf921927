"""Mastery per chapter, read from the review log and the FSRS cards; and its picture.

Per chapter: questions in it, seen (rated at least once), due now, the mean
grade, the last time one was studied, and retention: the mean FSRS
probability of recalling a seen question right now. The mean grade weighs
each graded question once (the mean of its own grades), so a question
drilled ten times does not drown out the rest of the chapter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from studybot.bank import Bank
from studybot.learn import review
from studybot.storage.store import Store

GRID_COLUMNS = 25  # questions per row of the --plot grid (the longest shipped chapter has 24)


@dataclass(frozen=True)
class ChapterProgress:
    chapter: int
    title: str
    total: int  # questions in the chapter
    seen: int  # rated at least once
    due: int  # seen and due now
    mean_grade: float | None  # 0-1; None when nothing in it was graded
    retention: float | None  # 0-1, mean over seen questions; None when none was seen
    last_studied: str | None  # ISO-8601 UTC of the latest rating

    def to_json(self) -> dict:
        return {
            "chapter": self.chapter,
            "title": self.title,
            "total": self.total,
            "seen": self.seen,
            "due": self.due,
            "mean_grade": _rounded(self.mean_grade),
            "retention": _rounded(self.retention),
            "last_studied": self.last_studied,
        }


@dataclass(frozen=True)
class Progress:
    bank: str  # the bank key the cards are filed under
    title: str
    chapters: tuple[ChapterProgress, ...]
    retention: Mapping[int, float]  # question id -> retention now, seen questions only

    def to_json(self) -> dict:
        return {"bank": self.bank, "chapters": [c.to_json() for c in self.chapters]}


def progress(store: Store, bank: Bank, bank_key: str, now: datetime | None = None) -> Progress:
    """Every chapter of ``bank``, studied or not, as of ``now``."""
    at = review.utc(now)
    stats = review.question_stats(store, bank_key, at)
    rows = []
    for chapter in bank.chapters:
        questions = [q for q in bank.questions if q.chapter == chapter.number]
        seen = [stats[q.id] for q in questions if q.id in stats]
        grades = [s.mean_grade for s in seen if s.mean_grade is not None]
        rows.append(
            ChapterProgress(
                chapter=chapter.number,
                title=chapter.title,
                total=len(questions),
                seen=len(seen),
                due=sum(1 for s in seen if s.card.due <= at),
                mean_grade=_mean(grades),
                retention=_mean([s.retention for s in seen]),
                last_studied=max((s.last_reviewed for s in seen), default=None),
            )
        )
    known = {q.id for q in bank.questions}
    return Progress(
        bank=bank_key,
        title=bank.title,
        chapters=tuple(rows),
        retention={i: s.retention for i, s in stats.items() if i in known},
    )


def plot(report: Progress, bank: Bank, path: Path) -> None:
    """A PNG grid: one row per chapter, one cell per question, coloured by retention."""
    from studybot.output import plots

    plt = plots.pyplot()
    import matplotlib
    import numpy as np

    # Each chapter takes a row, wrapped every GRID_COLUMNS questions (an imported
    # bank may be one long chapter); cells hold (grid row, column, question id).
    cells: list[tuple[int, int, int]] = []
    labels: dict[int, str] = {}
    row = 0
    for chapter in report.chapters:
        ids = [q.id for q in bank.questions if q.chapter == chapter.chapter]
        labels[row] = f"ch {chapter.chapter}  {chapter.seen}/{chapter.total}"
        cells += [(row + i // GRID_COLUMNS, i % GRID_COLUMNS, q) for i, q in enumerate(ids)]
        row += max(1, -(-len(ids) // GRID_COLUMNS))
    width = max(column for _, column, _ in cells) + 1
    # (rows, width): retention 0-1; -1 = not seen yet (grey); NaN = no question there
    grid = np.full((row, width), np.nan)
    for r, column, question_id in cells:
        grid[r, column] = report.retention.get(question_id, -1.0)
    colours = matplotlib.colormaps["RdYlGn"].with_extremes(under="#c8c8c8", bad="white")
    figure, axes = plt.subplots(figsize=(max(6.0, width * 0.5 + 2), row * 0.45 + 1.5))
    image = axes.imshow(np.ma.masked_invalid(grid), cmap=colours, vmin=0.0, vmax=1.0, aspect="auto")
    for r, column, question_id in cells:
        axes.text(column, r, str(question_id), ha="center", va="center", fontsize=7)
    # Chapter numbers only: the titles may need a CJK font the machine lacks.
    axes.set_yticks(list(labels), list(labels.values()), fontsize=8)
    axes.set_xticks([])
    axes.set_title(f"{report.bank}: retention per question now (grey = not studied yet)")
    figure.colorbar(image, ax=axes, label="FSRS retention")
    plots.save(figure, path)


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)
