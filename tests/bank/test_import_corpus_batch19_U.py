"""Failure classes a nineteenth batch of real public question files showed (issue 34), part U.

Each file here is written for the test, in the shape those files had: a plain-text guide of
``Label: prompt`` lines where some prompts ask and others set a task (``Explain …``,
``Design …``); Java notes whose numbered card headings are closed ATX headings, one of them
ending in 部分; an answer that opens with a line ending in a colon.
"""

from __future__ import annotations

from imported import previewed, questions, read

_GUIDE = """\
Search Engineer Interview Notes

Core Concepts

Inverted Index: What is an inverted index?

A map from each term to the documents that hold it.

Ranking Basics: Explain how BM25 scores a document.

It weighs term frequency against document length and how rare the term is.

Explain the length part first, then the saturation of repeated terms.

Sharding vs. Replication: Compare sharding with replication.

Sharding splits the data; replication copies it.

Coding Tasks

Tokenizer: Write a function that splits a query into lowercase terms.

Split on whitespace and punctuation, then lowercase each piece.

Path Finding: Walk through how you would find the cheapest route between two cities.

Use Dijkstra's algorithm with a priority queue.

System Design

Personal Digest: Design a service that writes a daily digest for each reader.

Propose a two-step approach:

Retrieval: Fetch the articles that match the reader's interests.

Generation: Summarise them with a language model grounded in the sources.

Model Choice: When would you pick a small model over a large one?

When latency or cost matter more than the last points of quality.
"""


def test_labelled_imperatives_are_questions_beside_labelled_questions(tmp_path):
    report = read(tmp_path, _GUIDE, "guide.txt")
    assert questions(report) == [
        "Inverted Index: What is an inverted index?",
        "Ranking Basics: Explain how BM25 scores a document.",
        "Sharding vs. Replication: Compare sharding with replication.",
        "Tokenizer: Write a function that splits a query into lowercase terms.",
        "Path Finding: Walk through how you would find the cheapest route between two cities.",
        "Personal Digest: Design a service that writes a daily digest for each reader.",
        "Model Choice: When would you pick a small model over a large one?",
    ]
    answers = {q.question: q.reference or "" for q in report.bank.questions}
    ranking = answers["Ranking Basics: Explain how BM25 scores a document."]
    assert "how rare the term is" in ranking
    assert "Explain the length part first" in ranking  # prose with no label stays answer
    sharding = answers["Sharding vs. Replication: Compare sharding with replication."]
    assert sharding.startswith("Sharding splits the data")
    assert "Tokenizer" not in sharding


def test_an_answer_that_opens_with_a_colon_line_keeps_it_and_its_parts(tmp_path):
    report = read(tmp_path, _GUIDE, "guide.txt")
    answers = {q.question: q.reference or "" for q in report.bank.questions}
    digest = answers[
        "Personal Digest: Design a service that writes a daily digest for each reader."
    ]
    assert digest.startswith("Propose a two-step approach:")
    assert "Retrieval: Fetch the articles" in digest
    assert "Generation: Summarise them" in digest
    assert "Propose a two-step approach:" not in questions(report)


def test_the_preview_counts_the_labelled_tasks(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _GUIDE, "guide.txt")
    assert "7 question(s)" in shown
    assert "first: Q1 Inverted Index: What is an inverted index?" in shown
    assert "last: Q7 Model Choice: When would you pick a small model over a large one?" in shown


def test_a_sentence_opening_with_a_task_verb_inside_an_answer_splits_nothing(tmp_path):
    text = (
        "Caching: How would you cache query results?\n\n"
        "Keep the hottest results in memory.\n\n"
        "Describe the eviction policy to the interviewer: least recently used.\n\n"
        "Design the keys around the normalised query.\n"
    )
    report = read(tmp_path, text, "cache.txt")
    assert questions(report) == ["Caching: How would you cache query results?"]
    answer = report.bank.questions[0].reference or ""
    assert "least recently used" in answer
    assert "Design the keys" in answer


_CARDS = """\
# Java 八股

#### 1、HashMap 的扩容 ####

容量翻倍，元素重新分布。

#### 2、线程池参数 ####

核心线程数、最大线程数、队列。

#### 3、JVM 内存的组成部分 ####

堆、栈、方法区、程序计数器。

#### 4、类加载过程 ####

加载、验证、准备、解析、初始化。
"""


def test_a_numbered_card_ending_in_part_is_a_card_like_its_siblings(invoke, tmp_path):
    report = read(tmp_path, _CARDS, "java.md")
    assert questions(report) == ["HashMap 的扩容", "线程池参数", "JVM 内存的组成部分", "类加载过程"]
    answers = {q.question: q.reference for q in report.bank.questions}
    assert answers["JVM 内存的组成部分"] == "堆、栈、方法区、程序计数器。"
    shown = previewed(invoke, tmp_path, _CARDS, "java.md")
    assert "4 question(s)" in shown


def test_a_short_card_file_keeps_a_card_named_other_parts(tmp_path):
    text = "#### 1、索引 ####\n\nB+ 树。\n\n#### 2、事务 ####\n\nACID。\n\n#### 3、其余部分 ####\n\n日志。\n"
    report = read(tmp_path, text, "db.md")
    assert questions(report) == ["索引", "事务", "其余部分"]


def test_a_part_heading_above_the_cards_is_still_a_chapter(tmp_path):
    text = (
        "## 第一部分\n\n#### 1、索引是什么？ ####\n\nB+ 树。\n\n"
        "## 进阶部分\n\n#### 2、事务隔离级别有哪些？ ####\n\n四种。\n"
    )
    report = read(tmp_path, text, "parts.md")
    assert questions(report) == ["索引是什么？", "事务隔离级别有哪些？"]
