"""Failure classes a seventeenth batch of real public question files showed (issue 34), part Q.

Each file here is written for the test, in the shape those files had: a Hugo page whose
questions sit in ``{{< details "…" >}}`` shortcodes; a CSV whose header names its columns
in Korean or Japanese; a quiz CSV with a column per option and a letter for the answer; a
numbered list whose item has an indented bracketed note under its question.
"""

from __future__ import annotations

from imported import previewed, questions, read

_HUGO = """---
title: "Redis"
draft: false
---

{{< details "Redis 为什么快？" >}}
- 数据在内存里。
- 单线程避免了锁竞争。
{{< /details >}}

{{% details title="Redis 的持久化方式有哪些？" open=true %}}
RDB 快照和 AOF 日志。
{{% /details %}}

```markdown
{{< details "代码块里的示例？" >}}
{{< /details >}}
```

{{< details "缓存穿透怎么办？" >}}
布隆过滤器，或缓存空值。
{{< /details >}}\x20\x20
"""


def test_hugo_details_shortcodes_are_questions_with_their_bodies_as_answers(tmp_path):
    report = read(tmp_path, _HUGO)
    answers = {q.question: q.reference for q in report.bank.questions}
    assert answers == {
        "Redis 为什么快？": "- 数据在内存里。\n- 单线程避免了锁竞争。",
        "Redis 的持久化方式有哪些？": "RDB 快照和 AOF 日志。",
        "缓存穿透怎么办？": "布隆过滤器，或缓存空值。",
    }


def test_hugo_details_shortcodes_are_read_by_the_details_selector(invoke, tmp_path):
    report = read(tmp_path, _HUGO, questions="details")
    assert questions(report) == [
        "Redis 为什么快？",
        "Redis 的持久化方式有哪些？",
        "缓存穿透怎么办？",
    ]
    shown = previewed(invoke, tmp_path, _HUGO, "q.md", "--questions", "details")
    assert "Took 3 question(s)" in shown
    assert "--questions details" in shown.rpartition("Run:")[2]


def test_korean_and_japanese_headers_name_the_question_and_answer_columns(invoke, tmp_path):
    korean = "문제,정답,출처\n캐시 메모리의 역할은?,CPU와 주기억장치의 속도 차이를 줄인다,책\n"
    report = read(tmp_path, korean, "os.csv")
    assert [(q.question, q.reference) for q in report.bank.questions] == [
        ("캐시 메모리의 역할은?", "CPU와 주기억장치의 속도 차이를 줄인다")
    ]
    shown = previewed(invoke, tmp_path, korean, "os.csv")
    assert "Read question ← '문제', answer ← '정답'" in shown
    assert "Not used: '출처'" in shown
    japanese = "問題,答え,分類\nページングとは？,メモリを固定長に分ける方式,OS\n"
    report = read(tmp_path, japanese, "ja.csv")
    first = report.bank.questions[0]
    assert (first.question, first.reference) == ("ページングとは？", "メモリを固定長に分ける方式")
    assert report.bank.chapters[0].title == "OS"


_QUIZ_CSV = """no,question,option_a,option_b,option_c,option_d,correct_answer,explanation
1,光从太阳到地球大约要多久？,8 秒,8 分钟,8 小时,8 天,B,日地距离约 1.5 亿公里。
2,哪些是类地行星？,水星,木星,火星,,"A,C",它们都有岩石表面。
3,月球绕地球一周大约多少天？,7,27,90,,Z,
"""


def test_a_quiz_csv_shows_its_options_and_answers_with_the_chosen_one(tmp_path):
    first, second, third = read(tmp_path, _QUIZ_CSV, "quiz.csv").bank.questions
    assert first.question == (
        "光从太阳到地球大约要多久？\n- A. 8 秒\n- B. 8 分钟\n- C. 8 小时\n- D. 8 天"
    )
    assert first.reference == "8 分钟\n\n日地距离约 1.5 亿公里。"
    assert second.question.endswith("\n- A. 水星\n- B. 木星\n- C. 火星")  # no empty D
    assert second.reference == "水星\n火星\n\n它们都有岩石表面。"
    assert third.reference == "Z"  # names no option: kept as written


def test_a_quiz_csv_preview_says_its_options_were_read(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _QUIZ_CSV, "quiz.csv")
    assert "Options shown under each question; the answer is the chosen option" in shown
    assert "option_a" not in shown and "Not used" not in shown


def test_numbered_and_lettered_option_columns_in_other_words(tmp_path):
    numbered = "题目,选项1,选项2,选项3,答案\n哪个是质数？,4,7,9,2\n"
    only = read(tmp_path, numbered, "zh.csv").bank.questions[0]
    assert only.question == "哪个是质数？\n- A. 4\n- B. 7\n- C. 9"
    assert only.reference == "7"  # "2": the second option, counted from 1
    lettered = "Question,A,B,C,D,Answer\nWhich is a noble gas?,Neon,Iron,Salt,Wood,a\n"
    only = read(tmp_path, lettered, "en.csv").bank.questions[0]
    assert only.question.endswith("\n- A. Neon\n- B. Iron\n- C. Salt\n- D. Wood")
    assert only.reference == "Neon"


def test_a_two_column_q_a_table_is_no_quiz(tmp_path):
    report = read(tmp_path, "q,a\nWhat is a page fault?,A missing page is touched.\n", "qa.csv")
    only = report.bank.questions[0]
    assert (only.question, only.reference) == (
        "What is a page fault?",
        "A missing page is touched.",
    )


_NOTED = """# Attention 面试题

1. 为什么使用多头注意力？
2. 为什么 Q 和 K 用不同的权重矩阵？
  （注意和上一个问题的区别）
3. 为什么要除以根号 d？
4. 什么是 KV 缓存？
答：缓存已算过的键和值。
"""


def test_an_indented_bracketed_note_under_an_item_stays_in_its_question(tmp_path):
    report = read(tmp_path, _NOTED)
    assert questions(report) == [
        "为什么使用多头注意力？",
        "为什么 Q 和 K 用不同的权重矩阵？（注意和上一个问题的区别）",
        "为什么要除以根号 d？",
        "什么是 KV 缓存？",
    ]
    assert [q.reference for q in report.bank.questions][:3] == [None, None, None]


def test_a_bracketed_source_under_an_item_stays_out_of_its_question(tmp_path):
    text = "# RoPE\n\n1. 什么是 RoPE？\n   (source: https://example.org/rope)\n2. 为什么要旋转？\n"
    assert questions(read(tmp_path, text)) == ["什么是 RoPE？", "为什么要旋转？"]
