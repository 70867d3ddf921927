"""How `studybot bank import` scales: 2,000 / 20,000 / 100,000 questions in four formats.

The files are generated at run time from the shipped bank, each chapter's
questions repeated as often as needed (each copy carries its copy number,
so none is a repeat; 14 chapters): JSON (a list of records with id, chapter, question, key_points,
hint), JSONL (the same, a record a line), CSV (the same columns) and
Markdown (``## chapter`` sections of ``### N. question`` headings with the
key points as a list). Each import runs in a fresh process, as `bank
import --name` does it: read, check, save and read back. Prints the time
of the import (wall clock, and the process's CPU time, which a busy machine
does not inflate), the process's peak memory, the CPU time ratio of
each size to the one ten times smaller, and the CPU time per question (flat
when the import is linear; the smallest size carries the start-up).

    PYTHONPATH=. python bench/import_scale.py              # all sizes and formats
    PYTHONPATH=. python bench/import_scale.py --sizes 2000,20000 --formats json,md
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHILD = """
import json, resource, sys, time
from studybot import bank
from studybot.bank import importer
start, cpu = time.perf_counter(), time.process_time()
report = importer.inspect(sys.argv[1], name="scale")
bank.save(report.bank, "scale", force=True)
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
try:  # this process's own high-water mark (ru_maxrss keeps the parent's across exec)
    status = open("/proc/self/status").read()
    peak = int(status.split("VmHWM:")[1].split()[0])  # KiB
except (OSError, IndexError):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
last = report.bank.questions[-1]
print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_mb": peak / 1024, "questions": len(report.bank.questions), "last": [last.id, last.question]}))
"""


def records(count: int) -> list[dict]:
    """``count`` questions: each chapter of the shipped bank repeated, chapter by chapter."""
    from studybot import bank

    shipped = bank.load()
    copies = -(-count // len(shipped.questions))
    out = []
    for chapter in shipped.chapters:
        members = [q for q in shipped.questions if q.chapter == chapter.number]
        for copy in range(1, copies + 1):
            for q in members:
                out.append(
                    {
                        "id": len(out) + 1,
                        "chapter": chapter.title,
                        "question": f"{q.question}（第 {copy} 遍）",
                        "key_points": list(q.key_points),
                        "hint": q.hint or "",
                    }
                )
    return _trimmed(out[:count])


def _trimmed(rows: list[dict]) -> list[dict]:
    for number, row in enumerate(rows, start=1):
        row["id"] = number
    return rows


def write(kind: str, rows: list[dict], folder: Path) -> Path:
    path = folder / f"bank-{len(rows)}.{kind}"
    if kind == "json":
        path.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    elif kind == "jsonl":
        path.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
        )
    elif kind == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(["id", "chapter", "question", "key_points", "hint"])
        for r in rows:
            writer.writerow(
                [r["id"], r["chapter"], r["question"], "\n".join(r["key_points"]), r["hint"]]
            )
        path.write_text(buffer.getvalue(), encoding="utf-8")
    else:
        parts, chapter = [f"# 大模型面试题 {len(rows)} 问\n\n"], None
        for r in rows:
            if r["chapter"] != chapter:
                chapter = r["chapter"]
                parts.append(f"## {chapter}\n\n")
            points = "".join(f"- {p}\n" for p in r["key_points"])
            parts.append(f"### {r['id']}. {r['question']}\n\n{points}\n")
        path.write_text("".join(parts), encoding="utf-8")
    return path


def measure(path: Path, home: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT), STUDYBOT_HOME=str(home))
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2000,20000,100000")
    parser.add_argument("--formats", default="json,jsonl,csv,md")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    kinds = args.formats.split(",")
    print(
        f"{'format':6} {'questions':>9} {'MB':>7} {'seconds':>8} {'CPU s':>7} {'peak MB':>8} "
        f"{'×10 CPU':>8} {'CPU µs/q':>9}"
    )
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        for kind in kinds:
            previous = None
            for size in sizes:
                rows = records(size)
                path, last = write(kind, rows, folder), [rows[-1]["id"], rows[-1]["question"]]
                del rows  # freed before the run
                result = measure(path, folder / "home")
                assert result["questions"] == size, result
                assert result["last"] == last, (result["last"], last)  # its id and its text
                ratio = ""
                if previous and size == previous[0] * 10:
                    ratio = f"{result['cpu'] / previous[1]:.1f}"
                print(
                    f"{kind:6} {size:9,} {path.stat().st_size / 2**20:7.1f} "
                    f"{result['seconds']:8.2f} {result['cpu']:7.2f} {result['peak_mb']:8.0f} "
                    f"{ratio:>8} {result['cpu'] / size * 1e6:9.0f}"
                )
                previous = (size, result["cpu"])
                path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
