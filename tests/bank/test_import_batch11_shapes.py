"""Failure classes an eleventh batch of real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had: text exported
from a PDF (``N Question N: …`` wrapped over two lines, a hyphen at the break, numbered
steps in an answer, page numbers); a post whose one question is its front matter's
``title``; fill-in-the-blank cards in ``<details>``; an interview transcript quoting
the interviewer's questions.
"""

from __future__ import annotations

import pytest
from imported import previewed, questions, read

from studybot.errors import BankError

_PDF_TEXT = """Thirty Questions on Operating Systems
A study guide
Introduction
This guide gathers questions asked in systems interviews. Each comes with a short
answer you can say out loud.
1 Question 1: What happens, step by step, when a process calls
fork?
The kernel copies the page tables and marks pages copy-on-write; the child gets a
new process id and returns zero.
2 Question 2: How does a page fault get resolved without los-
ing the faulting instruction?
The CPU traps, the handler maps the page and the instruction runs again.
3 Question 3: What steps does the scheduler take on a timer
interrupt?
It does three things:
1. Charge: it charges the running task for its time slice.
2. Pick: it picks the next task from the run queue.
3. Switch: it switches contexts.
The task that ran keeps its place.
4 Question 4: Why do threads of one process share a virtual
address space (VAS)
layout?
Because the address space belongs to the process, not to the thread.
2
5 Question 5: What is a zombie process, and how is it reaped by
Linux?
A child that exited and whose parent has not called wait; init reaps orphans.
Conclusion
Good luck in your interviews.
"""


def test_pdf_text_questions_wrapped_over_lines_are_read_whole(tmp_path):
    report = read(tmp_path, _PDF_TEXT, name="os-guide.txt")
    assert questions(report) == [
        "What happens, step by step, when a process calls fork?",
        "How does a page fault get resolved without losing the faulting instruction?",
        "What steps does the scheduler take on a timer interrupt?",
        "Why do threads of one process share a virtual address space (VAS) layout?",
        "What is a zombie process, and how is it reaped by Linux?",
    ]
    answers = [q.reference or "" for q in report.bank.questions]
    assert answers[0].startswith("The kernel copies the page tables")
    assert "2. Pick: it picks the next task" in answers[2]
    assert "The task that ran keeps its place." in answers[2]
    assert "address space belongs to the process" in answers[3]
    assert answers[4].startswith("A child that exited")


def test_pdf_text_preview_takes_every_asking_line(invoke, tmp_path):
    said = previewed(invoke, tmp_path, _PDF_TEXT, name="os-guide.txt")
    assert "Total: 5 question(s)" in said, said
    assert "0 question-like line(s) not taken" in said, said


_POST = """---
title: 面经整理：如何排查一次线上内存泄漏？
date: 2024-03-02 10:00:00
tags:
  - jvm
---

# 背景

这是一次二面里被问到的题，我把当时的思路整理一下。

# 先看监控

老年代占用一直上涨，Full GC 之后也降不下来。

# 再看堆转储

用 `jmap` 导出堆，再用 MAT 看支配树，找到持有大量对象的缓存。
"""


def test_a_post_whose_title_asks_is_one_question_answered_by_the_post(tmp_path):
    report = read(tmp_path, _POST, name="post.md")
    assert questions(report) == ["如何排查一次线上内存泄漏？"]
    answer = report.bank.questions[0].reference or ""
    assert "老年代占用一直上涨" in answer and "用 `jmap` 导出堆" in answer
    assert report.bank.questions[0].id == 1


def test_a_post_whose_title_asks_nothing_still_finds_no_question(tmp_path):
    text = _POST.replace("面经整理：如何排查一次线上内存泄漏？", "我的 JVM 笔记")
    with pytest.raises(BankError, match="no questions found"):
        read(tmp_path, text, name="post.md")


def test_a_post_with_questions_of_its_own_keeps_them_not_its_title(tmp_path):
    text = _POST + "\n# 追问\n\n为什么 Full GC 之后还降不下来？\n"
    assert questions(read(tmp_path, text, name="post.md")) == ["为什么 Full GC 之后还降不下来？"]


