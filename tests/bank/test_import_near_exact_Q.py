"""Files one step from exact (issue 34), part Q: shapes real files of batches 11–24 had.

Each file here is written for the test: an algorithm's write-up whose questions are
``##`` headings and whose closing pros and cons are bold-labelled numbered items
(``**计算开销**：…``): a noun after a task verb (计算开销) names a cost, it asks nothing; an
English guide whose ``### QN:`` answers go on past a ``---`` rule with a bold label alone on
its line (``**How It Works:**``) over a code block: a label names what follows, it asks nothing;
a book chapter's notes (``# 6. …`` over ``## 6.1 …`` sections, ``实现模式：`` labels) whose
questions sit in a ``<details><summary>自测题</summary>`` box: the numbered sections are the
book's, not questions.
"""

from __future__ import annotations

import pytest
from imported import previewed, questions, read

_WRITE_UP = """# 快速排序

## 什么是快速排序？

选一个基准，把小的放左边、大的放右边，再分别递归。

## 为什么平均复杂度是 O(n log n)？

每层划分线性，期望深度是 log n。

## 小结

### 优点
1. **原地排序**：只需要递归栈的空间
2. **常数小**：实际运行通常比归并快

### 缺点
1. **最坏退化**：有序输入下会退化到平方复杂度
2. **计算开销**：大数据下要很多内存
3. **不稳定**：相等元素的次序会变
"""


def test_a_cost_named_after_a_task_verb_is_no_question(tmp_path):
    report = read(tmp_path, _WRITE_UP)
    assert questions(report) == ["什么是快速排序？", "为什么平均复杂度是 O(n log n)？"]
    assert report.bank.questions[1].reference == "每层划分线性，期望深度是 log n。"


def test_a_task_verb_in_front_still_asks(tmp_path):
    text = "# 练习\n\n1. 实现一个 LRU 缓存\n2. 计算 softmax 的梯度\n"
    assert questions(read(tmp_path, text)) == ["实现一个 LRU 缓存", "计算 softmax 的梯度"]


_GUIDE = """# Caching guide

## Basics

### Q1: What is a cache hit ratio?

**Answer:**

The share of reads served from the cache rather than the store.

**How It Works:**

Every read counts as a hit or a miss.

---

**Write-through:**

Every write goes to the cache and the store together.

**How It Works:**

```
write -> cache -> store
```

### Q2: What is write-back caching?

**Answer:**

Writes land in the cache first and reach the store later.
"""


def test_a_bold_label_alone_after_a_rule_is_no_question(tmp_path):
    report = read(tmp_path, _GUIDE)
    assert questions(report) == ["What is a cache hit ratio?", "What is write-back caching?"]
    assert "store later" in (report.bank.questions[1].reference or "")


def test_a_bold_question_alone_still_asks(tmp_path):
    text = "# Notes\n\n---\n\n**How does a write-back cache lose data?**\n\nOn a crash.\n"
    assert questions(read(tmp_path, text)) == ["How does a write-back cache lose data?"]


_CHAPTER = """# 6. 缓存：淘汰与一致性（第 6 章）

> 读书笔记，页码见原书。

## 6.1 LRU —— 最近最少使用（6.1.2）

- 用哈希表加双向链表，读写都是 O(1)。
- 适合热点集中的读流量。

## 6.2 写回与写穿 —— 一致性取舍（6.2.1）

实现模式（教科书级）：

- 写穿：同时写缓存和存储。
- 写回：先写缓存，淘汰时再落盘。

## 设计模式

- 旁路缓存最常见。

<details>
<summary>自测题</summary>

1. LRU 为什么要用双向链表？
2. 写回模式在宕机时会丢什么？

</details>
"""


def test_a_books_numbered_sections_are_no_questions_beside_its_self_test(tmp_path):
    report = read(tmp_path, _CHAPTER)
    assert questions(report) == ["LRU 为什么要用双向链表？", "写回模式在宕机时会丢什么？"]


def test_a_numbered_section_that_asks_is_still_a_question(tmp_path):
    text = "# 6. 缓存\n\n## 6.1 LRU 为什么要用双向链表？\n\n删除中间节点要 O(1)。\n"
    report = read(tmp_path, text)
    assert questions(report) == ["LRU 为什么要用双向链表？"]
    assert report.bank.questions[0].reference == "删除中间节点要 O(1)。"


@pytest.mark.parametrize(
    ("text", "left"),
    [
        (_WRITE_UP, ("计算开销", "不稳定")),
        (_GUIDE, ("How It Works",)),
        (_CHAPTER, ("LRU —— 最近最少使用", "实现模式")),
    ],
)
def test_the_preview_takes_the_two_questions_and_lists_none_of_the_rest(
    invoke, tmp_path, text, left
):
    shown = previewed(invoke, tmp_path, text)
    assert "Total: 2 question(s)" in shown
    assert not [said for said in left if said in shown]
