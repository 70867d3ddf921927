"""Failure classes a thirteenth batch of real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had: a numbered list whose
items open with a bold question and answer it on the same line (``3.  **What is BM25?**
A ranking function …``, the bold ending in ``.`` where it is an order: ``**Describe
sharding.**``); a heading that numbers a topic (``## Q2 哈希表``) over the paragraph
that asks, its options and an answer box (``<details><summary>答案</summary><div>``); an
interview write-up whose ``> 面试官提问:`` blocks hold the questions and whose ``> 我提问:``
blocks hold what the candidate asked the company (the reply in parentheses).
"""

from __future__ import annotations

from imported import previewed, questions, read

_INLINE = """# Search Interview Cheatsheet

## Basics

1.  **What is an inverted index?** A map from each term to the documents holding it.
2.  **BM25 vs TF-IDF?** BM25 saturates term frequency and normalises by length.
3.  **Describe sharding.** Splitting the index by document across nodes; queries fan out.
4.  **Why use a skip list in a posting list?** It lets intersections jump ahead.

## Design

**Q: Design an autocomplete service.**
- **Data:** query logs, counted per prefix.
- **Serving:** a trie in memory.
"""


def test_a_bold_question_keeps_the_rest_of_its_line_as_its_answer(tmp_path):
    report = read(tmp_path, _INLINE)
    assert questions(report) == [
        "What is an inverted index?",
        "BM25 vs TF-IDF?",
        "Describe sharding.",
        "Why use a skip list in a posting list?",
        "Design an autocomplete service.",
    ]
    answers = [q.reference or "; ".join(q.key_points) for q in report.bank.questions]
    assert answers[0] == "A map from each term to the documents holding it."
    assert answers[2] == "Splitting the index by document across nodes; queries fan out."
    assert "trie" in answers[4]
    assert all(answers)


_NOT_ANSWERS = """# Quick checks

1. **What is a bloom filter?** (asked at Google)
2. **Which is faster?** A hash map or a tree map?
3. **Caching** is hard: why does invalidation fail?
"""


def test_a_note_or_a_second_question_after_the_bold_is_no_answer(tmp_path):
    report = read(tmp_path, _NOT_ANSWERS)
    found = {q.question: q.reference for q in report.bank.questions}
    assert len(found) == 3  # all three are questions: the checks below are about their answers
    assert found.get("What is a bloom filter?") is None
    assert all("bloom filter" not in (answer or "") for answer in found.values())
    assert not any(answer == "A hash map or a tree map?" for answer in found.values())
    assert not any(q == "Caching" for q in found)


def test_the_preview_counts_every_inline_answer(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _INLINE)
    assert "5 question(s) in 2 chapter(s); 4 with a reference answer, 1 with key points" in shown


_TOPICS = """---
title: 数据结构选择题 1-3
---

## Q1 哈希表

哈希表在装载因子过高时，最常见的问题是：

- A 内存不足
- B 冲突增多，查找变慢
- C 无法插入

<details>
<summary>答案</summary>
<div>

**B** 装载因子越高，冲突越多，链越长。
</div>
</details>

## Q2 堆

下面哪种操作在二叉堆上是 O(log n)。

<details>
<summary>答案</summary>
<div>

插入和删除堆顶都是 O(log n)。
</div>
</details>

## Q3 跳表

简述跳表的查找过程。

答案：从最高层向右走，走不动就下一层。
"""


def test_the_paragraph_under_a_numbered_topic_heading_is_the_question(tmp_path):
    report = read(tmp_path, _TOPICS)
    assert questions(report) == [
        "哈希表在装载因子过高时，最常见的问题是：",
        "下面哪种操作在二叉堆上是 O(log n)。",
        "简述跳表的查找过程。",
    ]
    first, second, third = report.bank.questions
    assert "链越长" in first.reference and "冲突增多" in first.reference
    assert second.reference == "插入和删除堆顶都是 O(log n)。"
    assert "<div>" not in first.reference and "<details>" not in first.reference
    assert "最高层" in third.reference


_TOPIC_NOTES = """# 笔记

## Q1 哈希表

哈希表是一种按键直接寻址的结构。

冲突用链表或开放寻址解决。

## Q2 堆

堆是一棵完全二叉树。
"""


def test_a_topic_heading_with_no_answer_box_keeps_its_notes_as_the_answer(tmp_path):
    report = read(tmp_path, _TOPIC_NOTES)
    assert questions(report) == ["哈希表", "堆"]
    assert "按键直接寻址" in report.bank.questions[0].reference


def test_the_preview_says_each_question_sits_on_the_line_that_asks(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _TOPICS)
    assert "first: Q1 哈希表在装载因子过高时" in shown
    assert "last: Q3 简述跳表的查找过程。" in shown
    assert "Took 3 question(s): 1 of the file's 1 asking line(s), 2 that do not ask" in shown


_WRITE_UP = """# 实习面经

#### 第一段面试：小公司

> 面试官提问:
<br/>
1.讲讲 Transformer 的注意力机制？
<br/>
2.LoRA 为什么能省显存？

> 我提问:
<br/>
1.团队有多少人？(5 个人)
<br/>
2.实习生做什么工作？(做数据和微调)

> 总结:
<br/>
小公司更看重动手能力。

#### 第二段面试：中厂

面试官向我提问:

1. 什么是 KV Cache？
2. 为什么推理时显存会涨？

反问环节：

- 部门做什么业务？
- 转正比例是多少？
"""


def test_the_candidates_own_questions_are_listed_and_answer_nothing(tmp_path):
    report = read(tmp_path, _WRITE_UP)
    assert questions(report) == [
        "讲讲 Transformer 的注意力机制？",
        "LoRA 为什么能省显存？",
        "什么是 KV Cache？",
        "为什么推理时显存会涨？",
    ]
    assert all(q.reference is None for q in report.bank.questions)
    theirs = [s.text for s in report.skipped if "candidate's own" in s.why]
    assert theirs == [
        "1.团队有多少人？(5 个人)",
        "2.实习生做什么工作？(做数据和微调)",
        "部门做什么业务？",
        "转正比例是多少？",
    ]


def test_the_preview_neither_lists_them_as_lost_nor_suggests_taking_them(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _WRITE_UP)
    assert "4 × the candidate's own question (反问)" in shown
    assert "Took 4 question(s): 4 of the file's 4 asking line(s)" in shown
    assert "Asking lines not taken" not in shown and "Try --questions" not in shown
    assert shown.endswith("--name q")
