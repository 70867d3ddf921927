"""Near-exact real files (issue 34, part W): long nested outlines whose bullets are the
questions.

Each file here is written for the test, in the shape the real file had: a notes index
of article sections (``### [title](link)``), each over a nested outline of the questions
the article answers and a link to it; a few of the article titles ask.
"""

from __future__ import annotations

from imported import previewed, questions, read

_TOPICS = [
    ("索引", ["B+ 树 为什么适合做索引？", "什么是 覆盖索引？", "联合索引 如何 选择列顺序？"]),
    ("事务", ["什么是 MVCC？", "幻读 是怎么产生的？", "如何 避免 长事务？"]),
    ("锁", ["行锁 和 表锁 有什么区别？", "死锁 如何 排查？", "间隙锁 解决了什么问题？"]),
    ("日志", ["redo log 有什么作用？", "binlog 有哪些格式？", "两阶段提交 为什么需要？"]),
    ("复制", ["主从延迟 如何 处理？", "半同步复制 是什么？", "GTID 有什么优点？"]),
    ("分库分表", ["为什么需要 分库分表？", "分片键 如何 选择？", "跨库 join 怎么做？"]),
    ("缓存", ["缓存穿透 是什么？", "缓存雪崩 如何 预防？", "如何 保证 缓存一致性？"]),
    ("调优", ["慢查询 如何 定位？", "explain 的 type 列 有哪些取值？", "如何 优化 深分页？"]),
    ("备份", ["逻辑备份 和 物理备份 有什么区别？", "如何 做 时间点恢复？", "备份 多久 校验一次？"]),
    ("高可用", ["故障切换 如何 自动化？", "脑裂 是怎么发生的？", "如何 评估 RTO 和 RPO？"]),
]
# two article titles ask, the other eight name a topic ("… 篇")
_ASKING_TITLES = {"缓存": "如何 设计 一个 缓存层？", "调优": "SQL 慢了 怎么办？"}


def _outline() -> str:
    parts = ["# 数据库 面试笔记", ""]
    for n, (topic, asked) in enumerate(_TOPICS, 1):
        title = _ASKING_TITLES.get(topic, f"{topic} 篇")
        link = f"https://notes.example.org/{n}"
        parts += [f"## {n}、{topic} 面", "", f"### [{title}]({link})", ""]
        parts += [f"- 一、{asked[0]}", f"- 二、{topic} 进阶篇"]
        parts += [f"  - 2.{k} {q}" for k, q in enumerate(asked[1:], 1)]
        parts += ["- ...", "", f"- [点击查看答案]({link})", ""]
    return "\n".join(parts)


def _expected() -> list[str]:
    return [q for _, asked in _TOPICS for q in asked]


def test_an_outline_of_asking_bullets_under_article_links_keeps_every_bullet(tmp_path):
    report = read(tmp_path, _outline())
    assert questions(report) == _expected()
    assert all(not q.reference for q in report.bank.questions)  # the answers are elsewhere
    # the article titles are chapters' parts, not questions: "如何 设计 一个 缓存层？" too
    assert "如何 设计 一个 缓存层？" not in questions(report)


def test_the_preview_counts_the_outline_items_and_names_the_command(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _outline())
    assert "Total: 30 question(s)" in shown
    assert "Found in: 30 list items" in shown
    assert shown.endswith("Run: studybot bank import " + str(tmp_path / "q.md") + " --name q")


def test_a_file_of_asking_headings_keeps_them_as_the_questions(tmp_path):
    # headings that ask at one level, their answers below: still the questions
    text = "\n".join(
        f"### {q}\n\n{topic} 的要点：先看定义，再看代价。\n\n- 要点一\n- 要点二\n"
        for topic, asked in _TOPICS[:3]
        for q in asked
    )
    report = read(tmp_path, text)
    assert questions(report) == [q for _, asked in _TOPICS[:3] for q in asked]
    assert all(q.reference for q in report.bank.questions)


_FRONT_END = """# 前端面试题

## 异步

- 为什么需要异步？
- 回调地狱有哪些缺点？
- `Promise` 构造函数是同步还是异步执行
- `setState` 是同步的还是异步的
- 尝试自己实现 `instanceof` 操作符
- 事件循环的流程是什么？
  - 宏任务和微任务有什么区别？
"""


def test_a_choice_between_two_and_a_try_to_implement_task_ask(tmp_path):
    report = read(tmp_path, _FRONT_END)
    assert questions(report) == [
        "为什么需要异步？",
        "回调地狱有哪些缺点？",
        "`Promise` 构造函数是同步还是异步执行",
        "`setState` 是同步的还是异步的",
        "尝试自己实现 `instanceof` 操作符",
        "事件循环的流程是什么？",
        "宏任务和微任务有什么区别？",
    ]


def test_a_remark_with_still_in_it_asks_nothing(tmp_path):
    # "还是" alone (still) is no choice: only "是 A 还是 B" asks
    text = """## 三面

这一面还是比较细节的，问得很仔细。

- 讲讲 Transformer 的结构
- 这个回调是同步还是异步执行
  - 回调里抛出的错误去了哪里？
"""
    report = read(tmp_path, text)
    assert questions(report) == [
        "讲讲 Transformer 的结构",
        "这个回调是同步还是异步执行",
        "回调里抛出的错误去了哪里？",
    ]
