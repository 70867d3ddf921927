"""The dev corpora: every file of tests/data/import/corpus and …/unlisted imports exactly.

Exact: the count within the manifest's tolerance, every spot-check
question present with its text and the start of its answer, and none of
the texts that are not questions imported.
"""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPORA = [ROOT / "tests" / "data" / "import" / name for name in ("corpus", "unlisted")]
_spec = importlib.util.spec_from_file_location("import_corpus", ROOT / "bench" / "import_corpus.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)
FILES = [
    (folder, spec)
    for folder in CORPORA
    for spec in tomllib.loads((folder / "manifest.toml").read_text(encoding="utf-8"))["file"]
]


@pytest.mark.parametrize(
    ("folder", "spec"), FILES, ids=[f"{folder.name}/{spec['name']}" for folder, spec in FILES]
)
def test_every_corpus_file_imports_exactly(folder, spec):
    found, exact, failures = bench.measure(folder / spec["name"], spec)
    assert exact, failures
    assert not [f for f in failures if f.startswith("chapters")], failures
