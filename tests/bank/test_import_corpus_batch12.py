"""Failure classes a twelfth batch of real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had: a label or an id
code in front of a question (``面试问题 3：``, ``OPS-014 · ``, ``(B) ``, ``Q7.2)``,
``Q:4) : ``); follow-ups under a bare ``**追问**：`` label or a ``#### 追问`` heading;
a bold level line (``**L2**``) and a ``#### 答案`` heading opening each answer; numbered
lines flagged ``TODO:``; lone ``<br>`` lines, an arrow (``↳``) in front of a heading and
an empty ``> ☞`` quote where an answer would be.
"""

from __future__ import annotations

from imported import previewed, questions, read

_PROJECTS = """# 后端项目面试题

## 项目一：订单系统

### 面试问题 1：如何保证订单号全局唯一？

**参考答案**：

用号段模式预取，每台机器一段，耗尽再取。

**追问**：
- 号段服务挂了怎么办？
- 如何避免号段浪费？

### 面试问题 2：如何防止重复下单？

**参考答案**：

前端置灰按钮，后端用幂等键去重。

**追问**：
- 幂等键存在哪里？
- 幂等键多久过期？
"""


def test_a_numbered_interview_label_leaves_the_question_and_every_follow_up_is_taken(tmp_path):
    report = read(tmp_path, _PROJECTS)
    assert questions(report) == [
        "如何保证订单号全局唯一？",
        "号段服务挂了怎么办？",
        "如何避免号段浪费？",
        "如何防止重复下单？",
        "幂等键存在哪里？",
        "幂等键多久过期？",
    ]
    first, follow_up = report.bank.questions[:2]
    assert "号段模式" in first.reference and "号段服务" not in first.reference
    assert follow_up.reference is None and not follow_up.key_points
    assert not report.skipped


def test_the_preview_lists_no_follow_up_as_a_question_with_no_text(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _PROJECTS)
    assert "Took 6 question(s): 6 of the file's 6 asking line(s)" in shown
    assert "no text" not in shown


_CODES = """# 运维手写题

## 容器

### OPS-014 · 手写一个 Dockerfile 的多阶段构建，为什么能减小镜像？

**L2**

#### 答案

构建阶段装编译工具，运行阶段只拷产物。

#### 易错点

- 把源码也拷进运行镜像。

#### 追问

- 如何让依赖层命中缓存？

### OPS-015 · 实现容器的健康检查并说明失败后的行为。

**L1**

#### 答案

HEALTHCHECK 定时执行命令，连续失败后标记 unhealthy。

#### 追问

- 编排器看到 unhealthy 会做什么？
"""


def test_id_codes_leave_the_question_and_follow_ups_under_a_heading_are_questions(tmp_path):
    report = read(tmp_path, _CODES)
    assert questions(report) == [
        "手写一个 Dockerfile 的多阶段构建，为什么能减小镜像？",
        "如何让依赖层命中缓存？",
        "实现容器的健康检查并说明失败后的行为。",
        "编排器看到 unhealthy 会做什么？",
    ]
    first, follow_up, second, _ = report.bank.questions
    assert follow_up.reference is None
    assert "如何让依赖层命中缓存" not in first.reference


def test_a_bold_level_line_is_a_tag_and_an_answer_heading_is_no_part_of_the_answer(tmp_path):
    first, _, second, _ = read(tmp_path, _CODES).bank.questions
    assert "level:l2" in first.tags and "level:l1" in second.tags
    assert first.reference.startswith("构建阶段装编译工具")
    assert "易错点" in first.reference  # the answer's own sections stay
    assert second.reference == "HEALTHCHECK 定时执行命令，连续失败后标记 unhealthy。"


def test_a_level_line_alone_is_not_taken_for_a_tag_inside_an_answer(tmp_path):
    text = "### 什么是 L2 正则？\n\n权重平方和加入损失。\n\n**L2**\n"
    (question,) = read(tmp_path, text).bank.questions
    assert question.tags == () and "**L2**" in question.reference


_TODO = """## 单选题

TODO:1、考查数组去重

```js
[...new Set([1, 1, 2])]
```

> 答案：[1, 2]

TODO:2、考查闭包

```js
for (var i = 0; i < 3; i++) setTimeout(() => console.log(i))
```

> 答案：3 3 3

3、考查箭头函数的 this

```js
const o = { f: () => this }
```

> 答案：undefined
"""


def test_a_todo_flag_does_not_hide_a_numbered_question(tmp_path):
    report = read(tmp_path, _TODO)
    assert questions(report) == ["考查数组去重", "考查闭包", "考查箭头函数的 this"]
    assert all(q.reference for q in report.bank.questions)
    assert "new Set" in report.bank.questions[0].reference


_NOTES = """###### What is a data pipeline? Why build one?

> ☞ A chain of steps that moves data from sources to where it is used.

<br>

---

###### (B) What is the difference between ETL and ELT?

ETL transforms before loading; ELT loads raw data and transforms in the warehouse.

<br>

---

###### Q7.1) **What is a slowly changing dimension?**

###### Q7.2) **Which type would you pick for addresses?**

---

###### Q:4) : what is a data lake

A store of raw files in their own formats.

###### What is data lineage?

> ☞


<br>

---
###### What is a fact table

<br>

---

<br>
###### What does it mean to 'partition' a table

---

Splitting it by a key so queries read only the parts they need.

##### ↳ What is a partition key

The column whose value decides the part.
"""


def test_label_prefixes_leave_the_questions_and_no_heading_vanishes(tmp_path):
    report = read(tmp_path, _NOTES)
    assert questions(report) == [
        "What is a data pipeline? Why build one?",
        "What is the difference between ETL and ELT?",
        "What is a slowly changing dimension?",
        "Which type would you pick for addresses?",
        "what is a data lake",
        "What is data lineage?",
        "What is a fact table",
        "What does it mean to 'partition' a table",
        "What is a partition key",
    ]
    by_text = {q.question: q for q in report.bank.questions}
    assert (
        by_text["What is a partition key"].reference == "The column whose value decides the part."
    )
    assert by_text["What does it mean to 'partition' a table"].reference.startswith("Splitting")


def test_an_empty_pointer_quote_or_a_lone_break_is_no_answer(tmp_path):
    by_text = {q.question: q for q in read(tmp_path, _NOTES).bank.questions}
    assert by_text["What is data lineage?"].reference is None
    assert by_text["What is a fact table"].reference is None
    pipeline = by_text["What is a data pipeline? Why build one?"].reference
    assert "A chain of steps" in pipeline and "<br>" not in pipeline