_CLOZE_CARDS = """<!-- cards: copy the first one -->

<details>
  <summary>Question?</summary>
  <div>Answer: 1... 2...</div>
</details>

<details>
  <summary>HTTP 的三类缓存头：__、__和__。</summary>
  <div>Cache-Control</div>
  <div>ETag</div>
  <div>Last-Modified</div>
</details>

<details>
  <summary>TCP 握手一共 _1_ 次，挥手一共 _2_ 次。</summary>
  <div>三</div>
  <div>四</div>
</details>

<details>
  <summary>常见的状态码有 5 类：...</summary>
  <div>1xx 2xx 3xx 4xx 5xx</div>
</details>

<details>
  <summary>DNS 默认用哪个端口？</summary>
  <div>53</div>
</details>

<details>
  <summary>__为什么握手要三次？__</summary>
  <div>防止旧连接请求</div>
</details>

<details>
  <summary>更多链接</summary>
  <div>见 README</div>
</details>
"""


def test_cloze_cards_are_questions_that_keep_their_blanks(tmp_path):
    report = read(tmp_path, _CLOZE_CARDS, name="cards.md")
    assert questions(report) == [
        "HTTP 的三类缓存头：__、__和__。",
        "TCP 握手一共 _1_ 次，挥手一共 _2_ 次。",
        "常见的状态码有 5 类：...",
        "DNS 默认用哪个端口？",
        "为什么握手要三次？",
    ]
    assert report.bank.questions[0].reference == "Cache-Control\nETag\nLast-Modified"  # no <div>
    assert all(q.reference for q in report.bank.questions)


def test_a_blank_in_a_card_with_no_back_is_no_card(tmp_path):
    text = (
        "<details>\n  <summary>缓存头：__、__。</summary>\n</details>\n\n## Q\n\n- 什么是 ETag？\n"
    )
    assert questions(read(tmp_path, text, name="cards.md")) == ["什么是 ETag？"]


_TRANSCRIPT = """# Redis 高频面试题

#### 【最新问题】

<img src="https://example.org/face.png" width="28px" />面试官："Redis 为什么这么快？" **|** [【参考】](https://example.org/a/1)

<img src="https://example.org/face.png" width="28px" />面试官："RDB 和 AOF 有什么区别？"**|** [【参考】](https://example.org/a/2)

<img src="https://example.org/face.png" width="28px" /> 面试官："主从复制的过程是怎样的？”  **|** [【参考】](https://example.org/a/3)

面试官：“缓存击穿怎么处理？”

#### 【累计问题】

<img src="https://example.org/face.png" width="28px" />面试官："Redis 为什么这么快？" **|** [【参考】](https://example.org/a/1)
"""


def test_a_quoted_question_after_a_speaker_keeps_neither_quotes_nor_separator(invoke, tmp_path):
    report = read(tmp_path, _TRANSCRIPT, name="redis.md")
    assert questions(report) == [
        "Redis 为什么这么快？",
        "RDB 和 AOF 有什么区别？",
        "主从复制的过程是怎样的？",
        "缓存击穿怎么处理？",
    ]
    assert all(not q.reference for q in report.bank.questions)  # a link away is no answer
    said = previewed(invoke, tmp_path, _TRANSCRIPT, name="redis.md")
    assert "asked again (first at line 5)" in said, said
    assert "0 question-like line(s) not taken" in said, said


def test_a_summary_question_is_counted_on_its_summary_line(invoke, tmp_path):
    text = (
        "# Cards\n\n<details>\n  <summary>What is an inode?</summary>\n  Metadata.\n</details>\n"
        "\n<details>\n  <summary>Why is a hard link not a copy?</summary>\n  One inode.\n"
        "</details>\n"
    )
    said = previewed(invoke, tmp_path, text, name="cards.md")
    assert "2 of the file's 2 asking line(s)" in said, said
    assert "Asking lines not taken" not in said, said
