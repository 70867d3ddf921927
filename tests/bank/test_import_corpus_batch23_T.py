"""Failure classes a twenty-third batch of real public question files showed (issue 34), part T.

Each file here is written for the test, in the shape those files had: notes (``### 1.1 什么是
…？``) before ``### 题目 N：…？（初级）`` cards whose difficulty tag ends the title; a file of one
question under ``## 题目``, answered in the sections after it; a card whose closing list mixes
misconceptions with ``**追问："…？"** — answer`` follow-ups.
"""

from __future__ import annotations

from imported import previewed, questions, read

_NOTES_THEN_CARDS = """\
# 缓存设计笔记

## 一、概念

### 1.1 什么是缓存穿透？

查询的键在缓存和数据库里都不存在，每次都打到数据库。

### 1.2 两种写缓存的方式

先写库再删缓存，或者先删缓存再写库。

## 二、面试题

### 题目 1：缓存穿透和缓存击穿有什么区别？（初级）

穿透查的是不存在的键，击穿是热点键过期的一瞬间。

### 题目 2：如何用布隆过滤器挡住穿透？（中级）

把所有存在的键放进布隆过滤器，查询前先判断。

### 题目 3：多级缓存怎样保证一致性？（高级）

用消息队列广播失效事件，各级按版本号丢弃旧值。
"""


def test_a_level_tag_ending_a_card_title_becomes_a_tag(tmp_path):
    report = read(tmp_path, _NOTES_THEN_CARDS, "cache.md")
    assert questions(report) == [
        "缓存穿透和缓存击穿有什么区别？",
        "如何用布隆过滤器挡住穿透？",
        "多级缓存怎样保证一致性？",
    ]
    assert [q.tags for q in report.bank.questions] == [
        ("level:初级",),
        ("level:中级",),
        ("level:高级",),
    ]
    assert "热点键过期" in (report.bank.questions[0].reference or "")


def test_numbered_notes_headings_before_the_cards_are_no_questions(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _NOTES_THEN_CARDS, "cache.md")
    assert "Total: 3 question(s)" in shown
    assert "什么是缓存穿透？" not in shown.split("Total:")[0]
    assert "（初级）" not in shown and "（中级）" not in shown


def test_english_difficulty_marks_leave_the_question(tmp_path):
    text = (
        "# Caching\n\n### Q1: What is a cache stampede? (Easy)\n\nMany misses at once.\n\n"
        "### Q2: How would you shard a cache? [Hard]\n\nConsistent hashing.\n"
    )
    report = read(tmp_path, text, "en.md")
    assert questions(report) == ["What is a cache stampede?", "How would you shard a cache?"]
    assert [q.tags for q in report.bank.questions] == [("difficulty:easy",), ("difficulty:hard",)]


_ONE_QUESTION = """\
# 第 7 题：写回缓存的取舍

## 题目

说明写回（write-back）缓存如何工作，以及它在掉电时有什么风险。

---

## 一、写回缓存在做什么？

写操作只改缓存里的块并标记为脏，换出时才写回存储。

## 二、掉电会丢什么？

尚未写回的脏块全部丢失，需要电池或日志兜底。

## 记忆要点

1. 写回：先改缓存，换出时落盘。
2. 风险：掉电丢脏块。
"""


def test_a_one_question_file_takes_the_paragraph_under_its_question_heading(tmp_path):
    report = read(tmp_path, _ONE_QUESTION, "one.md")
    assert questions(report) == ["说明写回（write-back）缓存如何工作，以及它在掉电时有什么风险。"]
    answer = report.bank.questions[0].reference or ""
    assert "标记为脏" in answer and "电池或日志兜底" in answer and "掉电丢脏块" in answer


def test_the_preview_keeps_the_answer_sections_asking_lines_in_the_answer(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _ONE_QUESTION, "one.md")
    assert "Total: 1 question(s)" in shown and "1 with a reference answer" in shown
    kept = shown.split("Asking lines kept in an answer, not as questions (2):", 1)[1]
    assert "写回缓存在做什么？" in kept and "掉电会丢什么？" in kept


def test_a_question_heading_over_a_list_of_questions_is_no_one_question_file(tmp_path):
    text = (
        "# 操作系统题\n\n## 题目\n\n1、进程和线程有什么区别？\n\n2、什么是缺页中断？\n\n"
        "## 解答\n\n### 1、进程和线程有什么区别？\n\n进程有独立地址空间。\n\n"
        "### 2、什么是缺页中断？\n\n访问的页不在内存时触发。\n"
    )
    report = read(tmp_path, text, "os.md")
    assert "进程和线程有什么区别？" in questions(report)
    assert "什么是缺页中断？" in questions(report)
    assert "说明" not in " ".join(questions(report))


_FOLLOW_UPS = """\
# 读写分离时怎样避免读到旧数据？

## 简短回答

写后短时间内的读走主库，其余读走从库。

## 常见误区 / 面试追问

1. **误区："从库总是最新的"** — 复制有延迟，秒级甚至更长。

2. **追问："复制延迟怎么监控？"** — 比较主从的位点，超过阈值就告警并切走读流量。

3. **追问："强一致读会不会压垮主库？"** — 只对刚写过的会话走主库，用会话标记控制范围。
"""


def test_follow_ups_labelled_in_a_cards_list_are_questions_with_their_answers(tmp_path):
    report = read(tmp_path, _FOLLOW_UPS, "replica.md")
    assert questions(report) == [
        "读写分离时怎样避免读到旧数据？",
        "复制延迟怎么监控？",
        "强一致读会不会压垮主库？",
    ]
    first, monitor, strong = (q.reference or "" for q in report.bank.questions)
    assert "从库总是最新的" in first and "复制延迟怎么监控" not in first
    assert monitor.startswith("比较主从的位点") and strong.startswith("只对刚写过的会话")


def test_follow_up_bullets_under_a_label_stay_in_the_answer_and_the_preview_says_so(
    invoke, tmp_path
):
    text = (
        "# 数据库题\n\n### Q1: 索引为什么用 B+ 树？\n\n**答案：** 层数低，范围查询快。\n\n"
        "**深入追问：**\n- 为什么不用哈希索引？\n- 联合索引的最左前缀是什么？\n\n"
        "### Q2: 事务隔离级别有哪些？\n\n**答案：** 读未提交、读已提交、可重复读、串行化。\n\n"
        "### Q3: MVCC 是什么？\n\n**答案：** 多版本并发控制，读不加锁。\n"
    )
    report = read(tmp_path, text, "db.md")
    assert questions(report) == ["索引为什么用 B+ 树？", "事务隔离级别有哪些？", "MVCC 是什么？"]
    assert "为什么不用哈希索引？" in (report.bank.questions[0].reference or "")
    shown = previewed(invoke, tmp_path, text, "db.md")
    kept = shown.split("Asking lines kept in an answer, not as questions (2):", 1)[1]
    assert "为什么不用哈希索引？" in kept and "联合索引的最左前缀是什么？" in kept
