"""Start-up time of studybot's commands, as ratios to ``studybot --help``.

Each figure is the median wall time of several runs of a fresh process,
and beside it the median CPU time (user + system) of those runs, steadier
than wall time on a machine that others share. The
quiz and the interview run in a pseudo-terminal (pexpect) and are timed until
their first question's answer prompt is on screen, then stopped. ``--help``
is also set against a comparable CLI (a click group that imports the openai
client at start-up, as most LLM CLIs do).

    python bench/startup.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMPARABLE = """
import click
import openai  # imported at start-up, as a typical LLM CLI does

@click.group()
def cli():
    '''A comparable click + openai command line tool.'''

@cli.command()
def ask():
    '''Ask a model.'''

cli()
"""

STUDYBOT = [sys.executable, "-m", "studybot"]

# (label, arguments, text that marks the end in a terminal or None for a plain run)
COMMANDS = [
    ("grade 23 --offline", ["grade", "23", "--offline", "--attempt", "只缓存 K 和 V"], None),
    ("quiz: first question", ["run", "--quiz", "--from", "1", "--to", "8"], "›"),
    ("interview: first question", ["interview", "--ids", "5,22,24"], "›"),
    ("bank validate", ["bank", "validate"], None),
    ("progress --plot", ["progress", "--plot", "{home}/progress.png"], None),
]


class Clock:
    """Wall time and the CPU time of the children that ended meanwhile."""

    def __enter__(self) -> Clock:
        self.wall = time.perf_counter()
        self.cpu = _children_cpu()
        return self

    def __exit__(self, *exc) -> None:
        self.wall = time.perf_counter() - self.wall
        self.cpu = _children_cpu() - self.cpu


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def medians(clocks: list[Clock]) -> tuple[float, float]:
    """The median wall and CPU seconds."""
    return statistics.median(c.wall for c in clocks), statistics.median(c.cpu for c in clocks)


def median_seconds(command: list[str], runs: int, env: dict[str, str]) -> tuple[float, float]:
    """Median wall and CPU seconds of ``command`` run to its end, its output dropped."""
    clocks = []
    for _ in range(runs):
        with Clock() as clock:
            subprocess.run(
                command,
                check=True,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=env,
            )
        clocks.append(clock)
    return medians(clocks)


def median_to_prompt(
    command: list[str], prompt: str, runs: int, env: dict[str, str]
) -> tuple[float, float]:
    """Median wall and CPU seconds until ``prompt`` is on a 100-column terminal.

    The CPU time runs until the process is stopped, a moment after the prompt.
    """
    import pexpect

    clocks = []
    for _ in range(runs):
        with Clock() as clock:
            child = pexpect.spawn(
                command[0], command[1:], env=env, encoding="utf-8", dimensions=(40, 100), timeout=30
            )
            child.expect_exact(prompt)
            wall = time.perf_counter() - clock.wall
            child.terminate(force=True)
        clock.wall = wall
        clocks.append(clock)
    return medians(clocks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "STUDYBOT_HOME": folder, "NO_COLOR": "1"}
        env.pop("TAOTOKEN_API_KEY", None)  # offline: the figures are studybot's own
        script = Path(folder) / "comparable_cli.py"
        script.write_text(COMPARABLE, encoding="utf-8")
        for warm in ([sys.executable, str(script), "--help"], [*STUDYBOT, "--help"]):
            subprocess.run(warm, check=True, stdout=subprocess.DEVNULL, env=env)
        bare = median_seconds([sys.executable, "-c", "pass"], args.runs, env)
        theirs = median_seconds([sys.executable, str(script), "--help"], args.runs, env)
        ours = median_seconds([*STUDYBOT, "--help"], args.runs, env)
        print(f"{'':27} {'wall':>8} {'ratio':>6} {'cpu':>8} {'ratio':>6}")
        print(_row("python -c pass", bare, ours))
        print(_row("click + openai --help", theirs, ours))
        print(_row("studybot --help", ours, ours))
        for label, arguments, prompt in COMMANDS:
            command = [*STUDYBOT, *(a.format(home=folder) for a in arguments)]
            if prompt is None:
                seconds = median_seconds(command, args.runs, env)
            else:
                seconds = median_to_prompt(command, prompt, args.runs, env)
            print(_row(label, seconds, ours))
        print(f"studybot --help / comparable = {ours[0] / theirs[0]:.2f} (goal: at most 0.33)")


def _row(label: str, seconds: tuple[float, float], unit: tuple[float, float]) -> str:
    """A label, its wall and CPU milliseconds, each as a ratio to ``studybot --help``."""
    (wall, cpu), (unit_wall, unit_cpu) = seconds, unit
    return (
        f"{label:<27} {wall * 1000:6.0f}ms {wall / unit_wall:5.1f}x "
        f"{cpu * 1000:6.0f}ms {cpu / unit_cpu:5.1f}x"
    )


if __name__ == "__main__":
    main()
