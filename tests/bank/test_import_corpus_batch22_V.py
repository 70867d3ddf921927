"""Failure classes a twenty-second batch of real public question files showed (issue 34), part V.

Each file here is written for the test, in the shape those files had: a JSON study
plan whose questions are text lists nested in records (``tracks[].items[].drills``).
"""

from __future__ import annotations

import json

import pytest
from imported import previewed, questions, read

from studybot.errors import BankError

_PLAN = json.dumps(
    {
        "day": 3,
        "title": "Graphs and sampling",
        "tracks": [
            {
                "label": "Algorithms",
                "items": [
                    {
                        "id": "bfs",
                        "label": "Breadth-first search",
                        "href": "https://example.org/bfs",
                        "interviewQuestions": [
                            "Why does BFS find shortest paths in unweighted graphs?",
                            "How would you run BFS when the graph does not fit in memory?",
                        ],
                    },
                    {
                        "id": "topo",
                        "label": "Topological sort",
                        "interviewQuestions": ["When does Kahn's algorithm detect a cycle?"],
                    },
                ],
            }
        ],
        "references": [{"label": "A book", "href": "https://example.org/book"}],
    },
    indent=1,
)

# the questions are not named like questions and most do not ask: only --map reads them
_DRILLS = json.dumps(
    {
        "day": 4,
        "blocks": [
            {
                "heading": "Trees",
                "drills": ["Why are B-trees shallow?", "fan-out of a page", "split on insert"],
                "links": ["https://example.org/trees"],
            },
            {"heading": "Heaps", "drills": ["sift down", "build in linear time"]},
        ],
    }
)


def test_question_lists_nested_in_records_are_read_by_default(invoke, tmp_path):
    report = read(tmp_path, _PLAN, "plan.json")
    assert questions(report) == [
        "Why does BFS find shortest paths in unweighted graphs?",
        "How would you run BFS when the graph does not fit in memory?",
        "When does Kahn's algorithm detect a cycle?",
    ]
    assert report.bank.title == "Graphs and sampling"
    titles = {c.number: c.title for c in report.bank.chapters}
    chapters = [titles[q.chapter] for q in report.bank.questions]
    assert chapters == ["Breadth-first search", "Breadth-first search", "Topological sort"]
    said = previewed(invoke, tmp_path, _PLAN, "plan.json")
    assert "Total: 3 question(s) in 2 chapter(s)" in said


def test_the_refusal_names_the_map_that_reads_nested_lists(invoke, tmp_path):
    path = tmp_path / "drills.json"
    path.write_text(_DRILLS, encoding="utf-8")
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code != 0
    said = " ".join(preview.stderr.split())
    assert "expected a list of questions" in said
    assert "Hint: --map question=drills reads the texts listed under 'drills'" in said


def test_map_reaches_a_nested_key_by_its_name_or_its_dotted_path(invoke, tmp_path):
    for key in ("drills", "blocks.drills"):
        report = read(tmp_path, _DRILLS, "drills.json", mapping=(("question", key),))
        assert questions(report) == [
            "Why are B-trees shallow?",
            "fan-out of a page",
            "split on insert",
            "sift down",
            "build in linear time",
        ]
        titles = {c.number: c.title for c in report.bank.chapters}
        chapters = [titles[q.chapter] for q in report.bank.questions]
        assert chapters == ["Trees"] * 3 + ["Heaps"] * 2
        said = previewed(invoke, tmp_path, _DRILLS, "drills.json", "--map", f"question={key}")
        assert f"--map question={key}" in said.split("Run:")[-1]


def test_a_map_naming_another_path_reads_nothing_there(tmp_path):
    with pytest.raises(BankError) as refused:
        read(tmp_path, _DRILLS, "drills.json", mapping=(("question", "other.drills"),))
    assert "expected a list of questions" in str(refused.value)
    assert "--map question=drills" in str(refused.value.hint)


_MERGED = """# 合并题库：缓存与调度

> 从多个来源合并去重。

### 1. 1 介绍一下 KV 缓存？

- 主标签：推理

KV 缓存保存每层的键和值。

### 2. 2.3 为什么 prefill 和 decode 要分开调度？

两个阶段的瓶颈不同。

### 3. 4 reward 模型和 critic 有什么区别？

一个打分，一个估值。

### 4. 2 种分页策略有什么区别？

按块和按页。

### 5. 什么是连续批处理？

请求随到随排。
"""


