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
concepts = ["K V 反复 读取 | 头 读取"]

[[questions.rubric]]
concepts = ["保存 K V | KV 缓存 保存", "Q 当前步 一次"]
wrong = ["之后 不再 读取"]

[[questions.rubric]]
concepts = ["显存 线性 | 内存 线性", "带宽 翻倍"]
"""


def test_each_kind_of_rubric_warning_names_its_point(tmp_path):
    (tmp_path / "bank.toml").write_text(BANK, encoding="utf-8")
    (tmp_path / "01.toml").write_text(CHAPTER, encoding="utf-8")
    warnings = lint(bank.load(str(tmp_path)))
    assert any(
        w.startswith("Q1 point 1: warning: alias words of one character (头)") for w in warnings
    )
    assert any(
        w.startswith("Q1 point 2: warning: concept '保存 K V") and "question's own words" in w
        for w in warnings
    )
    assert any(
        w.startswith("Q1 point 2: warning: wrong '之后 不再 读取'") and "point's own text" in w
        for w in warnings
    )
    assert any(
        w.startswith("Q1 point 3: warning: concept '带宽 翻倍'") and "not found" in w
        for w in warnings
    )
    assert not any("point 3" in w and "显存" in w for w in warnings)  # its point holds it
    assert len(warnings) == 4, warnings


def test_a_negation_or_a_function_character_alone_is_no_warning(tmp_path):
    (tmp_path / "bank.toml").write_text(BANK, encoding="utf-8")
    chapter = CHAPTER.replace(
        'concepts = ["K V 反复 读取 | 头 读取"]', 'concepts = ["K V 不 再 读取 | K V 只 读取"]'
    )
    (tmp_path / "01.toml").write_text(chapter, encoding="utf-8")
    warnings = lint(bank.load(str(tmp_path)))
    assert not any("point 1: warning: alias words of one character" in w for w in warnings)
