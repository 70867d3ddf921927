"""Failure classes an eighth batch of real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had: bold
asking lines, several to a section, with a level mark after each; level and
frequency marks around a question; answers still to be written; questions
inside block quotes between dated lines; and a README whose title asks while
its questions are list items under a bold label, each with a ``[[more]]`` link.
"""

from __future__ import annotations

from imported import questions, read

_BOLD_SECTIONS = """# Theory questions

* Legend: 👶 easy \u200d⭐️ medium 🚀 expert

## Table of contents

* [Trees](#trees)
* [Metrics](#metrics)

## Trees

**What is a decision tree? 👶**

A model that splits the data on one feature at a time.

<br/>

**How is a tree pruned? \u200d⭐️**

Branches that do not lower the validation error are cut:

* Grow the full tree first.
* Where a branch adds nothing, replace it by a leaf.

<br/>

**Gini impurity versus entropy \u200d⭐️**

Both measure how mixed a node is; Gini needs no logarithm.

## Metrics

**What is recall? 👶**

The share of the positives the model finds.

**Which metric suits imbalanced classes? 🚀**

Precision and recall rather than accuracy.
"""


def test_bold_lines_that_ask_are_each_a_question_up_to_the_next(tmp_path):
    report = read(tmp_path, _BOLD_SECTIONS)
    assert questions(report) == [
        "What is a decision tree?",
        "How is a tree pruned?",  # the mark after it, joiner and all, is no part of it
        "Gini impurity versus entropy",  # a bold line alone, in a file of bold questions
        "What is recall?",
        "Which metric suits imbalanced classes?",
    ]
    tree, pruned, gini, recall, which = report.bank.questions
    assert tree.reference.startswith("A model that splits")
    assert "How is a tree pruned" not in tree.reference
    assert "Where a branch adds nothing" in pruned.reference  # its answer's list, no question
    assert "Gini needs no logarithm" in gini.reference
    assert which.reference == "Precision and recall rather than accuracy."


_MARKED = """# Interview questions

- 🔥 How does a hash map resolve collisions?
  - By chaining or by open addressing.
- What is a B-tree? [hard]
  - A balanced tree with many keys per node.
- 什么是倒排索引？（高频）
  - 从词到文档列表的映射。
- Why is quicksort fast in practice? 🚀
  - It works in place and its inner loop is short.
"""


def test_a_level_mark_is_no_part_of_the_question_and_a_known_one_is_a_tag(tmp_path):
    report = read(tmp_path, _MARKED)
    assert questions(report) == [
        "How does a hash map resolve collisions?",
        "What is a B-tree?",
        "什么是倒排索引？",
        "Why is quicksort fast in practice?",
    ]
    tags = [q.tags for q in report.bank.questions]
    assert "difficulty:hard" in tags[1]
    assert "frequency:high" in tags[2]


_UNWRITTEN = """# Questions

**What is a transaction? 👶**

Answer here

**What is an index? 👶**

略

**What is a view? \u200d⭐️**

A stored query that reads like a table.

**What is a deadlock? 🚀**

_TODO_

**What is a cursor? 🚀**

<details><summary>Answer</summary>

</details>
"""


def test_a_placeholder_answer_is_no_answer(tmp_path):
    report = read(tmp_path, _UNWRITTEN)
    assert questions(report) == [
        "What is a transaction?",
        "What is an index?",
        "What is a view?",
        "What is a deadlock?",
        "What is a cursor?",
    ]
    answers = [q.reference for q in report.bank.questions]
    assert answers == [None, None, "A stored query that reads like a table.", None, None]


_QUOTED = """# 每日一题

## 今日面试题

第 12 题：实现一个节流函数

解析：[第 12 题](https://example.org/issues/12)

<br/>

2024-03-02

> 第 11 题：浏览器的事件循环是怎样的？

解析：[第 11 题](https://example.org/issues/11)

<br/>

2024-03-01

> 第 10 题：用最少的代码实现数组去重
>

解析：[第 10 题](https://example.org/issues/10)
"""


def test_a_marked_question_in_a_quote_is_read_like_an_unquoted_one(tmp_path):
    report = read(tmp_path, _QUOTED)
    assert questions(report) == [
        "实现一个节流函数",
        "浏览器的事件循环是怎样的？",  # after a date, in a quote: no answer of question 12
        "用最少的代码实现数组去重",  # a task, no question mark
    ]
    assert "第 11 题" not in (report.bank.questions[0].reference or "")


_LABELLED = """# 如何通过后端面试

本文列出面试中需要确认你是否懂的点, 并进行一定程度的讨论.

## [存储](/sections/storage.md)

* [`[Basic]` 索引](/sections/storage.md#索引)
* [`[Basic]` 事务](/sections/storage.md#事务)

**常见问题**

* 为什么 B+ 树适合做索引? [[more]](/sections/storage.md#q-index)
* 事务的隔离级别有哪些? 各自解决什么问题? [[more]](/sections/storage.md#q-iso)
* 如何避免死锁?

[阅读更多](/sections/storage.md)

## [网络](/sections/network.md)

**常见问题**

* TCP 为什么要三次握手? [[more]](/sections/network.md#q-hand)
* 什么是 TIME_WAIT? [more](/sections/network.md#q-wait)
"""


def test_a_title_that_asks_over_labelled_lists_of_questions_is_the_title(tmp_path):
    report = read(tmp_path, _LABELLED)
    assert report.bank.title == "如何通过后端面试"
    assert questions(report) == [
        "为什么 B+ 树适合做索引?",  # the [[more]] link after it is no part of it
        "事务的隔离级别有哪些? 各自解决什么问题?",
        "如何避免死锁?",
        "TCP 为什么要三次握手?",
        "什么是 TIME_WAIT?",
    ]  # the bullets that only link to a section are no questions
