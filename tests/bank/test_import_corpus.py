"""The dev corpus: every file of tests/data/import/corpus imports exactly (bench/import_corpus.py).

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
CORPUS = ROOT / "tests" / "data" / "import" / "corpus"
_spec = importlib.util.spec_from_file_location("import_corpus", ROOT / "bench" / "import_corpus.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)
FILES = tomllib.loads((CORPUS / "manifest.toml").read_text(encoding="utf-8"))["file"]


@pytest.mark.parametrize("spec", FILES, ids=[f["name"] for f in FILES])
def test_every_corpus_file_imports_exactly(spec):
    found, exact, failures = bench.measure(CORPUS / spec["name"], spec)
    assert exact, failures
    assert not [f for f in failures if f.startswith("chapters")], failures
