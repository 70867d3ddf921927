"""The pictures: ``plan --plot``'s token growth and ``progress --plot``'s grid.

The one door to matplotlib (the `plot` extra): a headless pyplot, and saving a figure.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from studybot.errors import BadInput
from studybot.output.figures import percent

if TYPE_CHECKING:
    from studybot.bank import Bank
    from studybot.costs.whatif import Projection
    from studybot.learn.progress import ChapterProgress, Progress

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
    """A PNG grid: one row per chapter, one cell per question, coloured by retention.

    A failed question (last rated Again) is red, hatched and framed dark red;
    one due today is framed blue with a dot; one read but never rated is pale
    blue; one not studied is grey. Each chapter's row is named (its title
    when a font here can draw it, else its number) and ends with its seen
    count, mean grade, due and failed counts.
    """
    plt = pyplot()
    import matplotlib
    from matplotlib.patches import Patch, Rectangle

    # Each chapter takes a row, wrapped every GRID_COLUMNS questions (an imported
    # bank may be one long chapter); cells hold (grid row, column, question id).
    cells: list[tuple[int, int, int]] = []
    rows: list[tuple[int, ChapterProgress]] = []  # (first grid row, chapter progress)
    row = 0
    for chapter in report.chapters:
        ids = [q.id for q in bank.questions if q.chapter == chapter.chapter]
        rows.append((row, chapter))
        cells += [(row + i // GRID_COLUMNS, i % GRID_COLUMNS, q) for i, q in enumerate(ids)]
        row += max(1, -(-len(ids) // GRID_COLUMNS))
    width = max((column for _, column, _ in cells), default=0) + 1
    colours = matplotlib.colormaps["RdYlGn"]
    names, titled = chapter_names(report)
    figure, axes = plt.subplots(figsize=(width * 0.42 + 7.5, row * 0.42 + 2.6))
    for r, column, question_id in cells:
        _cell(axes, Rectangle, colours, r, column, question_id, report.questions.get(question_id))
    axes.set_xlim(-0.5, width - 0.5)
    axes.set_ylim(row - 0.5, -0.5)
    axes.set_yticks([r for r, _ in rows], names, fontsize=8, fontproperties=titled)
    axes.set_xticks([])
    for side in ("top", "right", "bottom", "left"):
        axes.spines[side].set_visible(False)
    for r, chapter in rows:
        axes.text(width - 0.2, r, _row_note(chapter), va="center", ha="left", fontsize=7.5)
    recall = report.recall.share
    axes.set_title(
        f"{report.bank}: retention per question now · due today {report.due_today} · "
        f"next 7 days {' '.join(map(str, report.forecast))} · true retention "
        + ("-" if recall is None else percent(recall)),
        fontsize=9,
        loc="left",
    )
    states = report.questions.values()
    legend = [Patch(facecolor=UNSEEN, label="not studied")]  # then the marks in use
    if any(not q.rated for q in states):
        legend.append(Patch(facecolor=READ, label="read, not rated"))
    if any(q.failed for q in states):
        failed = Patch(
            facecolor=colours(0.0), hatch="xx", edgecolor=FAILED, label="failed: last Again"
        )
        legend.append(failed)
    if any(q.due_today for q in states):
        legend.append(Patch(facecolor="white", edgecolor=DUE, linewidth=2, label="• due today"))
    if titled is None and any(n.startswith("ch ") for n in names):
        legend.append(Patch(color="none", label="ch N: chapter N (titles: studybot progress)"))
    axes.legend(
        handles=legend, loc="upper left", bbox_to_anchor=(0, 0), ncol=3, fontsize=7.5, frameon=False
    )
    mappable = matplotlib.cm.ScalarMappable(matplotlib.colors.Normalize(0, 1), colours)
    figure.colorbar(mappable, ax=axes, label="FSRS retention now", fraction=0.025, pad=0.2)
    save(figure, path)


UNSEEN = "#d4d4d4"
READ = "#cfe3f5"
FAILED = "#7a0010"
DUE = "#1f4fd1"


def _cell(axes, rectangle, colours, r: int, column: int, question_id: int, state) -> None:
    """One question's square: its colour, its marks and its number."""
    face, edge, width, hatch = UNSEEN, "white", 1.0, None
    if state is not None and not state.rated:
        face = READ
    elif state is not None:
        face = colours(state.retention)
        if state.failed:
            edge, width, hatch = FAILED, 2.2, "xx"
        if state.due_today:
            edge, width = DUE, 2.6
    axes.add_patch(
        rectangle(
            (column - 0.46, r - 0.46),
            0.92,
            0.92,
            facecolor=face,
            edgecolor=edge,
            linewidth=width,
            hatch=hatch,
        )
    )
    failed = state is not None and state.failed
    axes.text(
        column,
        r,
        str(question_id),
        ha="center",
        va="center",
        fontsize=7,
        fontweight="bold" if failed else "normal",
        color="white" if failed else "black",
    )
    if state is not None and state.due_today:
        axes.plot(column + 0.3, r - 0.3, marker="o", markersize=3, color=DUE)


def _row_note(chapter) -> str:
    """Seen, the chapter's mean grade (as the README promises), due and failed counts."""
    grade = "-" if chapter.mean_grade is None else percent(chapter.mean_grade)
    note = f"{chapter.seen}/{chapter.total} seen · grade {grade}"
    if chapter.due_today:
        note += f" · due {chapter.due_today}"
    if chapter.failed:
        note += f" · ✗ {chapter.failed}"
    return note


def chapter_names(report: Progress) -> tuple[list[str], object]:
    """The row labels: titles when one font here draws them all, and that font (or None).

    Without one, a title the default font can draw is kept and the others
    become "ch N" (the shipped titles are Chinese; many machines have no CJK font).
    """
    titles = [f"{c.chapter} {c.title}" for c in report.chapters]
    font = drawing_font("".join(titles))
    if font is not None:
        return titles, font
    plain = drawing_font("")
    return [
        t if drawing_font(t, only=plain) is not None else f"ch {c.chapter}"
        for t, c in zip(titles, report.chapters, strict=True)
    ], None


def drawing_font(text: str, only=None):
    """FontProperties of a font that has a glyph for every character of ``text``, or None.

    The default font first, then every font matplotlib knows (``only``: just that one).
    """
    from matplotlib import font_manager, ft2font

    needed = {ord(c) for c in text if not c.isspace()}
    default = font_manager.findfont(font_manager.FontProperties())
    paths = [only.get_file()] if only is not None else [default]
    if only is None and text:
        # "Last Resort" maps every character to a box that names its block: no glyph at all.
        fonts = font_manager.fontManager.ttflist
        paths += [f.fname for f in fonts if "last resort" not in f.name.lower()]
    for file in dict.fromkeys(paths):
        try:
            charmap = ft2font.FT2Font(file).get_charmap()
        except (OSError, RuntimeError, ValueError):
            continue  # a font file matplotlib cannot open is no answer
        if needed <= charmap.keys():
            return font_manager.FontProperties(fname=file)
    return None
