"""Failure classes a thirteenth batch of real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had: sections of asking
bullets with a few items that set a task in words the importer does not know (``Profile
…``, ``Benchmark …``) and a numbered list of tasks under a heading of its own; a numbered
list of questions asked again in the answers below it; bold ``**N. …？**`` questions with
``**1) …**`` code titles, a closing chat-assistant offer and a ``三种范式：`` head that is
part of the question; a credit heading among heading questions.
"""

from __future__ import annotations

import json

from imported import previewed, questions, read

_BACKEND = """# Backend interview questions

## Databases
- What is an index and when does it slow writes down?
- How does MVCC let readers and writers avoid blocking?
- Have you tuned a slow query? Walk through what you measured.
- Profile a query plan with EXPLAIN ANALYZE
- Why would you pick a covering index?

## Caching
- What is a cache stampede and how do you prevent it?
- How would you choose a TTL for session data?
- Benchmark a write-through cache against write-back
- When is a cache the wrong answer?

## Queues
- What does at-least-once delivery mean for consumers?
- How do you make a consumer idempotent?
- What happens when a partition leader fails?

## Stretch Tasks
1. Port the rate limiter to Redis scripts
2. Shard the audit table by tenant
3. Replace polling with change data capture
"""

_LEFT = [
    "Profile a query plan with EXPLAIN ANALYZE",
    "Benchmark a write-through cache against write-back",
    "Port the rate limiter to Redis scripts",
    "Shard the audit table by tenant",
    "Replace polling with change data capture",
]


def test_a_question_then_the_task_it_sets_is_one_question(tmp_path):
    taken = questions(read(tmp_path, _BACKEND))
    assert "Have you tuned a slow query? Walk through what you measured." in taken
    assert not set(_LEFT) & set(taken)  # by default: the items that neither ask nor set a task


def test_the_preview_lists_the_items_left_and_names_the_option_that_takes_them(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _BACKEND)
    assert "List items neither taken nor inside an answer (5):" in shown
    assert "line 7: Profile a query plan with EXPLAIN ANALYZE" in shown
    assert "line 24: Replace polling with change data capture" in shown
    assert "Try --questions items: 15 questions, 5 of the list items left out" in shown
    assert shown.endswith("--name q --questions items")


def test_the_option_named_takes_every_item_and_the_json_lists_those_left(invoke, tmp_path):
    taken = questions(read(tmp_path, _BACKEND, questions="items"))
    assert len(taken) == 15 and set(_LEFT) <= set(taken)
    path = tmp_path / "q.md"
    data = json.loads(invoke("bank", "import", str(path), "--preview", "--json").stdout)
    left = data["steer"]["items_not_taken"]
    assert [line["text"] for line in left] == _LEFT
    assert left[0]["where"] == f"{path}:7"


_INTRO = """# Python questions

Contributions welcome:
- Fork the repository
- Add your question

## Basics
- What is a list comprehension?
- How do generators save memory?
- Why is a tuple hashable?
"""


def test_a_list_that_is_no_list_of_questions_is_not_listed_as_left(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _INTRO)
    assert "Took 3 question(s): 3 of the file's 3 asking line(s)" in shown
    assert "List items neither taken" not in shown


_CACHE = """# 缓存面试题

1. 什么是缓存穿透？
2. 什么是缓存雪崩？
3. 如何保证缓存与数据库一致？

## 参考回答

**什么是缓存穿透？**

查询一个不存在的数据，每次都打到数据库。

**什么是缓存雪崩？**

大量缓存同时过期，请求一起落到数据库。

**如何保证缓存与数据库一致？**

先更新数据库，再删除缓存。
"""


def test_the_took_line_says_why_the_total_has_fewer_questions(invoke, tmp_path):
    report = read(tmp_path, _CACHE)
    assert len(report.bank.questions) == 3 and len(report.repeats) == 3
    shown = previewed(invoke, tmp_path, _CACHE)
    assert "Total: 3 question(s)" in shown
    assert "Took 6 question(s) (3 asked again, imported once: 3 in the Total):" in shown


_BOLD = """# 数据库面试 60 问

## A. 基础

**1. 什么是事务？**
 一组要么全做要么全不做的操作。

**2. 索引为什么用 B+ 树？**
 矮胖、范围查询友好。

**3. 什么是幻读？**
 同一查询两次看到不同的行数。

**4. MVCC 如何实现？**
 版本链加 ReadView。

**5. 三种范式：1NF / 2NF / 3NF？**
 原子列、完全依赖、无传递依赖。

**6. 为什么要分库分表？**
 单表过大、连接数受限。

## B. 代码片段

**1) 事务模板（Python）**

```python
with conn:
    conn.execute("UPDATE t SET x = 1")
```

**2) 建立索引**

```sql
CREATE INDEX idx_x ON t (x);
```

要不要我帮你把这些题整理成一张速记卡片，这样你就能快速复习？
"""


def test_code_titles_and_an_offer_are_no_questions_and_a_head_stays_with_its_terms(
    tmp_path,
):
    report = read(tmp_path, _BOLD)
    assert questions(report) == [
        "什么是事务？",
        "索引为什么用 B+ 树？",
        "什么是幻读？",
        "MVCC 如何实现？",
        "三种范式：1NF / 2NF / 3NF？",
        "为什么要分库分表？",
    ]
    assert report.bank.questions[-1].reference == "单表过大、连接数受限。"
    left = {s.text: s.why for s in report.skipped}
    assert left["事务模板（Python）"] == "a numbered title among numbered questions"
    assert "建立索引" in left and not any(s.counts for s in report.skipped)
    assert any(text.startswith("要不要我帮你") for text in left)


_HEADINGS = """# 深度学习面试题（页码版）

#### 本文原作者王五，本文原载于个人博客。
原文： https://example.com/post/1

#### 什么是过拟合？
答：p110

#### 为什么要用 dropout？
答：p255

#### 批归一化解决了什么问题？
答：p313

#### Would you like me to add the English page numbers too?
"""


def test_a_credit_heading_and_an_offer_among_heading_questions_are_not_taken(tmp_path):
    assert questions(read(tmp_path, _HEADINGS)) == [
        "什么是过拟合？",
        "为什么要用 dropout？",
        "批归一化解决了什么问题？",
    ]
