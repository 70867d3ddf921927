"""Failure classes a twenty-fifth batch of real public question files showed (issue 34), part R.

Each file here is written for the test, in the shape those files had: JSON records that
each hold a nested list of their sources (``[{title, answer, sources: [{title, url}]}]``),
whose records are the outer objects, with or without ``--map``; ``N) question`` lines each
followed by sibling ``- `` bullets that answer it (one question holding inline triple
backticks); plain lines under a label naming their kind (``系统设计题：``, ``八股：``); an
emoji before a question's number (``⏱️ 5. …``).
"""

from __future__ import annotations

import json

from imported import previewed, questions, read

_SOURCED = json.dumps(
    [
        {
            "id": 1,
            "category": "存储",
            "title": "为什么 B+ 树适合做磁盘索引？",
            "sources": [
                {"title": "数据库内核：第 2 章", "url": "https://example.org/db-internals"},
                {"title": "B 树技术综述", "url": "https://example.org/btree"},
            ],
            "answer": "扇出大、层数少，一次查询只读几个页；叶子相连，范围扫描顺序读。",
        },
        {
            "id": 2,
            "category": "存储",
            "title": "WAL 先写日志有什么好处？",
            "sources": [{"title": "SQLite 文档：预写日志", "url": "https://example.org/wal"}],
            "answer": "顺序写代替随机写，崩溃后重放日志即可恢复。",
        },
    ],
    ensure_ascii=False,
    indent=2,
)
_ASKED = ["为什么 B+ 树适合做磁盘索引？", "WAL 先写日志有什么好处？"]


def test_records_holding_a_list_of_sources_are_the_records(tmp_path, invoke):
    report = read(tmp_path, _SOURCED, "sourced.json")
    assert questions(report) == _ASKED
    assert [q.reference for q in report.bank.questions] == [
        "扇出大、层数少，一次查询只读几个页；叶子相连，范围扫描顺序读。",
        "顺序写代替随机写，崩溃后重放日志即可恢复。",
    ]
    shown = previewed(invoke, tmp_path, _SOURCED, "sourced.json")
    assert "Read question ← 'title', answer ← 'answer', chapter ← 'category'" in shown
    assert "Not used: 'sources'" in shown
    assert "2 with a reference answer" in shown
    assert "数据库内核" not in shown


def test_a_map_naming_the_outer_keys_reads_the_outer_records(tmp_path, invoke):
    mapping = (("question", "title"), ("answer", "answer"))
    report = read(tmp_path, _SOURCED, "sourced.json", mapping=mapping)
    assert questions(report) == _ASKED
    assert all(q.reference for q in report.bank.questions)
    options = ("--map", "question=title,answer=answer")
    shown = previewed(invoke, tmp_path, _SOURCED, "sourced.json", *options)
    assert "2 question(s) in 1 chapter(s); 2 with a reference answer" in shown


def test_a_topic_with_an_intro_still_holds_its_nested_questions(tmp_path):
    text = json.dumps(
        [
            {
                "title": "缓存",
                "content": "本章讲缓存的淘汰策略、一致性和穿透问题，先读第 3 章再做题。",
                "followups": [{"q": "LRU 和 LFU 各适合什么负载？"}, {"q": "缓存穿透怎么防？"}],
            }
        ],
        ensure_ascii=False,
    )
    report = read(tmp_path, text, "topic.json")
    assert questions(report) == ["LRU 和 LFU 各适合什么负载？", "缓存穿透怎么防？"]


_SIBLINGS = """\
# Interview notes

## Python
1) What are the built-in container types?

- List, tuple, set, dict, plus arrays from numpy

2) Can a dict hold mixed keys like ```d = {1: 'a', 2.5: 'b'}```
- Yes

3) Is Python compiled or interpreted?

4) What is faster, list or tuple?

- Tuple, it is stored in one block.

5) What are the pillars of OOP?

- Encapsulation - hides state.

- Inheritance - reuses a parent's behaviour.

6) Group by vs order by
- Group by gathers equal rows, order by sorts them.
"""


def test_bullets_after_a_numbered_question_are_its_answer_never_a_question(tmp_path, invoke):
    report = read(tmp_path, _SIBLINGS)
    assert questions(report) == [
        "What are the built-in container types?",
        "Can a dict hold mixed keys like ```d = {1: 'a', 2.5: 'b'}```",
        "Is Python compiled or interpreted?",
        "What is faster, list or tuple?",
        "What are the pillars of OOP?",
        "Group by vs order by",
    ]
    answers = [list(q.key_points) or [q.reference] for q in report.bank.questions]
    assert answers == [
        ["List, tuple, set, dict, plus arrays from numpy"],
        ["Yes"],
        [None],
        ["Tuple, it is stored in one block."],
        ["Encapsulation - hides state.", "Inheritance - reuses a parent's behaviour."],
        ["Group by gathers equal rows, order by sorts them."],
    ]
    shown = previewed(invoke, tmp_path, _SIBLINGS)
    assert (
        "Total: 6 question(s) in 1 chapter(s); 0 with a reference answer, 5 with key points"
        in shown
    )


def test_a_list_of_asking_bullets_after_a_numbered_question_stays_questions(tmp_path):
    text = "# Notes\n\n1) What is a cache?\n\n- Why does LRU fail on scans?\n- How does LFU age counts?\n"
    report = read(tmp_path, text)
    assert questions(report) == [
        "What is a cache?",
        "Why does LRU fail on scans?",
        "How does LFU age counts?",
    ]


_LABELLED = """\
# 面试记录

## 1. 什么是 RAG？

检索增强生成：先检索，再把片段放进提示词。

---

系统设计题：
短链系统
分布式锁的设计
给你一篇长文档，怎么切分？

八股：
redis 的 zset 怎么实现的？
Linux 网络调优的方式
"""


def test_lines_under_a_label_naming_their_kind_are_questions(tmp_path, invoke):
    report = read(tmp_path, _LABELLED)
    assert questions(report) == [
        "什么是 RAG？",
        "短链系统",
        "分布式锁的设计",
        "给你一篇长文档，怎么切分？",
        "redis 的 zset 怎么实现的？",
        "Linux 网络调优的方式",
    ]
    assert report.bank.questions[0].reference == "检索增强生成：先检索，再把片段放进提示词。"
    shown = previewed(invoke, tmp_path, _LABELLED)
    assert "Total: 6 question(s) in 1 chapter(s); 1 with a reference answer" in shown
    assert "0 question-like line(s) not taken" in shown


def test_a_label_that_names_no_kind_of_question_leaves_its_lines_in_the_answer(tmp_path):
    text = "# 笔记\n\n## 1. 什么是 RAG？\n\n步骤：\n先检索相关片段\n再拼进提示词\n"
    report = read(tmp_path, text)
    assert questions(report) == ["什么是 RAG？"]
    assert report.bank.questions[0].reference == "步骤：\n先检索相关片段\n再拼进提示词"


_EMOJI_NUMBERED = """\
# 笔记

## ⏱️ 5. 端到端延迟如何优化？

缓存、并行、流式输出。

## 🔁 6. 为什么要用反思？

让模型检查并修正自己的输出。
"""


def test_an_emoji_before_a_questions_number_is_decoration(tmp_path, invoke):
    report = read(tmp_path, _EMOJI_NUMBERED)
    assert questions(report) == ["端到端延迟如何优化？", "为什么要用反思？"]
    assert [q.id for q in report.bank.questions] == [5, 6]
    shown = previewed(invoke, tmp_path, _EMOJI_NUMBERED)
    assert "first: Q5 端到端延迟如何优化？" in shown
