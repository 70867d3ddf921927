"""Failure classes an eighteenth batch of real public question files showed (issue 34), part S.

Each file here is written for the test, in the shape those files had: a lecture quiz whose
headings number each question and name its kind in brackets (``### Q3 (MCQ)``) over the line
that asks, its answer hidden in a Hugo ``spoiler`` shortcode; a ``### 12. …汇总`` heading over
bullets that ask and answer on one line (``- …？答：…``); task items whose body is only
``**To Do**``; and a bold item that opens with a size (``- **3 x 3卷积的作用**``).
"""

from __future__ import annotations

from imported import previewed, questions, read

_TYPED_LABELS = """# Lecture 7 quiz

### Q1 (MCQ)
Which part of a transformer lets each token look at the others?

A. The feed-forward layer
B. Self-attention
C. The embedding table

{{< spoiler text="Answer + Explanation" >}}
**B**. Self-attention mixes information across positions.
{{< /spoiler >}}

---

### Q2 (Objective)
What does a causal mask hide from a token?

{{< spoiler text="Answer + Explanation" >}}
Every token that comes after it.
{{< /spoiler >}}

---

### Q3 (Final Reflection)
What habit makes a model evaluation trustworthy?

{{< spoiler text="Answer" >}}
Keeping the test set apart until the very end.
{{< /spoiler >}}
"""


def test_a_numbered_heading_naming_its_kind_labels_the_line_that_asks(tmp_path):
    report = read(tmp_path, _TYPED_LABELS)
    assert questions(report) == [
        "Which part of a transformer lets each token look at the others?",
        "What does a causal mask hide from a token?",
        "What habit makes a model evaluation trustworthy?",
    ]
    choice, objective, reflection = report.bank.questions
    assert choice.reference.startswith("A. The feed-forward layer")  # the options, then the key
    assert "**B**. Self-attention mixes information across positions." in choice.reference
    assert objective.reference == "Every token that comes after it."
    assert reflection.reference == "Keeping the test set apart until the very end."
    for question in report.bank.questions:  # the spoiler's wrapper is no part of an answer
        assert "spoiler" not in question.reference
        assert "<details" not in question.reference and "</details>" not in question.reference


def test_the_preview_takes_the_asking_lines_not_the_labels(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _TYPED_LABELS)
    assert "Total: 3 question(s)" in shown
    assert "first: Q1 Which part of a transformer lets each token look at the others?" in shown
    assert "(MCQ)" not in shown and "asked again" not in shown


_TYPED_LABEL_THAT_DOES_NOT_ASK = """# Notes

### Q1 (Summary)
Attention weights sum to one over the keys.

### Q2 (MCQ)
Which norm does a transformer block use most often?

Layer norm.
"""


def test_a_kind_label_over_a_statement_is_no_question(tmp_path):
    report = read(tmp_path, _TYPED_LABEL_THAT_DOES_NOT_ASK, force=True)
    assert "Attention weights sum to one over the keys." not in questions(report)
    assert "Which norm does a transformer block use most often?" in questions(report)


_GATHERED = """# 后端面试笔记

### 1. 什么是缓存穿透？

查询一个不存在的键，每次都打到数据库。

### 2. 为什么要限流？

保护下游服务不被突发流量压垮。

### 3. 常见追问汇总

**设计追问**：
- 缓存一定更快吗？答：不一定，未命中时多一次查询。
- 限流和熔断怎么选？答：限流管入口流量，熔断管下游故障。

**运维追问**：
- 服务挂了怎么办？答：先降级保住核心功能，再排查根因。

**参考资料**：
- 限流算法综述：<https://example.org/rate-limit>
"""


def test_bullets_that_ask_and_answer_under_a_gathering_heading_are_questions(tmp_path):
    report = read(tmp_path, _GATHERED)
    assert questions(report) == [
        "什么是缓存穿透？",
        "为什么要限流？",
        "缓存一定更快吗？",
        "限流和熔断怎么选？",
        "服务挂了怎么办？",
    ]
    answers = [q.reference for q in report.bank.questions[2:]]
    assert answers == [
        "不一定，未命中时多一次查询。",
        "限流管入口流量，熔断管下游故障。",
        "先降级保住核心功能，再排查根因。",
    ]


def test_the_preview_counts_the_gathered_questions(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _GATHERED)
    assert "Total: 5 question(s)" in shown
    assert "5 with a reference answer" in shown
    assert "last: Q5 服务挂了怎么办？" in shown


_ASKING_HEADING_OVER_ANSWER = """# 笔记

### 1. 缓存有哪些常见问题？

- 缓存穿透：查不存在的键。
- 缓存雪崩：大量键同时过期。

### 2. 为什么要限流？

保护下游服务。
"""


def test_an_ordinary_answer_list_stays_the_answer(tmp_path):
    report = read(tmp_path, _ASKING_HEADING_OVER_ANSWER)
    assert questions(report) == ["缓存有哪些常见问题？", "为什么要限流？"]
    assert report.bank.questions[0].key_points == (
        "缓存穿透：查不存在的键。",
        "缓存雪崩：大量键同时过期。",
    )


_TO_DO = """# 算法面试记录

### 一、算法题

- [x] **两个链表是否相交？**

  先比较尾结点，再对齐长度逐个比较。

- [ ] **二叉树后序遍历的非递归实现？**

  **To Do**

- [ ] **求一个数的平方根，精度 0.01？**

  **TO DO**  查书和网络资源

- [ ] **如何判断一个图有环？**

  TODO

- [ ] **如何找出数组中的众数？**

  待补充
"""


def test_a_placeholder_body_is_no_answer(tmp_path):
    report = read(tmp_path, _TO_DO)
    assert questions(report) == [
        "两个链表是否相交？",
        "二叉树后序遍历的非递归实现？",
        "求一个数的平方根，精度 0.01？",
        "如何判断一个图有环？",
        "如何找出数组中的众数？",
    ]
    answered, *placeholders = report.bank.questions
    assert answered.reference == "先比较尾结点，再对齐长度逐个比较。"
    assert [q.reference for q in placeholders] == [None, None, None, None]


def test_a_sentence_that_opens_with_to_do_stays_an_answer(tmp_path):
    text = "# Notes\n\n### 1. Why batch writes?\n\nTo do so, group them per partition first.\n"
    report = read(tmp_path, text)
    assert report.bank.questions[0].reference == "To do so, group them per partition first."


_SIZES = """# 视觉面经

- **3 x 3卷积为什么比 5 x 5 卷积更常用？**

  两个 3 x 3 的感受野等于一个 5 x 5，参数更少。

- **1 × 1卷积有什么作用？**

  1. 跨通道整合信息
  2. 升维和降维

- **池化层有什么作用？**

  降低分辨率，扩大感受野。
"""


def test_a_size_that_opens_a_bold_item_is_part_of_its_question(tmp_path):
    report = read(tmp_path, _SIZES)
    assert questions(report) == [
        "3 x 3卷积为什么比 5 x 5 卷积更常用？",
        "1 × 1卷积有什么作用？",
        "池化层有什么作用？",
    ]
    assert report.bank.questions[1].key_points == ("跨通道整合信息", "升维和降维")


def test_the_preview_sees_no_numbering_restart_in_sizes(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _SIZES)
    assert "Total: 3 question(s)" in shown
    assert "numbering restarts" not in shown
