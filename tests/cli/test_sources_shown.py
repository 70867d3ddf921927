"""Where a learner sees the sources: `bank show` in a 60-column terminal, and the notes."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len
from screens import on_terminal

from studybot import bank

CITE = (
    "Shinn et al. 2023, Reflexion: Language Agents with Verbal Reinforcement Learning, Tables 1–2"
)
SOURCE = f'[[questions.sources]]\ncite = "{CITE}"\nref = "arXiv:2303.11366"\npoints = [1, 2]\n'


@pytest.fixture
def cited(tmp_path):
    """Chapter 1 of the shipped bank, Q1 with one source after its hint."""
    folder = tmp_path / "cited"
    folder.mkdir()
    text = (bank.shipped_dir() / "01-intro.toml").read_text(encoding="utf-8")
    hint = text.index("\nhint = ")
    end = text.index("\n", hint + 1)
    (folder / "01-intro.toml").write_text(text[: end + 1] + SOURCE + text[end + 1 :], "utf-8")
    (folder / "bank.toml").write_text(
        '[[chapters]]\nnumber = 1\ntitle = "导论"\nfile = "01-intro.toml"\nfirst = 1\nlast = 8\n',
        encoding="utf-8",
    )
    return folder


def test_bank_show_wraps_a_long_source_within_60_columns(studybot_home, cited):
    text = on_terminal(studybot_home, ("bank", "show", "1", "--bank", str(cited)), 60)
    lines = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).replace("\r", "").splitlines()
    assert max(cell_len(line) for line in lines) <= 60, "\n".join(lines)
    start = next(n for n, line in enumerate(lines) if line.startswith("来源 [1] "))
    said = " ".join(" ".join(lines[start : start + 4]).split())
    assert f"来源 [1] {CITE} · arXiv:2303.11366 — 要点 1, 2" in said


def test_the_notes_list_a_question_s_sources_under_it(studybot_home, invoke, cited, tmp_path):
    assert invoke("run", "--bank", str(cited), "--from", "1", "--to", "2").exit_code == 0
    notes = tmp_path / "notes.md"
    assert invoke("export", "1", "-f", "md", "-o", str(notes)).exit_code == 0
    text = notes.read_text(encoding="utf-8")
    q1, q2 = text.index("### 第 1 题"), text.index("### 第 2 题")
    line = f"- 来源 [1] {CITE} · arXiv:2303.11366 — 要点 1, 2"
    assert text.count(line) == 1 and q1 < text.index(line) < q2  # under Q1; Q2 has none
