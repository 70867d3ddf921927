"""Failure classes a twentieth batch of real public question files showed (issue 34), part X.

Each file here is written for the test, in the shape those files had: ``<details>`` cards whose
summary opens with level and frequency badges and an id before a separator
(``L1 🔥×9 Q01 · …``); a guide whose question headings open with a decoration before their
``Q1:`` prefix (``## 📌 Q1: …``), the same in list items and bold lines, and a decorated
heading between its question headings that asks nothing and holds only a rule
(``## **☕ Buy Me a Coffee**`` over ``---``).
"""

from __future__ import annotations

from imported import previewed, questions, read

_CARDS = """\
# 推荐系统面试卡片

## 一、召回

<details class="qa"><summary><span class="lv">L1</span> <span class="freq">🔥×9</span> <b>Q01</b> · 双塔模型为什么适合召回？负样本怎么选？</summary>

双塔可以离线算好物品向量，线上只做近邻检索。

</details>

<details class="qa"><summary><span class="lv">L2</span> <span class="freq">🔥×4</span> <b>Q02</b> · 召回和粗排的目标有什么不同？</summary>

召回看覆盖率，粗排要在有限算力下保住排序质量。

</details>

## 二、手写

<details class="qa"><summary><span class="lv">L2</span> <span class="freq">🔥×6</span> <b>✍ H01</b> · 手写 InfoNCE 损失</summary>

先算相似度矩阵，除以温度，再对每一行做交叉熵。

</details>

## 三、备选

<details class="qa"><summary><b>N1</b> · 【低频备选】多兴趣召回如何避免兴趣坍缩？</summary>

给每个兴趣向量加多样性约束。

</details>
"""


def test_badges_and_an_id_before_a_separator_are_no_part_of_the_question(tmp_path):
    report = read(tmp_path, _CARDS, "cards.md")
    assert questions(report) == [
        "双塔模型为什么适合召回？负样本怎么选？",
        "召回和粗排的目标有什么不同？",
        "手写 InfoNCE 损失",
        "多兴趣召回如何避免兴趣坍缩？",
    ]
    assert [q.tags for q in report.bank.questions][:3] == [
        ("level:l1",),
        ("level:l2",),
        ("level:l2",),
    ]
    answers = [q.reference for q in report.bank.questions]
    assert answers[0] == "双塔可以离线算好物品向量，线上只做近邻检索。"
    assert answers[2] == "先算相似度矩阵，除以温度，再对每一行做交叉熵。"


def test_the_preview_shows_the_cards_without_their_badges(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _CARDS, "cards.md")
    assert "first: Q1 双塔模型为什么适合召回？负样本怎么选？" in shown
    assert "first: Q3 手写 InfoNCE 损失" in shown
    assert "🔥" not in shown and "Q01" not in shown and "【低频备选】" not in shown


def test_an_id_and_separator_inside_a_sentence_stay(tmp_path):
    text = "# Notes\n\n## Why is step A1 · the warm-up · needed?\n\nIt keeps early updates small.\n"
    assert questions(read(tmp_path, text)) == ["Why is step A1 · the warm-up · needed?"]


_GUIDE = """\
# Search Ranking Interview Guide

A set of practice questions with worked answers.

## Questions 1-2

## 📌 Q1: Why does BM25 saturate term frequency?

Repeated terms add less and less, so one word cannot dominate the score.

## ✅ Q2: Explain how a learning-to-rank model is trained from click logs.

Clicks become pairwise preferences, corrected for position bias.

## Questions 3-4

## **☕ Buy Me a Coffee**

---

## ❓ Q3: What is the difference between recall and precision at k?

Recall at k counts the relevant documents found among the top k.

## ▶ Q4: How would you detect query drift after a product launch?

Compare the query distribution week over week.
"""


def test_a_decoration_before_a_question_prefix_goes_with_the_prefix(tmp_path):
    report = read(tmp_path, _GUIDE, "guide.md")
    assert questions(report) == [
        "Why does BM25 saturate term frequency?",
        "Explain how a learning-to-rank model is trained from click logs.",
        "What is the difference between recall and precision at k?",
        "How would you detect query drift after a product launch?",
    ]
    assert [q.id for q in report.bank.questions] == [1, 2, 3, 4]
    assert report.bank.questions[1].reference == (
        "Clicks become pairwise preferences, corrected for position bias."
    )


def test_a_decorated_prefix_is_read_in_items_and_bold_lines(tmp_path):
    listed = """\
# Caching notes

- 📌 Q1: What does a write-through cache trade away?
  - It gives up write latency for a cache that never holds stale data.
- 🔥 Q2: Why can a cache stampede take a database down?
  - Many misses at once send every request to the database.
"""
    assert questions(read(tmp_path, listed, "items.md")) == [
        "What does a write-through cache trade away?",
        "Why can a cache stampede take a database down?",
    ]
    bold = """\
# Caching notes

**✅ Q1: When is a TTL better than explicit invalidation?**

It suits a source that cannot tell the cache about its changes.

**⭐ Q2: How would you warm a cache after a deploy?**

Replay the most frequent keys from yesterday's logs.

**❓ Q3: What is negative caching?**

Remembering that a key has no value, so misses stay cheap.
"""
    report = read(tmp_path, bold, "bold.md")
    assert questions(report) == [
        "When is a TTL better than explicit invalidation?",
        "How would you warm a cache after a deploy?",
        "What is negative caching?",
    ]
    assert report.bank.questions[2].reference == (
        "Remembering that a key has no value, so misses stay cheap."
    )


def test_a_heading_that_asks_nothing_and_holds_only_a_rule_is_no_question(invoke, tmp_path):
    report = read(tmp_path, _GUIDE, "guide.md")
    assert "Buy Me a Coffee" not in " ".join(questions(report))
    assert report.bank.questions[1].reference == (
        "Clicks become pairwise preferences, corrected for position bias."
    )
    shown = previewed(invoke, tmp_path, _GUIDE, "guide.md")
    assert "Total: 4 question(s)" in shown and "Coffee" not in shown
    assert "0 question-like line(s) not taken" in shown


def test_a_heading_over_a_rule_that_asks_is_still_a_question(tmp_path):
    text = _GUIDE.replace("**☕ Buy Me a Coffee**", "Why cache query results at all?")
    assert questions(read(tmp_path, text, "guide.md"))[2] == "Why cache query results at all?"
