"""Failure classes a thirty-sixth batch of real public question files showed, part I7.

Each file here is written for the test, in the shape those files had: question headings
whose body is a ``- [ ] TODO`` still to write (some that ask nothing, one title repeated
under several topics); a blog post's glossary list of ``1. Term`` items above its ``# What
is …?`` headings, closed by a footnote; an HTML-heading card whose answer announces its
points (``…以下几种做法：``) and numbers them as headings at the card's own level, with a
``### 总结：``; an interview write-up's rounds (``### 1. 一面``, ``### 2. 原因分析``) and a
company named with a number (``## 404 - 踩坑``); a list of topics ending ``- 等等``.
"""

from __future__ import annotations

from imported import questions, read

_TODO = """# 机器学习

## 决策树

### 核心思想

- [ ] TODO

### 决策树为什么容易过拟合？

- [ ] TODO

## 随机森林

### 核心思想

- [ ] TODO

### 随机森林和 GBDT 的区别

- [ ] TODO

## 核函数

- [ ] TODO

## 集成学习

- [ ] TODO

### Bagging 和 Boosting 的原理

- [ ] TODO

## 如何选择模型？

答：先看数据量和特征。
"""


def test_a_todo_under_a_question_is_no_answer_and_a_todo_heading_is_a_question(tmp_path):
    report = read(tmp_path, _TODO)
    assert questions(report) == [
        "核心思想",
        "决策树为什么容易过拟合？",
        "随机森林和 GBDT 的区别",
        "核函数",
        "集成学习",
        "Bagging 和 Boosting 的原理",
        "如何选择模型？",
    ]
    answered = {q.question for q in report.bank.questions if q.reference or q.key_points}
    assert answered == {"如何选择模型？"}
    assert [r for r in report.repeats if "核心思想" in r]  # said, not dropped


_GLOSSARY = """---
layout: post
title: Statistics interview notes
---

A few questions I keep being asked.

## Key terms in statistics

1. Variance
1. Median
1. Skewness
1. Why is the median robust
1. Kurtosis

# What is variance?

# What is skewness?

# Explain the central limit theorem?

[^1]: Written over a weekend.
"""


def test_glossary_terms_are_no_questions_and_a_footnote_is_no_answer(tmp_path):
    report = read(tmp_path, _GLOSSARY)
    assert questions(report) == [
        "Why is the median robust",
        "What is variance?",
        "What is skewness?",
        "Explain the central limit theorem?",
    ]
    assert not any(q.reference or q.key_points for q in report.bank.questions)


_ANNOUNCED = """<h2 id='1.显存'>1.显存</h2>

<h3 id='1.显存不够怎么办？'>1.显存不够怎么办？</h3>

显存不够时，可以采取以下几种做法：

### 1. **梯度累积**

把一个大批次拆成几个小批次，累积梯度后再更新。

### 2. **激活重计算**

反向传播时重新计算激活，用时间换显存。

### 3. **降低精度**

用半精度存储权重和激活。

<h3 id='2.batch size 越大越好吗？'>2.batch size 越大越好吗？</h3>

不一定，太大会影响泛化。

### 总结：

- 批次大小要和学习率一起调。
"""


def test_numbered_headings_an_answer_announces_are_its_sections(tmp_path):
    report = read(tmp_path, _ANNOUNCED)
    assert questions(report) == ["显存不够怎么办？", "batch size 越大越好吗？"]
    first = report.bank.questions[0].reference or ""
    assert "梯度累积" in first and "降低精度" in first


_ROUNDS = """## 某厂 提前批

### 1. 一面

等了很久才开始。

- 讲讲 Transformer 的结构
- 为什么要用 LayerNorm？

### 2. 原因分析

项目讲得不够清楚。

## 404 - 踩坑

### 二面 - 10分钟

- 你有什么想问的吗？

## 常见题目

- 什么是过拟合？
- 怎么防止过拟合？
- 等等
"""


def test_interview_rounds_and_a_numbered_company_are_sections_and_etc_is_no_question(tmp_path):
    report = read(tmp_path, _ROUNDS)
    assert questions(report) == [
        "讲讲 Transformer 的结构",
        "为什么要用 LayerNorm？",
        "你有什么想问的吗？",
        "什么是过拟合？",
        "怎么防止过拟合？",
    ]
