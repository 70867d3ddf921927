"""Failure classes a sixteenth batch of real public question files showed (issue 34), part M.

Each file here is written for the test, in the shape those files had: MkDocs admonitions
whose title is not quoted (``!!! question Why …?``) or only labels the box
(``!!! question "Senior checkpoint"`` over the question itself), and ``**Label:** …``
paragraphs whose question word is the label's.
"""

from __future__ import annotations

from imported import previewed, questions, read

_UNQUOTED = """---
title: "Decision trees"
---

## Decision trees

!!! note The trouble with depth: too many splits
    How deep should a tree grow before it starts memorising the data?<br>
    Suppose our training set has two rows.<br>

Some prose follows here.

!!! question Why is a single deep tree "unstable"?
    A small change in the training rows can change the first split.<br>
    Everything below that split changes with it.<br>

!!! note inline end
    A placement class, not a title.
"""


def test_an_unquoted_admonition_title_is_the_question_and_its_body_the_answer(tmp_path):
    report = read(tmp_path, _UNQUOTED)
    assert questions(report) == ['Why is a single deep tree "unstable"?']
    (tree,) = report.bank.questions
    assert "change the first split" in (tree.reference or "")
    assert "placement class" not in (tree.reference or "")


def test_the_preview_shows_the_unquoted_title_without_the_box_marker(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _UNQUOTED)
    assert 'Q1 Why is a single deep tree "unstable"?' in shown
    assert "!!!" not in shown


_LABELLED = """# Week 3 — Caching and queues

## Card one — Caching

**What to read, in order:** Start with cache-aside and move to write-through when needed.

```mermaid
flowchart LR
    A --> B
```

!!! example "TRY IT"
    Put a cache in front of a slow service and time it.

!!! question "Senior checkpoint"
    When does a cache make latency worse instead of better?

**Links**

- Required: [Caching guide](https://example.com/cache) — An overview.

---

## Card two — Queues

**What to read, in order:** Learn why producers and consumers need back-pressure.

!!! question "Senior checkpoint"
    How would you stop a slow consumer from losing messages?

**Links**

- Required: [Queue guide](https://example.com/q) — Another overview.
"""


def test_a_question_box_titled_with_a_label_holds_its_question_in_the_body(tmp_path):
    report = read(tmp_path, _LABELLED)
    assert questions(report) == [
        "When does a cache make latency worse instead of better?",
        "How would you stop a slow consumer from losing messages?",
    ]
    # the checkpoints are answered aloud: what follows the box is not their answer
    assert all(q.reference is None for q in report.bank.questions)


def test_the_preview_names_no_label_as_a_question_or_a_repeat(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _LABELLED)
    assert "Senior checkpoint" not in shown
    assert "What to read" not in shown
    assert "asked again" not in shown
    assert "Took 2 question(s): 2 of the file's 2 asking line(s)" in shown


def test_a_bold_label_over_a_task_still_sets_the_task(tmp_path):
    text = "# Take-home\n\n**What to build:** Implement an LRU cache with O(1) get and put.\n"
    assert questions(read(tmp_path, text)) == [
        "What to build: Implement an LRU cache with O(1) get and put."
    ]


_SELF_TEST = """---
title: 03 · 传输层协议
---

# 03 · 传输层协议

> TCP 和 UDP 有什么区别？这一篇讲清楚。

## ① 一句话秒懂
TCP 是挂号信，UDP 是明信片。

## ② 生活类比
- **TCP**：要签收的快递。
- **UDP**：广播喇叭，喊完就走。

## ③ 核心概念（大白话 + 原书定义）

**两种协议**：
- **TCP**：面向连接，可靠，有序。
- **UDP**：无连接，尽力而为。

## ④ 考试怎么考
- TCP 与 UDP 的区别。
- 三次握手各步骤。

## ⑤ 自测
1. 建立一条 TCP 连接需要几次握手？（答：三次：SYN、SYN-ACK、ACK）
2. 视频通话通常用哪种传输协议？(答: UDP，丢几帧比卡顿好)
3. 哪一层负责端到端的可靠传输？（答：传输层（第四层））
"""


def test_an_inline_bracketed_answer_is_the_answer_and_circled_sections_are_no_questions(
    tmp_path,
):
    report = read(tmp_path, _SELF_TEST)
    assert questions(report) == [
        "建立一条 TCP 连接需要几次握手？",
        "视频通话通常用哪种传输协议？",
        "哪一层负责端到端的可靠传输？",
    ]
    answers = [q.reference for q in report.bank.questions]
    assert answers == ["三次：SYN、SYN-ACK、ACK", "UDP，丢几帧比卡顿好", "传输层（第四层）"]


def test_the_preview_counts_the_self_test_and_suggests_no_heading_level(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _SELF_TEST)
    assert "Took 3 question(s): 3 of the file's 3 asking line(s), 0 that do not ask" in shown
    assert "3 with a reference answer" in shown
    assert "一句话秒懂" not in shown and "考试怎么考" not in shown
    assert "--level" not in shown


def test_a_circled_number_heading_that_asks_is_still_a_question(tmp_path):
    text = "# 笔记\n\n## ① 为什么需要三次握手？\n防止旧的连接请求突然到达。\n"
    report = read(tmp_path, text)
    assert questions(report) == ["为什么需要三次握手？"]
    assert "旧的连接请求" in (report.bank.questions[0].reference or "")


_FOLLOW_UPS = """# 追问

## 基础
- 为什么 LayerNorm 放在残差之前训练更稳？
- 注意力矩阵的形状是什么？画出每一维。
- 每个注意力头都需要单独的投影矩阵吗？请估算 7B 模型里这些投影一共占多少参数和显存。

## 进阶
- 什么是 FlashAttention？它如何减少显存读写？
- 解释 RoPE 如何编码相对位置。
"""


def test_an_item_that_asks_then_sets_a_task_is_one_question(tmp_path):
    report = read(tmp_path, _FOLLOW_UPS)
    assert questions(report) == [
        "为什么 LayerNorm 放在残差之前训练更稳？",
        "注意力矩阵的形状是什么？画出每一维。",
        "每个注意力头都需要单独的投影矩阵吗？请估算 7B 模型里这些投影一共占多少参数和显存。",
        "什么是 FlashAttention？它如何减少显存读写？",
        "解释 RoPE 如何编码相对位置。",
    ]


def test_the_preview_lists_no_follow_up_as_left_out(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _FOLLOW_UPS)
    assert "Took 5 question(s)" in shown
    assert "neither taken" not in shown and "画出每一维" not in shown.split("Took")[1]


def test_a_question_answered_in_the_next_sentence_stays_in_the_answer(tmp_path):
    text = "# 笔记\n\n## 残差连接解决了什么问题？\n\n梯度为什么会消失？因为连乘的导数都小于一。\n"
    report = read(tmp_path, text)
    assert questions(report) == ["残差连接解决了什么问题？"]
    assert "因为连乘的导数都小于一" in (report.bank.questions[0].reference or "")
