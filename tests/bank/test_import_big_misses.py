"""Failure classes the largest misses among the real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had.
"""

from __future__ import annotations

from imported import questions, read

_PROBLEMS = """# 机器学习系统面试题

## 目录
1. [特征存储](#problem-1-特征存储)
2. [在线推理延迟优化](#problem-2-在线推理延迟优化)

## Problem 1: 特征存储

### 题目背景
训练与线上服务读到的特征必须一致。

### 核心知识点

#### 1. 离线与在线两套存储
- 离线存储放历史特征，供训练回放
- 在线存储放最新值，毫秒级读取

#### 2. 时间点正确的关联
按样本时间取当时的特征值，避免穿越。

## Problem 2: 在线推理延迟优化

### 题目背景
一个排序模型的 P99 延迟超过了预算。

### 解答思路

#### 1. 先测量
逐段记录耗时，找出最慢的一段。

#### 2. 批处理与缓存
合并小请求，缓存热门用户的特征。
"""


def test_problem_n_headings_are_the_questions_and_their_sub_sections_the_answer(tmp_path):
    report = read(tmp_path, _PROBLEMS)
    assert questions(report) == ["特征存储", "在线推理延迟优化"]
    first, second = report.bank.questions
    for said in ("训练与线上服务", "离线存储放历史特征", "避免穿越"):
        assert said in first.reference
    assert "合并小请求" in second.reference


def test_a_bold_problem_name_in_running_text_asks_nothing(tmp_path):
    text = (
        "# 实现说明\n\n## 注意力变体\n\n**Problem 5** (`attention.py`) implements:\n"
        "1. **Sliding Window Attention** - linear in the length\n"
        "2. **Sparse Attention** - only some positions\n\n"
        "## 常见问题\n\n### Q: 为什么要用滑动窗口？\n\n长序列时计算量更小。\n\n"
        "### Q: 稀疏注意力会丢信息吗？\n\n会丢一部分远距离依赖。\n"
    )
    taken = questions(read(tmp_path, text))
    assert taken[-2:] == ["为什么要用滑动窗口？", "稀疏注意力会丢信息吗？"]
    assert not any("implements" in question for question in taken)
