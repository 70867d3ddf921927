"""Failure classes a fourteenth batch of real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had: bare heading
questions grouped by bold topic bullets (``- **Caching篇**``) and closed by a badge.
"""

from __future__ import annotations

from imported import questions, read

_BARE = """# Storage questions

## 1. Caching

  - **Eviction篇**

 ### 1.1 What does LRU evict first?

 ### 1.2 Why can LFU starve new keys?

  - **Consistency篇**

  - **Invalidation**

###  1.3 How do you invalidate a cache after a write?

###  1.4 What is write-behind caching?

[![GitHub stars](https://img.shields.io/github/stars/someone/storage-notes?style=social)](https://github.com/someone/storage-notes)
"""


def test_topic_labels_and_a_badge_between_bare_questions_are_no_answers(tmp_path):
    report = read(tmp_path, _BARE)
    assert questions(report) == [
        "What does LRU evict first?",
        "Why can LFU starve new keys?",
        "How do you invalidate a cache after a write?",
        "What is write-behind caching?",
    ]
    assert [(q.reference, q.key_points) for q in report.bank.questions] == [(None, ())] * 4


def test_a_bold_bullet_under_text_of_its_own_stays_in_the_answer(tmp_path):
    text = "## What evicts first under LRU?\n\nThe least recently used key.\n\n- **Eviction篇**\n"
    (question,) = read(tmp_path, text).bank.questions
    assert question.reference is not None and "least recently used" in question.reference
