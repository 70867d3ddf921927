"""Failure classes an eleventh batch of real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had: follow-up
questions answered on the next line (``答：``/``简答：``) or in a parenthesis after them
(``（答：…）``); level marks (``【进阶】``) and kind labels (``…追问题：``) in front of a
question; a label heading (``### 卡片 2``) over a ``- **Q：**`` / ``- **A：**`` card;
HTML headings (``<h2 id="…">``) with a fenced code block right under them.
"""

from __future__ import annotations

from imported import questions, read

_DAILY = """# 每日面试

## 1. 真题

### 题目 1：缓存穿透是什么？怎么防？

**回答：**
查询一个不存在的键，请求每次都打到数据库。用布隆过滤器或缓存空值。

**常见追问与回答：**
- **追问 1：布隆过滤器会误判吗？**
  答：会，只会把不存在的判成存在，不会反过来。
- **追问 2：空值缓存多久合适？**
  答：几十秒到几分钟，太长会挡住后来写入的数据。

### 4.1 存储理论追问题：为什么 B+ 树适合做索引？

**参考答案：**
扇出大、层数低，叶子节点相连便于范围扫描。

**可能追问与简短回答：**

- **追问 1：哈希索引呢？**
  简答：等值查找快，但不支持范围查询。
"""


def test_numbered_follow_ups_are_questions_answered_by_the_line_below(tmp_path):
    report = read(tmp_path, _DAILY)
    assert questions(report) == [
        "缓存穿透是什么？怎么防？",
        "布隆过滤器会误判吗？",
        "空值缓存多久合适？",
        "为什么 B+ 树适合做索引？",
        "哈希索引呢？",
    ]
    by_text = {q.question: q for q in report.bank.questions}
    assert by_text["布隆过滤器会误判吗？"].reference == "会，只会把不存在的判成存在，不会反过来。"
    assert by_text["哈希索引呢？"].reference == "等值查找快，但不支持范围查询。"
    assert "布隆过滤器或缓存空值" in by_text["缓存穿透是什么？怎么防？"].reference
    assert "扇出大" in by_text["为什么 B+ 树适合做索引？"].reference


_POINTS = """# 02 · 网络

### Q1 【基础】TCP 为什么要三次握手？

- **答案要点**：
  1. 双方都要确认对方能收也能发。
  2. 防止已失效的连接请求又到达服务端。
- **追问点**：
  - 两次握手会出什么问题？（答：旧的 SYN 到达时服务端会白白建立连接）
  - 四次挥手为什么比握手多一次？（答：被动关闭方可能还有数据要发，ACK 和 FIN 分开）

---

### Q2 【实战】线上出现大量 TIME_WAIT 怎么排查？

- **答案要点**：
  1. 用 ss 统计各状态的连接数。
  2. 短连接过多时改用连接池。
- **追问点**：
  - 调小 tcp_fin_timeout 有用吗？（答：对 TIME_WAIT 无效，它只影响 FIN_WAIT_2）
"""


def test_follow_ups_answered_in_a_parenthesis_are_questions_and_levels_are_tags(tmp_path):
    report = read(tmp_path, _POINTS)
    assert questions(report) == [
        "TCP 为什么要三次握手？",
        "两次握手会出什么问题？",
        "四次挥手为什么比握手多一次？",
        "线上出现大量 TIME_WAIT 怎么排查？",
        "调小 tcp_fin_timeout 有用吗？",
    ]
    first, follow_up, _, practical, last = report.bank.questions
    assert "level:基础" in first.tags and "level:实战" in practical.tags
    assert follow_up.reference == "旧的 SYN 到达时服务端会白白建立连接"
    assert last.reference == "对 TIME_WAIT 无效，它只影响 FIN_WAIT_2"
    kept = " ".join(first.key_points) + (first.reference or "")
    assert "防止已失效的连接请求" in kept and "两次握手" not in kept


def test_a_follow_up_not_answered_in_a_parenthesis_keeps_its_list_in_the_answer(tmp_path):
    text = _POINTS.replace("（答：对 TIME_WAIT 无效，它只影响 FIN_WAIT_2）", "")
    report = read(tmp_path, text)
    last = report.bank.questions[-1]
    assert last.question == "线上出现大量 TIME_WAIT 怎么排查？"
    assert "调小 tcp_fin_timeout 有用吗？" in " ".join(last.key_points) + (last.reference or "")


_CARDS = """# 复习

## 真题

### 题目 1：什么是虚拟内存？

每个进程看到连续的地址空间，由页表映射到物理内存。

### 题目 2：页面置换算法有哪些？

FIFO、LRU、Clock。

### 题目 3：什么是缺页中断？

访问的页不在内存时由硬件触发，内核把页调入后重新执行那条指令。

## 问答卡片

### 卡片 1
- **Q：** 进程和线程的区别是什么？
- **A：** 进程是资源分配的单位，线程是调度的单位。
- **复习标签：** #操作系统

### 卡片 2
- **Q：** 用一句话说明死锁的四个条件。
- **A：** 互斥、占有且等待、不可抢占、循环等待。

## 专项训练

### 4.1 操作系统追问题：fork 之后父子进程共享哪些东西？

打开的文件描述符；内存页写时复制。
"""


def test_a_card_under_a_label_heading_gives_its_question_and_answer(tmp_path):
    report = read(tmp_path, _CARDS)
    assert questions(report) == [
        "什么是虚拟内存？",
        "页面置换算法有哪些？",
        "什么是缺页中断？",
        "进程和线程的区别是什么？",
        "用一句话说明死锁的四个条件。",
        "fork 之后父子进程共享哪些东西？",
    ]
    first, second = report.bank.questions[3:5]
    assert first.reference.startswith("进程是资源分配的单位")
    assert "#操作系统" in first.reference
    assert second.reference == "互斥、占有且等待、不可抢占、循环等待。"
    assert not report.skipped


_HTML = """# 笔记

<h2 id="a1">什么是注意力？</h2>
按相关程度给各位置加权求和。

<h2 id="b2">为什么要多头？</h2>
```python
# decoder layer
class Layer:
    pass
```

每个头看不同的子空间。
"""


def test_html_headings_are_headings_and_a_code_comment_is_no_title(tmp_path):
    report = read(tmp_path, _HTML)
    assert questions(report) == ["什么是注意力？", "为什么要多头？"]
    second = report.bank.questions[1]
    assert "# decoder layer" in second.reference and "子空间" in second.reference
    assert all("decoder" not in c.title for c in report.bank.chapters)
