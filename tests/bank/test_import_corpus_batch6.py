"""Failure classes a sixth batch of real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had: a
code-output quiz whose every heading asks the same words over different
code, with the answer in ``<details>`` under a ``#### 答案`` heading, and the
rest named in each test.
"""

from __future__ import annotations

import json

from imported import questions, read

_OUTPUT_QUIZ = """# Python 输出题

每题下方折叠处是答案。

---

###### 1. 输出是什么？

```python
print(len({1, 1, 2}))
```

- A: `3`
- B: `2`
- C: `1`

<details><summary><b>答案</b></summary>
<p>

#### 答案：B

集合去掉了重复的 `1`，剩下两个元素。

</p>
</details>

---

###### 2. 输出是什么？

```python
print(bool([]))
```

- A: `True`
- B: `False`

<details><summary><b>答案</b></summary>
<p>

#### 答案：B

空列表的真值为假。

</p>
</details>

---

###### 3. 事件循环里先执行哪一个？

- A: 微任务
- B: 宏任务

<details><summary><b>答案</b></summary>
<p>

#### 答案：A

当前任务结束后先清空微任务队列。

</p>
</details>
"""


def test_the_code_and_options_under_a_repeated_quiz_heading_are_part_of_each_question(tmp_path):
    report = read(tmp_path, _OUTPUT_QUIZ)
    assert questions(report) == [
        "输出是什么？\n\n```\nprint(len({1, 1, 2}))\n```\n- A. `3`\n- B. `2`\n- C. `1`",
        "输出是什么？\n\n```\nprint(bool([]))\n```\n- A. `True`\n- B. `False`",
        "事件循环里先执行哪一个？\n- A. 微任务\n- B. 宏任务",
    ]
    assert report.repeats == ()  # the same words over different code: no repeat
    first, second, third = report.bank.questions
    assert first.reference == "#### 答案：B\n\n集合去掉了重复的 `1`，剩下两个元素。"
    assert "空列表的真值为假" in second.reference
    assert not third.key_points  # lettered options are no key points
    assert "清空微任务队列" in third.reference


def test_headings_inside_an_answer_box_are_no_chapters(tmp_path):
    report = read(tmp_path, _OUTPUT_QUIZ)
    assert [c.title for c in report.bank.chapters] == ["Python 输出题"]
    assert not report.lost


def test_records_with_text_ids_keep_their_order_and_the_id_as_a_tag(tmp_path):
    records = (
        '{"meta": {"total": 3}, "questions": [\n'
        '  {"id": "net_010", "question": "What does a TCP handshake establish?", '
        '"answer": "Both sides agree on sequence numbers.", "tags": ["tcp"], '
        '"company": "Acme Cloud", "round": "phone", "role": "SRE"},\n'
        '  {"id": "net_002", "question": "Why does DNS use UDP by default?", '
        '"answer": ["Small queries", "No handshake"]},\n'
        '  {"id": "Q-017", "question": "What is a subnet mask for?", "answer": "Splitting an '
        'address into network and host parts."}\n]}\n'
    )
    report = read(tmp_path, records, name="net.json")
    assert not report.forced and not report.refused
    assert questions(report) == [
        "What does a TCP handshake establish?",
        "Why does DNS use UDP by default?",
        "What is a subnet mask for?",
    ]
    assert [q.tags for q in report.bank.questions] == [
        ("tcp", "net_010", "company:acme-cloud", "round:phone"),
        ("net_002",),
        ("q-017",),
    ]
    assert "as tags: 'company', 'round'" in report.notes
    assert "not used: 'role'" in report.notes
    assert [q.id for q in report.bank.questions] == [1, 2, 3]
    assert all(q.reference for q in report.bank.questions)
    lines = (
        '{"id": "a1", "question": "Why is a hash map lookup O(1) on average?"}\n'
        '{"id": "a2", "question": "When does a hash map resize?"}\n'
    )
    report = read(tmp_path, lines, name="maps.jsonl")
    assert [q.tags for q in report.bank.questions] == [("a1",), ("a2",)]


