"""How far the grader's scores agree with attempts labelled per key point.

Reads a labelled set (tests/data/grading/eval.toml by default: attempts of
five kinds, each key point labelled covered / partly / missed / contradicted
before any grader saw them), grades every attempt and prints, per kind, the
mean expected score beside the mean graded one, then the figures the grader
is held to:

- Spearman's rank correlation of graded against expected, over all attempts;
- false credit: the share of points labelled missed or contradicted that the
  grader marked covered (full credit);
- wrong attempts graded >= 0.5 or suggested Good/Easy;
- strong and terse attempts graded < 0.5;
- the English attempts' mean minus the strong (Chinese) ones';
- the time per grade after start-up, and the start-up (building the grader) once.

The last line sums these up. Expected score = (covered + 0.5 x partly) / points.

    PYTHONPATH=. python bench/grading_eval.py [--file F]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tomllib
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "tests" / "data" / "grading" / "eval.toml"
KINDS = ("strong", "terse", "partial", "wrong", "english")
CREDIT = {"covered": 1.0, "partly": 0.5, "missed": 0.0, "contradicted": 0.0}


def expected(labels: Sequence[str]) -> float:
    return sum(CREDIT[label] for label in labels) / len(labels)


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties given the mean of the ranks they span."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Pearson's correlation of the ranks (ties averaged)."""
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sx = sum((a - mx) ** 2 for a in rx) ** 0.5
    sy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (sx * sy) if sx and sy else 0.0


def load(path: Path) -> list[dict]:
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    return data["attempt"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--file", type=Path, default=DEFAULT, help="a labelled set (eval.toml format)"
    )
    parser.add_argument(
        "--details", action="store_true", help="also print each point graded unlike its label"
    )
    args = parser.parse_args(argv)

    from studybot import bank
    from studybot.learn import grading, review

    attempts = load(args.file)
    shipped = bank.load()
    started = time.perf_counter()
    grader = grading.offline(shipped)
    start_up = time.perf_counter() - started

    rows = []  # (kind, expected, graded, suggested, labels, states)
    spent = 0.0
    for attempt in attempts:
        question = shipped.get(attempt["question"])
        began = time.perf_counter()
        result = grader.grade(question, attempt["text"])
        spent += time.perf_counter() - began
        states = [p.state for p in result.points]
        if args.details:
            print_details(attempt, result)
        suggested = review.suggest_rating(result.score, result.contradicted)
        rows.append(
            (attempt["kind"], expected(attempt["labels"]), result.score or 0.0, suggested,
             attempt["labels"], states)
        )  # fmt: skip

    by_kind: dict[str, list[tuple]] = defaultdict(list)
    for row in rows:
        by_kind[row[0]].append(row)
    print(f"{'kind':<9} {'n':>3} {'expected':>9} {'graded':>7}")
    for kind in [k for k in KINDS if k in by_kind] + sorted(set(by_kind) - set(KINDS)):
        group = by_kind[kind]
        print(
            f"{kind:<9} {len(group):>3} {statistics.fmean(r[1] for r in group):>9.2f} "
            f"{statistics.fmean(r[2] for r in group):>7.2f}"
        )

    rho = spearman([r[1] for r in rows], [r[2] for r in rows])
    unearned = [
        state
        for r in rows
        for label, state in zip(r[4], r[5], strict=True)
        if label in ("missed", "contradicted")
    ]
    false_credit = share([s == "covered" for s in unearned])
    wrong = by_kind.get("wrong", [])
    wrong_passed = share([r[2] >= 0.5 or r[3] >= 3 for r in wrong])
    firm = by_kind.get("strong", []) + by_kind.get("terse", [])
    firm_failed = share([r[2] < 0.5 for r in firm])
    english, strong = by_kind.get("english", []), by_kind.get("strong", [])
    gap = (
        statistics.fmean(r[2] for r in english) - statistics.fmean(r[2] for r in strong)
        if english and strong
        else float("nan")
    )
    print()
    print(f"spearman (graded vs expected, {len(rows)} attempts): {rho:.2f}")
    print(f"false credit (points labelled missed/contradicted marked covered): {false_credit:.0%}")
    print(f"wrong attempts graded >= 0.5 or suggested Good/Easy: {wrong_passed:.0%}")
    print(f"strong and terse attempts graded < 0.5: {firm_failed:.0%}")
    print(f"english mean - strong mean: {gap:+.2f}")
    print(
        f"time per grade after start-up: {spent / max(1, len(rows)) * 1000:.2f} ms "
        f"(start-up once: {start_up * 1000:.0f} ms)"
    )
    print(
        f"wrong≥0.5 or Good: {wrong_passed:.0%} · strong<0.5: {firm_failed:.0%} · "
        f"english−strong: {gap:+.2f} · spearman {rho:.2f} · false credit {false_credit:.0%}"
    )
    return 0


def print_details(attempt: dict, result) -> None:
    """The points where the grader and the label disagree, with the grader's evidence."""
    for n, (label, point) in enumerate(zip(attempt["labels"], result.points, strict=True), 1):
        if label != point.state:
            print(
                f"Q{attempt['question']} {attempt['kind']:<8} point {n}: label {label:<12} "
                f"graded {point.state:<12} {point.evidence or ''}"
            )


def share(flags: Sequence[bool]) -> float:
    return sum(flags) / len(flags) if flags else 0.0


if __name__ == "__main__":
    sys.exit(main())
