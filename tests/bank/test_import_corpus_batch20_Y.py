"""Failure classes a twentieth batch of real public question files showed (issue 34), part Y.

Each file here is written for the test, in the shape those files had: ``1) question`` items
answered by labelled bullets (``- 标准答：``, ``- 反问点：…？``, ``- 坑位：``, ``- 代码：`` over a
code block); ``### N. topic`` headings over a labelled ``**问题**:`` line that is the question,
one asking only in its last clause (``…，请阐述…。``); a notebook whose notes cells have
numbered section headings before one cell of ``## QN.`` question cards.
"""

from __future__ import annotations

from imported import notebook_text, previewed, questions, read

_LABELLED = """\
# 推理服务高频问答

## 一、基础
1) 缓存为何能加速推理？
- 标准答：复用已算过的键值，省去重复计算。
- 反问点：你们线上是否按会话复用缓存？
- 坑位：只说“更快”，不讲显存代价。

2) 批处理的取舍？
- 标准答：吞吐更高，但单请求延迟会变长。
- 代码：
```python
batch = pad(requests)
```
- 反问点：最大批大小如何确定？
- 坑位：忽略填充浪费。

3) 量化会损失多少精度？
- 标准答：八位通常几乎无损，四位需校准。
"""


def _answer(question) -> str:
    return "\n".join([*question.key_points, question.reference or ""])


def test_labelled_bullets_under_an_item_are_its_answer_the_asking_one_too(tmp_path):
    report = read(tmp_path, _LABELLED)
    assert questions(report) == ["缓存为何能加速推理？", "批处理的取舍？", "量化会损失多少精度？"]
    cache, batch, quant = (_answer(q) for q in report.bank.questions)
    assert "复用已算过的键值" in cache
    assert "你们线上是否按会话复用缓存？" in cache  # the counter-question stays in the answer
    assert "不讲显存代价" in cache
    assert "吞吐更高" in batch and "batch = pad(requests)" in batch
    assert "最大批大小如何确定？" in batch and "忽略填充浪费" in batch
    assert "四位需校准" in quant


def test_the_preview_leaves_no_labelled_bullet_outside_an_answer(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _LABELLED)
    assert "Took 3 question(s)" in shown
    assert "neither taken nor inside an answer" not in shown


_ENGLISH = """\
# Serving questions

1) Why batch requests?
- Answer: More throughput per GPU.
- Ask back: What is your latency budget?
- Pitfall: Ignoring padding waste.

2) Why stream tokens?
- Answer: The user sees text sooner.
"""


def test_labelled_bullets_in_english_are_the_answer(tmp_path):
    report = read(tmp_path, _ENGLISH)
    assert questions(report) == ["Why batch requests?", "Why stream tokens?"]
    first = _answer(report.bank.questions[0])
    assert "More throughput per GPU." in first and "What is your latency budget?" in first


_ASKING_LABELS = """\
# 缓存

1) 键值缓存是什么？
- 原理：为什么缓存能省计算？
- 实现：如何按页管理缓存？
"""


def test_a_list_of_labelled_items_that_mostly_ask_stays_questions(tmp_path):
    report = read(tmp_path, _ASKING_LABELS)
    assert len(questions(report)) == 3
    assert "如何按页管理缓存？" in questions(report)[-1]


_TOPICS = """\
# 架构面试题

## 基础

### 1. 缓存机制
**问题**: 推理时的键值缓存有哪些作用？

**答案要点**:
- **省计算**: 复用已算过的结果
- **省时间**: 降低每步延迟

### 2. 两类模型差异
**问题**: 简述编码器和解码器模型的主要区别，以及各自的优势。

**答案要点**:
- **编码器**: 双向，擅长理解
- **解码器**: 单向，擅长生成

### 3. 部署策略
**问题**: 在线上部署大模型时，需要在成本与延迟之间权衡，请阐述其考虑因素。

**答案要点**:
- **成本**: 显卡数量
- **延迟**: 批大小

### 4. Serving
**Question:** When serving many users at once, explain how you would share the cache between them.

**Key points**:
- **Prefix**: shared prompt prefix
"""


def test_the_labelled_line_is_the_question_and_the_topic_heading_is_not(tmp_path):
    report = read(tmp_path, _TOPICS)
    assert questions(report) == [
        "推理时的键值缓存有哪些作用？",
        "简述编码器和解码器模型的主要区别，以及各自的优势。",
        "在线上部署大模型时，需要在成本与延迟之间权衡，请阐述其考虑因素。",
        "When serving many users at once, explain how you would share the cache between them.",
    ]
    answers = [_answer(q) for q in report.bank.questions]
    assert "双向，擅长理解" in answers[1]
    assert "显卡数量" in answers[2] and "请阐述" not in answers[2]
    assert "shared prompt prefix" in answers[3]
    assert all("两类模型差异" not in q and "部署策略" not in q for q in questions(report))


def test_the_preview_takes_the_labelled_lines(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _TOPICS)
    assert "Took 4 question(s)" in shown
    assert "Q2 简述编码器和解码器模型的主要区别" in shown


_NOTES = [
    ("markdown", "# Feed Ranking System\n\nNotes first, then a mock interview.\n"),
    ("markdown", "## 1. High Level Architecture\n\nA retrieval stage, then ranking.\n"),
    (
        "markdown",
        "## 2. Candidate Retrieval\n\n### Why we need this:\n\nThe catalogue is too large.\n\n"
        "### 2.1 Two Towers\n\nUser and item embeddings.\n",
    ),
    ("markdown", "## Layer 3: Serving & Telemetry\n\nLogs every impression.\n"),
    (
        "markdown",
        "# Mock Interview\n\n## INTERVIEW STRUCTURE (60 MIN)\n\nFraming, design, wrap-up.\n\n"
        "## Q1. What do you ask before designing?\n\n**Ideal Answer:** Scale and goals.\n\n"
        "## Q2. How do you define success?\n\n**Ideal Answer:** Watch time and retention.\n\n"
        "## Q3. Which features matter most?\n\n**Ideal Answer:** Recent interactions.\n\n"
        "## Q4. Explain how you would evaluate the ranker offline.\n\n"
        "**Ideal Answer:** Replay logged sessions.\n",
    ),
]


def test_notes_section_headings_are_no_questions_beside_q_numbered_cards(tmp_path):
    report = read(tmp_path, notebook_text(*_NOTES), "feed.ipynb")
    assert questions(report) == [
        "What do you ask before designing?",
        "How do you define success?",
        "Which features matter most?",
        "Explain how you would evaluate the ranker offline.",
    ]
    assert "Replay logged sessions." in _answer(report.bank.questions[-1])


def test_numbered_headings_stay_questions_without_q_numbered_cards(tmp_path):
    cards = [(kind, text.replace("## Q", "## ")) for kind, text in _NOTES]
    report = read(tmp_path, notebook_text(*cards), "feed.ipynb")
    assert "High Level Architecture" in questions(report)  # a notes card, as before
