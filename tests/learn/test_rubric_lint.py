"""The rubric lint of ``bank validate``: what a machine can see grading worse than meant."""

from __future__ import annotations

from studybot import bank
from studybot.bank.findings import NOTE, WARNING, Finding, rubric_places
from studybot.learn.rubric_lint import lint

BANK = """title = "lint"
language = "zh-CN"

[[chapters]]
number = 1
title = "一"
file = "01.toml"
first = 1
last = 1
"""

CHAPTER = """chapter = 1

[[questions]]
id = 1
question = "为什么 KV 缓存只保存 K 和 V？"
key_points = [
  "K、V 会被之后每一步反复读取。",
  "Q 只在当前步用一次，之后不再读取。",
  "显存随长度线性增长。",
]

[[questions.rubric]]
[[questions.rubric.claims]]
subject = "K V | 头"
relation = "反复 读取"
zh = "K、V 会被反复读取"
en = "keys and values are read again"

[[questions.rubric]]
[[questions.rubric.claims]]
subject = "Q"
relation = "只 用 一次 | q"
zh = "Q 只用一次"
en = "Q is used once"

[[questions.rubric]]
[[questions.rubric.claims]]
subject = "显存"
relation = "线性 | 平方"
opposite = "平方"
zh = "显存随长度线性增长"
en = "memory grows linearly"
"""


def _findings(tmp_path, chapter: str = CHAPTER) -> list[Finding]:
    (tmp_path / "bank.toml").write_text(BANK, encoding="utf-8")
    (tmp_path / "01.toml").write_text(chapter, encoding="utf-8")
    return lint(bank.load(str(tmp_path)), rubric_places(tmp_path))


def _line(chapter: str, text: str, nth: int = 1) -> int:
    """The 1-based line of the ``nth`` line of ``chapter`` that starts with ``text``."""
    numbers = [n for n, line in enumerate(chapter.splitlines(), 1) if line.startswith(text)]
    return numbers[nth - 1]


def test_each_kind_of_finding_is_at_the_file_and_line_of_its_point_or_claim(tmp_path):
    found = {(f.level, f.point): f for f in _findings(tmp_path)}
    assert len(found) == 3, found
    note = found[(NOTE, 1)]
    assert note.message == "alias words of one character (头) are found inside any word"
    assert note.shown() == (
        f"{tmp_path / '01.toml'}:{_line(CHAPTER, '[[questions.rubric]]', 1)}: note: "
        "alias words of one character (头) are found inside any word"
    )
    tiny = found[(WARNING, 2)]
    assert tiny.message == "claim 1: 'q' alone is in nearly any answer"
    assert tiny.line == _line(CHAPTER, "[[questions.rubric.claims]]", 2)
    both = found[(WARNING, 3)]
    assert both.message == "claim 1: '平方' is both its relation and its opposite"
    assert both.line == _line(CHAPTER, "[[questions.rubric.claims]]", 3)
    assert {f.question for f in found.values()} == {1}


def test_a_negation_or_a_function_character_in_a_phrase_is_no_finding(tmp_path):
    chapter = CHAPTER.replace('relation = "反复 读取"', 'relation = "不 再 变 | 只 读取"').replace(
        'subject = "K V | 头"', 'subject = "K V"'
    )
    assert not any(f.point == 1 for f in _findings(tmp_path, chapter))
