"""Failure classes a twenty-fourth batch of real public question files showed (issue 34), part A.

Answers held in one shared block after the question list: a ``<details><summary>参考答案
</summary>`` box under the numbered questions (alone, or nested at the end of the box that
holds them) whose numbered list 1..N answers questions 1..N. Each file here is written for
the test, in the shape those files had: a chapter's exercises over one answer box; a notes
page whose self-test box nests the answer box; and a box whose numbers do not line up with
the questions', left as it was with a note in the preview that says why.
"""

from __future__ import annotations

from imported import previewed, questions, read

_CHAPTER = """\
# 第 7 章 缓存淘汰

LRU 按最近一次访问排序，LFU 按访问次数排序。

## 练习

1. 为什么 LRU 在扫描型负载下命中率会骤降？
2. LFU 如何处理一次性热点？
3. 若命中率正常但延迟偏高，先查什么？

<details><summary>参考答案</summary>

1. 一次全表扫描把热数据全部挤出缓存，扫描结束后要重新预热。
2. 给计数加衰减，或为新条目设置准入窗口。
3. 查序列化开销、网络往返和锁竞争。

</details>

## 下一步

- [ ] 我能画出 LRU 的链表结构。
"""

_NESTED = """\
# 读书笔记：页缓存

## 回写

- 脏页在达到阈值或超时后回写。
- 回写线程按设备分开。

<details>
<summary>自测题</summary>

1. 脏页何时回写？
2. 回写线程为什么按设备分开？

<details><summary>参考答案</summary>

1. 脏页比例超过阈值，或脏页存在时间超过超时值。
2. 一块慢盘不应拖住其他设备的回写。
</details>
</details>
"""

_UNEVEN = """\
# 练习

1. TCP 为什么要三次握手？
2. TIME_WAIT 为什么持续 2MSL？

<details><summary>参考答案</summary>

1. 双方都要确认对方的收发能力。
2. 让最后一个 ACK 可以重传。
3. 补充：也让旧连接的报文在网络中消失。

</details>
"""


def test_one_answer_box_under_the_exercises_answers_them_by_number(tmp_path, invoke):
    report = read(tmp_path, _CHAPTER)
    assert questions(report) == [
        "为什么 LRU 在扫描型负载下命中率会骤降？",
        "LFU 如何处理一次性热点？",
        "若命中率正常但延迟偏高，先查什么？",
    ]
    answers = [q.reference for q in report.bank.questions]
    assert answers == [
        "一次全表扫描把热数据全部挤出缓存，扫描结束后要重新预热。",
        "给计数加衰减，或为新条目设置准入窗口。",
        "查序列化开销、网络往返和锁竞争。",
    ]
    shown = previewed(invoke, tmp_path, _CHAPTER)
    assert "q.md:11: answers 1–3 in the <details> box paired with the 3 question(s)" in shown
    assert "3 with a reference answer" in shown


def test_an_answer_box_nested_in_the_self_test_box_answers_its_questions(tmp_path, invoke):
    report = read(tmp_path, _NESTED)
    assert questions(report) == ["脏页何时回写？", "回写线程为什么按设备分开？"]
    assert [q.reference for q in report.bank.questions] == [
        "脏页比例超过阈值，或脏页存在时间超过超时值。",
        "一块慢盘不应拖住其他设备的回写。",
    ]
    shown = previewed(invoke, tmp_path, _NESTED)
    assert "answers 1–2 in the <details> box paired with the 2 question(s) above it" in shown


def test_an_answer_box_whose_numbers_do_not_line_up_is_left_and_the_preview_says_why(
    tmp_path, invoke
):
    report = read(tmp_path, _UNEVEN)
    assert questions(report) == ["TCP 为什么要三次握手？", "TIME_WAIT 为什么持续 2MSL？"]
    assert [q.reference for q in report.bank.questions] == [None, None]
    shown = previewed(invoke, tmp_path, _UNEVEN)
    assert (
        "q.md:6: the answers in the <details> box were not paired with the 2 question(s) above "
        "it: its numbers (1–3) do not line up with theirs (1–2)"
    ) in shown


_LOG = """\
# 第 3 天：缓存与延迟

## 背景

读完这一篇，要能说清缓存命中和未命中各花多少时间。

## 开篇：缓存到底解决什么

内存比寄存器慢两个数量级，每次访问能省下多少时间取决于命中率。

## 怎么选：两种淘汰策略

LRU 适合有局部性的负载，LFU 适合热点稳定的负载。

## 验收题：为什么命中率很高延迟却没降

因为瓶颈不在读路径上：写回、锁竞争或序列化才是大头。

## 名词解释

| 名词 | 含义 |
|---|---|
| 命中率 | 请求在缓存里找到的比例 |

## 自测

先合上笔记。

**1. 命中率从 90% 升到 99%，平均访问时间大约变成原来的几分之一？**

<details><summary>答案</summary>

约十分之一：未命中的代价占了绝大部分时间。

</details>

**2. 为什么 LRU 怕全表扫描？**

<details><summary>答案</summary>

扫描把热数据全部挤出缓存。

</details>

**3. 写回和写穿各适合什么负载？举一个例子。**

<details><summary>答案</summary>

写多读少用写回，要求强一致用写穿。

</details>

**4. 用一句话说：缓存穿透是什么？**

<details><summary>答案</summary>

查询不存在的键，每次都打到后端。

</details>

## 明天预告

明天看一致性哈希。
"""


def test_bold_self_test_questions_over_answer_boxes_are_the_questions(tmp_path):
    report = read(tmp_path, _LOG)
    assert questions(report) == [
        "为什么命中率很高延迟却没降",
        "命中率从 90% 升到 99%，平均访问时间大约变成原来的几分之一？",
        "为什么 LRU 怕全表扫描？",
        "写回和写穿各适合什么负载？举一个例子。",
        "用一句话说：缓存穿透是什么？",
    ]
    answers = [q.reference for q in report.bank.questions]
    assert answers == [
        "因为瓶颈不在读路径上：写回、锁竞争或序列化才是大头。",
        "约十分之一：未命中的代价占了绝大部分时间。",
        "扫描把热数据全部挤出缓存。",
        "写多读少用写回，要求强一致用写穿。",
        "查询不存在的键，每次都打到后端。",
    ]


def test_the_prose_sections_beside_them_are_listed_as_left_and_nothing_else_is_named(
    tmp_path, invoke
):
    shown = previewed(invoke, tmp_path, _LOG)
    assert "Left on purpose (2): 2 × in a prose section beside the file's marked questions" in shown
    assert "Found in: 4 lines, 1 heading (read by default)." in shown
    assert "Try" not in shown
    assert shown.endswith("Run: studybot bank import " + str(tmp_path / "q.md") + " --name q")
