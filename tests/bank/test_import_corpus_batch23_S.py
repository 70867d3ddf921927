"""Failure classes a twenty-third batch of real public question files showed (issue 34), part S.

The preview must not name a reader's hint (``--level N``, ``--questions headings:1``) whose
reading harms what the default reading gives. Each file here is written for the test, in the
shape those files had: one card whose ``#`` title asks and whose answer is split into seven
``###`` sub-sections that do not ask (``--level 3`` would cut the answer into questions); one
English card, ``**Question:**`` with an ``**Answer:**`` in four ``###`` parts, already read
right by default (``--level 3`` reads it the same); and, where the hint still belongs, three
``#`` topics, one asking, the other two with text no question holds (``--questions headings:1``
takes them).
"""

from __future__ import annotations

from imported import previewed, questions, read

_CARD = """\
# 流水线编排和自主智能体应该怎么选？

## 简短回答

流水线适合步骤固定的任务，自主智能体适合步骤事先未知、需要边做边决定的任务。

## 详细解析

### 核心区别

流水线的每一步由开发者写死，智能体由模型决定下一步。

### 控制流

流水线是有向图，智能体是循环：观察、思考、行动。

### 成本对比

| 维度 | 流水线 | 智能体 |
|---|---|---|
| 调用次数 | 固定 | 不定 |

### 可调试性

流水线每一步可单独测试，智能体的轨迹需要回放。

### 适用场景

表单处理、报表生成用流水线；开放式调研用智能体。

### 混合方案

外层流水线、内层在单步里调用一个小智能体。

### 落地建议

先写流水线，只在确实需要时引入自主决策。
"""

_REACT = """\
# Question 7: Reflection loops

**Question:** How does a reflection loop improve an agent's answers?

**Answer:**

A reflection loop asks the model to critique its own draft before it answers.

### The draft step

The agent writes a first answer from the tools' results.

### The critique step

A second call reads the draft and lists its mistakes.

### The revision step

The agent rewrites the draft with the critique in view.

### Stopping rule

Stop after two rounds or when the critique finds nothing new.
"""

_TOPICS = """\
# 三个不同点

事务：一个支持事务，一个不支持。外键：一个支持外键。锁：行锁与表锁。

# 缓冲池的四大特性

插入缓冲、二次写、自适应哈希索引、预读。

# 两者 count(*) 哪个更快，为什么？

一个在表里存了行数，直接返回；另一个要扫描索引。
"""


def test_a_card_whose_answer_has_sub_sections_gets_no_level_hint(tmp_path, invoke):
    report = read(tmp_path, _CARD, steering=True)
    assert questions(report) == ["流水线编排和自主智能体应该怎么选？"]
    answer = report.bank.questions[0].reference
    assert "流水线适合步骤固定的任务" in answer and "先写流水线" in answer
    shown = previewed(invoke, tmp_path, _CARD)
    assert "--level" not in shown and "Try:" not in shown
    assert "Took 1 question(s): 1 of the file's" in shown and "0 that do not ask" in shown


def test_the_level_reading_of_that_card_is_what_the_hint_would_have_given(tmp_path):
    cut = read(tmp_path, _CARD, level=3)  # sub-sections taken as questions: why it is not named
    assert "核心区别" in questions(cut) and "流水线编排和自主智能体应该怎么选？" not in questions(
        cut
    )


def test_a_card_read_right_by_default_gets_no_needless_hint(tmp_path, invoke):
    report = read(tmp_path, _REACT, steering=True)
    assert questions(report) == ["How does a reflection loop improve an agent's answers?"]
    assert "Stop after two rounds" in report.bank.questions[0].reference
    assert report.suggestions == ()
    shown = previewed(invoke, tmp_path, _REACT)
    assert "Try:" not in shown
    assert shown.endswith("Run: studybot bank import " + str(tmp_path / "q.md") + " --name q")


def test_topic_headings_over_text_left_keep_their_hint(tmp_path, invoke):
    report = read(tmp_path, _TOPICS, steering=True)
    assert questions(report) == ["两者 count(*) 哪个更快，为什么？"]
    shown = previewed(invoke, tmp_path, _TOPICS)
    assert "Try: --questions headings:1 reads each of the 3 level-1 headings" in shown
    taken = read(tmp_path, _TOPICS, questions="headings:1")
    assert questions(taken) == [
        "三个不同点",
        "缓冲池的四大特性",
        "两者 count(*) 哪个更快，为什么？",
    ]
