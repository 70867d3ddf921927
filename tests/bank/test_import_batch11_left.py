"""The classes of the eleventh batch of real files (issue 34) that were left, on files written
here in their shapes: a reading list after an interview transcript, a daily digest whose
article entries hold the questions they give and answer them below in ``**问题 N：**``
paragraphs, answer points and answer rows that only look like questions, and notes whose
topics are HTML headings with no question mark.
"""

from __future__ import annotations

import json

from imported import previewed, questions, read

# -- a reading list asks nothing --------------------------------------------------------------

_TRANSCRIPT = """# 容器编排面试记录

面试官："Pod 和容器是什么关系？"

面试官："Deployment 滚动更新时怎样保证服务不中断？"

面试官："探针失败后 kubelet 会做什么？"

-----

**系列文章**

第一段：推荐阅读：[【调度器凭什么能把 Pod 放到合适的节点上？】](https://example.org/a)

第二段：推荐阅读：[【认识 Service 的四种类型】](https://example.org/b)

延伸阅读：[为什么静态 Pod 不归 API Server 管？](https://example.org/c)
"""


def test_a_reading_lists_lines_are_no_questions_and_are_listed_as_left(invoke, tmp_path):
    report = read(tmp_path, _TRANSCRIPT)
    assert questions(report) == [
        "Pod 和容器是什么关系？",
        "Deployment 滚动更新时怎样保证服务不中断？",
        "探针失败后 kubelet 会做什么？",
    ]
    assert not any(q.reference for q in report.bank.questions)  # the list answers none
    left = [(s.where.rsplit(":", 1)[1], s.counts) for s in report.skipped]
    assert left == [("13", False), ("15", False), ("17", False)]  # listed, never a refusal
    shown = previewed(invoke, tmp_path, _TRANSCRIPT)
    assert "3 × a pointer to something to read (推荐阅读：…, 参考：…), not a question" in shown
    assert "0 question-like line(s) not taken" in shown


def test_the_import_json_lists_the_reading_lists_lines(invoke, tmp_path):
    path = tmp_path / "k8s.md"
    path.write_text(_TRANSCRIPT, encoding="utf-8")
    done = invoke("bank", "import", str(path), "--preview", "--json")
    assert done.exit_code == 0, done.stderr
    left = json.loads(done.stdout)["not_taken"]
    assert [item["where"].rsplit(":", 1)[1] for item in left] == ["13", "15", "17"]
    assert left[0]["text"].startswith("第一段：推荐阅读：")


def test_a_question_that_only_mentions_reading_still_asks(tmp_path):
    report = read(
        tmp_path, "# 读书\n\n推荐阅读哪本书入门分布式系统？\n\n参考：《数据密集型应用系统设计》\n"
    )
    assert questions(report) == ["推荐阅读哪本书入门分布式系统？"]
    assert "数据密集型应用系统设计" in (report.bank.questions[0].reference or "")


# -- a digest's articles give questions, and answer them below ----------------------------------

_DIGEST = """# 每日面试复盘

## 1. 今日真题

### 题目 1：梯度裁剪解决什么问题？

防止梯度爆炸：把梯度的范数限制在阈值以内。

## 2. 今日文章精读

### 文章 1：Scaling Laws in Practice

- **链接：** https://example.org/scaling
- **核心内容总结：**
  - 详细解释了参数量与数据量应当如何同步放大。
  - 介绍了计算预算固定时的最优配比。
- **可转化面试题：**
  1. 你在项目里如何估算训练所需的 token 数？请给出一个算例。
  2. 计算预算固定时，模型该做大还是数据该做多？
- **对应参考答案：**

**问题 1：**
按 20 倍参数量估算：7B 模型约需 140B token，再按数据去重后的规模调整。

**问题 2：**
两者同步放大最省算力；只放大模型会欠训练。

---

### 文章 2：Mixed Precision Notes

- **可转化面试题：**
  1. bf16 相比 fp16 为什么更少溢出？
  2. 混合精度训练里为什么要保留一份 fp32 主权重？
- **对应参考答案：**

**问题 1：**
bf16 的指数位与 fp32 相同，表示范围大，不易上溢。

**问题 2：**
小的更新量加到 fp16 权重上会被舍入掉，fp32 主权重保住这些更新。
"""


def test_a_digests_articles_are_sections_and_their_questions_get_the_answers_below(tmp_path):
    report = read(tmp_path, _DIGEST)
    got = {q.question: q.reference or "" for q in report.bank.questions}
    assert list(got) == [
        "梯度裁剪解决什么问题？",
        "你在项目里如何估算训练所需的 token 数？请给出一个算例。",
        "计算预算固定时，模型该做大还是数据该做多？",
        "bf16 相比 fp16 为什么更少溢出？",
        "混合精度训练里为什么要保留一份 fp32 主权重？",
    ]
    answers = list(got.values())
    assert answers[1].startswith("按 20 倍参数量估算")
    assert answers[2].startswith("两者同步放大最省算力")
    assert answers[3].startswith("bf16 的指数位与 fp32 相同")
    assert answers[4].startswith("小的更新量加到 fp16 权重上")


