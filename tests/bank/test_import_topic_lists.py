"""Questions a reader sees that asked only by their place or their verb (issue 46).

Each file is written for the test, in the shape the real files had: an exam's objectives
in imperative bullets (``name two …``, ``enumerate …``, ``interpret …``) beside ones that
ask; an interview list whose algorithm sections hold bare problem names under headings
below a title that says interview, with a ``- 等等`` filler; a write-up's numbered round
whose items are partly topic labels (``3. Caching.``); and, the other way, a glossary of
bare terms beside lists of questions, which stays terms.
"""

from __future__ import annotations

from imported import previewed, questions, read

_OBJECTIVES = """# Exam Questions: Statistics

## Sampling

* define a sampling frame
* name two ways a survey sample can be biased
* enumerate four sampling designs
* explain why stratifying can reduce variance
* is a convenience sample ever acceptable?

## Testing

* describe a two-sample t-test
* interpret a QQ plot
* draw and label a normal density curve
* name risks of running many tests on the same data
* complete a table of type I and type II errors
* what does a p-value measure?
"""


def test_the_verbs_of_study_objectives_ask_like_define_and_explain(tmp_path):
    taken = questions(read(tmp_path, _OBJECTIVES))
    assert taken == [
        "define a sampling frame",
        "name two ways a survey sample can be biased",
        "enumerate four sampling designs",
        "explain why stratifying can reduce variance",
        "is a convenience sample ever acceptable?",
        "describe a two-sample t-test",
        "interpret a QQ plot",
        "draw and label a normal density curve",
        "name risks of running many tests on the same data",
        "complete a table of type I and type II errors",
        "what does a p-value measure?",
    ]


_ZH_OBJECTIVES = """# 复习题

## 第一章

- 列举三种常见的索引结构
- 补全下面的快速排序代码
- 解释聚簇索引的含义
- B+ 树为什么适合做索引？
"""


def test_chinese_task_verbs_of_objectives_ask(tmp_path):
    taken = questions(read(tmp_path, _ZH_OBJECTIVES))
    assert "列举三种常见的索引结构" in taken and "补全下面的快速排序代码" in taken


_INTERVIEW = """# 后端工程师面试

## 网络

- TCP 三次握手的过程？
- 为什么需要 TIME_WAIT？
- HTTP/2 有哪些改进？

## 操作系统

- 进程和线程的区别？
- 什么是虚拟内存？
- 死锁的四个条件是什么？

## 数据库

- 索引失效的场景有哪些？
- MVCC 是如何实现的？
- 什么是幻读？

### 动态规划

- 最长回文子串
- 零钱兑换
- LIS

### 图论

- 拓扑排序
- 最短路径
- 等等

## 大数据题

- 两个大文件找共同的 URL
- 位图

等等
"""


def test_bare_problem_names_under_an_interview_title_are_questions(tmp_path):
    taken = questions(read(tmp_path, _INTERVIEW))
    names = [
        "最长回文子串",
        "零钱兑换",
        "LIS",
        "拓扑排序",
        "最短路径",
        "两个大文件找共同的 URL",
        "位图",
    ]
    assert all(name in taken for name in names)
    assert "等等" not in taken  # more of the same, unnamed
    assert len(taken) == 9 + len(names)


_ROUNDS = """# My interview notes

## Acme — Round 1

1. How does a hash map resize?
2. What is a race condition?
3. When would you denormalise a table?

## Acme — Round 3

1. Why is TLS termination done at the edge?
2. How do you roll back a migration?

## Globex — Round 1

1. What is a bloom filter for?
2. How would you shard a users table?

## Acme — Round 2

1. Event sourcing.
2. How do you version an API?
3. Caching.
4. Idempotency keys.
5. What is back-pressure?

### Short answers (Round 2)

1) **Caching.**

Cache reads close to the caller, expire on writes.
"""


def test_a_rounds_topic_labels_are_questions_beside_those_that_ask(tmp_path):
    taken = questions(read(tmp_path, _ROUNDS))
    assert {"Event sourcing.", "Caching.", "Idempotency keys."} <= set(taken)
    assert "How do you version an API?" in taken


_GLOSSARY = """# Machine learning notes

## Terms used in this post

- Variance
- Bias
- Log-loss
- Kernel trick

## Questions

- What is regularisation?
- How does dropout help?
- Why scale features?

## More

- What is early stopping?
- How do you pick k in k-NN?
- What does a ROC curve show?

## Last

- What is a kernel?
- Why does bagging reduce variance?
- When is accuracy misleading?
"""


def test_a_glossary_of_bare_terms_stays_terms(tmp_path):
    taken = questions(read(tmp_path, _GLOSSARY))
    assert "Variance" not in taken and "Kernel trick" not in taken
    assert "Log-loss" not in taken and len(taken) == 9


def test_a_section_list_over_a_closing_line_is_listed_when_left(invoke, tmp_path):
    text = (
        _GLOSSARY
        + "\n## Stretch topics\n\n- Boosting with custom losses in depth\n- Conformal prediction sets\n\netc.\n"
    )
    shown = previewed(invoke, tmp_path, text)
    assert "Conformal prediction sets" in shown.split("neither taken nor inside an answer")[-1]
