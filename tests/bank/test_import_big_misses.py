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


_WRITE_UP = """# 面经合集

## 某公司 算法一面
> 先做了一道开放题，然后问了下面这些。

1. 梯度下降的三种变体
2. 交叉熵与均方误差
3. 决策树剪枝
4. 项目里的特征是否有泄漏？
5. 最长回文子串

## 某公司 二面
- 二分查找
- 字典树
- 为什么用层归一化而不是批归一化
- 链表反转

## 准备方法
1. 先把基础过一遍。
2. 每天复盘一次。
3. 为什么要刷题？因为笔试必考。
"""


def test_a_write_ups_numbered_and_bulleted_lists_are_what_was_asked_when_one_item_asks(
    tmp_path,
):
    taken = questions(read(tmp_path, _WRITE_UP))
    assert taken == [
        "梯度下降的三种变体",
        "交叉熵与均方误差",
        "决策树剪枝",
        "项目里的特征是否有泄漏？",
        "最长回文子串",
        "二分查找",
        "字典树",
        "为什么用层归一化而不是批归一化",
        "链表反转",
        "为什么要刷题？因为笔试必考。",
    ]


def test_an_outlines_leaves_and_a_notes_list_stay_as_they_were(tmp_path):
    outline = (
        "# 笔记\n\n## 目录外的大纲\n\n- 命名实体识别\n  - 基本信息\n  - 什么是词汇增强？\n"
        "  - IDCNN 介绍\n\n## 召回\n\n- 双塔: 样本, 模型结构\n- 为什么要多路召回？\n"
        "- 冷启动: 利用好 side info\n"
    )
    assert questions(read(tmp_path, outline)) == ["什么是词汇增强？", "为什么要多路召回？"]


_LINK_CARDS = """# 大模型面试题

## 目录
- [基础](#基础)
- [项目](#项目)

## 基础

- **位置编码**
  [位置编码](https://example.org/s/pos)

- **KV Cache**
  [KV Cache](https://example.org/s/kv)

- **混合精度训练**
  [混合精度训练](https://example.org/s/amp)
  [补充阅读](https://example.org/p/amp-notes)

## 项目

- 你的项目里最难的部分是什么？
"""


def test_bold_topics_each_over_a_link_are_questions_with_the_link_as_answer(tmp_path):
    report = read(tmp_path, _LINK_CARDS)
    assert questions(report) == [
        "位置编码",
        "KV Cache",
        "混合精度训练",
        "你的项目里最难的部分是什么？",
    ]
    first = report.bank.questions[0]
    assert first.reference == "[位置编码](https://example.org/s/pos)"
    assert "example.org/p/amp-notes" in report.bank.questions[2].reference


_NOTES_WITH_QA = """# 推荐系统笔记

## 1. 召回
- 双塔模型: 用户塔与物品塔分别编码
- 多路召回: 各通道配额

## 2. 问答
- 冷启动怎么做
  - 利用物品的属性信息
  - 探索与利用
- 特征穿越
  - 训练时用了预测时刻之后才有的特征
- 为什么要做多样性
- 位置偏差

## reference
- [一篇综述](https://example.org/survey)
"""


def test_a_questions_section_takes_each_top_level_item_with_its_sub_items_as_answer(tmp_path):
    report = read(tmp_path, _NOTES_WITH_QA)
    taken = questions(report)  # "## 1. 召回" is a notes card of its own, as before
    assert taken[-4:] == ["冷启动怎么做", "特征穿越", "为什么要做多样性", "位置偏差"]
    assert not any("双塔" in question or "综述" in question for question in taken)
    cold, leak = report.bank.questions[-4:-2]
    assert " ".join([cold.reference or "", *cold.key_points]).count("探索与利用") == 1
    assert "预测时刻之后" in " ".join([leak.reference or "", *leak.key_points])


_PROJECT_README = """# Interview Prep Toolkit

## Quick Start

### Option 1: Automated Setup

The setup script creates the environment.

### Option 2: Manual Setup

A virtual environment with the requirements installed works too.

## Troubleshooting

### Missing CUDA

The CPU wheels work without it.

## FAQ

### Q: Which GPU do I need for the examples?

Any GPU with 8 GB is enough; the CPU works too, slowly.

### Q: Why are the problems in Chinese and English?

They come from interviews held in both languages.
"""


def test_a_readmes_other_sections_are_not_questions_beside_its_faq(tmp_path):
    report = read(tmp_path, _PROJECT_README)
    assert questions(report) == [
        "Which GPU do I need for the examples?",
        "Why are the problems in Chinese and English?",
    ]
    assert "8 GB" in report.bank.questions[0].reference


def test_a_task_after_its_premise_asks(tmp_path):
    text = (
        "# Strings\n\n"
        "Given two strings, write a method to decide if one is an anagram of the other\n\n"
        "Given the usual setup, the tests run nightly\n"
    )
    report = read(tmp_path, text)
    assert questions(report) == [
        "Given two strings, write a method to decide if one is an anagram of the other"
    ]
