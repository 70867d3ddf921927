"""Failure classes a twenty-fifth batch of real public question files showed (issue 34), part S.

An asking heading whose own sub-headings ask its parts again is the question, its sub-sections
its answer; a list of plain questions that answered headings below restate in near the same
words gives those headings, each list line listed as restated; a deeper heading quoting a
follow-up after its number (``#### Q1: "…?"``) inside an answer is a question of its own; and
in a file whose questions are marked, the unnumbered headings of sections apart from them and
a closing numbered list of bold keys are a study note's, no questions. Each file here is
written for the test, in the shape those files had.
"""

from __future__ import annotations

from imported import previewed, questions, read

_PARTS = """\
# 检索增强笔记

## 1. 什么是重排序？

重排序在召回之后按相关性重新打分。

## 2. 为什么要做查询改写？

用户的原话常常缺少检索需要的词。

## 3. 多路召回是什么？

几种检索并行召回，再合并去重。

## 4. 缓存淘汰是什么？为什么需要淘汰？

### 什么是缓存淘汰？

容量满时按策略移除旧条目。

### 实现方式：

LRU 或 LFU。

### 为什么需要淘汰？

内存有限，冷数据占着位置会挤掉热数据。

## 5. 用过向量索引吗？它做什么？

### 向量索引是什么？

按向量距离近似查找最近邻的结构。

### 能力包括：

- 近似最近邻
- 过滤
"""


def test_an_asking_heading_whose_sub_headings_ask_its_parts_is_one_question(tmp_path, invoke):
    report = read(tmp_path, _PARTS)
    assert questions(report) == [
        "什么是重排序？",
        "为什么要做查询改写？",
        "多路召回是什么？",
        "缓存淘汰是什么？为什么需要淘汰？",
        "用过向量索引吗？它做什么？",
    ]
    parts = report.bank.questions[3].reference or ""
    assert "### 什么是缓存淘汰？" in parts and "内存有限" in parts
    assert "近似最近邻" in (report.bank.questions[4].reference or "")
    shown = previewed(invoke, tmp_path, _PARTS)
    assert "Total: 5 question(s) in 1 chapter(s)" in shown


_TOPIC = """\
# 数据库

## 存储引擎有哪些？

### MySQL 是什么？

关系型数据库。

### Redis 是什么？

内存键值库。
"""


def test_sub_headings_that_ask_other_things_stay_the_questions(tmp_path):
    report = read(tmp_path, _TOPIC)
    assert questions(report) == ["MySQL 是什么？", "Redis 是什么？"]


_RESTATED = """\
基础：分布式锁是怎么实现的？
介绍一下 etcd
消息队列怎么保证不丢消息？
限流算法有哪些？

## 1. 分布式锁是怎么实现的？

用带过期时间的键加唯一令牌，释放时校验令牌。

## 2. 什么是 etcd？

一个基于 Raft 的强一致键值存储。

## 3. 消息队列如何保证不丢消息？

生产端确认、持久化、消费端手动提交。

## 4. 令牌桶如何限流？

按固定速率放入令牌，请求取到令牌才放行。
"""


def test_a_list_that_answered_headings_restate_gives_the_headings(tmp_path, invoke):
    report = read(tmp_path, _RESTATED)
    assert questions(report) == [
        "分布式锁是怎么实现的？",  # the same words: asked again, imported once, where first asked
        "限流算法有哪些？",
        "什么是 etcd？",
        "消息队列如何保证不丢消息？",
        "令牌桶如何限流？",
    ]
    unanswered = [q.question for q in report.bank.questions if not q.reference]
    assert unanswered == ["限流算法有哪些？"]
    shown = previewed(invoke, tmp_path, _RESTATED)
    assert (
        "2 × a question of a list, restated by an answered question below it (imported there), "
        "first at line 2" in shown
    )
    assert "Total: 5 question(s)" in shown


_CONTENTS = """\
# 目录

- 什么是过拟合？
- 什么是欠拟合？
- 什么是正则化？
- 什么是交叉验证？
- 什么是早停？
- 什么是数据增强？

## 什么是欠拟合？

模型太简单，训练集上也学不好。
"""


def test_a_long_list_restated_here_and_there_stays_whole(tmp_path):
    report = read(tmp_path, _CONTENTS)
    assert "什么是过拟合？" in questions(report)
    assert questions(report).count("什么是欠拟合？") == 1  # asked again, imported once
    assert len(report.repeats) == 1


_QUOTED = """\
# 模型基础

## 问题1: 残差连接有什么用？

### 中文理解

让梯度绕过深层直接回传。

### 面试追问

#### Q1: "Why do residual connections ease optimisation?"

**Answer:**
- The identity path keeps gradients from vanishing.

#### Q2: "When can a residual block hurt?"

**Answer:** When the shapes differ and the projection is poorly initialised.

### 练习建议

画出一个残差块。

## 问题2: 层归一化放在哪里？

前置或后置，前置更稳。
"""


