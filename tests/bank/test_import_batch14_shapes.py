"""Failure classes a fourteenth batch of real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had: bare heading
questions grouped by bold topic bullets (``- **Caching篇**``) and closed by a badge.
"""

from __future__ import annotations

from imported import notebook_text, previewed, questions, read

_BARE = """# Storage questions

## 1. Caching

  - **Eviction篇**

 ### 1.1 What does LRU evict first?

 ### 1.2 Why can LFU starve new keys?

  - **Consistency篇**

  - **Invalidation**

###  1.3 How do you invalidate a cache after a write?

###  1.4 What is write-behind caching?

[![GitHub stars](https://img.shields.io/github/stars/someone/storage-notes?style=social)](https://github.com/someone/storage-notes)
"""


def test_topic_labels_and_a_badge_between_bare_questions_are_no_answers(tmp_path):
    report = read(tmp_path, _BARE)
    assert questions(report) == [
        "What does LRU evict first?",
        "Why can LFU starve new keys?",
        "How do you invalidate a cache after a write?",
        "What is write-behind caching?",
    ]
    assert [(q.reference, q.key_points) for q in report.bank.questions] == [(None, ())] * 4


def test_a_bold_bullet_under_text_of_its_own_stays_in_the_answer(tmp_path):
    text = "## What evicts first under LRU?\n\nThe least recently used key.\n\n- **Eviction篇**\n"
    (question,) = read(tmp_path, text).bank.questions
    assert question.reference is not None and "least recently used" in question.reference


_NOTES = """# 存储笔记

## 缓存
### LRU
最近最少使用的键先被淘汰，用哈希表加双向链表实现。
### LFU
按访问次数淘汰，新键容易被挤掉，需要衰减计数。
### 写回
先写缓存，稍后批量写库，宕机会丢数据。

## 索引
### B+树
叶子节点有序相连，适合范围查询。
### 哈希索引
等值查询快，不支持范围查询。
### 倒排索引
词到文档列表的映射，全文检索用它。

## 常见问题
### 为什么 B+树 比 B树 更适合数据库？
非叶子节点不存数据，一页能放更多键，树更矮。
### 缓存穿透怎么解决？
布隆过滤器，或者缓存空值。
### 什么时候不该加缓存？
写多读少、强一致的数据。
"""


def test_the_preview_names_headings_n_for_topic_notes_beside_a_few_questions(invoke, tmp_path):
    assert len(questions(read(tmp_path, _NOTES))) == 3  # by default: the three that ask
    shown = previewed(invoke, tmp_path, _NOTES)
    assert "Try --questions headings:3: 9 questions, 6 topics with notes beside 3" in shown
    assert shown.endswith("--questions headings:3")
    taken = questions(read(tmp_path, _NOTES, questions="headings:3"))
    assert taken[:2] == ["LRU", "LFU"] and len(taken) == 9


_CARDS = notebook_text(
    ("markdown", "说一下 BatchNorm 和 LayerNorm 的区别，各用在什么地方"),
    (
        "markdown",
        "# BatchNorm 与 LayerNorm\n\n## 1. 归一化的维度\n\nBN 沿 batch 维，LN 沿特征维。\n\n"
        "## 2. 适用场景\n\nCNN 多用 BN，Transformer 多用 LN。",
    ),
    ("markdown", "写一下交叉熵损失的公式，梯度怎么求"),
    (
        "markdown",
        "# 交叉熵\n\n## 公式\n\n$L = -\\sum y \\log p$\n\n## 梯度推导\n\n对 logits 求导得 p - y。",
    ),
)


def test_a_notebook_answer_cell_under_a_question_cell_is_its_answer_whole(tmp_path):
    report = read(tmp_path, _CARDS, name="cards.ipynb")
    assert questions(report) == [
        "说一下 BatchNorm 和 LayerNorm 的区别，各用在什么地方",
        "写一下交叉熵损失的公式，梯度怎么求",
    ]
    first, second = report.bank.questions
    assert first.reference is not None and "CNN 多用 BN" in first.reference
    assert second.reference is not None and "p - y" in second.reference
    assert "BN 沿 batch 维" not in second.reference


_ROUNDS = """# 二面

1.讲一下 KV cache
2.梯度累积怎么实现

.softmax的数值稳定写法

. 混合精度训练介绍

4.学习率预热的作用
5️⃣讲一下 ZeRO-3？
6️⃣介绍一下 FSDP

流程图：

.java → javac → .class
"""


def test_a_line_whose_number_was_lost_before_its_dot_and_keycap_numbers_are_questions(tmp_path):
    taken = questions(read(tmp_path, _ROUNDS))
    assert "softmax的数值稳定写法" in taken
    assert "混合精度训练介绍" in taken
    assert "讲一下 ZeRO-3？" in taken and "介绍一下 FSDP" in taken
    assert not any("javac" in q for q in taken)  # a dot before a name and an arrow: no question


_PASTED = """# 三面

3.讲一下项目里的召回模块
4.介绍一下你的实习

rerank模型的原理

长文本如何切分

检索结果重复如何去重

多路召回怎么融合排序
"""


def test_bare_asking_lines_under_a_loose_question_are_questions_not_its_answer(tmp_path):
    report = read(tmp_path, _PASTED)
    taken = questions(report)
    assert taken[-4:] == [
        "rerank模型的原理",
        "长文本如何切分",
        "检索结果重复如何去重",
        "多路召回怎么融合排序",
    ]
    assert all(q.reference is None for q in report.bank.questions)


_SAID = """# 大模型基础

1. 自我介绍
2. 讲讲 RAG 的流程

向量数据库的索引区别在哪里。

面试官直接问embedding是怎么训练的。

我们这个项目做了三个月。效果提升明显。
"""


def test_a_short_sentence_that_asks_but_for_its_full_stop_is_a_question_in_a_run_of_bare_ones(
    tmp_path,
):
    report = read(tmp_path, _SAID)
    taken = questions(report)
    assert taken[-2:] == ["向量数据库的索引区别在哪里", "面试官直接问embedding是怎么训练的"]
    assert not any("三个月" in q for q in taken)  # two sentences: prose
    assert all(q.reference is None for q in report.bank.questions)


_WRITE_UP = """面经合集
===

**答一道题要讲清楚的几点**
- 是什么、
- 为什么要用（动机）、
- 怎么做（原理）、
- 什么场景下用

### 一面
1. 自我介绍；
1. 反转链表；
1. 讲一下 Adam 和 SGD 的区别？
1. 最长公共子序列；
1. 为什么用 LayerNorm 不用 BatchNorm？
"""


def test_a_sentence_in_bullets_is_no_question_and_items_left_beside_questions_are_listed(
    invoke, tmp_path
):
    taken = questions(read(tmp_path, _WRITE_UP))
    assert not [q for q in taken if q.endswith("、") or q == "什么场景下用"]
    assert "讲一下 Adam 和 SGD 的区别？" in taken
    shown = previewed(invoke, tmp_path, _WRITE_UP)
    assert "List items neither taken nor inside an answer (3):" in shown
    assert "line 12: 反转链表； line 14: 最长公共子序列；" in shown
