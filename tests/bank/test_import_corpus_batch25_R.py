"""Failure classes a twenty-fifth batch of real public question files showed (issue 34), part R.

Each file here is written for the test, in the shape those files had: JSON records that
each hold a nested list of their sources (``[{title, answer, sources: [{title, url}]}]``),
whose records are the outer objects, with or without ``--map``.
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
