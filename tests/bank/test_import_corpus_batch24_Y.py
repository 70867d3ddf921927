"""Failure classes a twenty-fourth batch of real public question files showed (issue 34), part Y.

Study notes whose questions are marked (``### Q1：…`` cards, ``**题1：**``) around a chapter's
notes. The notes' numbered steps, TODO items and bold labels (``1) **快速模式**``) sit in
sections where no question is taken: they are listed, not a reason to refuse the file. Each
file here is written for the test, in the shape those files had.
"""

from __future__ import annotations

from imported import previewed, questions, read

_CHAPTER = """\
# 第 5 章：缓存层的读写路径

## 三种启动方式

1) **快速模式（默认）**
- `main()` 直接读取本地缓存

2) **只读模式**
- `main(readonly=True)` 不写回磁盘

3) **同步模式**
- 每次写入都等待远端确认

## 课后动手

你需要完成脚本里的 TODO：
1. 增加一个参数 `--ttl 30`，观察淘汰顺序的变化
2. 把统计输出改成表格形式

## 自测题

### Q1：缓存穿透和缓存击穿有什么不同？
**A：**穿透是查询不存在的键，击穿是热点键过期的瞬间大量请求落到数据库。

### Q2：为什么写回策略需要脏标记？
**A：**只有被改过的块才需要写回，脏标记让淘汰时知道哪些块要先落盘。

### Q3：布隆过滤器为什么会误判？
**A：**多个键的哈希位可能重叠，查询一个不存在的键也可能全部命中。
"""


def test_a_study_notes_steps_and_labels_do_not_refuse_its_marked_questions(tmp_path, invoke):
    report = read(tmp_path, _CHAPTER)
    assert not report.refused
    assert questions(report) == [
        "缓存穿透和缓存击穿有什么不同？",
        "为什么写回策略需要脏标记？",
        "布隆过滤器为什么会误判？",
    ]
    assert all(q.reference for q in report.bank.questions)
    shown = previewed(invoke, tmp_path, _CHAPTER)
    assert "Import would refuse" not in shown
    assert "a numbered item in a file whose questions are marked, first at line 5" in shown
    assert shown.endswith("--name q")


_CARDS_WITH_TASKS = """\
# 缓存练习

## 练习与自测

1. LRU 与 LFU 的取舍
2. 缓存雪崩的成因
3. 旁路缓存与读穿缓存

### Q1：缓存穿透和缓存击穿有什么不同？
**A：**穿透是查询不存在的键，击穿是热点键过期的瞬间。

### Q2：为什么写回策略需要脏标记？
**A：**只有被改过的块才需要写回。
"""


def test_numbered_tasks_beside_the_marked_questions_still_count(tmp_path, invoke):
    report = read(tmp_path, _CARDS_WITH_TASKS)
    assert report.refused  # they may be questions the file asks: --force, not silence
    assert [s.text for s in report.lost][0] == "LRU 与 LFU 的取舍"
    shown = previewed(invoke, tmp_path, _CARDS_WITH_TASKS)
    assert "line 5: a numbered item in a file whose questions are marked: LRU 与 LFU" in shown
    assert "Import would refuse this file" in shown