def test_quoted_follow_ups_in_an_answer_are_questions_of_their_own(tmp_path, invoke):
    report = read(tmp_path, _QUOTED)
    assert questions(report) == [
        "残差连接有什么用？",
        "Why do residual connections ease optimisation?",
        "When can a residual block hurt?",
        "层归一化放在哪里？",
    ]
    first, follow, second, _ = (q.reference or "" for q in report.bank.questions)
    assert "让梯度绕过深层" in first and "画出一个残差块" in first and "Why do" not in first
    assert "identity path" in follow
    assert "projection" in second
    shown = previewed(invoke, tmp_path, _QUOTED)
    assert "Total: 4 question(s)" in shown


_NOTES = """\
# 量化与蒸馏对比

## 一、目标

| 维度 | 量化 | 蒸馏 |
|---|---|---|
| 目的 | 压缩位宽 | 迁移知识 |

## 二、校准与回退

### 校准数据选择
- 取少量有代表性的样本
- 覆盖长短不同的输入
- 去掉重复样本

### 精度回退策略
- 敏感层保留高精度
- 逐层比较输出误差
- 误差超标的层回退

## 三、面试常见问题

### Q1: 量化为什么会掉精度？

**答**: 舍入误差在层间累积。

### Q2: 蒸馏的温度有什么作用？

**答**: 温度越高，软标签越平滑。

## 四、工程考虑

### 部署监控指标
- 首字延迟与吞吐
- 显存占用
- 线上抽检的回答质量

## 核心要点总结
1. **目的不同**: 压缩 vs 迁移
2. **数据差异**: 少量校准样本 vs 完整训练集
3. **可叠加**: 先蒸馏再量化
"""


def test_a_marked_files_study_note_headings_and_summary_are_no_questions(tmp_path, invoke):
    report = read(tmp_path, _NOTES)
    assert questions(report) == ["量化为什么会掉精度？", "蒸馏的温度有什么作用？"]
    shown = previewed(invoke, tmp_path, _NOTES)
    assert "Total: 2 question(s)" in shown
    assert "3 × a numbered item in a file whose questions are marked" in shown
    assert "Try --questions headings" not in shown


_COMPANIES = """\
# 面经

## 基础题

### Q1: 进程和线程的区别？

**答**: 资源与调度单位不同。

### Q2: 死锁的条件？

**答**: 互斥、占有且等待、不可抢占、循环等待。

## 面经汇总

### 某厂一面

1、TCP 为什么三次握手？
2、讲讲 epoll 的原理
"""


def test_a_section_whose_lines_ask_is_no_study_note(tmp_path):
    report = read(tmp_path, _COMPANIES)
    assert "TCP 为什么三次握手？" in questions(report)


_INTRO = """\
# Interview questions
List of questions I was asked in backend interviews, grouped by topic.

## Databases
1) What is an index?
2) Why can a covering index skip the table lookup?
"""


def test_an_intro_naming_a_list_of_questions_is_no_question(tmp_path, invoke):
    report = read(tmp_path, _INTRO)
    assert questions(report) == [
        "What is an index?",
        "Why can a covering index skip the table lookup?",
    ]
    assert "Total: 2 question(s)" in previewed(invoke, tmp_path, _INTRO)


_FIELDS = """\
# 什么是工具调用？

> 分类：大模型

---

## 速记

- 工具调用让模型按约定格式请求外部函数。
- 每个工具是一个 JSON 对象：
- `type`：string，目前只能是 function
- `function`：object，说明如何调用该函数
- 模型返回函数名和参数，由程序执行后把结果交回模型。
"""


def test_a_field_named_in_code_that_says_how_is_no_question(tmp_path, invoke):
    report = read(tmp_path, _FIELDS)
    assert questions(report) == ["什么是工具调用？"]
    assert "Total: 1 question(s)" in previewed(invoke, tmp_path, _FIELDS)


_WRITE_UP = """\
# 某厂后端一面

## 基础
- 进程和线程有什么区别？
- 讲讲 TCP 的拥塞控制

## 我的问题
我问了问团队平时做什么，面试官说以存储为主就结束了

## 感受
整体偏基础。
"""


def test_the_candidates_own_question_section_holds_no_question(tmp_path, invoke):
    report = read(tmp_path, _WRITE_UP)
    assert questions(report) == ["进程和线程有什么区别？", "讲讲 TCP 的拥塞控制"]
    assert "Total: 2 question(s)" in previewed(invoke, tmp_path, _WRITE_UP)
