"""Exercises numbered by chapter in bold (``**5-1** …？``): the number is a label, not words.

A textbook's question list numbers each exercise with its chapter (``**3-2**``); a
speaker's label after it (``面试官：``) is no part of the question either.
"""

from __future__ import annotations

from imported import questions, read

EXERCISES = """# 第 3 章 习题

## 习题

**3-1** 价值函数和动作价值函数有什么区别？

前者只看状态，后者还看动作。

**3-2** 为什么需要经验回放？

打破样本相关性，并复用数据。

## 面试题

**3-1** 面试官：请说说时序差分和蒙特卡洛的区别？

时序差分每步更新，蒙特卡洛要等回合结束。

**3-2** 面试官：ε-greedy 里的 ε 一般怎么设？

先大后小，逐步衰减。
"""


def test_a_bold_chapter_exercise_number_is_a_label(tmp_path):
    report = read(tmp_path, EXERCISES)
    assert questions(report) == [
        "价值函数和动作价值函数有什么区别？",
        "为什么需要经验回放？",
        "请说说时序差分和蒙特卡洛的区别？",
        "ε-greedy 里的 ε 一般怎么设？",
    ]
    assert all(q.key_points or q.reference for q in report.bank.questions)
