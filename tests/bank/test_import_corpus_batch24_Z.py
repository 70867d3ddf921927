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
