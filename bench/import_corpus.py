"""How well `studybot bank import` reads realistic question-bank files.

Each directory holds files and a `manifest.toml` that gives, per file, the
number of questions a careful human counts, a tolerance, spot checks (a
question's text as it should be imported and the start of its answer) and
texts that must not be imported as questions. A file is exact when its
count is within the tolerance, every check question is there with its text
and the start of its answer, and no absent text was imported (the chapter
count, where given, is reported but not part of exact). Files are read as
`bank import --force` reads them. Prints one line per file and the totals:
files exact, and questions found against those expected, per directory and
in all.

    PYTHONPATH=. python bench/import_corpus.py [DIR ...]   # default: both dev corpora
"""

from __future__ import annotations

import argparse
import sys
import tomllib
import unicodedata
from pathlib import Path

from studybot.bank import importer

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "import"
DEV = DATA / "corpus"  # the shapes issue 19 named
UNLISTED = DATA / "unlisted"  # shapes nobody listed: exports, nested JSON, notes, sources


def norm(text: str) -> str:
    """NFKC, casefold, whitespace and punctuation (and symbols) removed."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(c for c in text if unicodedata.category(c)[0] not in "PSZC")


def load(path: Path):
    try:
        return importer.read(path, force=True), None
    except Exception as error:  # noqa: BLE001 - the bench reports any failure
        return None, " ".join(str(error).split())[:160] or type(error).__name__


def answer_of(q) -> str:
    return q.reference or "\n".join(q.key_points)


def measure(path: Path, spec: dict) -> tuple[int, bool, list[str]]:
    """(questions found, exact, failures) for one file."""
    bank, error = load(path)
    if bank is None:
        return 0, False, [f"error: {error}"]
    questions = {}
    for q in bank.questions:
        questions.setdefault(norm(q.question), q)
    found, expected = len(bank.questions), spec["questions"]
    failures = []
    if abs(found - expected) > spec.get("tolerance", 0):
        failures.append(f"count {found} != {expected}")
    if "chapters" in spec and len(bank.chapters) != spec["chapters"]:
        failures.append(f"chapters {len(bank.chapters)} != {spec['chapters']}")
    for check in spec.get("check", []):
        q = questions.get(norm(check["question"]))
        if q is None:
            failures.append(f"missing: {check['question'][:40]}")
            continue
        want, got = norm(check.get("answer", "")), norm(answer_of(q))
        if (not want and got) or not got.startswith(want):
            failures.append(f"answer of {check['question'][:30]}: {answer_of(q)[:30]!r}")
    for absent in spec.get("absent", []):
        text = norm(absent["text"])
        if any(text in key for key in questions):
            failures.append(f"imported: {absent['text'][:40]}")
    exact = not [f for f in failures if not f.startswith("chapters")]
    return found, exact, failures


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", type=Path, help="folders with a manifest.toml")
    dirs = parser.parse_args(argv).dirs or [DEV, UNLISTED]
    for folder in dirs:
        if not (folder / "manifest.toml").is_file():
            parser.error(f"{folder} has no manifest.toml")
    totals = [0, 0, 0, 0]  # files, exact, found, expected
    for folder in dirs:
        manifest = tomllib.loads((folder / "manifest.toml").read_text(encoding="utf-8"))
        print(f"== {folder.name}")
        own = [0, 0, 0, 0]
        for spec in manifest["file"]:
            found, exact, failures = measure(folder / spec["name"], spec)
            counted = min(found, spec["questions"] + spec.get("tolerance", 0))
            for k, value in enumerate((1, exact, counted, spec["questions"])):
                own[k] += value
            print(
                f"{spec['name']:34} expected {spec['questions']:5} found {found:5} "
                f"{'exact' if exact else 'NOT  '}  {'; '.join(failures)}"
            )
        print(_line(folder.name, own))
        totals = [a + b for a, b in zip(totals, own, strict=True)]
    if len(dirs) > 1:
        print(_line("all", totals))
    return 0


def _line(name: str, counts: list[int]) -> str:
    files, exact, found, expected = counts
    return (
        f"{name}: files exact {exact}/{files}; questions found {found}/{expected} expected "
        f"({100 * found / max(expected, 1):.1f}%)"
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
