"""The loader's error reports: file:line for every problem, and the bank commands."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from studybot import bank
from studybot.errors import BankError

# -- the loader's reports: file:line for every problem -------------------------


@pytest.fixture
def bank_copy(tmp_path) -> Path:
    """A two-chapter bank (chapters 1 and 2 of the shipped one) to break."""
    folder = tmp_path / "bank"
    folder.mkdir()
    src = bank.shipped_dir()
    for name in ("01-intro.toml", "02-tokens-embeddings.toml"):
        shutil.copy(src / name, folder / name)
    index = (src / "bank.toml").read_text(encoding="utf-8")
    head, *tables = index.split("[[chapters]]")
    (folder / "bank.toml").write_text(
        head + "[[chapters]]" + "[[chapters]]".join(tables[:2]), encoding="utf-8"
    )
    return folder


def test_a_copied_bank_loads(bank_copy):
    loaded = bank.load(str(bank_copy))
    assert len(loaded.questions) == 19


def line_of(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(needle)


def test_too_few_key_points_is_reported_at_its_line(bank_copy):
    path = bank_copy / "01-intro.toml"
    text = path.read_text(encoding="utf-8")
    start = text.index("id = 3")
    block_start = text.index("key_points = [", start)
    block_end = text.index("]", block_start)
    path.write_text(
        text[:block_start] + 'key_points = ["只有一条要点，明显不够用。"' + text[block_end:],
        encoding="utf-8",
    )
    problems = bank.validate(str(bank_copy))
    expected = f"{path}:{line_of(path, '只有一条要点')}"
    assert any(p.startswith(expected) and "Q3 has 1 key points" in p for p in problems), problems


def test_duplicate_id_unknown_key_and_syntax_errors_are_each_located(bank_copy):
    path = bank_copy / "02-tokens-embeddings.toml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("id = 12\n", "id = 11\n", 1).replace("hint =", "hints =", 1)
    path.write_text(text, encoding="utf-8")
    problems = bank.validate(str(bank_copy))
    assert any(f"{path}:{line_of(path, 'hints =')}: unknown key 'hints'" in p for p in problems)
    assert any("out of order" in p or "missing question" in p for p in problems)

    path.write_text('chapter = 2\n[[questions]]\nid = 9\nquestion = "未闭合\n', encoding="utf-8")
    problems = bank.validate(str(bank_copy))
    assert any(p.startswith(f"{path}:4: TOML syntax error") for p in problems), problems


def test_duplicate_question_text_is_reported_by_id(bank_copy):
    path = bank_copy / "01-intro.toml"
    text = path.read_text(encoding="utf-8")
    first = re.search(r'question = "(.*)"', text).group(1)
    second = re.findall(r'question = "(.*)"', text)[1]
    path.write_text(text.replace(second, first + "  "), encoding="utf-8")
    assert "Q2: same question as Q1" in bank.validate(str(bank_copy))


def test_loading_a_broken_bank_raises_one_message_with_a_count(bank_copy):
    (bank_copy / "02-tokens-embeddings.toml").unlink()
    with pytest.raises(BankError) as caught:
        bank.load(str(bank_copy))
    assert "02-tokens-embeddings.toml: file not found" in caught.value.message
    assert caught.value.exit_code == 2


def test_bank_validate_command_prints_every_problem_and_exits_2(invoke, bank_copy):
    path = bank_copy / "01-intro.toml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("id = 4\n", "id = 44\n"), encoding="utf-8"
    )
    result = invoke("bank", "validate", str(bank_copy))
    assert result.exit_code == 2
    assert f"{path}:" in result.stderr and "outside chapter 1" in result.stderr
    assert "problem(s) found" in result.stderr
    ok = invoke("bank", "validate")
    assert ok.exit_code == 0 and "200 questions in 14 chapter(s)" in ok.stdout


def test_bank_list_and_show_json(invoke):
    listed = invoke("bank", "list", "--json")
    rows = json.loads(listed.stdout)
    assert len(rows) == 200 and set(rows[0]) == {"id", "chapter", "question"}
    assert sorted({r["chapter"] for r in rows}) == list(range(1, 15))
    shown = json.loads(invoke("bank", "show", "34", "--json").stdout)
    assert set(shown) == {
        "id",
        "chapter",
        "question",
        "key_points",
        "tags",
        "hint",
        "reference",
        "label",
        "sources",
    }
    assert shown["id"] == 34 and shown["chapter"] == 3
    missing = invoke("bank", "show", "201")
    assert missing.exit_code == 2 and "question 201 is not in bank" in missing.stderr
