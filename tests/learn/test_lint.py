"""The rubric lint of ``bank validate``: what a machine can see grading worse than meant."""

from __future__ import annotations

from studybot import bank
from studybot.learn.lint import lint

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


def _warnings(tmp_path, chapter: str = CHAPTER) -> list[str]:
    (tmp_path / "bank.toml").write_text(BANK, encoding="utf-8")
    (tmp_path / "01.toml").write_text(chapter, encoding="utf-8")
    return lint(bank.load(str(tmp_path)))


def test_each_kind_of_rubric_warning_names_its_point_and_claim(tmp_path):
    warnings = _warnings(tmp_path)
    assert any(
        w.startswith("Q1 point 1: warning: alias words of one character (头)") for w in warnings
    )
    assert any(w.startswith("Q1 point 2: warning: claim 1: 'q' alone") for w in warnings)
    assert any(
        w.startswith("Q1 point 3: warning: claim 1: '平方' is both its relation and its opposite")
        for w in warnings
    )
    assert len(warnings) == 3, warnings


def test_a_negation_or_a_function_character_in_a_phrase_is_no_warning(tmp_path):
    chapter = CHAPTER.replace('relation = "反复 读取"', 'relation = "不 再 变 | 只 读取"').replace(
        'subject = "K V | 头"', 'subject = "K V"'
    )
    warnings = _warnings(tmp_path, chapter)
    assert not any("point 1" in w for w in warnings), warnings
