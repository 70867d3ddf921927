"""Failure classes batches 33 to 35 of real public question files showed, part I3: label
lines taken as questions, and the questions under them lost.

Each file here is written for the test, in the shape those files had: numbered level labels
(``1. Basics``) over bullets indented too little to nest under them; lettered lines
(``a. …``) under a numbered heading that only names a round's topic; ``##### refers to
[article](url)`` headings over bullets that ask; emoji level lines with a ``Focus: …?`` line;
a ``* Notes:`` item among questions; ``## 习题N`` labels over a stem and its ``**解答**``; a
``### Q3: 实战问题`` label over a question and a ``点击查看参考答案`` box.
"""

from __future__ import annotations

from imported import questions, read

_LEVELS = """#### Interview Questions

[Part one](https://example.org/part-one)

1. Basics
  - What is a confusion matrix?
  - Explain cross-entropy loss.
  - What is a ROC curve?
  - What are recall and specificity?
  - Explain the curse of dimensionality.
  - How does k-nearest neighbours classify a point?
2. Harder
  - Explain the difference between L1 and L2 penalties.
  - Compare bagging and stacking.
  - Explain kernel methods.
  - How would you compare two rankers offline?
"""


def test_numbered_level_labels_name_the_bullets_under_them(tmp_path):
    report = read(tmp_path, _LEVELS)
    asked = questions(report)
    assert len(asked) == 10 and "Basics" not in asked and "Harder" not in asked
    assert asked[6:] == [
        "Explain the difference between L1 and L2 penalties.",
        "Compare bagging and stacking.",
        "Explain kernel methods.",
        "How would you compare two rankers offline?",
    ]
    assert not any(q.reference or q.key_points for q in report.bank.questions)


_LETTERED = """#### 一面记录
##### 1. 聊项目, 大约二十分钟
##### 2. 八股
a. 什么是梯度爆炸, 怎么缓解|
b. dropout在训练和推理时有什么不同?|
c. 讲一下Adam优化器, 和SGD比有什么好处?|
d, 介绍一下BatchNorm和LayerNorm的区别|

##### 3. 反馈
面试官说基础还可以
""".replace("|\n", "  \n")  # "|": where a hard break's two spaces end the line


def test_lettered_lines_under_a_topic_heading_are_its_questions(tmp_path):
    report = read(tmp_path, _LETTERED)
    assert questions(report)[-4:] == [
        "什么是梯度爆炸, 怎么缓解",
        "dropout在训练和推理时有什么不同?",
        "讲一下Adam优化器, 和SGD比有什么好处?",
        "介绍一下BatchNorm和LayerNorm的区别",
    ]
    assert "八股" not in questions(report)


_POINTED = """### 笔记

##### refers to [面试官如何考察候选人的统计功底？](https://example.org/q/1)

+ 中心极限定理讲的是什么？
  + 独立同分布的样本均值近似服从正态分布
+ p值怎么解释？
+ 如何判断两组数据的方差是否相等？
  + F 检验或 Levene 检验

##### refers to [算法岗面试都问什么？](https://example.org/q/2)
"""


def test_a_heading_that_points_to_an_article_leaves_its_bullets_the_questions(tmp_path):
    report = read(tmp_path, _POINTED)
    assert questions(report) == [
        "中心极限定理讲的是什么？",
        "p值怎么解释？",
        "如何判断两组数据的方差是否相等？",
    ]
    first, _, third = report.bank.questions
    assert "正态分布" in (first.reference or "") + " ".join(first.key_points)
    assert "Levene" in (third.reference or "") + " ".join(third.key_points)


_EMOJI_LEVELS = """Intro: What is a vector database used for?

Chunking: How would you split long documents before embedding them?

🟡 Medium: Retrieval Pipelines
Focus: Can they reason about recall and latency together?

Reranking: Why add a cross-encoder after the first retrieval step?

Caching: Where would you cache results in a RAG service?
"""


def test_a_level_line_and_its_focus_line_are_neither_question_nor_answer(tmp_path):
    report = read(tmp_path, _EMOJI_LEVELS)
    asked = questions(report)
    assert not any("Focus" in q or "Medium" in q for q in asked)
    assert any(q.endswith("before embedding them?") for q in asked)
    chunking = next(q for q in report.bank.questions if "embedding them" in q.question)
    assert not chunking.reference and not chunking.key_points


_NOTES = """## Product sense
* Notes:
  * Start from the user, then the metric.
* How would you measure the success of a new search filter?
  * Name the goal first.
  * Then pick one metric and a guardrail.
* What would you do if daily active users dropped by 5%?
"""


def test_a_notes_item_among_questions_is_no_question(tmp_path):
    report = read(tmp_path, _NOTES)
    assert questions(report) == [
        "How would you measure the success of a new search filter?",
        "What would you do if daily active users dropped by 5%?",
    ]


_EXERCISES = """# 第3章 模型评估

## 习题1
留出法和交叉验证各有什么优缺点？

**解答**

&emsp;&emsp;留出法简单但受划分影响大；交叉验证更稳定但更耗时。

## 习题2
用五折交叉验证比较两个模型，并报告平均准确率

**解答**

&emsp;&emsp;把数据分成五份，轮流用一份做验证集，其余训练，取五次准确率的平均。
"""


def test_an_exercise_label_heading_is_no_question_its_stem_is(tmp_path):
    report = read(tmp_path, _EXERCISES)
    assert questions(report) == [
        "留出法和交叉验证各有什么优缺点？",
        "用五折交叉验证比较两个模型，并报告平均准确率",
    ]
    first, second = report.bank.questions
    assert "受划分影响" in (first.reference or "")
    assert "五次准确率" in (second.reference or "")


_LABELLED = """## 综合问答题

### Q3: 实战问题

训练时损失突然变成 NaN，可能是哪些原因？怎么排查？

<details>
<summary>点击查看参考答案</summary>

学习率过大、除零或对数里出现 0；先打印每层梯度的范数。

</details>

### Q4: 概念理解

为什么预训练之后还需要指令微调？

<details>
<summary>点击查看参考答案</summary>

预训练只学会续写，指令微调让模型学会按要求回答。

</details>
"""


def test_a_label_heading_over_a_question_and_its_answer_box(tmp_path):
    report = read(tmp_path, _LABELLED)
    assert questions(report) == [
        "训练时损失突然变成 NaN，可能是哪些原因？怎么排查？",
        "为什么预训练之后还需要指令微调？",
    ]
    first, second = report.bank.questions
    assert "梯度的范数" in (first.reference or "")
    assert "按要求回答" in (second.reference or "")


_TODO_NOTES = """## 深度学习

- 类别不平衡怎么办(?)
- 为什么残差连接能让深层网络更好训练？(paper to read!!)
  - 梯度可以沿恒等映射直接回传
- loss: 有哪些方式(to be concluded)
  - hinge
  - cross entropy
"""


def test_a_note_to_oneself_after_a_question_leaves_it(tmp_path):
    report = read(tmp_path, _TODO_NOTES)
    assert questions(report) == [
        "类别不平衡怎么办",
        "为什么残差连接能让深层网络更好训练？",
        "loss: 有哪些方式",
    ]
    assert "恒等映射" in " ".join(report.bank.questions[1].key_points) + (
        report.bank.questions[1].reference or ""
    )
