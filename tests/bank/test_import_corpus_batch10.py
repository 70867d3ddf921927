"""Failure classes a tenth batch of real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had: numbered label
headings (``### Question 3: Topic``) whose real question is the bold paragraph below,
with a checklist of options and an explanation after it; fill-in-the-blank questions.
"""

from __future__ import annotations

import pytest
from imported import questions, read

from studybot.errors import BankError

_LABELLED_QUIZ = """# Interview Topic: Networking

## Contents

- [Question 1: Transport Layer](#question-1-transport-layer)
- [Question 2: What Is a Port?](#question-2-what-is-a-port)

## Questions

### Question 1: Transport Layer

**Which protocol retransmits lost segments on its own?**

* [x] TCP
* [ ] UDP

**Explanation**

TCP numbers its segments and resends those that were never acknowledged.

---

### Question 2: What Is a Port?

**How does the kernel pick which socket gets an incoming datagram?**

* [x] By the destination port and address
* [ ] By the source MAC address

**Explanation**

A socket is bound to an address and port; the datagram's destination names it.

---

### Question 3: Name Lookup

**A resolver that answers from its own memory uses a \\_\\_\\_\\_\\_ instead of asking again.**

* [x] cache
* [ ] zone

**Explanation**

Answers are kept for their time to live.
"""


def test_the_bold_question_under_a_label_heading_is_the_question(tmp_path):
    report = read(tmp_path, _LABELLED_QUIZ)
    assert questions(report) == [
        "Which protocol retransmits lost segments on its own?",
        "How does the kernel pick which socket gets an incoming datagram?",
        "A resolver that answers from its own memory uses a _____ instead of asking again.",
    ]
    first = report.bank.questions[0]
    assert "[x] TCP" in first.reference and "resends those" in first.reference


def test_a_heading_that_asks_over_bold_prose_keeps_its_own_question(tmp_path):
    text = (
        "# Notes\n\n## What is a socket?\n\n**A handle for one end of a connection?** Not quite:"
        " it is an endpoint.\n\nMore text.\n\n## Topics\n\n**What is a pipe?**\n\nA buffer.\n\n"
        "**What is a FIFO?**\n\nA named pipe.\n"
    )
    report = read(tmp_path, text)
    assert "What is a socket?" in questions(report)
    assert "What is a pipe?" in questions(report) and "What is a FIFO?" in questions(report)


def test_a_blank_to_fill_in_survives_as_written(tmp_path):
    report = read(tmp_path, "# Q\n\n1. The ____ command lists files?\n")
    assert questions(report) == ["The ____ command lists files?"]


_LINKED_OUTLINE = """# Frontend questions

## DOM

- [DOM 高频面试题汇总](https://example.org/issues/1)
- [画一条 0.5px 的边框](https://example.org/issues/2)
- 什么是事件代理
- [事件冒泡和捕获有什么不同](https://example.org/issues/3)
  - 如何阻止事件冒泡？
- 为什么需要虚拟 DOM
"""


def test_a_linked_item_in_an_outline_of_questions_is_a_question(tmp_path):
    report = read(tmp_path, _LINKED_OUTLINE)
    assert questions(report) == [
        "画一条 0.5px 的边框",
        "什么是事件代理",
        "事件冒泡和捕获有什么不同",
        "如何阻止事件冒泡？",
        "为什么需要虚拟 DOM",
    ]
    linked = report.bank.questions[0]
    assert linked.reference == "[画一条 0.5px 的边框](https://example.org/issues/2)"


def test_a_list_of_links_alone_is_no_outline_of_questions(tmp_path):
    text = (
        "# Reading\n\n- [Intro to sockets](https://example.org/a)\n"
        "- [Why TCP?](https://example.org/b)\n- [Pipes](https://example.org/c)\n"
    )
    with pytest.raises(BankError, match="no questions found"):
        read(tmp_path, text)


def test_an_id_code_or_topic_label_in_front_is_no_part_of_the_question(tmp_path):
    text = (
        "# 前端题\n\n### html\n\n- [`#q20001` 什么是语义化标签？](/questions/q20001)\n"
        "- [`#q20002` 如何让图片懒加载？](/questions/q20002)\n\n### js\n\n"
        "- 类型转换：隐式转换有哪些规则？\n"
        "- MongoDB在A:{B}上建索引会怎样？\n"
    )
    report = read(tmp_path, text)
    assert questions(report) == [
        "什么是语义化标签？",
        "如何让图片懒加载？",
        "隐式转换有哪些规则？",
        "MongoDB在A:{B}上建索引会怎样？",
    ]


def test_a_short_topic_among_questions_is_listed_not_lost(tmp_path):
    text = (
        "# JS 面试题\n\n## 事件\n\n- 什么是事件代理\n- 事件类型\n- 讲讲事件冒泡和事件捕获\n"
        "  - 如何阻止冒泡？\n- 为什么需要虚拟 DOM\n"
    )
    report = read(tmp_path, text)  # an outline (an item holds sub-items): its topics stay out
    assert questions(report) == [
        "什么是事件代理",
        "讲讲事件冒泡和事件捕获",
        "如何阻止冒泡？",
        "为什么需要虚拟 DOM",
    ]
    left = [(s.where.rsplit(":", 1)[1], s.text, s.why) for s in report.skipped]
    assert (
        "6",
        "事件类型",
        "a short topic among questions; it asks nothing (--questions items takes it)",
    ) in left
    taken = read(tmp_path, text, questions="items")
    assert "事件类型" in questions(taken)


def test_a_which_one_question_keeps_its_prose_answer(tmp_path):
    text = (
        "# ML\n\n#### Which one of the L1 and L2 penalties is used in neural networks?\n\n"
        "Both are used, but L2 is more common.\n\n#### Which of the following is a loss?\n\n"
        "- A. ReLU\n- B. Cross-entropy\n\nB.\n"
    )
    report = read(tmp_path, text)
    first, second = report.bank.questions
    assert first.reference == "Both are used, but L2 is more common."
    assert second.question.endswith("- A. ReLU\n- B. Cross-entropy")
    assert second.reference == "B."


_INTRO_AND_TEMPLATE = """# shell-interview-questions

## 前言

这份清单收集常见的 shell 面试题，欢迎补充。

## How to contribute?

Add your question in this form:

#### <Your question?>

Your answer.

#### What is your favourite editor?

- Added by: someone
- Interviewer company: somewhere

Vim.

## Questions

#### What does `set -e` do?

The script stops at the first command that fails.

#### Why quote `"$@"`?

So that each argument stays one word.
"""


def test_an_intro_or_contribution_template_is_no_card(tmp_path):
    report = read(tmp_path, _INTRO_AND_TEMPLATE)
    assert questions(report) == ["What does `set -e` do?", 'Why quote `"$@"`?']


def test_the_preview_says_why_each_line_was_left_on_purpose(invoke, tmp_path):
    path = tmp_path / "outline.md"
    path.write_text(
        "# 前端\n\n- JS\n  - 什么是闭包？\n  - 事件类型\n  - 原型链是什么？\n- CSS\n"
        "  - 什么是 BFC？\n  - 盒模型\n",
        encoding="utf-8",
    )
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code == 0, preview.stderr
    said = " ".join(preview.stdout.split())
    assert "Left on purpose (2):" in said, said
    assert "2 × a short topic among questions" in said and "--questions items" in said, said
    assert "first at line 5" in said, said
