"""The one door to matplotlib (the `plot` extra): a headless pyplot, and saving a figure."""

from __future__ import annotations

from pathlib import Path

from studybot.errors import BadInput

INSTALL_PLOT = "pip install 'studybot[plot]'"


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
