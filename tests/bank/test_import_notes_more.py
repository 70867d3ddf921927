"""A study note's own lines beside its marked questions (issue 34, batches 25–26), part H.

Each file here is written for the test, in the shape those files had: a long notes outline
(``### 1.1 …`` topics, bold labels such as ``**选型怎么做**`` or ``**3）热点：怎么扛住流量**``)
with a marked FAQ of ``### QN: …？`` cards, followed by more notes (``## 五、准备建议`` over
``### 5.1 …``) and a self-check task list (``- [ ] 能否…？``); a notes page whose prose
leads into a part with a rhetorical ``那么…呢？``; a glossary table whose definitions hold a
question word.
"""

from __future__ import annotations

from imported import previewed, questions, read

_OUTLINE = """# 检索增强应用笔记

## 一、基础 {#basics}

讲项目时覆盖：

- 目标：想解决什么问题？
- 设计：整体架构和取舍。
- 指标：效果、延迟、成本。

### 1.1 检索流程 {#flow}

切分、向量化、召回、重排、生成。

**选型怎么做**

- 文档少：单机向量库即可。
- 文档多：分片并加元数据过滤。

### 1.2 缓存 {#cache}

**3）热点：怎么扛住流量**

- 本地缓存加共享缓存两级。

## 二、面试问题 {#faq}

### Q1: 召回率低时先查什么？ {#q1}

先看切分粒度，再看嵌入模型是否适合这个领域。

### Q2: 重排模型放在哪一步？ {#q2}

召回之后、拼上下文之前，只对前几十条做。

### Q3: 如何评估检索效果？ {#q3}

用带标注的问题集算命中率和排序指标。

## 三、准备建议 {#prep}

### 3.1 技术准备 {#tech}

- 能从零搭一个最小检索流程。
- 实现一个带缓存的查询服务。

### 3.2 学习计划 {#plan}

- 第一周：读论文。
- 第二周：做项目。

## 四、快速自查 {#check}

- [ ] 能否画出完整链路并指出瓶颈？
- [ ] 是否准备好可运行的最小示例？
"""


def test_a_marked_faq_keeps_its_cards_and_leaves_the_notes_around_them(tmp_path, invoke):
    report = read(tmp_path, _OUTLINE)
    assert questions(report) == [
        "召回率低时先查什么？",
        "重排模型放在哪一步？",
        "如何评估检索效果？",
    ]
    assert all(q.reference for q in report.bank.questions)
    shown = previewed(invoke, tmp_path, _OUTLINE)
    assert "第 1 章 二、面试问题: 3 question(s)" in shown and "第 2 章" not in shown
    assert "Total: 3 question(s)" in shown
    # the self-check lines and bold labels are listed as left on purpose, never as lost
    assert "in a prose section beside the file's marked questions" in shown
    assert "3 × a study note's bold label in a file whose questions are marked" in shown
    assert "Took 3 question(s): 3 of the file's 3 asking line(s), 0 that do not ask" in shown
    assert "Asking lines not taken" not in shown
    assert "Try --questions" not in shown
    assert shown.endswith("--name q")


_QUESTION_LIST_AFTER = """# 模型基础

## Q1. 什么是词元？

模型读入的最小单位。

## Q2. 为什么要除以根号 d？

避免点积过大让 softmax 饱和。

## Q3. 什么是残差连接？

把输入加回输出，让梯度直达浅层。

# 闭卷自测：必须能回答的问题

1. 词表为什么不能无限大？
2. 解码时温度起什么作用？
"""


def test_a_list_of_questions_after_the_cards_is_still_taken(tmp_path):
    report = read(tmp_path, _QUESTION_LIST_AFTER)
    assert questions(report)[:3] == ["什么是词元？", "为什么要除以根号 d？", "什么是残差连接？"]
    assert "词表为什么不能无限大？" in questions(report)
    assert "解码时温度起什么作用？" in questions(report)


_RHETORICAL = """# 注意力笔记

## 常见面试题

- **为什么要做缩放？**

答：点积随维度变大，缩放让 softmax 不至于饱和。

## 多头

单头注意力只能学一种相关模式。

那么多头注意力是怎样的呢？

先把向量切成几份，每份各做一次注意力，再拼起来。
"""


def test_a_rhetorical_lead_in_in_prose_is_no_question(tmp_path, invoke):
    report = read(tmp_path, _RHETORICAL)
    assert questions(report) == ["为什么要做缩放？"]
    shown = previewed(invoke, tmp_path, _RHETORICAL)
    assert "a rhetorical question that leads into the prose after it" in shown
    assert "Asking lines not taken" not in shown


_FOLLOW_UP = """# 一面记录

那么缓存击穿怎么处理呢？

加互斥锁，只让一个请求回源。
"""


def test_a_lone_question_with_its_answer_is_still_taken(tmp_path):
    """Only a lead-in is rhetorical: a question asked on a line of its own elsewhere stays."""
    report = read(tmp_path, _FOLLOW_UP.replace("那么", ""))
    assert questions(report) == ["缓存击穿怎么处理呢？"]


_GLOSSARY = """# 缓存术语

## 什么是缓存命中？

请求在缓存里找到结果。

| 术语 | 含义 |
|---|---|
| 命中率 | 请求在缓存里找到的比例 |
| 带宽 | 每秒能读写多少字节 |
"""


def test_a_glossary_row_is_no_asking_line_left(tmp_path, invoke):
    report = read(tmp_path, _GLOSSARY)
    assert questions(report) == ["什么是缓存命中？"]
    shown = previewed(invoke, tmp_path, _GLOSSARY)
    assert "命中率" not in shown and "带宽" not in shown
    assert "Asking lines kept in an answer" not in shown


_QUESTION_TABLE = """# 数据库题

| 题目 | 答案 |
|---|---|
| 索引为什么能加速查询 | 减少扫描的行数 |
| 什么是事务？ | 一组要么全做要么全不做的操作 |
"""


def test_a_table_of_questions_still_asks(tmp_path, invoke):
    shown = previewed(invoke, tmp_path, _QUESTION_TABLE)
    assert "2 asking line(s)" in shown
