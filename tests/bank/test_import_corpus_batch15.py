"""Failure classes a fifteenth batch of real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had: ``## N.`` question
headings with ``_emphasis_`` in them, a GitHub task-list outline (``- [x]`` / ``- [ ]``
items at several depths, numbered inside the checkbox), ``<details>`` blocks whose
summary names a topic and whose body has bold sub-headings.
"""

from __future__ import annotations

from imported import questions, read

_UNDERSCORED = """# Interview questions on search

## 1. What is _inverted indexing_ and why is it fast?

### The _index_

Each term points to the documents that hold it, so a lookup reads one short list.

## 2. How does _BM25_ differ from plain _tf-idf_?

It saturates term frequency; `score_doc_term` keeps its underscores in code.

## 3. What does a ranker return at step _k_ and why use snake_case_names?

The top k results, re-ranked.
"""


def test_underscore_emphasis_in_a_question_is_shown_as_a_reader_sees_it(tmp_path):
    report = read(tmp_path, _UNDERSCORED)
    assert questions(report) == [
        "What is inverted indexing and why is it fast?",
        "How does BM25 differ from plain tf-idf?",
        # a one-letter variable stays as written; words joined by underscores are a name
        "What does a ranker return at step _k_ and why use snake_case_names?",
    ]
    first, second, _ = report.bank.questions
    assert "one short list" in first.reference
    assert "`score_doc_term`" in second.reference
