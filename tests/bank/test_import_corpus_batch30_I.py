"""Failure classes a thirtieth batch of real public question files showed, part I.

Each file here is written for the test, in the shape those files had: an interview write-up
whose numbered headings name the topics asked, with bold circled sub-questions (``**①…？**``)
under one and numbered answer points under another.
"""

from __future__ import annotations

from imported import questions, read

_WRITE_UP = """# 面试记录

公司A  后端开发  2022.3.1

### 面试题

#### **1.进程与线程的区别**

**①为什么需要线程？**

- 线程切换比进程切换便宜。
- 同一进程的线程共享内存。

**②线程之间如何通信？**

共享变量加锁，或者用消息队列。

#### **2.缓存淘汰策略**

常见的是 LRU，淘汰最久没有用过的数据。

#### 3.数据库索引优化

1. 最左前缀

   联合索引按照从左到右的顺序匹配。

2. 覆盖索引

   查询的列都在索引里，不必回表。

3. 避免函数

   在索引列上用函数会让索引失效。
"""


def test_numbered_topic_headings_with_circled_sub_questions_import_without_force(tmp_path):
    report = read(tmp_path, _WRITE_UP)
    assert questions(report) == [
        "进程与线程的区别",
        "为什么需要线程？",
        "线程之间如何通信？",
        "缓存淘汰策略",
        "数据库索引优化",
    ]
    first, why, how, cache, index = report.bank.questions
    assert first.reference is None  # its answer lies in its circled parts
    assert why.key_points and how.reference and cache.reference
    assert "最左前缀" in (index.reference or "")  # the numbered points are its answer
    assert not report.lost
