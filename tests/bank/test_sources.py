"""Sources in a bank: read, checked where the bank requires them, and listed by `bank show`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from studybot import bank

REFLEXION = """
[[questions.sources]]
cite = "Shinn et al. 2023, Reflexion, Tables 1–2"
ref = "arXiv:2303.11366"
points = [2, 3]
"""


@pytest.fixture
def one_chapter(tmp_path) -> Path:
    """Chapter 1 of the shipped bank as a bank of its own, its sources taken out, to give
    sources to."""
    folder = tmp_path / "bank"
    folder.mkdir()
    text = (bank.shipped_dir() / "01-intro.toml").read_text(encoding="utf-8")
    text = re.sub(r"\n\[\[questions\.sources\]\]\n(?:\w+ = .*\n)+", "\n", text)
    assert "questions.sources" not in text
    (folder / "01-intro.toml").write_text(text, encoding="utf-8")
    (folder / "bank.toml").write_text(
        'title = "t"\n\n[[chapters]]\nnumber = 1\ntitle = "导论"\nfile = "01-intro.toml"\n'
        "first = 1\nlast = 8\n",
        encoding="utf-8",
    )
    return folder


def add_source(folder: Path, question: int, table: str) -> None:
    """Put ``table`` right after the hint of ``question`` in chapter 1."""
    path = folder / "01-intro.toml"
    text = path.read_text(encoding="utf-8")
    start = text.index(f"id = {question}\n")
    hint = text.index("\nhint = ", start)
    end = text.index("\n", hint + 1)
    path.write_text(text[: end + 1] + table + text[end + 1 :], encoding="utf-8")


def require(folder: Path) -> None:
    index = folder / "bank.toml"
    index.write_text('sources = "required"\n' + index.read_text(encoding="utf-8"), "utf-8")


def test_sources_are_read_with_the_points_they_back(one_chapter):
    add_source(one_chapter, 2, REFLEXION)
    q = bank.load(str(one_chapter)).get(2)
    assert [(s.ref, s.points) for s in q.sources] == [("arXiv:2303.11366", (2, 3))]
    assert q.sources[0].cite == "Shinn et al. 2023, Reflexion, Tables 1–2"


def test_a_bank_without_sources_is_fine_unless_it_requires_them(one_chapter):
    assert bank.validate(str(one_chapter)) == []
    require(one_chapter)
    problems = bank.validate(str(one_chapter))
    assert "Q1: no [[questions.sources]] (this bank requires them)" in problems
    assert len([p for p in problems if "no [[questions.sources]]" in p]) == 8


def test_a_required_bank_names_each_point_with_a_figure_no_source_lists(one_chapter):
    require(one_chapter)
    for n in range(1, 9):
        add_source(one_chapter, n, '[[questions.sources]]\ncite = "c"\nref = "https://x.org/a"\n')
    problems = bank.validate(str(one_chapter))
    untied = [p for p in problems if "state a figure or a date" in p]
    assert untied and len(untied) == len(problems), problems
    assert all("add them to a source's points" in p for p in untied)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('cite = "c"\nref = "2303.11366"\n', "is not arXiv:ID, doi:10.… or an https:// address"),
        ('cite = "c"\nref = "http://x.org"\n', "is not arXiv:ID"),
        ('cite = "c"\nref = "arXiv:2303.11366"\npoints = [9]\n', "points 9 out of range"),
        ('cite = "c"\nref = "arXiv:2303.11366"\npoints = "3"\n', "points must be a list"),
        ('ref = "arXiv:2303.11366"\n', "cite must name the work"),
        ('cite = "c"\nref = "doi:10.1000/xyz"\nurl = "u"\n', "unknown key 'url'"),
    ],
)
def test_a_malformed_source_is_one_clear_problem(one_chapter, table, message):
    add_source(one_chapter, 3, "[[questions.sources]]\n" + table)
    problems = bank.validate(str(one_chapter))
    assert len(problems) == 1 and "Q3 source 1" in problems[0] and message in problems[0]
    assert problems[0].startswith(str(one_chapter / "01-intro.toml") + ":")


def test_an_unknown_rule_in_bank_toml_is_named(one_chapter):
    index = one_chapter / "bank.toml"
    index.write_text('sources = "always"\n' + index.read_text(encoding="utf-8"), "utf-8")
    (problem,) = bank.validate(str(one_chapter))
    assert "sources = 'always'" in problem and '"required" or "optional"' in problem


def test_bank_show_lists_the_sources_numbered_with_their_points(invoke, one_chapter):
    whole = (
        '[[questions.sources]]\ncite = "Survey of the whole question"\nref = "doi:10.1000/xyz"\n'
    )
    add_source(one_chapter, 2, whole)
    add_source(one_chapter, 2, REFLEXION)  # goes before it: right after the hint
    shown = invoke("bank", "show", "2", "--bank", str(one_chapter))
    assert shown.exit_code == 0
    assert "来源 [1] Shinn et al. 2023, Reflexion, Tables 1–2 · arXiv:2303.11366 — 要点 2, 3" in (
        " ".join(shown.stdout.split())
    )
    assert "来源 [2] Survey of the whole question · doi:10.1000/xyz\n" in shown.stdout
    data = json.loads(invoke("bank", "show", "2", "--bank", str(one_chapter), "--json").stdout)
    assert data["sources"][0] == {
        "cite": "Shinn et al. 2023, Reflexion, Tables 1–2",
        "ref": "arXiv:2303.11366",
        "points": [2, 3],
    }


def test_a_question_without_sources_shows_no_sources_line(invoke, one_chapter):
    shown = invoke("bank", "show", "2", "--bank", str(one_chapter))
    assert shown.exit_code == 0 and "来源" not in shown.stdout


def test_the_cached_copy_keeps_the_sources(one_chapter):
    from studybot.bank import cached

    add_source(one_chapter, 2, REFLEXION)
    first = cached.load(one_chapter, "t")
    cached._memo.clear()  # the next load reads the JSON copy written by the first
    again = cached.load(one_chapter, "t")
    assert again.get(2).sources == first.get(2).sources and again.get(2).sources
