"""Failure classes a twenty-fourth batch of real public question files showed (issue 34), part Z.

Each file here is written for the test, in the shape those files had: a chapter's self-test
whose ``### QN（…题）：`` cards name the kind of question after the label, one of them over
an ``- A) …`` option list; an MkDocs lesson whose questions are ``??? question "…"`` boxes
amid prose with ``?``-ending definition bullets and an asking heading; exercises
``## 练习 N：…`` whose titles do not ask, each with a task paragraph and a ``<details>``
answer.
"""

from __future__ import annotations

from imported import previewed, questions, read

_SELF_TEST = """# 第 2 章：缓存

## 自测题

### Q1：缓存击穿和缓存穿透有什么不同？
**A：**击穿是热点键过期，穿透是查不存在的键。

### Q2（排序题）：一次读请求依次经过哪些层？
- A) 数据库
- B) 本地缓存
- C) Redis

**A：** B → C → A，先近后远。

### Q3（判断题）：写操作之后应先删缓存再写库，对吗？
**A：** 不对，先写库再删缓存，删失败要重试。

### Q4（初级）：LRU 淘汰的是哪个键？
**A：** 最久没有被访问的键。
"""


def test_a_kind_after_the_question_label_is_a_tag_and_options_stay_with_their_stem(tmp_path):
    report = read(tmp_path, _SELF_TEST)
    assert questions(report) == [
        "缓存击穿和缓存穿透有什么不同？",
        "一次读请求依次经过哪些层？\n- A. 数据库\n- B. 本地缓存\n- C. Redis",
        "写操作之后应先删缓存再写库，对吗？",
        "LRU 淘汰的是哪个键？",
    ]
    tags = [q.tags for q in report.bank.questions]
    assert tags == [(), ("type:排序题",), ("type:判断题",), ("level:初级",)]
    second = report.bank.questions[1]
    assert second.reference == "B → C → A，先近后远。"  # the options are no answer


def test_the_preview_shows_the_question_without_its_kind(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _SELF_TEST)
    assert "Q1 缓存击穿和缓存穿透有什么不同？" in shown
    assert "LRU 淘汰的是哪个键？" in shown
    assert "（初级）" not in shown and "判断题）" not in shown


_LESSON = """# Ranking metrics

## Metrics used

- **Recall@k**: the share of relevant documents in the top k
- **Hit rate**: of the queries, how many found a relevant document?
- **MRR**: how high did the first relevant document rank?
- **nDCG**: a graded, position-discounted gain

## Hit rate

Hit rate counts a query as good when anything relevant comes back. But then, which system is better?

??? question "Why can a high hit rate hide a poor ranking?"

    Because it ignores where the relevant document sits: rank 1 and rank 10 count the same.

## MRR

!!! question "为什么 MRR 只看第一个相关文档？"

    它假设用户只需要一个答案，看到第一个相关结果就停下。

### When should you prefer nDCG?

nDCG grades relevance and discounts by position.

??? question "Which metric suits graded relevance labels?"

    nDCG, because it uses the grade of each result, not only whether it is relevant.
"""


def test_question_boxes_are_the_questions_and_asking_prose_beside_them_is_not(tmp_path):
    report = read(tmp_path, _LESSON)
    assert questions(report) == [
        "Why can a high hit rate hide a poor ranking?",
        "为什么 MRR 只看第一个相关文档？",
        "Which metric suits graded relevance labels?",
    ]
    answers = [q.reference for q in report.bank.questions]
    assert answers == [
        "Because it ignores where the relevant document sits: rank 1 and rank 10 count the same.",
        "它假设用户只需要一个答案，看到第一个相关结果就停下。",
        "nDCG, because it uses the grade of each result, not only whether it is relevant.",
    ]
    left = [s.text for s in report.skipped]
    assert "When should you prefer nDCG?" in left
    assert "Hit rate: of the queries, how many found a relevant document?" in left
    assert (
        "Hit rate counts a query as good when anything relevant comes back. But then, which system is better?"
        in left
    )


def test_a_box_after_an_asking_heading_is_not_swallowed_into_its_answer(tmp_path):
    text = (
        "### When is recall the metric to watch?\n\nWhen a miss costs more than a false alarm.\n\n"
        '??? question "What does a recall of 0.9 mean?"\n\n    Nine in ten positives are found.\n'
    )
    report = read(tmp_path, text)
    assert questions(report) == [
        "When is recall the metric to watch?",
        "What does a recall of 0.9 mean?",
    ]
    first, second = report.bank.questions
    assert first.reference == "When a miss costs more than a false alarm."
    assert second.reference == "Nine in ten positives are found."


def test_the_preview_lists_the_asking_prose_as_left_and_names_no_option(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _LESSON)
    assert "Left on purpose (4): 4 × an asking line outside the question boxes" in shown
    assert "Try --questions" not in shown
    assert shown.endswith("--name q")


_EXERCISES = """# 第 9 课 消息队列｜练习

## 练习 1：给消费者加上重试

消费失败时把消息放回队列，最多重试三次。

验收：第四次失败的消息进入死信队列。

<details><summary>提示</summary>

重试次数放在消息头里。

</details>

## 练习 2：让消息按用户有序

同一用户的消息要按发送顺序处理。如果两个消费者同时取到同一用户的消息，会发生什么？

<details><summary>答案</summary>

按用户 id 取模分区，一个分区只给一个消费者。

</details>

## 练习 3：积压时怎么扩容

<details><summary>参考答案</summary>

先加分区，再加消费者；消费者数不超过分区数。

</details>
"""


def test_exercise_headings_are_questions_answered_by_their_details(tmp_path):
    report = read(tmp_path, _EXERCISES)
    assert questions(report) == ["给消费者加上重试", "让消息按用户有序", "积压时怎么扩容"]
    first, second, third = report.bank.questions
    assert first.reference is None  # a hint is no answer
    assert first.hint == (
        "消费失败时把消息放回队列，最多重试三次。\n\n验收：第四次失败的消息进入死信队列。"
        "\n\n重试次数放在消息头里。"
    )
    assert second.reference == "按用户 id 取模分区，一个分区只给一个消费者。"
    assert second.hint.startswith("同一用户的消息要按发送顺序处理。")
    assert third.reference == "先加分区，再加消费者；消费者数不超过分区数。"


def test_the_preview_takes_the_exercises_and_lists_no_task_sentence(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _EXERCISES)
    assert "first: Q1 给消费者加上重试" in shown and "last: Q3 积压时怎么扩容" in shown
    assert "会发生什么" not in shown  # the task's asking sentence is part of its hint
    assert "练习 2" not in shown
    assert "Took 3 question(s): 2 of the file's 2 asking line(s)" in shown  # its hint is its own


def test_an_exercise_label_over_a_marked_question_stays_a_label(tmp_path):
    text = (
        "## 练习与答案\n\n### 练习1：概念理解\n题目：简述消息队列的作用。\n"
        "<details><summary>参考答案</summary>\n解耦、削峰、异步。\n</details>\n"
    )
    report = read(tmp_path, text)
    assert questions(report) == ["简述消息队列的作用。"]
