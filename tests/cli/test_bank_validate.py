"""``bank validate``: findings at file:line, --json, --bank, notes apart from warnings."""

from __future__ import annotations

import json
import re
import shutil

from studybot import bank

EMPTY_HEADING = """# 面试题

## 1. 什么是注意力机制？

注意力让每个 token 按相关度加权其他 token。

## 2. 为什么 KV 缓存只存 K 和 V？

因为 Q 只在当前步使用。

## 3.

## 4. 什么是 RoPE？

旋转位置编码。
"""


def test_the_shipped_bank_prints_no_warning_and_counts_its_notes(invoke):
    result = invoke("bank", "validate")
    assert result.exit_code == 0
    assert result.stdout.startswith("OK: 200 questions in 14 chapter(s), Q1–Q200.")
    assert "warning" not in result.stdout + result.stderr
    assert re.search(r"^\d+ note\(s\) on style .*; --notes lists them\.$", result.stdout, re.M)


def test_notes_are_listed_at_the_line_of_their_rubric_table(invoke, monkeypatch):
    folder = bank.shipped_dir()
    monkeypatch.chdir(folder.parent)
    result = invoke("bank", "validate", "--notes")
    first = result.stderr.splitlines()[0]
    found = re.match(r"(questions/01-intro\.toml):(\d+): note: alias words of one character", first)
    assert found, first
    lines = (folder / "01-intro.toml").read_text(encoding="utf-8").splitlines()
    assert lines[int(found.group(2)) - 1].startswith("[[questions.rubric]]")
    assert " point " not in result.stderr  # a place, not "Q1 point 2"


def test_json_lists_findings_with_their_place(invoke, tmp_path):
    folder = tmp_path / "bank"
    shutil.copytree(bank.shipped_dir(), folder)
    chapter = folder / "01-intro.toml"
    text = chapter.read_text(encoding="utf-8")
    at = text.index("[[questions.rubric.claims]]")
    end = text.index('"\n', text.index("relation =", at))  # the closing quote
    chapter.write_text(text[:end] + " | h" + text[end:], encoding="utf-8")  # a relation "h"
    result = invoke("bank", "validate", "--bank", str(folder), "--json")
    assert result.exit_code == 0
    rows = json.loads(result.stdout)
    assert {tuple(sorted(r)) for r in rows} == {
        ("file", "level", "line", "message", "point", "question")
    }
    warnings = [r for r in rows if r["level"] == "warning"]
    assert warnings == [
        {
            "level": "warning",
            "message": "claim 1: 'h' alone is in nearly any answer",
            "file": str(chapter),
            "line": text[:at].count("\n") + 1,
            "question": 1,
            "point": 1,
        }
    ]
    assert rows and all(r["level"] in ("warning", "note") for r in rows)


def test_json_of_a_bank_that_does_not_load_gives_each_problem_its_line(invoke, tmp_path):
    folder = tmp_path / "bank"
    shutil.copytree(bank.shipped_dir(), folder)
    chapter = folder / "01-intro.toml"
    chapter.write_text(
        chapter.read_text(encoding="utf-8").replace("id = 4\n", "id = 44\n"), encoding="utf-8"
    )
    result = invoke("bank", "validate", str(folder), "--json")
    assert result.exit_code == 2
    rows = json.loads(result.stdout)
    outside = [r for r in rows if "outside chapter 1" in r["message"]]
    assert outside and outside[0]["file"] == str(chapter) and outside[0]["question"] == 44
    line = chapter.read_text(encoding="utf-8").splitlines()[outside[0]["line"] - 1]
    assert line == "id = 44"
    assert all(r["level"] == "error" for r in rows)


def test_a_bank_given_twice_differently_is_refused(invoke, tmp_path):
    result = invoke("bank", "validate", str(tmp_path), "--bank", "other")
    assert result.exit_code == 2
    assert "give the bank once" in result.stderr


def test_an_empty_numbered_heading_is_reported_not_dropped(invoke, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "h.md").write_text(EMPTY_HEADING, encoding="utf-8")
    result = invoke("bank", "validate", "--bank", "h.md")
    assert result.exit_code == 0
    assert "h.md:11: a numbered heading with no question text: 3." in result.stdout
    rows = json.loads(invoke("bank", "validate", "h.md", "--json").stdout)
    assert [(r["file"], r["line"], r["level"]) for r in rows] == [("h.md", 11, "warning")]


def test_a_numbered_heading_with_text_under_it_says_that_text_is_left_out(invoke, tmp_path):
    path = tmp_path / "h.md"
    path.write_text(EMPTY_HEADING.replace("## 3.\n", "## 3.\n\n这段答案没有问题。\n"), "utf-8")
    result = invoke("bank", "import", str(path), "--preview")
    assert "a numbered heading with no question text; the text under it is left out" in (
        result.stdout
    )
    assert "3 question(s)" in result.stdout