def test_a_stale_source_number_after_the_card_number_is_no_question_text(invoke, tmp_path):
    report = read(tmp_path, _MERGED)
    assert questions(report) == [
        "介绍一下 KV 缓存？",
        "为什么 prefill 和 decode 要分开调度？",
        "reward 模型和 critic 有什么区别？",
        "2 种分页策略有什么区别？",  # a count, not a number
        "什么是连续批处理？",
    ]
    assert all(q.reference for q in report.bank.questions)
    said = previewed(invoke, tmp_path, _MERGED)
    assert "first: Q1 介绍一下 KV 缓存？" in said


def test_a_number_that_belongs_to_the_question_stays(tmp_path):
    text = (
        "# Bank\n\n"
        "## 1. 3 layers of caching: which one helps decode most?\n\nThe prefix cache.\n\n"
        "## 2. 3 个头共享一组 KV 有什么好处？\n\n省显存。\n\n"
        "## 3. 2 Why does paging cut waste?\n\nNo reserved tail.\n"
    )
    assert questions(read(tmp_path, text)) == [
        "3 layers of caching: which one helps decode most?",
        "3 个头共享一组 KV 有什么好处？",
        "Why does paging cut waste?",
    ]


_RAW_LIST = """# 面经

## 基础
如何估算 KV 缓存的大小？
为什么要做分页？

## 问题1：上下文长度
如何把上下文扩到 128k

## 问题二： 幻觉
模型为什么会编造事实？

## 问题三：加速
推理加速有哪些办法？
"""


def test_a_numbered_label_before_a_topic_over_asking_lines_is_a_section(invoke, tmp_path):
    report = read(tmp_path, _RAW_LIST)
    assert questions(report) == [
        "如何估算 KV 缓存的大小？",
        "为什么要做分页？",
        "如何把上下文扩到 128k",
        "模型为什么会编造事实？",
        "推理加速有哪些办法？",
    ]
    said = previewed(invoke, tmp_path, _RAW_LIST)
    assert "第 2 章 问题1：上下文长度: 1 question(s) first: Q3 如何把上下文扩到 128k" in said


def test_a_numbered_label_over_its_answer_stays_a_question(tmp_path):
    text = (
        "# 题库\n\n"
        "## 问题1：分页注意力\n\n按块分配显存，块表记录位置。\n\n"
        "## 问题2：为什么要分块预填充？\n\n避免长提示阻塞解码。\n"
    )
    report = read(tmp_path, text)
    assert questions(report) == ["分页注意力", "为什么要分块预填充？"]
    assert [bool(q.reference) for q in report.bank.questions] == [True, True]


_FAQ = """# Serving FAQ

## Basics

### Why does decode stall on long prompts?

Prefill holds the batch.

### How is a KV block sized?

Block size times heads times dimension.

---

## See also

- [Paging Guide](paging.md) -- the main guide this FAQ supports.
- [Why Batching Matters](why-batching.md) -- framing for why throughput depends on it.
- [How Caches Fill](https://example.org/caches) — a walk through one request.
"""


def test_a_see_also_link_with_its_gist_is_no_question(invoke, tmp_path):
    report = read(tmp_path, _FAQ)
    assert questions(report) == [
        "Why does decode stall on long prompts?",
        "How is a KV block sized?",
    ]
    said = previewed(invoke, tmp_path, _FAQ)
    assert "Took 2 question(s): 2 of the file's 2 asking line(s)" in said
    assert "Why Batching Matters" not in said


def test_a_linked_item_that_asks_is_still_a_question(tmp_path):
    text = (
        "# Bank\n\n"
        "- [Why does paging help?](paging.md) -- the short answer\n"
        "- How does prefix caching reuse blocks?\n"
    )
    assert questions(read(tmp_path, text)) == [
        "Why does paging help?",
        "How does prefix caching reuse blocks?",
    ]


def test_texts_under_a_named_object_take_its_name_as_chapter_and_topic_keys_stay_chapters(
    tmp_path,
):
    # "prompts" says what the texts are; the object's own name ("cache") is their topic — while
    # a key that is itself a topic ("RAG": [...]) names its chapter
    plan = {
        "title": "Day 1",
        "tracks": [
            {"label": "A", "items": [{"name": "basics", "prompts": ["Why mask the future?"]}]},
            {"label": "B", "items": [{"name": "cache", "prompts": ["Why cache K and V?"]}]},
        ],
    }
    report = read(tmp_path, json.dumps(plan), "plan.json")
    titles = {c.number: c.title for c in report.bank.chapters}
    assert [(q.question, titles[q.chapter]) for q in report.bank.questions] == [
        ("Why mask the future?", "basics"),
        ("Why cache K and V?", "cache"),
    ]
    topics = {"Transformer": ["Why scale by sqrt(d_k)?"], "RAG": ["Why chunk documents?"]}
    report = read(tmp_path, json.dumps(topics), "topics.json")
    assert [c.title for c in report.bank.chapters] == ["Transformer", "RAG"]
