"""Failure classes a sixteenth batch of real public question files showed (issue 34), part L.

Each file here is written for the test, in the shape those files had: a course page whose
prose ``##`` sections (most asking nothing) come before ``<details>`` question blocks; a deck
of indented ``<details>`` blocks where a few summaries name a topic instead of asking (and
some are empty placeholders); a self-check list written as an HTML ``<ol>`` inside a ``<div>``.
"""

from __future__ import annotations

from imported import previewed, questions, read

_COURSE_PAGE = """# Message queues

## 是什么

A queue holds messages until a consumer takes them.

## 为什么需要

Producers and consumers run at their own pace.

## 核心概念

Topics, partitions, offsets and consumer groups.

## 面试题

<details>
<summary>至少一次和恰好一次投递有什么区别？</summary>

At-least-once may deliver twice; exactly-once needs idempotent writes or transactions.

</details>

<details>
<summary>消费者落后太多时你会先看什么？</summary>

The lag per partition, then the slowest consumer's processing time.

</details>

<details>
<summary>Why would a message be delivered out of order?</summary>

Retries across partitions, or several consumers on one key.

</details>

## 延伸阅读

- The broker's own documentation.
"""


def test_summaries_that_ask_are_the_questions_under_prose_section_headings(tmp_path):
    report = read(tmp_path, _COURSE_PAGE)
    assert questions(report) == [
        "至少一次和恰好一次投递有什么区别？",
        "消费者落后太多时你会先看什么？",
        "Why would a message be delivered out of order?",
    ]
    first, second, third = report.bank.questions
    assert first.reference.startswith("At-least-once may deliver twice")
    assert "slowest consumer" in second.reference
    assert "several consumers on one key" in third.reference
    assert all("<details>" not in q.reference for q in report.bank.questions)


def test_the_preview_says_why_the_summaries_were_taken(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _COURSE_PAGE)
    assert "read the <details> summaries as the questions: 3 of them ask" in shown.lower()
    assert "Took 3 question(s)" in shown


_ASKING_HEADINGS = """# Queues

## 什么是消息队列？

A buffer between services.

<details>
<summary>Why not call the service directly?</summary>

Coupling and back-pressure.

</details>

## 为什么要分区？

To scale consumers.

## How do offsets work?

Each consumer group keeps its own.
"""


def test_headings_that_ask_keep_their_summaries_inside_the_answer(tmp_path):
    report = read(tmp_path, _ASKING_HEADINGS)
    assert questions(report) == ["什么是消息队列？", "为什么要分区？", "How do offsets work?"]


_DECK = """<details>
  <summary> 形参和实参有什么区别？ </summary>

  形参是函数定义里的名字，实参是调用时传入的值。
</details>

<details>
  <summary> 如何让函数返回多个值？ </summary>

  返回一个 struct 或 tuple。
</details>

<details>
  <summary>重载函数的匹配规则</summary>

  精确匹配，然后提升，然后转换。
</details>

<details>
  <summary> 下面两个声明相同吗？ int f(const int x); int f(int x); </summary>

  相同：顶层 const 不区分重载。
</details>

<details>
  <summary>什么是内联函数？</summary>

  在调用处展开的函数。
</details>

<details>
  <summary>默认实参的重复声明</summary>

  一个形参的默认实参在一个作用域里只能给一次。
</details>

<details>
  <summary> </summary>

</details>
"""


def test_every_summary_of_a_deck_is_a_question_even_one_that_does_not_ask(tmp_path):
    report = read(tmp_path, _DECK)
    assert questions(report) == [
        "形参和实参有什么区别？",
        "如何让函数返回多个值？",
        "重载函数的匹配规则",
        "下面两个声明相同吗？ int f(const int x); int f(int x);",
        "什么是内联函数？",
        "默认实参的重复声明",
    ]
    answers = [q.reference for q in report.bank.questions]
    assert answers[2] == "精确匹配，然后提升，然后转换。"
    assert answers[5] == "一个形参的默认实参在一个作用域里只能给一次。"


def test_the_preview_names_the_summaries_that_do_not_ask(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _DECK)
    assert (
        "read the <details> summaries as the questions: 3 that do not ask besides the 3 that do"
        in shown.lower()
    )
    assert "Took 6 question(s)" in shown


_ANSWER_BOXES = """# Python

1. What is a generator?

<details>
<summary>Answer</summary>

A function that yields.

</details>

2. What does `with` do?

<details>
<summary>Answer</summary>

Enters and exits a context manager.

</details>

3. Why are tuples hashable?

<details>
<summary>Answer</summary>

They are immutable.

</details>
"""


def test_answer_boxes_under_questions_stay_answers(tmp_path):
    report = read(tmp_path, _ANSWER_BOXES)
    assert questions(report) == [
        "What is a generator?",
        "What does `with` do?",
        "Why are tuples hashable?",
    ]
    assert report.bank.questions[0].reference == "A function that yields."


_SELF_CHECK = """# Caching: review

## Interview questions

<details>
<summary>What is a cache stampede?</summary>

Many requests miss at once and all hit the database.

</details>

## Self-check

<div class="self-check">
  <strong>Check yourself, without notes:</strong>
  <ol>
    <li>Why does a write-through cache cost more on writes?</li>
    <li>什么时候应该用本地缓存而不是分布式缓存？</li>
    <li>How would you pick a TTL for
        prices that change hourly?</li>
  </ol>
</div>

## Further reading

- A book on distributed systems.
"""


def test_html_list_items_that_ask_are_questions_with_no_tags_as_answers(tmp_path):
    report = read(tmp_path, _SELF_CHECK)
    assert questions(report) == [
        "What is a cache stampede?",
        "Why does a write-through cache cost more on writes?",
        "什么时候应该用本地缓存而不是分布式缓存？",
        "How would you pick a TTL for prices that change hourly?",
    ]
    answers = [q.reference for q in report.bank.questions]
    assert answers[0] == "Many requests miss at once and all hit the database."
    assert answers[1:] == [None, None, None]


def test_the_preview_counts_the_html_items_among_the_questions_taken(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _SELF_CHECK)
    assert "Took 4 question(s)" in shown and "0 that do not ask" in shown
    assert "Found in: 3 list items, 1 summary" in shown
    assert "0 question-like line(s) not taken" in shown
    assert "</ol>" not in shown and "</div>" not in shown


_LOOSE_HTML_LIST = """# Check

<ol>
<li>What is a consumer group?
<li>Why use a cache?</li>
</ol>
</div>

## Next

Text.
"""


def test_list_tags_left_over_never_become_an_answer(tmp_path):
    report = read(tmp_path, _LOOSE_HTML_LIST, questions="lines")
    assert questions(report) == ["What is a consumer group?", "Why use a cache?"]
    assert all(q.reference is None for q in report.bank.questions)
