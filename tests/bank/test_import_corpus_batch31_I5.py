"""Failure classes a thirty-first batch of real public question files showed, part I5.

Each file here is written for the test, in the shape those files had: personal notes whose
answers are indented with a zero-width space and a tab, and whose bold titles open with
one; notes whose bold numbered cards (``**1. …？**``, ``**2. …**`` …) restart at 1 under
another heading with ``**1.Title**`` (no space after the number); an exercise book whose
``### 练习N.M：…`` headings hold a ``**题目**：…`` line over its task (lines that ask
``… → ?``, a code stub) and ``**答案**：`` over the answer; a 面经 whose questions end in a
note naming the company that asked them (``（滴滴）``); notes whose numbered topic items
(``2. GBDT``) hold parts numbered in brackets that ask (``（1）…？``).
"""

from __future__ import annotations

from imported import questions, read

_ZERO_WIDTH = (
    "# 笔记\n\n"
    "**1. 注意力是什么？**\n\n"
    "\u200b\t注意力是按相关程度加权求和。\n\n"
    "\u200b\tk：key，被别的查询拿来比较的\n\n"
    "**2. 多头注意力\u200b怎么算？**\n\n"
    "\u200b\u2060每个头单独算，再拼接起来。\n\n"
    "**3. 为什么要\u00ad缩放？**\n\n"
    "\ufeff点积太大会让 softmax 饱和。\n"
)


def test_zero_width_characters_are_read_as_nothing(tmp_path):
    report = read(tmp_path, _ZERO_WIDTH)
    assert questions(report) == ["注意力是什么？", "多头注意力怎么算？", "为什么要缩放？"]
    first, second, third = report.bank.questions
    assert "k：key，被别的查询拿来比较的" in first.reference
    assert second.reference.startswith("每个头单独算")
    assert third.reference == "点积太大会让 softmax 饱和。"


def test_an_emoji_keeps_its_zero_width_joiner(tmp_path):
    report = read(tmp_path, "1. 这道题 👩\u200d💻 怎么写？\n\n   用双指针。\n")
    assert questions(report) == ["这道题 👩\u200d💻 怎么写？"]


_BOLD_RUNS = """# 面试笔记

## 1. 推荐

1. 召回和排序有什么区别？

   召回求全，排序求准。

2. 冷启动怎么做？

   用内容特征和热门兜底。

## 2. NLP

### 2.1 RNN

**1.循环网络的结构**

隐藏状态一步步传下去。

### 2.2 Bert

**1. Bert 的预训练任务是什么？**

掩码语言模型和下一句预测。

**2. Bert 的输入**

词向量、段向量和位置向量相加。

**3. 位置编码**

学出来的位置向量。

**4. 为什么用 LayerNorm？**

序列长度不一，按样本归一更稳。
"""


def test_a_bold_card_numbered_1_opens_another_run_of_the_files_cards(tmp_path):
    report = read(tmp_path, _BOLD_RUNS)
    assert questions(report) == [
        "召回和排序有什么区别？",
        "冷启动怎么做？",
        "循环网络的结构",
        "Bert 的预训练任务是什么？",
        "Bert 的输入",
        "位置编码",
        "为什么用 LayerNorm？",
    ]
    assert report.bank.questions[2].reference == "隐藏状态一步步传下去。"


_EXERCISES = """# 第二单元练习

## 第1章：数据结构

### 练习1.1：配对

**题目**：把下列操作与数据结构配对

操作 → 结构
1. 按键查找 → ?
2. 先进先出 → ?

**答案**：
1. → 哈希表
2. → 队列

---

### 练习1.2：写代码

**题目**：写一个带过期时间的字典类

```python
class TTLDict:
    pass  # TODO
```

**答案**：

```python
class TTLDict(dict):
    def __init__(self, ttl):
        self.ttl = ttl
```

---

### 练习1.3：说一说

**题目**：栈和队列有什么不同？

**答案**：栈后进先出，队列先进先出。
"""


def test_a_labelled_task_over_its_answer_label_is_one_question(tmp_path):
    report = read(tmp_path, _EXERCISES)
    assert questions(report) == [
        "把下列操作与数据结构配对",
        "写一个带过期时间的字典类",
        "栈和队列有什么不同？",
    ]
    matching, code, plain_one = report.bank.questions
    assert "1. 按键查找 → ?" in matching.hint
    assert matching.key_points == ("→ 哈希表", "→ 队列")
    assert "# TODO" in code.hint
    assert code.reference.startswith("```python\nclass TTLDict(dict):")
    assert "答案" not in code.reference
    assert plain_one.reference == "栈后进先出，队列先进先出。"


_WRITE_UP = """## 二面

- 讲讲 Transformer 的结构（快手二面）
- LoRA 的原理，它省了哪些显存（高频，字节/阿里都问过）
- 交叉熵的梯度推一下（滴滴）
- 什么是 RLHF（基于人类反馈的强化学习）？
"""


def test_a_company_named_in_a_trailing_note_becomes_a_tag(tmp_path):
    report = read(tmp_path, _WRITE_UP)
    assert questions(report) == [
        "讲讲 Transformer 的结构",
        "LoRA 的原理，它省了哪些显存",
        "交叉熵的梯度推一下",
        "什么是 RLHF（基于人类反馈的强化学习）？",
    ]
    assert [q.tags for q in report.bank.questions] == [
        ("company:快手",),
        ("company:字节", "company:阿里"),
        ("company:滴滴",),
        (),
    ]


_TOPICS = """## 模型

1. 召回有哪些做法？

   双塔、协同过滤。

2. GBDT

   （1）GBDT 的残差是什么？

   （2）谈谈你对 GBDT 和随机森林的理解

   一个串行拟合残差，一个并行投票。

3. 双塔
"""


def test_bracket_numbered_parts_under_a_topic_item_are_questions(tmp_path):
    report = read(tmp_path, _TOPICS)
    assert questions(report) == [
        "召回有哪些做法？",
        "GBDT",
        "GBDT 的残差是什么？",
        "谈谈你对 GBDT 和随机森林的理解",
        "双塔",
    ]
    assert report.bank.questions[3].reference == "一个串行拟合残差，一个并行投票。"
