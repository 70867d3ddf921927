"""A user's file read by the importer, as the import tests read it (not a test module)."""

from __future__ import annotations

import json

from studybot.bank import importer


def read(tmp_path, text: str, name: str = "q.md", **options):
    """``text`` written to ``tmp_path / name`` and inspected (``importer.inspect`` options)."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return importer.inspect(path, **options)


def questions(report) -> list[str]:
    """The questions an import report's bank holds, as text."""
    return [q.question for q in report.bank.questions]


def previewed(invoke, tmp_path, text: str, name: str = "q.md", *options: str) -> str:
    """What ``bank import FILE [OPTIONS] --preview`` prints for ``text``, its words on one line."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    preview = invoke("bank", "import", str(path), *options, "--preview")
    assert preview.exit_code == 0, preview.stderr
    return " ".join(preview.stdout.split())


def notebook_text(*cells: tuple[str, str]) -> str:
    """A Jupyter notebook's JSON with ``cells`` as (cell type, source) pairs."""
    listed = [
        {"cell_type": kind, "metadata": {}, "source": text.splitlines(keepends=True)}
        | ({"outputs": [], "execution_count": None} if kind == "code" else {})
        for kind, text in cells
    ]
    return json.dumps({"cells": listed, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def state(grader, shipped, question: int, point: int, text: str) -> str:
    """The state the offline ``grader`` gives point ``point`` of ``question`` for ``text``."""
    return grader.grade(shipped.get(question), text).points[point - 1].state
