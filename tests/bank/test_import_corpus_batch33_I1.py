"""Failure classes a thirty-third batch of real public question files showed, part I1.

Each file here is written for the test, in the shape those files had: a README index of
one-column tables whose cells are bold links to answer pages, the first question sitting in
the table's header row; exercises whose inline math holds TeX (``$\\alpha$``); a textbook's
exercise headings where one number is starred as optional (``#### 3.4* …``); coding tasks
set after a tool's name (``Numpy 实现…``).
"""

from __future__ import annotations

from imported import questions, read

_INDEX = """# Interview index

Intro: the answers live on the linked pages.

<b><summary>Networks</summary></b>

- Basics

| [**01. 什么是反向传播？**](net/answers.md) |
| :------------------------------------------- |
| [**02. 为什么需要激活函数？**](net/answers.md)           |
| [**03. 批归一化的作用**](net/answers.md) |      |
| [**05. 残差连接解决了什么问题？**](net/answers.md)           |

<b><summary>手写代码专题</summary></b>

| [**01. Numpy 写出卷积**](code/answers.md) |
| :------------------------------------------- |
| [**02. 如何用 Numpy 写出池化？**](code/answers.md) |
| [**03. Numpy 写出 softmax**](code/answers.md) |

<b><summary>Further reading</summary></b>

| [**01. 一份优秀的教程合集**](read/list.md) |
| :------------------------------------------- |
| [**02. 十篇经典论文**](read/list.md) |
"""


def test_a_one_column_table_of_questions_is_read_as_a_list_its_header_too(tmp_path):
    report = read(tmp_path, _INDEX)
    assert questions(report) == [
        "什么是反向传播？",
        "为什么需要激活函数？",
        "批归一化的作用",  # numbered in a column that mostly asks
        "残差连接解决了什么问题？",
        "Numpy 写出卷积",  # a task after a tool's name: most of that column asks
        "如何用 Numpy 写出池化？",
        "Numpy 写出 softmax",
    ]
    assert all(not q.reference for q in report.bank.questions)  # a link's target answers nothing


_NAMED = """| Topic |
| --- |
| 什么是过拟合？ |
| 为什么要做正则化？ |
"""


def test_a_one_column_table_under_a_columns_name_keeps_the_name_out(tmp_path):
    assert questions(read(tmp_path, _NAMED)) == ["什么是过拟合？", "为什么要做正则化？"]


_MATH = """## 习题1
学习率 $\\alpha$ 取得太大会怎样？参数 $\\theta_{t+1}$ 如何更新？

**答：** 会发散。$\\theta_{t+1} = \\theta_t - \\alpha \\nabla L$。

## 习题2
为什么 $\\lambda \\|w\\|^2$ 能防止过拟合？

**答：** 它惩罚大的权重。
"""


def test_inline_math_keeps_its_backslashes_in_the_question(tmp_path):
    report = read(tmp_path, _MATH)
    assert questions(report) == [
        "学习率 $\\alpha$ 取得太大会怎样？参数 $\\theta_{t+1}$ 如何更新？",
        "为什么 $\\lambda \\|w\\|^2$ 能防止过拟合？",
    ]
    assert "\\nabla" in (report.bank.questions[0].reference or "")


_STARRED = """#### 3.3 试述决策树剪枝的作用。

**答：** 防止过拟合。

#### 3.4* 试推导信息增益的计算式.

**答：** 由熵的定义展开即得。

#### 3.5 试编程实现一棵决策树。

**答：** 见代码。
"""


def test_a_starred_exercise_number_is_a_number_and_its_heading_a_question(tmp_path):
    report = read(tmp_path, _STARRED)
    assert questions(report) == [
        "试述决策树剪枝的作用。",
        "试推导信息增益的计算式.",
        "试编程实现一棵决策树。",
    ]
    assert [q.reference for q in report.bank.questions] == [
        "防止过拟合。",
        "由熵的定义展开即得。",
        "见代码。",
    ]


_TASKS = """- Numpy 实现 K-means 聚类
- PyTorch 写一个带残差的卷积块
- C++ 实现双线性插值
- 这些题都在白板上写，限时二十分钟。
"""


def test_a_task_verb_after_a_tools_name_sets_a_task(tmp_path):
    assert questions(read(tmp_path, _TASKS)) == [
        "Numpy 实现 K-means 聚类",
        "PyTorch 写一个带残差的卷积块",
        "C++ 实现双线性插值",
    ]
