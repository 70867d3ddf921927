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


_STUDY_DOC = """\
# SARSA 学习文档

> 同策略的时序差分控制。

---

## 1. 算法基础认知

**一句话定义：** SARSA 用实际执行的下一个动作来更新动作价值。

**直觉类比：** Q-learning 像"只看最好路线的导航"，SARSA 像"按自己实际开法估计路况的司机"。

**历史背景：** SARSA 由 Rummery 和 Niranjan 于 1994 年提出，名字后来由 Sutton 给出。

**算法定位：** 值函数方法、on-policy、时序差分。

**前置知识：** 马尔可夫决策过程、贝尔曼方程、ε-贪心。

---

## 2. 更新公式

### 目标值

目标值由即时回报和下一个状态动作对的价值组成。

---

## 3. 代码实现

```python
def update(q, s, a, r, s2, a2, alpha=0.1, gamma=0.99):
    q[s][a] += alpha * (r + gamma * q[s2][a2] - q[s][a])
```

## 4. 练习

**题1：** SARSA 与 Q-learning 的核心区别？

**参考答案：** SARSA 用实际采取的下一个动作更新，Q-learning 用最大值动作更新。

## 5. 应用场景

适合需要在探索时保持安全的任务，例如悬崖行走。

## 6. 常见问题

**Q1: 训练不收敛？**
- 检查学习率

**Q2: 回报波动大？**
- 增加评估回合数
"""


def test_a_study_docs_numbered_sections_are_not_questions_beside_its_marked_ones(tmp_path, invoke):
    report = read(tmp_path, _STUDY_DOC)
    assert questions(report) == [
        "SARSA 与 Q-learning 的核心区别？",
        "训练不收敛？",
        "回报波动大？",
    ]
    first, *faq = report.bank.questions
    assert "最大值动作更新" in first.reference
    assert [list(q.key_points) for q in faq] == [["检查学习率"], ["增加评估回合数"]]
    shown = previewed(invoke, tmp_path, _STUDY_DOC)
    assert "算法基础认知" not in shown and "应用场景: " not in shown
    assert "Took 3 question(s)" in shown and "0 that do not ask" in shown


_CHAPTER_NOTES = """\
# 第 4 章：从请求到响应（路由与中间件）

这一章要解决的问题：**“我发出一个请求之后，代码到底是怎么一路走到处理器的？”**

## 你将学会什么

- `app/server.py` 的入口分流：HTTP 模式 / worker 模式 / 调试模式
- `build_app()` 如何组装应用：配置 → 中间件 → 路由 → 处理器

## 关键文件（必读）

- `app/server.py`：`main()` 入口
- `app/routes.py`：`register()` / `mount()`
- `app/devtools.py`：调试面板如何接入 server

## build_app() 做了什么（按顺序拆解）

打开 `app/factory.py`，它基本按这个顺序走：

1. 读取配置并合并环境变量
2. 注册日志与追踪中间件
3. 挂载路由表

## 自测题

### Q1：`build_app()` 最终返回什么？
**A：**返回 `App`，它持有路由表、中间件链和配置。

### Q2：为什么调试模式不挂载追踪中间件？
**A：**追踪会改写响应头，调试面板需要看到原始响应。

### Q3：路由表在哪一步挂载？
**A：**在中间件注册之后、返回 `App` 之前。
"""


def test_a_chapters_cited_question_and_its_notes_are_not_its_questions(tmp_path, invoke):
    report = read(tmp_path, _CHAPTER_NOTES)
    assert questions(report) == [
        "`build_app()` 最终返回什么？",
        "为什么调试模式不挂载追踪中间件？",
        "路由表在哪一步挂载？",
    ]
    assert not report.refused
    shown = previewed(invoke, tmp_path, _CHAPTER_NOTES)
    assert "line 3: 这一章要解决的问题：“我发出一个请求之后" in shown  # listed, not taken
    assert (
        "2 × a study note's heading in a file whose questions are marked, first at line 5" in shown
    )
    assert "line 14: `app/devtools.py`：调试面板如何接入 server" in shown
    assert "Took 3 question(s)" in shown


_DAY_LOG = """\
# 第 2 天：显存与带宽

## 今天要解决的问题

模型放得下显存，推理却依然很慢，这一天要弄清其中的原因。

## 先补一个概念：显存到底在做什么

显存既存权重，也存中间激活，读写它要花时间。

## 关键文件

- `tools/profile.py`：采样脚本如何拉起 profiler
- `tools/report.py`：把采样结果汇总成表格
- `tools/plot.py`：画出带宽随批量变化的曲线

## 怎么区分：两个简单实验

固定批量改序列长度，再固定序列长度改批量，比较两条延迟曲线。

## 验收题：为什么 batch 变大延迟几乎不变

因为此时瓶颈在读权重，批量变大只增加少量计算。

## 自测

**Q1：显存容量决定什么？**

决定能放下多大的模型和多长的上下文。

**Q2：带宽不足时 GPU 利用率为什么低？**

计算单元在等数据，大部分时间空转。

**Q3：为什么算子融合能省时间？**

中间结果不再写回显存，少了一次读写。

## 明天预告

明天看算子融合。
"""


def test_a_study_logs_prose_headings_are_sections_and_its_acceptance_question_asks(
    tmp_path, invoke
):
    report = read(tmp_path, _DAY_LOG)
    assert questions(report) == [
        "为什么 batch 变大延迟几乎不变",
        "显存容量决定什么？",
        "带宽不足时 GPU 利用率为什么低？",
        "为什么算子融合能省时间？",
    ]
    assert all(q.reference for q in report.bank.questions)
    shown = previewed(invoke, tmp_path, _DAY_LOG)
    assert "今天要解决的问题" not in shown and "明天预告" not in shown
    assert (
        "2 × a study note's heading in a file whose questions are marked, first at line 7" in shown
    )
    assert "line 13: `tools/profile.py`：采样脚本如何拉起 profiler" in shown
    assert "Try" not in shown and shown.endswith("--name q")