def test_difficulty_marks_and_company_tails_are_tags_not_question_text(tmp_path):
    report = read(
        tmp_path,
        "# Databases\n\n"
        "### Why Do B-Trees Suit Disks? - IBM, Oracle Interview Question\n\n"
        "**Difficulty:** 🔴 Hard | **Tags:** `Indexes`, `Storage` | **Asked by:** IBM, Oracle\n\n"
        "A node fills a disk page, so a lookup reads few pages.\n\n"
        "### What Is a Covering Index? - Stripe Interview Question\n\n"
        "**Difficulty:** 🟢 Easy | **Tags:** `Indexes`\n\n"
        "An index that holds every column the query reads.\n\n"
        "## Practice\n\n"
        "1. [E] What does a foreign key guarantee?\n"
        "2. [M] When would you denormalise a schema?\n"
        "3. [H] How does MVCC avoid read locks?\n",
    )
    assert questions(report) == [
        "Why Do B-Trees Suit Disks?",
        "What Is a Covering Index?",
        "What does a foreign key guarantee?",
        "When would you denormalise a schema?",
        "How does MVCC avoid read locks?",
    ]
    first, second, *practice = report.bank.questions
    assert first.tags == (
        "company:ibm", "company:oracle", "difficulty:hard", "indexes", "storage"
    )  # fmt: skip
    assert first.reference == "A node fills a disk page, so a lookup reads few pages."
    assert second.tags == ("company:stripe", "difficulty:easy", "indexes")
    assert [q.tags for q in practice] == [
        ("difficulty:easy",),
        ("difficulty:medium",),
        ("difficulty:hard",),
    ]


def test_questions_typed_as_indented_lines_are_taken_and_real_code_stays_code(tmp_path):
    report = read(
        tmp_path,
        "# 1. 网络相关\n\n"
        "    【基础】  \n"
        "    TCP三次握手的过程  \n"
        "    为什么挥手要四次  \n"
        "    HTTP/2 有了解过嘛  \n"
        "    拥塞控制\n\n"
        "# 2. 数据库相关\n"
        "    索引为什么用B+树  \n"
        "    事务隔离级别有哪些  \n"
        "    MVCC\n",
    )
    assert questions(report) == [
        "TCP三次握手的过程",
        "为什么挥手要四次",
        "HTTP/2 有了解过嘛",
        "拥塞控制",
        "索引为什么用B+树",
        "事务隔离级别有哪些",
        "MVCC",
    ]
    assert [q.chapter for q in report.bank.questions] == [1, 1, 1, 1, 2, 2, 2]  # the headings
    assert "数据库相关" in report.bank.chapters[1].title
    assert all(q.label is None and q.reference is None for q in report.bank.questions)
    code = read(
        tmp_path,
        "## 1. 什么是生成器？\n\n"
        "调用时才计算下一个值：\n\n"
        "    def count(n):\n"
        "        while n:\n"
        "            yield n\n"
        "            n -= 1\n\n"
        "## 2. 什么是装饰器？\n\n"
        "接受函数、返回函数的函数。\n",
        name="code.md",
    )
    assert questions(code) == ["什么是生成器？", "什么是装饰器？"]
    assert "        yield n" in code.bank.questions[0].reference


def test_numbered_sub_items_under_a_numbered_stem_are_questions_of_their_own(tmp_path):
    report = read(
        tmp_path,
        "## Caching\n\n"
        "11. [E] What is a cache hit ratio?\n"
        "12. Eviction policies.\n"
        "    4. [E] How does LRU decide what to evict?\n"
        "    5. [M] When does LFU beat LRU?\n"
        "13. Why do caches need invalidation?\n"
        "14. Cache write policies.\n"
        "    6. [H] Sketch a write-back cache for a workload that is:\n"
        "        1. read heavy\n"
        "        2. write heavy\n"
        "    7. [E] What happens to dirty lines on a crash?\n",
    )
    assert questions(report) == [
        "What is a cache hit ratio?",
        "How does LRU decide what to evict?",
        "When does LFU beat LRU?",
        "Why do caches need invalidation?",
        "Sketch a write-back cache for a workload that is:\n1. read heavy\n2. write heavy",
        "What happens to dirty lines on a crash?",
    ]
    assert [q.label for q in report.bank.questions] == ["11", "4", "5", "13", "6", "7"]
    assert report.bank.questions[1].tags == ("difficulty:easy",)
    assert not report.lost


