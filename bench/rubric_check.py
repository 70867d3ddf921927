"""The rubric checked against itself, and against labelled attempts: what a rubric writer runs.

For the questions asked (all by default), prints the self-test counts per
kind (``studybot.learn.selftest``: each point's own text ✓ and ⚠ nowhere,
the whole reference 100%, each claim's zh and en sentences stated, the
claim negated or reversed ⚠, its terms as a bare list not credited), every
failed case, and then, for the questions that have labelled attempts
(``--attempts``, eval.toml format), every point graded unlike its label.

    PYTHONPATH=. python bench/rubric_check.py [IDS...] [--chapter N] [--attempts F ...]
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "grading"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*", type=int, help="question ids (default: every one)")
    parser.add_argument("--chapter", type=int, action="append", default=[], help="a chapter")
    parser.add_argument(
        "--attempts",
        type=Path,
        action="append",
        default=[],
        help="a labelled set (default: eval.toml and dev.toml)",
    )
    parser.add_argument("--quiet", action="store_true", help="counts only")
    args = parser.parse_args(argv)

    from studybot import bank
    from studybot.learn import grading, selftest

    shipped = bank.load()
    grader = grading.offline(shipped)
    wanted = {
        q.id
        for q in shipped.questions
        if (not args.ids and not args.chapter) or q.id in args.ids or q.chapter in args.chapter
    }
    counted: Counter[str] = Counter()
    failed = []
    for question in shipped.questions:
        if question.id not in wanted or not question.rubric:
            continue
        compiled = grader.compiled(question)
        for case in selftest.cases(question, compiled):
            counted[case.kind] += 1
            problem = selftest.check(case, question, compiled)
            if problem:
                failed.append(selftest.Failure(case, problem))
    missing = sorted(q.id for q in shipped.questions if q.id in wanted and not q.rubric)
    print(f"self-test over {len(wanted) - len(missing)} questions with a rubric")
    for line in selftest.summary(counted, failed):
        print("  " + line)
    if missing:
        print(f"  no rubric: {', '.join(map(str, missing))}")
    if not args.quiet:
        for failure in failed:
            case = failure.case
            where = f"Q{case.question}" + (f" p{case.point}" if case.point else "")
            where += f" c{case.claim}" if case.claim else ""
            print(f"{where} {case.kind}: {failure.got} :: {' '.join(case.text.split())[:100]}")

    files = args.attempts or [DATA / "eval.toml", DATA / "dev.toml"]
    disagree = agree = 0
    for path in files:
        with path.open("rb") as handle:
            attempts = tomllib.load(handle).get("attempt", [])
        for attempt in attempts:
            question = shipped.get(attempt["question"])
            if question.id not in wanted or not question.rubric:
                continue
            result = grader.grade(question, attempt["text"])
            for n, (label, point) in enumerate(
                zip(attempt["labels"], result.points, strict=True), start=1
            ):
                if label == point.state:
                    agree += 1
                    continue
                disagree += 1
                if not args.quiet:
                    print(
                        f"{path.stem} Q{question.id} {attempt['kind']:<8} p{n}: label {label:<12}"
                        f" graded {point.state:<12} {point.evidence or ''}"
                    )
    if agree + disagree:
        print(f"labelled points: {agree} of {agree + disagree} graded as labelled")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
