"""Failure classes a seventh batch of real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had: a
README whose questions are headings inside numbered list items, answer
sub-sections under question headings, an answer label at the question's own
level, closing sections after the numbered questions, and a file that holds
one question under a ``# 题目`` label.
"""

from __future__ import annotations

from imported import questions, read

_LISTED_HEADINGS = """# Web Questions

| No. | Questions |
| --- | --------- |
| 1 | [What is a closure](#what-is-a-closure) |
| 2 | [How to use await outside of an async function?](#how-to-use-await) |
| 3 | [What is the difference between map and forEach?](#map-and-foreach) |

1. ### What is a closure

    A function together with the variables of the scope it was made in.

    ```javascript
    const add = (x) => (y) => x + y;
    ```

    **[⬆ Back to Top](#web-questions)**

2. ### How to use await outside of an async function?

  Wrap it in an async function that calls itself at once.

  #### Example

  Since ES2022 a module may await at its top level.

3. ### What is the difference between map and forEach?

    1. **map:** returns a new array of the results.
    2. **forEach:** returns nothing; it runs for the side effects.
"""


def test_a_heading_inside_a_numbered_item_is_a_question_answered_by_what_the_item_holds(
    tmp_path,
):
    report = read(tmp_path, _LISTED_HEADINGS)
    assert questions(report) == [
        "What is a closure",
        "How to use await outside of an async function?",  # "How to use …" asks: no section
        "What is the difference between map and forEach?",
    ]
    closure, wait, each = report.bank.questions
    assert "variables of the scope" in closure.reference
    assert "const add" in closure.reference
    assert "Back to Top" not in closure.reference
    # its answer indented less than the item's text still follows it, sub-heading and all
    assert "calls itself at once" in wait.reference
    assert "top level" in wait.reference
    assert "returns a new array" in (each.reference or "\n".join(each.key_points))
    assert not report.lost


_ANSWER_SECTIONS = """## 集合

### 1. HashMap 为什么线程不安全？

#### 问题的根源

多个线程同时扩容时，链表可能成环。

#### 如何复现？

两个线程同时 put 大量元素。

#### 关键要点

- 扩容时没有加锁
- 读写不可见

### 2. ArrayList 和 LinkedList 的区别？

#### 核心区别

一个基于数组，一个基于链表。

#### 详细对比

随机访问前者快，插入删除后者快。

#### 关键要点

- 数组连续
- 链表分散

### 3. ConcurrentHashMap 怎么保证线程安全？

#### 实现原理

CAS 加上对桶的首节点加锁。
"""


def test_sections_under_a_question_heading_belong_to_its_answer(tmp_path):
    report = read(tmp_path, _ANSWER_SECTIONS)
    assert questions(report) == [
        "HashMap 为什么线程不安全？",
        "ArrayList 和 LinkedList 的区别？",
        "ConcurrentHashMap 怎么保证线程安全？",
    ]
    unsafe, lists, _ = report.bank.questions
    # the answer runs to the next question heading, its one asking sub-heading included
    assert "链表可能成环" in unsafe.reference
    assert "#### 如何复现？" in unsafe.reference
    assert "扩容时没有加锁" in unsafe.reference
    assert "随机访问前者快" in lists.reference and "链表分散" in lists.reference


_ANSWER_LABELS = """# 模拟面试

## 1. 协同编辑时怎么识别离线期间的操作？

## 答案

### 核心要点

每个操作带上本地时钟和设备号。

---

### 1. 什么是向量时钟？

每个副本一个计数器，比较时逐项取大。

## 2. 如何判定客户端离线？

## 答案

### 核心要点

心跳超时即视为离线。

## 3. 项目出发点与优化点

## 答案

### 1. 出发点

简历编辑需要多人协作。
"""


def test_an_answer_label_at_the_question_level_is_its_answer_not_a_question(tmp_path):
    report = read(tmp_path, _ANSWER_LABELS)
    assert questions(report) == [
        "协同编辑时怎么识别离线期间的操作？",
        "如何判定客户端离线？",
        "项目出发点与优化点",
    ]
    offline, heartbeat, start = report.bank.questions
    assert "本地时钟和设备号" in offline.reference
    # a rule and a numbered heading that asks, both inside the answer, do not end it
    assert "逐项取大" in offline.reference
    assert "心跳超时" in heartbeat.reference
    assert "多人协作" in start.reference
    assert "## 答案" not in offline.reference


_CLOSING = """# Interview Questions: Garbage Collection

## 1. What is a GC root?

### ✅ Clear Answer
An object the collector starts from: stack slots, static fields.

## 2. Why does a full GC stop the world?

### Explanation
Objects move, so every reference must be updated at once.

## 3. What does the young generation hold?

### Answer
New objects; most die young.

---

## 🚫 Common Pitfalls to Avoid

- ❌ Saying System.gc() forces a collection
- ❌ Saying finalize runs right away

## 📌 Quick Mental Model

allocate → eden → survivor → old
"""


def test_sections_after_the_numbered_questions_are_left_and_listed(invoke, tmp_path):
    report = read(tmp_path, _CLOSING)
    assert questions(report) == [
        "What is a GC root?",
        "Why does a full GC stop the world?",
        "What does the young generation hold?",
    ]
    assert all(q.reference for q in report.bank.questions)
    left = {s.text: s.where.rsplit(":", 1)[1] for s in report.skipped}
    assert left == {"🚫 Common Pitfalls to Avoid": "20", "📌 Quick Mental Model": "25"}
    shown = invoke("bank", "import", str(tmp_path / "q.md"), "--preview")
    assert shown.exit_code == 0, shown.stderr
    assert (
        "Took 3 question(s): 3 of the file's 3 asking line(s), 0 that do not ask." in shown.stdout
    )
    assert "first at line 20" in shown.stdout
    assert "--level" not in shown.stdout  # its "### Answer" headings are no level to try


_ONE_QUESTION = """---
id: case-0007
title: 缓存击穿怎么防
difficulty: medium
---

# 题目

热点 key 过期的瞬间大量请求打到数据库，怎么防止缓存击穿？

# 一句话结论

互斥重建加逻辑过期，让只有一个请求去查库。

# 核心机制

1. 重建缓存前先抢分布式锁
2. 热点数据只设逻辑过期时间

# 标准答案

先判断是否为热点 key；热点 key 用逻辑过期，后台线程异步刷新。

# 常见误答

- 只把过期时间设得很长
"""


def test_a_file_of_one_question_under_a_label_is_that_question_answered_by_the_rest(tmp_path):
    report = read(tmp_path, _ONE_QUESTION)
    assert questions(report) == ["热点 key 过期的瞬间大量请求打到数据库，怎么防止缓存击穿？"]
    (only,) = report.bank.questions
    for said in ("互斥重建", "先抢分布式锁", "后台线程异步刷新", "只把过期时间设得很长"):
        assert said in only.reference
    assert report.bank.title == "缓存击穿怎么防"
    assert not report.skipped and not report.lost
    assert not report.suggestions  # its "# 标准答案" sections are no level to try
