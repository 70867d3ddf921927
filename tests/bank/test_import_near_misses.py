"""Near misses of the real public files (issue 34): one or two questions off in each.

Each file here is written for the test, in the shape the real file had.
"""

from __future__ import annotations

from imported import questions, read

# bold numbered questions, each followed by where its author copied it from: one path, one
# address, or several of them in the same parentheses
_SOURCED = r"""### Cache questions

**1、Explain the cache layer。**（D:\Work\notes\cache-all.md）

**2、Why is the cache fast？**（https://example.com/a/1）

**3、What does a write-through cache do？Why is it slower？**（D:\Work\notes\cache-all.md、https://example.com/b/2）

**4、Name the eviction policies。**（D:\Work\notes\cache-all.md、https://example.com/b/2）

**5、Explain persistence to disk。**（D:\Work\notes\cache-all.md、https://example.com/s/Ab_Cd-Ef_Gh）

**6、Explain the read strategies。**（D:\Work\notes\cache-all.md）
"""


def test_a_source_tail_of_several_places_is_dropped_and_ends_no_question(tmp_path):
    report = read(tmp_path, _SOURCED)
    assert questions(report) == [
        "Explain the cache layer。",
        "Why is the cache fast？",
        "What does a write-through cache do？Why is it slower？",
        "Name the eviction policies。",  # not the answer of the question above it
        "Explain persistence to disk。",  # "、https://…" with underscores: dropped too
        "Explain the read strategies。",
    ]
    assert not any(q.reference for q in report.bank.questions)


_Q_HEADINGS = """# Transformer basics

## Q1. What does a tokenizer do?

It cuts text into the pieces the model has ids for.

## Q2. Why is the vocabulary not unlimited?

The embedding table and the output layer grow with it.

## Q3. What is attention?

A weighted mix of the values, weighted by how well each key fits the query.

# Follow-up chains

## Chain 1: Attention

```text
what is attention?
-> shapes of Q, K, V
```

## Chain 2: Training

```text
what is the loss?
-> why shift the labels
```
"""


def test_sections_after_q_numbered_headings_that_neither_ask_nor_number_are_no_questions(
    tmp_path,
):
    report = read(tmp_path, _Q_HEADINGS)
    assert questions(report) == [
        "What does a tokenizer do?",
        "Why is the vocabulary not unlimited?",
        "What is attention?",
    ]


# marked questions with answers, then a chapter that only lists questions (answers elsewhere):
# its items that do not ask are questions too, but not "..."
_MARKED_THEN_LISTED = """# Model interview notes

## Basics

### Q1: What is a decoder-only model？
A model that predicts the next token from the ones before it.

### Q2: Why are most large models decoder-only？
Training is simpler and zero-shot results are better.

## Fine-tuning questions

1. How much memory does full fine-tuning need？
2. Why does a model forget after fine-tuning？
3. Out-of-memory errors as the sample count grows
4. What does instruction tuning add？
5. Advice for fine-tuning large models
6. ...

- [Answers on the paid page](https://example.com/answers)
"""


def test_a_list_of_questions_outside_any_answer_takes_its_items_that_do_not_ask(tmp_path):
    report = read(tmp_path, _MARKED_THEN_LISTED)
    assert questions(report) == [
        "What is a decoder-only model？",
        "Why are most large models decoder-only？",
        "How much memory does full fine-tuning need？",
        "Why does a model forget after fine-tuning？",
        "Out-of-memory errors as the sample count grows",
        "What does instruction tuning add？",
        "Advice for fine-tuning large models",
    ]


_DATED = """# Mini-program interview

### 1、How is a user's avatar read？（2025年最新）

Through the avatar button; the old profile call is gone.

### 2、How is a large screen scaled？(updated 2024)

With a scale transform on a fixed design size.

### 3、What does the RLHF stage add？（基于人类反馈的强化学习）

A reward model's preferences.
"""


def test_a_dated_note_after_a_question_leaves_it_and_another_parenthesis_stays(tmp_path):
    report = read(tmp_path, _DATED)
    assert questions(report) == [
        "How is a user's avatar read？",
        "How is a large screen scaled？",
        "What does the RLHF stage add？（基于人类反馈的强化学习）",
    ]


# "问题：" also says "the problem is": under a question heading, a statement after it answers
_PROBLEMS = """# ORM 面试

### 9、ORM 的迁移脚本难以审查
问题：自动生成的迁移常把改名写成删表再建表。
eg: 字段改名后数据丢失。

### 10、ORM 的懒加载带来 N+1 查询
问题：循环里访问关联对象时，每次都发出一条新的查询。

### 11、怎样避免 N+1 查询？
预先加载关联对象，或者改写成一次连接查询。
"""


def test_a_problem_label_under_a_question_heading_is_its_answer(tmp_path):
    report = read(tmp_path, _PROBLEMS)
    assert questions(report) == [
        "ORM 的迁移脚本难以审查",
        "ORM 的懒加载带来 N+1 查询",
        "怎样避免 N+1 查询？",
    ]
    assert report.bank.questions[1].reference.startswith("问题：循环里访问关联对象时")


_TOPIC_STEMS = """# Advanced questions

1. Repetition in generated text
   1. What causes repetition?
   2. How is repetition reduced?
2. Can the input of a model be unlimited in length?
3. When is a small encoder the better choice?
4. ...
"""


def test_a_numbered_topic_over_asking_sub_items_and_an_ellipsis_are_no_questions(tmp_path):
    report = read(tmp_path, _TOPIC_STEMS)
    assert questions(report) == [
        "What causes repetition?",
        "How is repetition reduced?",
        "Can the input of a model be unlimited in length?",
        "When is a small encoder the better choice?",
    ]
