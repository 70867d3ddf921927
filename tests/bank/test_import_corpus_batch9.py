"""Failure classes a ninth batch of real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had: quick
self-test tables whose second column is the one-line answer; question cards
with follow-ups answered after an arrow on the same line; card labels before
the question; label-only headings over the task; a question that ends in a
parenthesis.
"""

from __future__ import annotations

import json

from imported import questions, read

_QUICK_TABLES = """# Networking cards

## Quick answers

### Sockets

| 问题 | 一句话答 |
|------|----------|
| 三次握手为什么不是两次? | 防止过期的连接请求被当成新连接 |
| `TIME_WAIT` 为什么要等 2MSL? | 让最后的 ACK 丢了还能重发,旧报文也都消失 |

### Tools

| Question | One-line answer |
|---|---|
| How do you see which process holds a port? | `ss -lntp` or `lsof -i :PORT` |
"""


def test_a_question_table_answers_each_row_with_its_next_cell(tmp_path):
    report = read(tmp_path, _QUICK_TABLES)
    answers = {q.question: q.reference for q in report.bank.questions}
    assert answers == {
        "三次握手为什么不是两次?": "防止过期的连接请求被当成新连接",
        "`TIME_WAIT` 为什么要等 2MSL?": "让最后的 ACK 丢了还能重发,旧报文也都消失",
        "How do you see which process holds a port?": "`ss -lntp` or `lsof -i :PORT`",
    }


def test_a_column_named_as_something_else_is_no_answer(tmp_path):
    for header, row in (
        ("| Question | Difficulty |\n|---|---|", "| What is a pipe? | easy |"),
        ("| 问题 | 考察点 | 难度 |\n|---|---|---|", "| What is a pipe? | shell | easy |"),
    ):
        text = f"# Q\n\n{header}\n{row}\n"
        report = read(tmp_path, text)
        assert questions(report) == ["What is a pipe?"]
        assert report.bank.questions[0].reference is None


_ARROW_FOLLOW_UPS = """# Shell cards

### What happens when you type `ls` and press enter?

**Short answer**
> The shell forks a child, the child execs `ls`, the shell waits.

**Follow-ups**
- *Q:Which call replaces the child's program?* → `execve`, keeping the PID and open fds.
- *Q:What if nobody waits for the child?* → it stays a zombie until reaped.
- Q: Where is the rest explained? → [Processes](processes.md)
- Q: Why is `cd` a builtin? -> it must change the shell's own directory
"""


def test_the_text_after_a_follow_ups_arrow_is_its_answer(tmp_path):
    report = read(tmp_path, _ARROW_FOLLOW_UPS)
    answers = {q.question: q.reference for q in report.bank.questions[1:]}
    assert answers == {
        "Which call replaces the child's program?": "`execve`, keeping the PID and open fds.",
        "What if nobody waits for the child?": "it stays a zombie until reaped.",
        "Where is the rest explained?": None,  # a link alone points to the answer, is none
        "Why is `cd` a builtin?": "it must change the shell's own directory",
    }


_LABELLED = """# Capacity exercises

## Exercise 1 · threads or events

**题面**:一台 8 核机器,每个请求 5ms CPU + 45ms 等数据库。问:单机能扛多少?

Little's law: 16,000 × 0.05 = 800 in flight.

## Cards

### 卡 02-B:硬链接和软链接有什么区别?

硬链接是同一个 inode 的另一个名字。
"""


def test_a_label_before_the_question_is_no_part_of_it(tmp_path):
    report = read(tmp_path, _LABELLED)
    assert questions(report) == [
        "一台 8 核机器,每个请求 5ms CPU + 45ms 等数据库。问:单机能扛多少?",
        "硬链接和软链接有什么区别?",
    ]


def test_a_parenthesis_that_ends_a_question_stays_in_it(tmp_path):
    text = (
        "# Linux\n\n### 用什么命令统计一个文件？(行数、单词数、字节数)\n\nwc。\n\n"
        "### 讲讲 RLHF（字节二面）\n\nSFT, reward model, PPO.\n"
    )
    assert questions(read(tmp_path, text)) == [
        "用什么命令统计一个文件？(行数、单词数、字节数)",  # what to count, not where it was asked
        "讲讲 RLHF",
    ]


_LABEL_HEADINGS = """# Python coding questions

Try each one before you read the answer.

#### Q1)
Two players play rock-paper-scissors.
- Rock beats scissors
- Paper beats rock

Write a function that names the winner.

**Solution:**

A dictionary of who beats whom is shorter than an if chain.

```
beats = {"Rock": "Scissors", "Paper": "Rock", "Scissors": "Paper"}
```

### Q2)

[Practice site](https://example.org/problems/42)

Given a string, return it reversed.

```
def rev(s):
    return s[::-1]
```

### Q3:

**Answer.** This number is missing from the source.
"""


def test_a_heading_that_is_a_label_alone_asks_the_task_below_it(tmp_path):
    report = read(tmp_path, _LABEL_HEADINGS)
    assert questions(report) == [
        "Two players play rock-paper-scissors.\n- Rock beats scissors\n- Paper beats rock\n"
        "Write a function that names the winner.",
        "Given a string, return it reversed.",  # the link above it says where it is from
    ]
    first, second = report.bank.questions
    assert first.reference.startswith("**Solution:**")
    assert "return s[::-1]" in second.reference
    # an answer under a bare number is no task: the lost question is said, with its line
    assert [(s.where.rsplit(":", 1)[-1], s.text) for s in report.skipped] == [("31", "Q3:")]


_LONG_FOLLOW_UPS = """# Container cards

### Why was the container OOMKilled while the host had memory to spare?

**Short answer**
> Its cgroup limit, not the host, decides; old runtimes size their heap from the host.

**Follow-ups**
- *Q:How do you fix the JVM?* → `-XX:MaxRAMPercentage=75`; newer JDKs read the cgroup limit themselves, older flags read the host's memory and overshoot.
- *Q:Why does `-Xmx512m` still go over?* → the heap is one part: metaspace, thread stacks, direct buffers and the JIT cache come on top of it.
"""


def test_follow_ups_with_long_answers_after_the_arrow_are_questions(tmp_path):
    report = read(tmp_path, _LONG_FOLLOW_UPS)
    assert questions(report)[1:] == [
        "How do you fix the JVM?",
        "Why does `-Xmx512m` still go over?",
    ]
    assert report.bank.questions[2].reference.startswith("the heap is one part")


def test_an_asking_cell_inside_a_taken_answer_is_listed_with_its_cell(tmp_path):
    cells = [
        "How do you test for collinearity?\n- variance inflation factor",
        "Explain about a type I error:\n- rejecting a null hypothesis that is true",
    ]
    notebook = {"cells": [{"cell_type": "markdown", "source": c} for c in cells], "nbformat": 4}
    report = read(tmp_path, json.dumps(notebook), name="ds.ipynb", steering=True)
    assert questions(report) == ["How do you test for collinearity?"]
    where = str(tmp_path / "ds.ipynb")
    assert report.steer.missed == ((f"{where}:cell 2, line 1", "Explain about a type I error:"),)