def test_a_bare_question_label_takes_its_question_from_the_lines_below(tmp_path):
    report = read(
        tmp_path,
        "### 后端能力\n\n"
        "1. **问题：**\n"
        "   - 中文：你如何给一个慢接口定位瓶颈？\n"
        "   - English: How do you find the bottleneck of a slow endpoint?\n\n"
        "**参考答案：**\n"
        "   - 中文：先看链路追踪，再看数据库慢查询。\n\n"
        "12. **问题：**\n"
        "   - 中文：请说明你如何设计接口的幂等性。\n"
        "   - English: Explain how you would make an endpoint idempotent.\n\n"
        "### 1. 缓存\n"
        "**问题：**\n"
        "- 缓存穿透和缓存击穿有什么区别，各自如何防护？\n\n"
        "**参考答案：**\n"
        "- 穿透查的是不存在的键，用布隆过滤器；击穿是热点键过期，用互斥锁。\n",
    )
    assert not report.forced and not report.refused
    assert questions(report) == [
        "你如何给一个慢接口定位瓶颈？",
        "请说明你如何设计接口的幂等性。",
        "缓存穿透和缓存击穿有什么区别，各自如何防护？",
    ]
    first, second, third = report.bank.questions
    assert first.hint == "English: How do you find the bottleneck of a slow endpoint?"
    assert "先看链路追踪" in first.reference
    assert second.hint == "English: Explain how you would make an endpoint idempotent."
    assert "布隆过滤器" in third.reference


def test_the_preview_total_counts_every_asking_line_it_lists_as_not_taken(invoke, tmp_path):
    path = tmp_path / "locks.md"
    path.write_text(
        "# Locks\n\n"
        "## What is a mutex?\n\n"
        "A lock one thread holds at a time.\n\n"
        "## What is a semaphore?\n\n"
        "A counter of permits.\n\n"
        "- How many threads may enter at once?\n"
        "- Can its count go below zero?\n",
        encoding="utf-8",
    )
    shown = invoke("bank", "import", str(path), "--preview")
    assert shown.exit_code == 0, shown.stderr
    out = shown.stdout
    # both sit in the semaphore's answer: imported as its text, listed apart, not counted
    assert "0 question-like line(s) not taken." in out
    assert "Asking lines not taken (" not in out
    assert "Asking lines kept in an answer, not as questions (2):" in out
    assert "line 11: How many threads may enter at once?" in out
    assert "line 12: Can its count go below zero?" in out


def test_a_task_that_opens_with_build_find_or_compute_is_a_question(tmp_path):
    # and a CSS property named like a verb (justify-content) is none
    report = read(
        tmp_path,
        "## Asked at a data team\n"
        "- How do you join two tables without a shared key?\n"
        "- Build a small ETL job and explain how it retries\n"
        "- Find the median of a stream of numbers\n"
        "- Compute the top ten users by spend\n"
        "- Build artefacts are cached for a week\n"
        "- justify-content: center; keeps the banner in the middle\n",
    )
    assert questions(report) == [
        "How do you join two tables without a shared key?",
        "Build a small ETL job and explain how it retries",
        "Find the median of a stream of numbers",
        "Compute the top ten users by spend",
    ]


def test_the_tags_of_an_answer_box_after_some_answer_text_are_left_out(tmp_path):
    report = read(
        tmp_path,
        "### 1. 为什么要做梯度裁剪？\n\n"
        "先想想梯度爆炸时会发生什么。\n\n"
        "<details><summary><b>答案</b></summary>\n<p>\n\n"
        "#### 答案\n\n"
        "限制梯度范数，避免一步更新过大。\n\n"
        "</p>\n</details>\n\n"
        "### 2. 学习率预热有什么用？\n\n"
        "前 1000 步线性增大学习率。\n",
    )
    first, _ = report.bank.questions
    assert first.reference == (
        "先想想梯度爆炸时会发生什么。\n\n#### 答案\n\n限制梯度范数，避免一步更新过大。"
    )
    assert len(report.bank.chapters) == 1  # "#### 答案" in the box is no chapter


def test_a_parenthesis_that_says_what_to_focus_on_stays_in_the_question(tmp_path):
    report = read(
        tmp_path,
        "#### 1. [`Keep-Alive` 响应头（重点是 `timeout`）](https://example.org/a)\n\n"
        "#### 2. [讲讲 HTTP/2 多路复用（重点）](https://example.org/b)\n\n"
        "#### 3. [HTTP 缓存的协商过程](https://example.org/c)\n",
    )
    assert questions(report) == [
        "`Keep-Alive` 响应头（重点是 `timeout`）",
        "讲讲 HTTP/2 多路复用",
        "HTTP 缓存的协商过程",
    ]


_BOLD_QUESTIONS_BULLET_ANSWERS = """# Retrieval notes

**1. What does a vector index store?**
- One vector per chunk, plus the chunk's id
- Built once, queried many times

**2. How is a hybrid score made?**
- score = a·S + b·D
- Q: query terms, D: document terms, a/b: weights
- Tuned on held-out queries

**3. What are the parts of a retrieval query?**
- Filter: Which documents may answer?
- Vector: What does the query mean?
- Limit: How many come back?
- Rerank step: a cross-encoder orders the top ones

**4. Why rerank at all?**
- The first stage favours recall over precision
"""


