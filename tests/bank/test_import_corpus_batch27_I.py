"""Failure classes a twenty-seventh batch of real public question files showed, part I.

Each file here is written for the test, in the shape those files had: a blog quiz of
``## 第N题`` label headings over a stem, unlettered options and a ``正确答案：…`` line;
a question paragraph whose options are followed by ``Correct answer: …``; a blog of notes
whose bullets under a definition open with a task verb (``计算…``) over bare questions a
paragraph each, one a topic without a question mark; a plain-text guide of numbered chapter
lines whose job duties open with ``设计…``; exercises whose ``<details>`` box has its
``<summary>`` on the line under the tag and ``<br>`` ending its lines.
"""

from __future__ import annotations

from imported import previewed, questions, read

_LABELLED = """---
title: 排序测验
---

## 第1题

A list of ten numbers is already sorted. Which algorithm finishes fastest on it?

- insertion sort
- selection sort

正确答案：第1项。插入排序在有序输入上只比较一次。

--------------------

## 第2题

A hash table doubles its size when it is full.

   ![](/img/grow.png)

What is the amortised cost of one insertion?

- O(1)
- O(n)

正确答案： 第1项。摊还后每次插入是常数时间。

--------------------

## 第3题

Merge sort is stable.

- True
- False

正确答案：True。
"""


def test_a_correct_answer_line_after_the_options_opens_the_answer(tmp_path):
    report = read(tmp_path, _LABELLED)
    assert questions(report) == [
        "A list of ten numbers is already sorted. Which algorithm finishes fastest on it?"
        "\n- insertion sort\n- selection sort",
        "A hash table doubles its size when it is full.\nWhat is the amortised cost of one"
        " insertion?\n- O(1)\n- O(n)",
        "Merge sort is stable.\n- True\n- False",
    ]
    assert [q.reference for q in report.bank.questions] == [
        "第1项。插入排序在有序输入上只比较一次。",
        "第1项。摊还后每次插入是常数时间。",
        "True。",
    ]
    assert all(not q.key_points for q in report.bank.questions)


_PARAGRAPHS = """# Planets

Which planet has the most moons?

- Earth
- Saturn

Correct answer: Saturn, with more than a hundred.

行星中哪颗最热？

- 水星
- 金星

答案：金星，因为温室效应。
"""


def test_options_before_an_answer_label_stay_with_the_question(tmp_path):
    report = read(tmp_path, _PARAGRAPHS)
    assert questions(report) == [
        "Which planet has the most moons?\n- Earth\n- Saturn",
        "行星中哪颗最热？\n- 水星\n- 金星",
    ]
    assert [q.reference for q in report.bank.questions] == [
        "Saturn, with more than a hundred.",
        "金星，因为温室效应。",
    ]
    assert all(not q.key_points for q in report.bank.questions)


_NOTES = """# 学习笔记

## 卷积网络
卷积网络是一种用滑动窗口提取局部特征的网络。

- 卷积层 参数共享
    - 计算窗口内像素与卷积核的加权和
    - 保留空间结构

为什么卷积比全连接省参数？
权重共享

- 稀疏连接
- 平移不变

## 高频问题

进程和线程有什么区别？

死锁是怎么产生的？

TCP 为什么要三次握手？

什么是虚拟内存？

Redis 为什么快？

索引失效常见场景

## 手写题

LRU 缓存怎么实现？
"""


def test_a_task_verb_bullet_under_a_definition_is_a_note(tmp_path, invoke):
    report = read(tmp_path, _NOTES)
    assert questions(report) == [
        "为什么卷积比全连接省参数？",
        "进程和线程有什么区别？",
        "死锁是怎么产生的？",
        "TCP 为什么要三次握手？",
        "什么是虚拟内存？",
        "Redis 为什么快？",
        "索引失效常见场景",
        "LRU 缓存怎么实现？",
    ]
    first = report.bank.questions[0]
    assert first.reference is not None and "权重共享" in first.reference
    assert "稀疏连接" in first.reference
    assert report.bank.questions[5].reference is None  # "Redis 为什么快？": nothing answers it
    shown = previewed(invoke, tmp_path, _NOTES)
    assert "Left on purpose" in shown and "a line of what a thing does" in shown


_TASKS = """# 作业

本周练习下面几道题，每道都要写出代码。

- 实现一个 LRU 缓存
- 设计一个短链系统
"""


def test_a_list_of_tasks_under_a_sentence_still_asks(tmp_path):
    assert questions(read(tmp_path, _TASKS)) == ["实现一个 LRU 缓存", "设计一个短链系统"]


_GUIDE = """数据工程师 面试准备

1. 岗位职责
数据工程师

负责公司数据平台的建设与维护。

搭建离线数仓（Hive、Spark）

治理数据质量与血缘

设计调度系统（依赖管理、失败重跑）

维护实时链路

2. 技能要求

基础：SQL，Python，Linux

3. 常见问题

数仓为什么要分层？
分层让口径统一、复用方便、问题好定位。

如何处理数据倾斜？
加盐打散热点 key，或者先局部聚合再全局聚合。

4. 简历建议

写清数据量级与收益

突出治理经验
"""


def test_a_duty_line_is_no_question_and_a_numbered_chapter_ends_the_answer(tmp_path, invoke):
    report = read(tmp_path, _GUIDE, name="guide.md")
    assert questions(report) == ["数仓为什么要分层？", "如何处理数据倾斜？"]
    assert [q.reference for q in report.bank.questions] == [
        "分层让口径统一、复用方便、问题好定位。",
        "加盐打散热点 key，或者先局部聚合再全局聚合。",
    ]
    shown = previewed(invoke, tmp_path, _GUIDE, "guide.md")
    assert "设计调度系统" not in shown.split("Left on purpose")[0]
    assert "0 question-like line(s) not taken" in shown


_BOXED = """# 练习

### 1. 哪种排序在有序输入上最快？
- A、 插入排序
- B、 选择排序
<details>
  <summary>查看答案与解析</summary>
  答案：A<br>
  解析：插入排序只比较一次。
</details>

### 2. 为什么哈希表查找快？
<details>
  <summary>查看答案与解析</summary>
  答案：按键直接算出位置<br>
  解析：不用逐个比较。
</details>
"""


def test_an_answer_box_with_its_summary_on_the_next_line_gives_its_text(tmp_path):
    report = read(tmp_path, _BOXED)
    assert questions(report) == [
        "哪种排序在有序输入上最快？\n- A. 插入排序\n- B. 选择排序",
        "为什么哈希表查找快？",
    ]
    for q in report.bank.questions:
        assert q.reference is not None
        assert "<details" not in q.reference and "<summary" not in q.reference
        assert "<br>" not in q.reference and "解析：" in q.reference
