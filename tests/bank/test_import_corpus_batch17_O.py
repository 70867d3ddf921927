"""Failure classes a seventeenth batch of real public question files showed (issue 34), part O.

Each file here is written for the test, in the shape those files had: a self-test sheet whose
headings name the kind of question (``### ✅ 1. 选择题``) over the question and the owner's
attempt; ``### Question N`` labels over the ``####`` heading that asks; notes whose ``#``
headings are the cards, where the preview named ``--level 1`` (which keeps the first heading as
the file's title); and the preview's last line, which must carry the ``--level`` and ``--map``
the user gave.
"""

from __future__ import annotations

import shlex

from imported import previewed, questions, read

from studybot import bank

_SELF_TEST = """# 🧪 缓存系统自测卷

> 题型：选择 / 填空 / 简答

## **第一部分：基础**

### **✅ 1. 选择题**

下面哪一种淘汰策略最适合热点数据？B

A. FIFO

B. LRU

C. 随机

------

### **✅ 2. 填空题**

缓存穿透可以用 ______ 挡住不存在的键。

布隆过滤器

------

### **✅ 3. 简答题**

为什么缓存和数据库之间会出现不一致？

答：先写库再删缓存时，删除失败就会留下旧值。

------

## **第二部分：进阶**

### **✅ 4. 多选题**

以下哪些做法能缓解缓存雪崩：A、C

A. 过期时间加随机值

B. 所有键同一时刻过期

C. 多级缓存

------

### **✅ 5. 设计题（高阶）**

设计一个支持百万 QPS 的本地缓存。

不知道

------

## **📌 附加挑战题：**

> ✍️ 推导缓存命中率与容量之间的关系，并说明为何它会趋于饱和。

我只记得和访问分布有关。
"""


def test_a_heading_that_names_the_kind_of_question_labels_the_paragraph_under_it(tmp_path):
    report = read(tmp_path, _SELF_TEST)
    assert questions(report) == [
        "下面哪一种淘汰策略最适合热点数据？",
        "缓存穿透可以用 ______ 挡住不存在的键。",
        "为什么缓存和数据库之间会出现不一致？",
        "以下哪些做法能缓解缓存雪崩：",
        "设计一个支持百万 QPS 的本地缓存。",
        "推导缓存命中率与容量之间的关系，并说明为何它会趋于饱和。",
    ]
    pick, blank, short, many, design, extra = report.bank.questions
    assert pick.reference.startswith("B")  # the owner's pick, glued to the stem in the file
    assert "LRU" in pick.reference
    assert blank.reference == "布隆过滤器"
    assert short.reference == "先写库再删缓存时，删除失败就会留下旧值。"
    assert many.reference.startswith("A、C")
    assert design.reference == "不知道"
    assert extra.reference == "我只记得和访问分布有关。"
    assert not any("选择题" in q or "填空题" in q for q in questions(report))


def test_the_preview_takes_the_questions_not_the_labels(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _SELF_TEST)
    assert "Total: 6 question(s)" in shown
    assert "first: Q1 下面哪一种淘汰策略最适合热点数据？" in shown
    assert "asked again" not in shown  # "选择题" twice was one question asked again


_ENGLISH_LABELS = """# Networking check

### 1. Multiple choice

Which layer does TCP belong to? C

- A. Link
- B. Network
- C. Transport

### 2. Short answer

Explain what a three-way handshake establishes.

Both sides agree on initial sequence numbers.
"""


def test_english_kind_labels_label_the_question_too(tmp_path):
    report = read(tmp_path, _ENGLISH_LABELS)
    assert questions(report) == [
        "Which layer does TCP belong to?\n- A. Link\n- B. Network\n- C. Transport",
        "Explain what a three-way handshake establishes.",
    ]  # the options shown under the stem, the owner's pick no part of it
    choice, short = report.bank.questions
    assert choice.reference == "C"
    assert short.reference == "Both sides agree on initial sequence numbers."


_KIND_PARTS = """# 前端笔试

## 单选题

1、下面哪个值转成布尔值是 true？

```js
!!'0'
```

> 答案：true

2、typeof null 的结果是什么？

> 答案：object

## 填空题

1、事件循环里微任务在 ______ 之后执行。

> 答案：当前宏任务
"""


def test_a_kind_heading_over_numbered_questions_is_a_part_not_a_label(tmp_path):
    report = read(tmp_path, _KIND_PARTS)
    assert questions(report) == [
        "下面哪个值转成布尔值是 true？",
        "typeof null 的结果是什么？",
        "事件循环里微任务在 ______ 之后执行。",
    ]


