"""How long grading takes: `studybot grade` as a process, and a reveal once the grader is warm.

Prints, as medians over several runs:

- `studybot --help` and `studybot grade QUESTION --offline` (an attempt on
  stdin), each a fresh process, in a fresh home after one warm-up run (which
  writes the shipped bank's JSON copy), and their ratio; the first run of a
  fresh home too (the TOML read and checked);
- the same two with Python's bytecode caches on (kept in a temporary
  PYTHONPYCACHEPREFIX, as `pip install` leaves them: what a user runs) and
  with PYTHONDONTWRITEBYTECODE=1 and no prefix (a machine that sets it: an
  editable checkout's own modules are compiled from source on every run);
- in one process: the first grade of a question (its rubric compiled) and a
  grade after it (what a quiz's reveal waits for), in milliseconds.

    PYTHONPATH=. python bench/grade_speed.py [--runs 15] [--question 23]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ATTEMPT = (
    "因为解码每一步只用当前 token 的 q，去和之前所有位置的 K、V 做注意力。历史 token 的 q 用完就"
    "不会再用了，而 K 和 V 之后每一步都要读，算出来也不会再变，所以缓存 K、V 而不缓存 Q。代价是显存"
    "随序列长度线性增长。"
)


def seconds(command: list[str], env: dict[str, str], stdin: str | None = None) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, input=stdin, text=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--question", type=int, default=23)
    args = parser.parse_args()
    python = sys.executable
    grade = [python, "-m", "studybot", "grade", str(args.question), "--offline"]
    helps = [python, "-m", "studybot", "--help"]
    with tempfile.TemporaryDirectory() as folder:
        cached = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        cached |= {"STUDYBOT_HOME": str(Path(folder) / "home")}
        cached["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pycache")
        uncached = dict(cached, PYTHONDONTWRITEBYTECODE="1")  # the installed caches only
        del uncached["PYTHONPYCACHEPREFIX"]
        seconds(helps, cached)  # the file cache warm for both, the bytecode written
        first = seconds(grade, cached, ATTEMPT)  # a fresh home: the bank's TOML read and cached
        for label, env in (("bytecode cached", cached), ("PYTHONDONTWRITEBYTECODE=1", uncached)):
            help_times = [seconds(helps, env) for _ in range(args.runs)]
            grade_times = [seconds(grade, env, ATTEMPT) for _ in range(args.runs)]
            helped, graded = statistics.median(help_times), statistics.median(grade_times)
            print(f"{label}:")
            print(
                f"  studybot --help                {helped * 1000:7.0f} ms (median of {args.runs})"
            )
            print(f"  studybot grade {args.question} --offline     {graded * 1000:7.0f} ms "
                  f"= {graded / helped:.1f}x --help")  # fmt: skip
    print(f"first run in a fresh home        {first * 1000:7.0f} ms (the bank's TOML read once)")

    from studybot import bank
    from studybot.learn import grading

    shipped = bank.load()
    question = shipped.get(args.question)
    grader = grading.offline(shipped)
    started = time.perf_counter()
    grader.grade(question, ATTEMPT)
    compiled = time.perf_counter() - started
    warm = []
    for _ in range(args.runs):
        started = time.perf_counter()
        grader.grade(question, ATTEMPT)
        warm.append(time.perf_counter() - started)
    print(
        f"first grade of Q{args.question} in a process   {compiled * 1000:7.1f} ms (rubric compiled)"
    )
    print(f"a grade once warm (the reveal)   {statistics.median(warm) * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
