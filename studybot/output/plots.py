"""The pictures: ``plan --plot``'s token growth and ``progress --plot``'s grid.

The one door to matplotlib (the `plot` extra): a headless pyplot, and saving a figure.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from studybot.errors import BadInput

if TYPE_CHECKING:
    from studybot.bank import Bank
    from studybot.costs.whatif import Projection
    from studybot.learn.progress import Progress

INSTALL_PLOT = "pip install 'studybot[plot]'"
GRID_COLUMNS = 25  # questions per row of the progress grid (the longest shipped chapter has 24)


def require_matplotlib() -> None:
    """BadInput naming the install command when the plot extra is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise BadInput(
            "--plot needs matplotlib, which is not installed", hint=INSTALL_PLOT
        ) from None


def pyplot():
    """matplotlib.pyplot on the Agg backend: plots are files, never windows."""
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(figure, path: Path) -> None:
    """Write ``figure`` as a PNG and free it; an unwritable path is the user's to fix."""
    import matplotlib.pyplot as plt

    figure.tight_layout()
    try:
        figure.savefig(path, dpi=120)
    except OSError as exc:
        raise BadInput(
            f"cannot write {path}: {exc.strerror}", hint="choose a writable path for --plot"
        ) from None
    finally:
        plt.close(figure)


def token_growth(p: Projection, path: Path) -> None:
    """Context n per request of both strategies against the window: ``plan --plot``."""
    plt = pyplot()

    questions = [r.question for r in p.single.requests]
    seg = {r.question: r.context_tokens for r in p.segmented.requests if r.kind == "answer"}
    figure, axes = plt.subplots(figsize=(10, 5))
    axes.plot(
        questions, [r.context_tokens for r in p.single.requests], label="single (one long chat)"
    )
    axes.plot(questions, [seg[q] for q in questions], label="segmented (studybot)")
    axes.axhline(p.window, color="red", linestyle="--", label=f"window {p.window:,}")
    if p.window != 8192:
        axes.axhline(8192, color="orange", linestyle=":", label="8K window")
    axes.set_xlabel("question")
    axes.set_ylabel("context n (prompt + answer tokens)")
    axes.set_title(f"Q{p.first}–{p.last}: context per request, cache rule {p.rule.name}")
    axes.legend()
    save(figure, path)


def progress_grid(report: Progress, bank: Bank, path: Path) -> None:
    """A PNG grid: one row per chapter, one cell per question, coloured by retention."""
    plt = pyplot()
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
    save(figure, path)