_QUESTION_LABELS = """# Interview questions

### Question 1

#### A sign-up page shows two buttons to two groups of visitors. How would you decide which is better?

### Question 2

#### Describe how you would cluster customers from their purchase history alone.

#### The records look like this:

#### {"customer": 7, "items": 12}

### Question 3

#### What is the first thing you check when a model overfits?

Compare training and validation loss over the epochs.
"""


def test_a_number_alone_heading_labels_the_deeper_heading_that_asks(tmp_path):
    report = read(tmp_path, _QUESTION_LABELS)
    assert questions(report) == [
        "A sign-up page shows two buttons to two groups of visitors. "
        "How would you decide which is better?",
        "Describe how you would cluster customers from their purchase history alone.",
        "What is the first thing you check when a model overfits?",
    ]
    first, second, third = report.bank.questions
    assert first.reference is None
    assert "The records look like this:" in second.reference
    assert third.reference == "Compare training and validation loss over the epochs."


def test_the_labelled_file_is_no_longer_refused(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _QUESTION_LABELS)
    assert "has no question text" not in shown
    assert "Total: 3 question(s)" in shown


_TOP_HEADINGS = """# 三点不同；
* 一个支持事务，另一个不支持。
* 一个是行锁，另一个是表锁。

# 缓冲池的三个作用
* 缓存数据页
* 缓存索引页

# 两者 count(*) 哪个更快，为什么
* 一个维护了行数计数器，可以直接读。
"""


def _run_line(invoke, path, *options: str) -> str:
    """The preview's last line for ``path`` read with ``options``, after running it."""
    shown = invoke("bank", "import", str(path), "--preview", *options)
    assert shown.exit_code == 0, shown.stderr
    last = shown.stdout.rstrip("\n").split("\n")[-1]
    run = invoke(*shlex.split(last.removeprefix("Run: studybot ")))
    assert run.exit_code == 0, run.stderr
    return last


def test_the_preview_names_the_selector_that_takes_every_top_heading(invoke, tmp_path):
    path = tmp_path / "innodb.md"
    path.write_text(_TOP_HEADINGS, encoding="utf-8")
    shown = invoke("bank", "import", str(path), "--preview")
    assert shown.exit_code == 0, shown.stderr
    assert "Try: --questions headings:1 reads each of the 3 level-1 headings" in shown.stdout
    assert "--level 1" not in shown.stdout
    last = _run_line(invoke, path, "--questions", "headings:1")
    assert last == f"Run: studybot bank import {path} --name innodb --questions headings:1"
    saved = bank.load("innodb").questions
    assert [q.question for q in saved] == [
        "三点不同；",
        "缓冲池的三个作用",
        "两者 count(*) 哪个更快，为什么",
    ]
    assert saved[2].key_points or saved[2].reference


def test_the_run_line_carries_the_level_the_user_gave(invoke, tmp_path):
    path = tmp_path / "innodb.md"
    path.write_text(_TOP_HEADINGS, encoding="utf-8")
    last = _run_line(invoke, path, "--level", "1")
    assert last == f"Run: studybot bank import {path} --name innodb --level 1"
    # what the preview showed is what was saved: level 1, the first heading the title
    assert [q.question for q in bank.load("innodb").questions] == [
        "缓冲池的三个作用",
        "两者 count(*) 哪个更快，为什么",
    ]


_KOREAN_SHEET = """문항,해답,출처
운영체제가 관리하는 자원 네 가지는?,CPU 메모리 파일 장치,교재
교착 상태의 네 가지 조건은?,상호 배제 점유 대기 비선점 순환 대기,교재
"""


def test_the_run_line_carries_the_map_the_user_gave(invoke, tmp_path):
    path = tmp_path / "os.csv"
    path.write_text(_KOREAN_SHEET, encoding="utf-8")
    last = _run_line(invoke, path, "--map", "question=문항,answer=해답")
    assert last == f"Run: studybot bank import {path} --name os --map 'question=문항,answer=해답'"
    saved = bank.load("os").questions
    assert [q.question for q in saved] == [
        "운영체제가 관리하는 자원 네 가지는?",
        "교착 상태의 네 가지 조건은?",
    ]
    assert saved[1].reference == "상호 배제 점유 대기 비선점 순환 대기"
