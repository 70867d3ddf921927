"""`due`, `progress` and `bank search` as a user runs them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from studybot import bank

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
ROOT = Path(__file__).resolve().parents[2]


def test_due_with_nothing_rated_says_how_to_start(invoke):
    result = invoke("due")
    assert result.exit_code == 0
    assert "no question has been rated" in result.stdout
    assert "--quiz" in result.stdout
    assert json.loads(invoke("due", "--json").stdout) == []


def test_due_lists_every_card_soonest_first_with_the_agreed_keys(rate, invoke):
    past = datetime.now(UTC) - timedelta(days=3)
    rate(34, 1, grade=0.2, at=past)  # Again three days ago: overdue
    rate(23, 3, grade=0.8)  # Good now: back in 10 minutes
    rate(5, 4, grade=1.0)  # Easy now: days away
    rate(2, 1, bank_key="mine")  # Again now: back in a minute
    rows = json.loads(invoke("due", "--json").stdout)
    assert [(r["bank"], r["question_id"]) for r in rows] == [
        ("default", 34),
        ("mine", 2),
        ("default", 23),
        ("default", 5),
    ]
    assert all(
        set(r) == {"bank", "question_id", "due", "state", "last_rating", "reviews"} for r in rows
    )
    first = rows[0]
    assert (first["state"], first["last_rating"], first["reviews"]) == ("learning", 1, 1)
    assert datetime.fromisoformat(first["due"]).utcoffset() == timedelta(0)
    assert [r["due"] for r in rows] == sorted(r["due"] for r in rows)
    only = json.loads(invoke("due", "--bank", "mine", "--json").stdout)
    assert [r["question_id"] for r in only] == [2]

    text = invoke("due").stdout
    lines = text.splitlines()
    q34 = next(line for line in lines if " 34 " in line)
    assert "due now" in q34 and "Again" in q34 and "8K" in q34  # Q34's text, shortened
    assert "in 10 minutes" in next(line for line in lines if " 23 " in line)
    assert "in 1 minute" in next(line for line in lines if " 2 " in line and "mine" in line)
    assert "1 due now, 3 later" in text and "studybot review" in text


def test_progress_lists_every_chapter_with_the_agreed_keys(rate, invoke):
    past = datetime.now(UTC) - timedelta(days=4)
    rate(1, 3, grade=0.6, at=past)
    rate(2, 1, grade=0.2, at=past)
    rate(23, 3, grade=1.0)
    data = json.loads(invoke("progress", "--json").stdout)
    assert data["bank"] == "default"
    shipped = bank.load()
    assert [c["chapter"] for c in data["chapters"]] == [c.number for c in shipped.chapters]
    keys = {"chapter", "title", "total", "seen", "due", "mean_grade", "retention"}
    assert all(keys <= set(c) for c in data["chapters"])
    one, two, three = data["chapters"][:3]
    assert (one["total"], one["seen"], one["due"]) == (8, 2, 2)
    assert one["mean_grade"] == pytest.approx(0.4)
    assert 0 < one["retention"] < 0.95
    assert (two["seen"], two["mean_grade"], two["retention"]) == (0, None, None)
    assert (three["seen"], three["due"], three["mean_grade"]) == (1, 0, 1.0)
    assert three["retention"] > 0.99  # rated Good just now: nearly certain, over seconds
    assert sum(c["total"] for c in data["chapters"]) == 200

    text = invoke("progress").stdout
    assert "2/8" in text and "0/11" in text and "40%" in text
    assert "studybot review" in text


def test_progress_says_how_many_questions_a_grade_and_a_retention_stand_on(rate, invoke):
    """Read is seen, not graded or retained: 8 read and 1 rated is never "100% 100%"."""
    assert invoke("run", "--from", "1", "--to", "8").exit_code == 0
    rate(1, 3)  # rated after reading: no grade
    rate(2, 3, grade=1.0)
    data = json.loads(invoke("progress", "--json").stdout)
    one = data["chapters"][0]
    assert (one["seen"], one["rated"], one["graded"]) == (8, 2, 1)
    row = next(line for line in invoke("progress").stdout.splitlines() if "8/8" in line)
    assert "100% of 1" in row  # the grade: one graded question
    assert re.search(r"\b\d+% of 2\b", row)  # the retention: two rated questions
    assert "grade of N graded, retention of N rated" in invoke("progress").stdout


def test_progress_of_an_unstudied_bank_says_so(invoke):
    result = invoke("progress")
    assert result.exit_code == 0
    assert "Nothing studied" in result.stdout and "0/21" in result.stdout


def test_progress_plot_writes_a_png(rate, invoke, tmp_path):
    pytest.importorskip("matplotlib")
    rate(30, 3, grade=0.9)
    rate(31, 1, grade=0.1, at=datetime.now(UTC) - timedelta(days=2))
    target = tmp_path / "progress.png"
    result = invoke("progress", "--plot", str(target))
    assert result.exit_code == 0, result.stderr
    data = target.read_bytes()
    assert data[:8] == PNG_MAGIC
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width > height > 200
    assert f"Wrote {target}" in result.stderr


def test_progress_plot_without_matplotlib_names_the_install_command(invoke, tmp_path, monkeypatch):
    # None in sys.modules makes `import matplotlib` fail, as on a machine without it
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = invoke("progress", "--plot", str(tmp_path / "p.png"))
    assert result.exit_code == 2
    assert "pip install 'studybot[plot]'" in result.stderr
    assert not (tmp_path / "p.png").exists()


def test_bank_search_finds_a_chinese_substring_of_a_key_point(invoke):
    q17 = bank.load().get(17)
    assert "各向异性" not in q17.question and any("各向异性" in k for k in q17.key_points)
    result = invoke("bank", "search", "各向异性", "--json")
    assert result.exit_code == 0
    hits = json.loads(result.stdout)
    assert {"id": 17, "chapter": 2, "question": q17.question} in hits
    assert all(set(h) == {"id", "chapter", "question"} for h in hits)


def test_bank_search_needs_every_word_and_ignores_case_and_width(invoke):
    both = json.loads(invoke("bank", "search", "ｒｏｐｅ", "KV", "--json").stdout)
    rope = json.loads(invoke("bank", "search", "rope", "--json").stdout)
    assert both and set(h["id"] for h in both) < set(h["id"] for h in rope)
    assert 30 in {h["id"] for h in rope}  # the RoPE question itself
    # Q6 (hallucination) says "evaluation" only in its tags
    tagged = {q.id for q in bank.load().questions if "evaluation" in q.tags}
    by_tag = {h["id"] for h in json.loads(invoke("bank", "search", "Evaluation", "--json").stdout)}
    assert 6 in tagged and tagged <= by_tag
    text = invoke("bank", "search", "旋转位置").stdout
    assert "30. RoPE" in text and "bank show 30" in text


def test_bank_search_without_a_hit_exits_1_like_grep(invoke):
    result = invoke("bank", "search", "量子纠缠咖啡机")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "量子纠缠咖啡机" in result.stderr
    as_json = invoke("bank", "search", "量子纠缠咖啡机", "--json")
    assert (as_json.exit_code, json.loads(as_json.stdout)) == (1, [])


def test_help_of_the_new_commands_loads_no_heavy_module(studybot_home):
    code = (
        "import sys\n"
        "from studybot.cli import cli\n"
        "try:\n    cli.main(ARGS, standalone_mode=False)\n"
        "except SystemExit:\n    pass\n"
        "heavy = ('fsrs', 'matplotlib', 'rich', 'sqlite_utils', 'openai', 'tiktoken')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    env = {**os.environ, "STUDYBOT_HOME": str(studybot_home)}
    for args in (["due", "--help"], ["progress", "--help"], ["bank", "search", "--help"]):
        out = subprocess.run(
            [sys.executable, "-c", code.replace("ARGS", repr(args))],
            env=env,
            capture_output=True,
            text=True,
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip().splitlines()[-1] == "[]"
