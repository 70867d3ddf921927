"""Failure classes a twenty-seventh batch of real public question files showed, part I.

Each file here is written for the test, in the shape those files had: a blog quiz of
``## 第N题`` label headings over a stem, unlettered options and a ``正确答案：…`` line;
a question paragraph whose options are followed by ``Correct answer: …``.
"""

from __future__ import annotations

from imported import questions, read

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
