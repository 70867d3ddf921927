"""Start-up time of `studybot --help` against a comparable click + openai CLI.

The comparison CLI is the smallest program of the same kind: a click
group that imports the openai client at start-up, as most LLM CLIs do.
Prints the median of several runs of each, and their ratio.

    python bench/startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
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


def median_seconds(command: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "comparable_cli.py"
        script.write_text(COMPARABLE, encoding="utf-8")
        # warm the file cache once for both
        subprocess.run(
            [sys.executable, str(script), "--help"], check=True, stdout=subprocess.DEVNULL
        )
        subprocess.run(
            [sys.executable, "-m", "studybot", "--help"], check=True, stdout=subprocess.DEVNULL
        )
        ours = median_seconds([sys.executable, "-m", "studybot", "--help"], args.runs)
        theirs = median_seconds([sys.executable, str(script), "--help"], args.runs)
        bare = median_seconds([sys.executable, "-c", "pass"], args.runs)
    print(f"python -c pass            {bare * 1000:7.1f} ms (interpreter alone)")
    print(f"studybot --help           {ours * 1000:7.1f} ms")
    print(f"click + openai --help     {theirs * 1000:7.1f} ms")
    print(f"ratio studybot / comparable = {ours / theirs:.2f} (goal: at most 0.33)")


if __name__ == "__main__":
    main()