def test_a_legend_or_word_meanings_that_ask_inside_a_bullet_answer_stay_in_that_answer(tmp_path):
    report = read(tmp_path, _BOLD_QUESTIONS_BULLET_ANSWERS)
    assert questions(report) == [
        "What does a vector index store?",
        "How is a hybrid score made?",
        "What are the parts of a retrieval query?",
        "Why rerank at all?",
    ]
    second, third = report.bank.questions[1:3]
    assert "Q: query terms, D: document terms, a/b: weights" in second.key_points
    assert third.key_points[:3] == (
        "Filter: Which documents may answer?",
        "Vector: What does the query mean?",
        "Limit: How many come back?",
    )


_LEAD_IN_BEFORE_PART_TWO = """# 面试题

### 沟通能力（接上篇第 28 题）

29. **问题：**
   - 中文：你如何向非技术同事解释一次线上故障？
   - English: How do you explain an outage to non-technical colleagues?

30. **问题：**
   - 中文：需求频繁变更时，你怎么和产品经理沟通？
   - English: How do you talk with the product manager when requirements keep changing?



以下是第二部分的技术问题与参考答案，按主题整理。

### 1. 缓存
**问题：**
- 缓存穿透和缓存击穿有什么区别？

**参考答案：**
- 穿透查的是不存在的数据，击穿是热点数据过期的瞬间。

Here are the questions we could not fit above:

## Extra

- How would you shard a counter?
"""


def test_a_line_that_opens_the_next_part_is_no_answer_of_the_question_above(tmp_path):
    report = read(tmp_path, _LEAD_IN_BEFORE_PART_TWO)
    assert questions(report) == [
        "你如何向非技术同事解释一次线上故障？",
        "需求频繁变更时，你怎么和产品经理沟通？",
        "缓存穿透和缓存击穿有什么区别？",
        "How would you shard a counter?",
    ]
    second, third = report.bank.questions[1:3]
    assert second.reference is None and not second.key_points
    assert "热点数据过期" in (third.reference or "".join(third.key_points))
    assert "could not fit" not in (third.reference or "".join(third.key_points))


def _cell(kind: str, text: str) -> dict:
    return {"cell_type": kind, "metadata": {}, "source": text.splitlines(keepends=True)}


_TAKE_HOME = [
    _cell("markdown", "# Data take-home\n\n## Part 1: Cleaning\n\n**Data:** `orders.csv`\n"),
    _cell(
        "markdown",
        "**Tasks:**\n1. Load `orders.csv` into a DataFrame.\n"
        "2. Drop rows — duplicates and empty ones — before anything else.\n"
        "3. Compute the revenue per customer.\n4. Sort customers by revenue.\n",
    ),
    _cell("code", "# 1. Load orders.csv\n"),
    _cell(
        "markdown",
        "## Part 2: Caching\n\nA service answers in two seconds. Implement a cache in front of "
        "it that keeps answers for one minute.\n",
    ),
    _cell("code", "# Answer here\n"),
    _cell(
        "markdown",
        "## Part 3: Queue\n\n**Goal:** Design a queue that never loses a job.\n\n"
        "**Instructions:**\n- Jobs may be retried.\n- Workers may crash.\n",
    ),
    _cell("code", "class JobQueue:\n    pass\n"),
    _cell(
        "markdown",
        "## Part 4: Graphs\n\nA bipartite graph splits its nodes in two sets. Your task is to "
        "write a function, `two_sets`, that returns the two sets or None.\n",
    ),
]


def test_a_take_home_notebooks_task_list_and_section_tasks_are_its_questions(tmp_path):
    notebook = {"cells": _TAKE_HOME, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    report = read(tmp_path, json.dumps(notebook), name="take-home.ipynb")
    assert questions(report) == [
        "Load `orders.csv` into a DataFrame.",
        "Drop rows — duplicates and empty ones — before anything else.",
        "Compute the revenue per customer.",
        "Sort customers by revenue.",
        "A service answers in two seconds. Implement a cache in front of it that keeps answers"
        " for one minute.",
        "Goal: Design a queue that never loses a job.",
        "A bipartite graph splits its nodes in two sets. Your task is to write a function,"
        " `two_sets`, that returns the two sets or None.",
    ]
    goal = report.bank.questions[5]
    assert goal.reference is None and not goal.key_points  # its brief is no answer
