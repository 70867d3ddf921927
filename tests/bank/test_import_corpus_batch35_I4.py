"""Failure classes a thirty-fifth batch of real public question files showed, part I4.

Each file here is written for the test, in the shape those files had: a numbered list of
``**Shop**: …`` items where some ask with a question mark and others set a task without one,
each task over a sub-list that names the tables it works on (``- Table: `orders```); a
plain-text interviewer's sheet of ``Label: "…?"`` lines (the question in quotes, a ``+1``
vote under it) and ``Label: …? (e.g., …).`` lines whose note follows the question mark.
"""

from __future__ import annotations

from imported import questions, read

_SQL = """## Databases

1. **Bookshop**: Write a query to find the five best-selling titles of 2021.
   - Table: `sales`
   - Columns: `sale_id (integer), title (string), sold_on (date)`

2. **Bakery**: Calculate the weekly average of loaves sold per branch.
   - Table: `loaves`
   - Columns: `branch_id (integer), sold (integer), day (date)`

3. **Bookshop**: What is an index? When does it slow writes down?

4. **Garage**: How would you store a car's repair history?

## Harder

5. **Cinema**: Write a query to rank films by tickets sold in each city.
   - Table: `tickets`
   - Columns: `film_id (integer), city (string), sold_at (datetime)`
"""


def test_tasks_in_a_list_of_labelled_questions_are_questions_with_their_tables_as_hint(tmp_path):
    report = read(tmp_path, _SQL)
    assert questions(report) == [
        "Bookshop: Write a query to find the five best-selling titles of 2021.",
        "Bakery: Calculate the weekly average of loaves sold per branch.",
        "Bookshop: What is an index? When does it slow writes down?",
        "Garage: How would you store a car's repair history?",
        "Cinema: Write a query to rank films by tickets sold in each city.",
    ]
    first, *_, last = report.bank.questions
    assert "Table: `sales`" in (first.hint or "") and "sold_on (date)" in (first.hint or "")
    assert "Table: `tickets`" in (last.hint or "")  # a sibling list, not nested, gives it too
    assert not any(q.reference or q.key_points for q in report.bank.questions)


def test_a_list_of_tips_under_labels_stays_no_questions(tmp_path):
    tips = (
        "1. **Sleep**: Write down what worries you before bed.\n"
        "2. **Food**: Eat something light an hour before.\n"
        "3. **Walk**: Take a short walk in the morning.\n"
        "\nWhat helps you most on the day?\n"
    )
    assert questions(read(tmp_path, tips)) == ["What helps you most on the day?"]


_SHEET = """Overfitting: "In your churn model, you saw the test score fall. Which signal told you it was overfitting?"
+1


Trees: "Why does a gradient-boosted tree need fewer features scaled than a linear model?"


Retries: How would you retry a flaky call to a paid API? (e.g., "exponential back-off").

Caching: Which results of a model call would you cache? (Mentioning "keys" or "expiry").

Logging: What would you log for each request?
"""


def test_quoted_questions_and_questions_with_a_note_after_them_are_taken(tmp_path):
    report = read(tmp_path, _SHEET)
    assert questions(report) == [
        'Overfitting: "In your churn model, you saw the test score fall. Which signal told '
        'you it was overfitting?"',
        'Trees: "Why does a gradient-boosted tree need fewer features scaled than a linear model?"',
        'Retries: How would you retry a flaky call to a paid API? (e.g., "exponential back-off").',
        'Caching: Which results of a model call would you cache? (Mentioning "keys" or "expiry").',
        "Logging: What would you log for each request?",
    ]
    assert not any(q.reference or q.key_points for q in report.bank.questions)  # "+1" is a vote


_STATS = """## Statistics
* Basics:
 * We draw 50 values and get a mean of 20.
  * What is a standard error? It is the spread of the mean over repeated samples.
  * What does the formula above assume? The sample is large enough for the CLT to apply.
  * How many coins do we toss? Assume each coin is fair.
"""


def test_a_question_and_its_answer_on_one_line_are_split(tmp_path):
    report = read(tmp_path, _STATS)
    assert questions(report) == [
        "What is a standard error?",
        "What does the formula above assume?",
        "How many coins do we toss? Assume each coin is fair.",
    ]
    first, second, third = report.bank.questions
    assert first.reference == "It is the spread of the mean over repeated samples."
    assert "CLT" in (second.reference or "")
    assert not third.reference  # a premise after the question is no answer


_PASTED = """## 一、基础

**1.** 什么是一致性？

> 多个副本看到的数据相同。

**2.** 什么是可用性？

> 每个请求都能得到回应。

## 二、其他问题

1、怎么理解缓存穿透？
2、说一下一致性哈希？为什么要有虚拟节点？
3、消息队列怎么保证不丢消息？4、如何做幂等？
5、分布式锁的难点是什么？这个问题要展开来谈。
6、限流有哪些算法？
以下内容仅供参考。
"""


def test_pasted_numbered_lines_split_at_the_next_number_and_keep_a_remark(tmp_path):
    """Bold-numbered cards first, then a pasted run of ``N、…`` lines (read a line each)."""
    assert questions(read(tmp_path, _PASTED))[2:] == [
        "怎么理解缓存穿透？",
        "说一下一致性哈希？为什么要有虚拟节点？",
        "消息队列怎么保证不丢消息？",
        "如何做幂等？",
        "分布式锁的难点是什么？这个问题要展开来谈。",
        "限流有哪些算法？",
    ]
