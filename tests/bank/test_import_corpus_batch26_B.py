"""Failure classes a twenty-sixth batch of real public question files showed (issue 34), part B.

Each file here is written for the test, in the shape those files had: scraped question
cards whose only body is ``**Type:**`` / ``**Access:** 🔒 Premium`` metadata; kramdown
heading anchors (``### Q1: …？ {#q1-x}``) with a bold contents list linking to them; bold
Chinese questions each followed by an indented English translation; an Anki plain-text
export whose fronts open with ``[topic] `` and level labels (``【进阶】``, ``⭐⭐【系统设计】``).
"""

from __future__ import annotations

from imported import previewed, questions, read

_LOCKED = """# Vector search questions

## Basics

### 1. What is an approximate nearest neighbour index?

**Type:** 📝 Question

---

### 2. How does HNSW choose the entry point of a search? 🔒

**Type:** 📝 Question
**Access:** 🔒 Premium

---

### 3. Write a function that computes cosine similarity in NumPy. 🔒

**Type:** 💻 Coding Challenge
**Access:** 🔒 Premium
"""


def test_metadata_lines_alone_under_a_question_are_tags_not_its_answer(tmp_path, invoke):
    report = read(tmp_path, _LOCKED)
    assert questions(report) == [
        "What is an approximate nearest neighbour index?",
        "How does HNSW choose the entry point of a search?",
        "Write a function that computes cosine similarity in NumPy.",
    ]
    assert [q.reference for q in report.bank.questions] == [None, None, None]
    assert "access:premium" in report.bank.questions[1].tags
    shown = previewed(invoke, tmp_path, _LOCKED)
    assert "3 question(s)" in shown and "0 with a reference answer" in shown
    assert "Premium" not in shown


_ANCHORED = """# 检索系统笔记

## 一、基础概念 {#basics}

正文介绍。

## 二、高频问题 {#faq}

**Q1: 倒排索引为什么快？** {#q1-inverted}\x20\x20
**Q2: 向量库如何做增量更新？** {#q2-updates}

### Q1: 倒排索引为什么快？ {#q1-inverted}

词到文档列表的映射，查询只读命中的几个列表。

### Q2: 向量库如何做增量更新？ {#q2-updates}

新数据写入小索引，后台定期合并进主索引。
"""


def test_a_heading_anchor_is_markup_and_a_bold_line_linking_to_it_is_a_contents_entry(
    tmp_path, invoke
):
    report = read(tmp_path, _ANCHORED)
    assert questions(report) == ["倒排索引为什么快？", "向量库如何做增量更新？"]
    assert [q.reference for q in report.bank.questions] == [
        "词到文档列表的映射，查询只读命中的几个列表。",
        "新数据写入小索引，后台定期合并进主索引。",
    ]
    assert [c.title for c in report.bank.chapters] == ["二、高频问题"]
    shown = previewed(invoke, tmp_path, _ANCHORED)
    assert "{#" not in shown
    assert "asked again" not in shown
    assert "2 with a reference answer" in shown


def test_an_anchor_in_a_fence_stays_as_written(tmp_path):
    text = "## 为什么要分片？\n\n```\nsection {#keep-me}\n```\n"
    report = read(tmp_path, text)
    assert questions(report) == ["为什么要分片？"]
    assert "{#keep-me}" in (report.bank.questions[0].reference or "")


_BILINGUAL = """# 缓存 / Caching

### 基础 / Basics

1. **缓存穿透是什么？如何防止？**
   What is cache penetration? How do you prevent it?

2. **对比旁路缓存与读穿透两种模式。**
   Compare cache-aside and read-through patterns.

3. **为什么缓存要设置过期时间？**
"""


def test_a_translation_under_a_question_is_its_hint_not_its_answer(tmp_path, invoke):
    report = read(tmp_path, _BILINGUAL)
    assert questions(report) == [
        "缓存穿透是什么？如何防止？",
        "对比旁路缓存与读穿透两种模式。",
        "为什么缓存要设置过期时间？",
    ]
    assert [q.reference for q in report.bank.questions] == [None, None, None]
    assert [q.hint for q in report.bank.questions] == [
        "What is cache penetration? How do you prevent it?",
        "Compare cache-aside and read-through patterns.",
        None,
    ]
    shown = previewed(invoke, tmp_path, _BILINGUAL)
    assert "3 question(s)" in shown and "0 with a reference answer" in shown


def test_an_answer_in_the_other_language_stays_the_answer(tmp_path):
    text = "1. **什么是 TTL？**\n   Time to live: how long an entry is kept.\n\n2. **LRU 是什么？**\n   Least recently used eviction.\n"
    report = read(tmp_path, text)
    assert [q.reference for q in report.bank.questions] == [
        "Time to live: how long an entry is kept.",
        "Least recently used eviction.",
    ]
    assert [q.hint for q in report.bank.questions] == [None, None]


_CARDS = (
    "[存储引擎] 【基础】LSM 树为什么写入快？\t顺序追加写 <b>MemTable</b>，再批量刷盘。\n"
    "[存储引擎] 【进阶 ⭐⭐】B+ 树和 LSM 树怎么选？\t读多选 B+ 树，写多选 LSM 树。\n"
    "[分布式] ⭐⭐⭐【系统设计】设计一个分布式 ID 生成服务。\t号段模式加双缓冲。\n"
    "[分布式] Raft 如何选主？ ⭐\t任期加投票，多数派胜出。\n"
)


def test_a_card_topic_is_its_chapter_and_level_labels_are_tags(tmp_path, invoke):
    report = read(tmp_path, _CARDS, "cards.txt")
    assert questions(report) == [
        "LSM 树为什么写入快？",
        "B+ 树和 LSM 树怎么选？",
        "设计一个分布式 ID 生成服务。",
        "Raft 如何选主？",
    ]
    assert [c.title for c in report.bank.chapters] == ["存储引擎", "分布式"]
    tags = [q.tags for q in report.bank.questions]
    assert "level:基础" in tags[0]
    assert "level:进阶" in tags[1] and "stars:2" in tags[1]
    assert "系统设计" in tags[2] and "stars:3" in tags[2]
    assert "stars:1" in tags[3]
    shown = previewed(invoke, tmp_path, _CARDS, "cards.txt")
    assert "第 1 章 存储引擎: 2 question(s)" in shown
    assert "[存储引擎]" not in shown and "⭐" not in shown and "【" not in shown


def test_a_bracket_in_few_fronts_stays_in_the_question(tmp_path):
    text = (
        "[E] 什么是幂等？\t重复执行结果相同。\n"
        "什么是事务？\t一组要么全做要么全不做的操作。\n"
        "[注意] 为什么不能在循环里建连接？\t连接昂贵，应复用。\n"
        "什么是连接池？\t预先建好的可复用连接。\n"
    )
    report = read(tmp_path, text, "cards.txt")
    assert "[注意] 为什么不能在循环里建连接？" in questions(report)


def test_stars_before_a_front_are_a_tag_like_stars_after_it(tmp_path):
    cards = (
        "[检索] ⭐⭐ 重排为什么放在召回之后？\t召回求全，重排求准。\n"
        "[检索] 混合检索怎么融合分数？ ⭐\tRRF 按名次融合。\n"
    )
    report = read(tmp_path, cards, "stars.txt")
    assert questions(report) == ["重排为什么放在召回之后？", "混合检索怎么融合分数？"]
    assert [[t for t in q.tags if t.startswith("stars:")] for q in report.bank.questions] == [
        ["stars:2"],
        ["stars:1"],
    ]
