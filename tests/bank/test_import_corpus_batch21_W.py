"""Failure classes a twenty-first batch of real public question files showed (issue 34), part W.

Each file here is written for the test, in the shape those files had: every question an ``# H1``
heading between rules, some with answers, some bare, two of the bare ones asking only after a
leading statement (``… Pick one and defend it.``) or mid-line (``… why? and list the costs.``);
numbered ``### N. …？`` cards under ``## 一. …`` sections, one whose answer holds worked examples
(``问：…？答：…``) and a line that asks on its way (``那什么是X？分两种情况：``), one with a
deeper sub-question heading numbered under it (``#### 3.1 …？``).
"""

from __future__ import annotations

from imported import previewed, questions, read

_ONE_PER_HEADING = """\
# Can a small model grade a large one?
Only for narrow checks, and never without a human sample.

---
# Your index is fast in staging and slow in production. How would you find out why?

Compare the query mix, the shard sizes and the cache hit rate.

---
# Latency, quality and cost pull apart in every release. Pick one to give up and defend it.

---
# A shop keeps 40 million product pages. Which search backend would you start with and, above all, why? and list what it costs you.
# When is a rules engine better than a model?
# Closing thoughts. Thanks for reading.
"""


def test_a_bare_heading_that_asks_after_a_statement_is_a_question(tmp_path):
    report = read(tmp_path, _ONE_PER_HEADING, "guide.md")
    assert questions(report) == [
        "Can a small model grade a large one?",
        "Your index is fast in staging and slow in production. How would you find out why?",
        "Latency, quality and cost pull apart in every release. Pick one to give up and defend it.",
        "A shop keeps 40 million product pages. Which search backend would you start with and,"
        " above all, why? and list what it costs you.",
        "When is a rules engine better than a model?",
    ]
    answers = [q.reference for q in report.bank.questions]
    assert answers[0] == "Only for narrow checks, and never without a human sample."
    assert answers[2] is None and answers[3] is None


def test_the_preview_counts_the_headings_that_set_a_task(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _ONE_PER_HEADING, "guide.md")
    assert "5 question(s)" in shown
    assert "Found in: 5 headings" in shown
    assert "Closing thoughts" not in shown


_CARDS = """\
# GPU 面试

## 一. 基础

### 1. 什么是warp？
一组同时调度的32个线程。

### 2. 寄存器溢出的定义是什么？（易错）
寄存器不够时变量被放进本地内存，访问变慢。

那什么是本地内存？分两种情况：
1. 数组下标不是常量
2. 单个线程用的寄存器超过上限

问：每线程用64个寄存器会不会溢出？答：不会（上限是255）

问：循环里开一个大数组会不会溢出？答：会（下标不是常量）

### 3. 怎么让一个kernel少用寄存器？
用启动边界告诉编译器每个block的线程数。

#### 3.1 启动边界和最大寄存器选项的区别
前者按kernel，后者对整个文件。

#### 3.2 编译器怎么报告寄存器用量？
编译时加上详细输出选项，会打印每个kernel的寄存器数。

## 二. 调度

### 4. 为什么要隐藏访存延迟？
访存要几百个周期，切换warp可以把这段时间用起来。
"""


def test_a_numbered_card_keeps_its_worked_examples_and_owns_its_sub_question(tmp_path):
    report = read(tmp_path, _CARDS, "gpu.md")
    assert questions(report) == [
        "什么是warp？",
        "寄存器溢出的定义是什么？（易错）",
        "怎么让一个kernel少用寄存器？",
        "编译器怎么报告寄存器用量？",
        "为什么要隐藏访存延迟？",
    ]
    answers = [q.reference or "" for q in report.bank.questions]
    assert "那什么是本地内存？分两种情况：" in answers[1]
    assert "问：循环里开一个大数组会不会溢出？答：会（下标不是常量）" in answers[1]
    assert "启动边界和最大寄存器选项的区别" in answers[2]  # a sub-part that does not ask
    assert "编译时加上详细输出选项" not in answers[2]
    assert answers[3] == "编译时加上详细输出选项，会打印每个kernel的寄存器数。"


def test_the_preview_lists_the_worked_examples_as_kept_in_the_answer(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _CARDS, "gpu.md")
    assert "5 question(s) in 2 chapter(s)" in shown
    assert "0 question-like line(s) not taken" in shown
    kept = shown.split("Asking lines kept in an answer, not as questions (2):")[1]
    assert "line 15: 问：每线程用64个寄存器会不会溢出？答：不会（上限是255）" in kept
    assert "last: Q4 编译器怎么报告寄存器用量？" in shown


def test_a_marked_follow_up_under_a_card_is_still_its_own_question(tmp_path):
    text = """\
# 笔记

### 5、讲讲注意力的结构
先投影成查询、键和值，再按头切分。

问题：多头之间的参数共享吗？

不共享，每个头有自己的投影。

### Q6：为什么要做缩放？
防止点积过大让softmax饱和。

**追问：不缩放会怎样？**
梯度变得很小，训练变慢。
"""
    report = read(tmp_path, text)
    assert questions(report) == [
        "讲讲注意力的结构",
        "多头之间的参数共享吗？",
        "为什么要做缩放？",
        "不缩放会怎样？",
    ]
