"""Files that lost many questions (issue 34, part X).

Each file here is written for the test, in the shape the real file had: an outline of
interview questions kept as empty headings, terse prompts among the ones that ask.
"""

from __future__ import annotations

from imported import previewed, questions, read

# an outline with no answers: most empty headings ask, a few are terse prompts
_OUTLINE = """# 数据库面试

## MySQL

### 索引的底层结构是什么？

### 事务隔离级别

### 为什么用 B+ 树而不用红黑树？

### 慢查询怎么排查

### 主从复制原理

### 什么是回表？

## Redis

### Redis 为什么快？

### 持久化方式

### 缓存穿透怎么解决？

### 分布式锁怎么实现？
"""


def test_terse_prompts_among_empty_asking_headings_are_questions(tmp_path):
    report = read(tmp_path, _OUTLINE)
    assert questions(report) == [
        "索引的底层结构是什么？",
        "事务隔离级别",
        "为什么用 B+ 树而不用红黑树？",
        "慢查询怎么排查",
        "主从复制原理",
        "什么是回表？",
        "Redis 为什么快？",
        "持久化方式",
        "缓存穿透怎么解决？",
        "分布式锁怎么实现？",
    ]
    assert not any(q.reference for q in report.bank.questions)


def test_the_outline_preview_counts_the_terse_prompts(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _OUTLINE)
    assert "第 1 章 MySQL: 6 question(s)" in shown
    assert "Total: 10 question(s) in 2 chapter(s)" in shown


def test_empty_topic_headings_in_notes_with_answers_stay_sections(tmp_path):
    # most headings have text under them: an empty one is a placeholder, no question
    text = """# Notes

## 索引

### 什么是索引？

加快查找的数据结构。

### 为什么用 B+ 树？

扇出大，树矮。

### 覆盖索引

### 什么是回表？

先查二级索引，再回主键索引。

### 联合索引为什么有最左前缀？

按列的顺序排序。

### 索引下推是什么？

在存储引擎层先过滤。
"""
    assert "覆盖索引" not in questions(read(tmp_path, text))


def test_an_outline_whose_empty_headings_mostly_do_not_ask_keeps_none_of_them(tmp_path):
    text = "# 提纲\n\n## 基础\n\n" + "".join(
        f"### {t}\n\n"
        for t in ("进程", "线程", "协程", "内存", "文件", "为什么要用线程池？", "锁怎么选？")
    )
    assert questions(read(tmp_path, text)) == ["为什么要用线程池？", "锁怎么选？"]


# a blog post's lazy "1. " list: questions and the topics they name, reading pointers below
_TOPICS = """---
title: 机器学习 QA
---

本文整理了常见的问题。

1. 为什么要做特征归一化？

   <https://example.org/norm>

1. 交叉验证的定义

   请参考[读书笔记：交叉验证](./cv.html)。

1. 决策树剪枝的解决方法

   请参考[读书笔记：剪枝](./prune.html)。

1. 朴素贝叶斯的应用场景

   请参考[读书笔记：贝叶斯](./bayes.html)。

1. 随机森林的缘由

   请参考[读书笔记：集成](./ensemble.html)。

1. 核技巧与特征映射

   请参考[读书笔记：核方法](./kernel.html)。

1. 如何选择正则化系数？

   请参考[读书笔记：正则化](./reg.html)。
"""


def test_items_naming_a_topic_make_a_lazy_list_of_questions(tmp_path):
    assert questions(read(tmp_path, _TOPICS)) == [
        "为什么要做特征归一化？",
        "交叉验证的定义",
        "决策树剪枝的解决方法",
        "朴素贝叶斯的应用场景",
        "随机森林的缘由",
        "核技巧与特征映射",  # a topic of this list of questions
        "如何选择正则化系数？",
    ]


# an interview write-up: each round's items numbered "1. " and ended with "；"
_WRITE_UP = """# 面经

## 某公司-算法实习

### 一面
1. 自我介绍；
1. 快速排序；
1. 反转链表；
1. 讲讲 Transformer 的结构；
1. 过拟合怎么办

### 二面
- 聊项目
- 为什么选择 Adam？
"""


def test_a_lazily_numbered_write_up_round_is_a_list_of_questions(tmp_path):
    assert questions(read(tmp_path, _WRITE_UP)) == [
        "自我介绍；",
        "快速排序；",
        "反转链表；",
        "讲讲 Transformer 的结构；",
        "过拟合怎么办",
        "聊项目",
        "为什么选择 Adam？",
    ]


def test_numbered_steps_that_end_in_a_full_stop_stay_an_answer(tmp_path):
    text = """## 如何部署？

1. 先打包镜像。
1. 再推送到仓库。
1. 最后如何回滚？看文档。
"""
    assert questions(read(tmp_path, text)) == ["如何部署？"]


def test_a_chinese_question_wrapped_onto_the_next_line_is_joined(tmp_path):
    text = """1. 为什么残差连接能让很深的网络也训练得动，而不像普通的堆叠网络那样随着层数增加而
   出现退化？它和梯度消失的关系。

   残差让梯度有一条直通的路。

1. 什么是批归一化？

   对每个批次做标准化。
"""
    report = read(tmp_path, text)
    assert questions(report) == [
        "为什么残差连接能让很深的网络也训练得动，而不像普通的堆叠网络那样随着层数增加而"
        "出现退化？它和梯度消失的关系。",
        "什么是批归一化？",
    ]
    assert report.bank.questions[0].reference == "残差让梯度有一条直通的路。"


def test_a_chinese_answer_line_under_a_question_stays_the_answer(tmp_path):
    text = "1. 什么是回表\n   先查二级索引，再回主键索引。\n1. 什么是覆盖索引？\n   索引里已有要的列。\n"
    report = read(tmp_path, text)
    assert questions(report) == ["什么是回表", "什么是覆盖索引？"]
    assert report.bank.questions[0].reference == "先查二级索引，再回主键索引。"