def test_a_label_alone_over_a_question_with_nothing_asked_above_still_opens_it(tmp_path):
    text = "# 笔记\n\n**问题 1：**\n请解释注意力里的缩放因子\n\n缩放让 softmax 不至于饱和。\n"
    report = read(tmp_path, text)
    assert questions(report) == ["请解释注意力里的缩放因子"]
    assert (report.bank.questions[0].reference or "").startswith("缩放让 softmax")


# -- lines of an answer that only look like questions -------------------------------------------

_POINTS = """# Transformer 题目

### Q1 为什么需要位置编码？

- **答案要点**：
  1. 为什么需要：注意力本身与顺序无关，打乱输入结果不变，所以要注入位置。
  2. 是否可学习：可以，BERT 用的就是可学习的位置表。
  3. 为什么现在多用 RoPE？答：它把相对位置写进了注意力的内积里。

### Q2 KV cache 省的是什么？

- **答案要点**：
  1. 为什么能省：解码时前缀的 K、V 不变，算一次存下来即可。
  2. 代价：显存随序列长度线性增长。
"""

_CARDS = """<details>
  <summary>问题？</summary>
  <div>目的：1... 2...</div>
</details>

<details>
  <summary>正则表达式里的量词有哪几种？</summary>
  <div>问号     ?        </div>
  <div>加号     +        </div>
  <div>星号     *        </div>
</details>

<details>
  <summary>贪婪匹配和懒惰匹配的区别？</summary>
  <div>懒惰匹配在量词后加 ?，尽可能少地匹配。</div>
</details>
"""


def test_an_answers_points_that_start_with_a_question_word_are_not_listed(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _POINTS)
    assert "Took 2 question(s)" in shown
    assert "为什么需要：" not in shown.split("Asking lines not taken")[-1]
    assert "为什么能省：" not in shown and "是否可学习" not in shown
    # a question with its answer beside it, inside a point, is still listed: a follow-up,
    # imported as a line of that answer
    assert "Asking lines not taken (" not in shown
    assert "kept in an answer, not as questions (1): line 8: 为什么现在多用 RoPE？答：" in shown


def test_a_templates_question_and_an_answers_sign_row_are_not_listed(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _CARDS)
    assert "Asking lines not taken" not in shown
    assert "0 question-like line(s) not taken" in shown
    report = read(tmp_path, _CARDS)
    assert questions(report) == ["正则表达式里的量词有哪几种？", "贪婪匹配和懒惰匹配的区别？"]


# -- notes whose topics are headings with no question mark -------------------------------------

_TOPICS = [  # each topic's notes: numbered points, one a line, as a notes app exports them
    ("BPE 分词", ["合并：频率最高的相邻字节对", "停止：词表够大为止"]),
    ("显存分析", ["权重：参数量乘以字节数", "优化器：Adam 存两份状态"]),
    ("位置编码", ["正弦：可外推", "可学习：长度固定"]),
    ("注意力", ["缩放：点积太大时 softmax 饱和", "多头：不同子空间各看一遍"]),
    ("归一化", ["Pre-LN：残差支路不被截断", "RMSNorm：不减均值"]),
]


def _notes() -> str:
    parts = ["<!-- 学习笔记 -->\n"]
    for n, (topic, points) in enumerate(_TOPICS):
        lines = "\n\n".join(f"{k}.{point}" for k, point in enumerate(points, start=1))
        parts.append(f'<h1 id="t{n}">{topic}</h1>\n{lines}\n')
    return "\n".join(parts)


def test_notes_with_topic_headings_get_the_heading_selector_suggested(invoke, tmp_path, run_line):
    path = tmp_path / "notes.md"
    path.write_text(_notes(), encoding="utf-8")
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code == 0, preview.stderr
    shown = " ".join(preview.stdout.split())
    assert "Took 10 question(s): 0 of the file's 0 asking line(s), 10 that do not ask" in shown
    assert "Try --questions headings:1: 5 questions, 5 topics with their notes" in shown
    assert run_line(preview.stdout)[-2:] == ["--questions", "headings:1"]
    report = read(tmp_path, _notes(), name="notes.md", questions="headings:1")
    assert questions(report) == [topic for topic, _ in _TOPICS]
    assert all(q.reference for q in report.bank.questions)


def test_a_readme_listing_topics_to_study_gets_no_heading_selector(invoke, tmp_path):
    parts = ["# 面试知识点\n"]
    for section in ["机器学习基础", "深度学习基础", "分布式训练", "推理优化"]:
        parts.append(
            f"## {section}\n\n- {section}有哪些核心概念\n- {section}的原理\n- 如何实践{section}\n"
        )
    shown = previewed(invoke, tmp_path, "\n".join(parts))
    assert "Took 12 question(s)" in shown
    assert "--questions headings" not in shown
