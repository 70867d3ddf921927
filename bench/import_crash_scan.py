"""400 hostile question files through `bank import --preview`: no unexpected error, no hang.

The files are made at run time from the test data (every shape, cut at
random points), plus truncations, mixed encodings (GBK, UTF-16, Latin-1
bytes inside UTF-8), deep nesting, huge lines, binary noise, lone
surrogates, huge numbers, odd keys and HTML. Each is imported in-process
with and without --force; an exit code other than 0 or 2, or "unexpected"
on stderr ("Error: unexpected …", the boundary's word for a bug), is a crash; a file that takes more than 10 s is a hang.

    PYTHONPATH=. python bench/import_crash_scan.py [--files 400] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner

from studybot.cli import cli

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "import"
SUFFIXES = [".md", ".txt", ".csv", ".tsv", ".json", ".jsonl", ".ipynb", ""]


HANG_SECONDS = 10.0  # an import that takes longer is reported as a hang


def seeds() -> list[tuple[str, bytes]]:
    files = [p for p in DATA.rglob("*") if p.is_file() and p.name != "manifest.toml"]
    return [(p.suffix, p.read_bytes()) for p in sorted(files)]


def hostile(rng: random.Random, base: list[tuple[str, bytes]]) -> tuple[str, bytes]:
    suffix, data = rng.choice(base)
    kind = rng.randrange(12)
    if kind == 0:  # cut anywhere, even inside a character
        return suffix, data[: rng.randrange(len(data) + 1)]
    if kind == 1:  # GBK bytes inside UTF-8
        at = rng.randrange(len(data) + 1)
        return suffix, data[:at] + "什么是注意力？".encode("gbk") + data[at:]
    if kind == 2:
        return suffix, data.decode("utf-8", "replace").encode("utf-16")
    if kind == 3:  # deep nesting
        depth = rng.choice([50, 1000, 100_000])
        return rng.choice([".json", ".jsonl", ".ipynb", ".md"]), b"[" * depth + b"]" * depth
    if kind == 4:  # a huge line
        return rng.choice(SUFFIXES), b"- " + "为什么".encode() * rng.randrange(1, 300_000) + b"?"
    if kind == 5:  # binary noise
        return rng.choice(SUFFIXES), rng.randbytes(rng.randrange(1, 20_000))
    if kind == 6:  # lone surrogates and huge numbers in JSON
        record = {"id": "IDS", "question": "什么是\\ud800？", "answer": "\\udfff"}
        text = json.dumps([record] * rng.randrange(1, 5)).replace('"IDS"', "9" * 5000)
        return rng.choice([".json", ".jsonl"]), text.encode()
    if kind == 7:  # odd keys, odd types
        values = [None, 1, 1.5e308, [], {}, [1, [2]], {"a": {"b": "c"}}, "", "?", True, -1]
        rows = [
            {
                rng.choice(["question", "q", "prompt", "x", "问题"]): rng.choice(values)
                for _ in range(3)
            }
            for _ in range(20)
        ]
        return rng.choice([".json", ".jsonl"]), json.dumps(rows).encode()
    if kind == 8:  # HTML and special tokens
        text = "<details><summary>" * 50 + "</s><think>什么？<|im_end|>" + "</details>" * 7
        return ".md", text.encode()
    if kind == 9:  # Markdown hostile structure
        pieces = [
            "```\n",
            "> " * 100 + "Q1：？\n",
            "|" * 500 + "\n",
            "- " * 300 + "什么？\n",
            "---\n",
            "# \n",
            "<!--\n",
            "1. \n" * 50,
        ]
        return ".md", "".join(rng.choice(pieces) for _ in range(200)).encode()
    if kind == 10:  # CSV quotes and separators
        text = '问题,答案\n"什么是""x""？",' + '"' * rng.randrange(1, 5) + "\n" + ",,,\n" * 100
        return rng.choice([".csv", ".tsv"]), text.encode()
    # several cuts of one shape glued together
    parts = [rng.choice(base)[1] for _ in range(3)]
    return suffix, b"".join(p[rng.randrange(len(p) + 1) :] for p in parts)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="name each file before its run")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    base = seeds()
    runner = CliRunner()
    crashes, hangs, codes = [], [], {}
    slowest = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for number in range(args.files):
            suffix, data = hostile(rng, base)
            path = Path(folder) / f"hostile-{number}{suffix}"
            path.write_bytes(data)
            for extra in ([], ["--force"]):
                if args.verbose:
                    print(f"  {path.name} {len(data):,} bytes {extra}", file=sys.stderr, flush=True)
                start = time.perf_counter()
                result = runner.invoke(
                    cli,
                    ["bank", "import", str(path), "--preview", *extra],
                    env={"STUDYBOT_HOME": str(Path(folder) / "home")},
                )
                took = time.perf_counter() - start
                slowest = max(slowest, took)
                codes[result.exit_code] = codes.get(result.exit_code, 0) + 1
                text = (result.stderr or "") + (result.stdout or "")
                if result.exit_code not in (0, 2) or "Error: unexpected" in text:
                    crashes.append(
                        (path.name, extra, result.exit_code, repr(result.exception), text[:200])
                    )
                if took > HANG_SECONDS:
                    hangs.append((path.name, extra, took))
                if took > 3:
                    print(f"  slow {path.name} {extra} {took:.1f} s", flush=True)
            path.unlink()
    runs = sum(codes.values())
    print(f"files {args.files}, runs {runs}, exit codes {dict(sorted(codes.items()))}")
    print(
        f"unexpected errors {len(crashes)}, hangs over {HANG_SECONDS:g} s {len(hangs)}, "
        f"slowest {slowest:.2f} s"
    )
    for crash in crashes[:20]:
        print("  CRASH", *crash)
    for hang in hangs[:20]:
        print("  HANG", *hang)
    return 1 if crashes or hangs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
