"""Failure classes a thirtieth batch of real public question files showed, part I.

Each file here is written for the test, in the shape those files had: an interview write-up
whose numbered headings name the topics asked, with bold circled sub-questions (``**①…？**``)
under one and numbered answer points under another; a case-study bank whose main question
is followed by a bold ``**Follow-up Questions:**`` label over its follow-ups; a 面经 whose
numbered items run on over short group labels (``数据库`` ending in a hard break) and open with a timeline of dated
steps; flashcards whose ``## 12. Term`` title heading sits over an emoji-marked bold question; book
exercises whose answer bullets open with "When …" over nested bullets or a second paragraph; a
README whose topic bullets with links close with a reading list named after a site.
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


_CASES = """### **1. Case: Returned parcels**

**Background:**
A shop sells shoes online and many pairs come back.

**Main Question:**
- How would you predict which orders come back?

**Follow-up Questions:**
1. Which signals would you use?
2. How would you measure success?

---

### **2. Case: Late deliveries**

**Background:**
Deliveries arrive late.

**Main Question:**
- How would you estimate the arrival time?

**Follow-up Questions:**
1. What data would you collect?
2. How would you handle holidays?
"""


def test_a_follow_up_label_over_questions_of_their_own_is_no_answer(tmp_path):
    report = read(tmp_path, _CASES)
    assert questions(report) == [
        "How would you predict which orders come back?",
        "Which signals would you use?",
        "How would you measure success?",
        "How would you estimate the arrival time?",
        "What data would you collect?",
        "How would you handle holidays?",
    ]
    assert all(q.reference is None for q in report.bank.questions)


_ROUNDS = r"""# 某公司后端面经

#### 经过

 流程不算快，前后两周。

 时间线如下：\
 1\. 2022.04.01 投递\
 2\. 2022.04.06 一面\
 3\. 2022.04.15 收到意向

#### 一面

 1\. 讲讲你自己

 数据库\
 2\. 索引的原理\
 3\. 事务隔离级别

 网络\
 4\. 三次握手

 算法\
 5\. 合并两个有序链表
"""


def test_group_labels_between_numbered_items_and_a_dated_timeline_are_no_questions(tmp_path):
    report = read(tmp_path, _ROUNDS)
    assert questions(report) == [
        "讲讲你自己",
        "索引的原理",
        "事务隔离级别",
        "三次握手",
        "合并两个有序链表",
    ]
    assert all(q.reference is None for q in report.bank.questions)  # "数据库\\" answers nothing
    assert not report.lost


_CARDS = """# Part 3: Caching

## 101. Cache Hit
🟦 **What is a cache hit?**

🟩 **Definition**
A request served from the cache without going to the origin.

🟪 **Quick Tip**
Found it nearby.

---

## 102. Eviction
🟦 **What is cache eviction?**

🟩 **Definition**
Removing entries to make room for new ones.

---

## 103. TTL
🟦 **What does a time to live do?**

🟩 **Definition**
It says how long an entry stays valid.
"""


def test_a_card_title_heading_over_an_emoji_marked_bold_question_labels_it(tmp_path):
    report = read(tmp_path, _CARDS)
    assert questions(report) == [
        "What is a cache hit?",
        "What is cache eviction?",
        "What does a time to live do?",
    ]
    assert all("Definition" in (q.reference or "") for q in report.bank.questions)


_EXERCISES = """# Chapter 2 exercises

 1. What is a hash table?
     - A structure that maps keys to values through a hash function.

 2. Can you name three ways to resolve collisions?
     - Chaining, where each bucket holds a list.

     - Open addressing, where we probe for the next free slot.
       - Linear probing steps by one.
       - Quadratic probing steps by squares.

     - When your table fills up past its load factor, you have to resize it. Resizing costs
       time once but keeps lookups fast
       - Double the size.
       - Rehash every key.

 3. What is a load factor, and why does it matter?
     - When we want lookups to stay fast we keep the load factor low. It is the number of
       entries divided by the number of buckets.

       If the load factor is high, chains get long.

 4. What is a perfect hash?
     - A hash with no collisions for a fixed key set.
"""


def test_answer_bullets_that_open_with_when_stay_in_the_answer(tmp_path):
    report = read(tmp_path, _EXERCISES)
    assert questions(report) == [
        "What is a hash table?",
        "Can you name three ways to resolve collisions?",
        "What is a load factor, and why does it matter?",
        "What is a perfect hash?",
    ]
    collisions, load = report.bank.questions[1:3]
    assert any("resize" in point for point in collisions.key_points)
    assert "keep the load factor low" in (load.reference or "")


_README = """# 面试题合集

## 数据库

- **索引的实现**
  [索引的实现](https://example.com/a/1)
- **事务的隔离级别**
  [事务的隔离级别](https://example.com/a/2)

## 缓存

- **缓存穿透**
  [缓存穿透](https://example.com/a/3)
- **缓存雪崩**
  [缓存雪崩](https://example.com/a/4)

## 知乎参考

- **一篇讲分布式锁的长文**
  [一篇讲分布式锁的长文](https://example.com/column/9)
- **高并发系统设计笔记**
  [高并发系统设计笔记](https://example.com/column/10)
"""


def test_a_reading_list_named_after_a_site_holds_no_questions(tmp_path):
    report = read(tmp_path, _README)
    assert questions(report) == ["索引的实现", "事务的隔离级别", "缓存穿透", "缓存雪崩"]
