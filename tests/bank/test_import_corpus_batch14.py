"""Failure classes a fourteenth batch of real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had: MkDocs/Material
``??? question "…"`` boxes nested inside ``??? tip`` / ``!!! abstract`` boxes and under
list items, the answer indented below each (a box whose closing quote is missing, a
placeholder box titled in brackets, a body that opens on points that read like questions).
"""

from __future__ import annotations

from imported import previewed, questions, read

_NESTED_BOXES = """# Questions

## Machine Learning

??? tip "Core concepts"

    ??? question "How would you explain overfitting to a new colleague?"

        The model learns the noise of its training set and does worse on new data.

    ??? question "What is a validation set for?"
        Choosing between models and tuning settings without touching the test set.

## Deep Learning

??? question "Prove that weight decay acts as a Gaussian prior (hint: take the log)."
    - Where the penalty comes from
        - the log of a normal density
        - a constant that does not depend on the weights
    - How the two objectives line up
        - the same minimiser

    **Why it matters:** the prior explains the shrinkage.

    Is that all??? Not quite: the scale sets the strength.

!!! abstract "Question bank"

    ??? tip "Training"

        ??? question "Why do we warm up the learning rate?"

            Early updates are noisy; a small step keeps them from undoing the initialisation.

            ??? example "A schedule"

                Linear from zero to the peak over the first thousand steps.

        ??? question "How to pick a batch size?

        ??? question "(Questions about serving follow in a later post)"
"""


def test_question_boxes_inside_other_boxes_are_questions_with_their_bodies_as_answers(
    tmp_path,
):
    report = read(tmp_path, _NESTED_BOXES)
    assert questions(report) == [
        "How would you explain overfitting to a new colleague?",
        "What is a validation set for?",
        "Prove that weight decay acts as a Gaussian prior.",
        "Why do we warm up the learning rate?",
        "How to pick a batch size?",
    ]
    overfit, validation, prior, warmup, batch = report.bank.questions
    assert "noise of its training set" in overfit.reference
    assert "without touching the test set" in validation.reference
    # the body's points and its rhetorical line are the answer, not questions of their own
    assert prior.hint == "take the log"
    answer = prior.reference or ""
    assert "Where the penalty comes from" in answer + " ".join(prior.key_points)
    assert "Is that all???" in answer and "the prior explains the shrinkage" in answer
    # a box inside the answer (an example) stays part of the answer
    assert "Early updates are noisy" in warmup.reference and "Linear from zero" in warmup.reference
    assert batch.reference is None and not batch.key_points


def test_the_preview_counts_the_nested_boxes_as_the_questions_it_took(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _NESTED_BOXES)
    assert "Took 5 question(s)" in shown
    assert "no questions found" not in shown


_BOXES_UNDER_ITEMS = """# Prep notes

- Basics

    ??? question "What is overfitting?"

        A model that fits the noise in its training data.

    ??? question "What is a validation set?"
        Data held out to tune hyperparameters.

- Deep learning

    ??? question "Why does batch norm help?"

        It keeps the activations of each layer in a steady range.
"""


def test_question_boxes_under_list_items_are_questions(tmp_path):
    report = read(tmp_path, _BOXES_UNDER_ITEMS)
    assert questions(report) == [
        "What is overfitting?",
        "What is a validation set?",
        "Why does batch norm help?",
    ]
    assert all(q.reference for q in report.bank.questions)
    assert "steady range" in report.bank.questions[2].reference


_TITLED_OVER_QUESTIONS = """# Notes

> [!question] Interview list
> - What is a KV cache?
> - Why is attention quadratic?
"""


def test_a_question_callout_titled_as_a_list_still_gives_the_questions_inside_it(tmp_path):
    report = read(tmp_path, _TITLED_OVER_QUESTIONS)
    assert "What is a KV cache?" in questions(report)
    assert "Why is attention quadratic?" in questions(report)


_HIDDEN_LISTS = """# 后端面试指南

## 目录

1. [缓存](#缓存)
2. [消息队列](#消息队列)

### 缓存

<details>
<summary>查看问题</summary>

- **缓存穿透与缓存击穿的区别？**
- **热点数据的预热策略**
- **多级缓存的一致性方案**

[查看完整文档 →](/docs/cache)

</details>

### 消息队列

<details>
<summary>Show questions</summary>

- **Exactly-once delivery in practice**
- **How does a consumer group rebalance?**

[Full notes →](/docs/queues)

</details>

### 🤝 如何贡献

1. 提交新问题到对应分类的文件
2. 完善现有答案

### 🤝 How to Contribute

- Add new questions to the matching file
- Share real interview experiences!
"""


def test_bold_bullets_inside_a_details_box_that_names_questions_are_the_questions(tmp_path):
    report = read(tmp_path, _HIDDEN_LISTS)
    assert questions(report) == [
        "缓存穿透与缓存击穿的区别？",
        "热点数据的预热策略",
        "多级缓存的一致性方案",
        "Exactly-once delivery in practice",
        "How does a consumer group rebalance?",
    ]
    # the pointer to the full notes after each list answers none of them
    assert all(q.reference is None and not q.key_points for q in report.bank.questions)


def test_the_preview_takes_the_hidden_lists_and_no_contribution_bullet(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _HIDDEN_LISTS)
    assert "Total: 5 question(s)" in shown
    assert "Run: studybot bank import" in shown and "--questions" not in shown.split("Run:")[1]


_ANSWER_BOX = """# Notes

- What is a race condition?
- Why is a mutex not enough for a read-heavy cache?

<details>
<summary>Notes</summary>

Read-write locks let many readers in at once.

</details>
"""


def test_a_details_box_that_names_no_questions_and_holds_none_adds_no_question(tmp_path):
    report = read(tmp_path, _ANSWER_BOX)
    assert questions(report) == [
        "What is a race condition?",
        "Why is a mutex not enough for a read-heavy cache?",
    ]
