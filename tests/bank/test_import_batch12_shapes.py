"""Failure classes a twelfth batch of real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had: questions whose
only answer is a link to where the answer is kept (``[答案&解析](…/issues/N)``); a list
whose every item is a question that links away (``- [如何…？](…/issues/N)``).
"""

from __future__ import annotations

from imported import notebook_text, questions, read

_POINTED = """# 前端工程题目

- [Webpack 的热更新是怎么实现的？](#webpack-的热更新是怎么实现的)
- [说一下 tree shaking 的原理](#说一下-tree-shaking-的原理)
- [Vite 为什么比 Webpack 启动快？](#vite-为什么比-webpack-启动快)

### Webpack 的热更新是怎么实现的？

公司：字节、美团

[答案&解析](https://example.org/fe/issues/41)

<br/>

### 说一下 tree shaking 的原理

分类：工程化

[答案&解析](https://example.org/fe/issues/42)

<br/>

### Vite 为什么比 Webpack 启动快？

[答案&解析](https://example.org/fe/issues/43)
"""


def test_an_answer_that_only_points_elsewhere_is_no_answer_but_its_source(tmp_path):
    report = read(tmp_path, _POINTED)
    bank = report.bank
    assert questions(report) == [
        "Webpack 的热更新是怎么实现的？",
        "说一下 tree shaking 的原理",
        "Vite 为什么比 Webpack 启动快？",
    ]
    assert [q.reference for q in bank.questions] == [None, None, None]
    assert [(s.cite, s.ref) for s in bank.questions[2].sources] == [
        ("答案&解析", "https://example.org/fe/issues/43")
    ]
    assert bank.questions[0].tags  # the company line is a tag, not the answer


_ONE_POINTER = """# 并发

**1. 什么是线程？**

线程是进程里的执行单元，共享进程的地址空间。

**2. 线程和进程有什么区别？**

进程有自己的地址空间，线程共享它；切换线程比切换进程便宜。

**3. 为什么要用 ConcurrentHashMap？**

[参考答案](https://example.org/book/chm.html)
"""


def test_a_lone_pointer_among_written_answers_stays_the_answer(tmp_path):
    bank = read(tmp_path, _ONE_POINTER).bank
    assert bank.questions[2].reference == "[参考答案](https://example.org/book/chm.html)"
    assert bank.questions[2].sources == ()


_ARTICLES = """# Statistics

#### What is covariance?

[Covariance](https://example.org/wiki/Covariance)

#### What is a p-value?

[P-value](https://example.org/wiki/P-value)
"""


def test_a_link_that_names_an_article_stays_the_answer(tmp_path):
    bank = read(tmp_path, _ARTICLES).bank
    assert [q.reference for q in bank.questions] == [
        "[Covariance](https://example.org/wiki/Covariance)",
        "[P-value](https://example.org/wiki/P-value)",
    ]


_LINK_LIST = """# Node.js 面试题
> 每天一题

## 历史题目

- [如何用 Node.js 读取一个大文件而不占满内存？](https://example.org/q/issues/31)
- [说说 process.nextTick 和 setImmediate 的区别](https://example.org/q/issues/30)
- [npm 的 package-lock.json 有什么用？](https://example.org/q/issues/29)
- [为什么说 Node.js 适合 I/O 密集的服务？](https://example.org/q/issues/28)
"""


def test_a_list_of_asking_links_is_the_questions_each_with_its_link_as_source(tmp_path):
    bank = read(tmp_path, _LINK_LIST).bank
    assert [q.question for q in bank.questions] == [
        "如何用 Node.js 读取一个大文件而不占满内存？",
        "说说 process.nextTick 和 setImmediate 的区别",
        "npm 的 package-lock.json 有什么用？",
        "为什么说 Node.js 适合 I/O 密集的服务？",
    ]
    assert all(q.reference is None and not q.key_points for q in bank.questions)
    assert bank.questions[1].sources[0].ref == "https://example.org/q/issues/30"


_TYPED_INTO_CODE = notebook_text(
    ("markdown", "##### Q:1) What is Kafka?\nA distributed log that producers append to.\n"),
    (
        "code",
        "\n##### Q:2) What is a consumer group?\n"
        "Consumers that share the partitions of a topic, each partition read by one of them.\n\n"
        "##### Q:3) Why are partitions ordered but topics not?\n"
        "Each partition is one log; a topic is many logs read in parallel.\n",
    ),
    (
        "code",
        "## Step 1: connect\n## Step 2: read\nconsumer = connect('broker:9092')\n"
        "for message in consumer:\n    print(message)\n",
    ),
)


def test_markdown_typed_into_a_code_cell_is_read_as_markdown(tmp_path):
    report = read(tmp_path, _TYPED_INTO_CODE, name="kafka.ipynb")
    assert questions(report) == [
        "What is Kafka?",
        "What is a consumer group?",
        "Why are partitions ordered but topics not?",
    ]
    answer = report.bank.questions[2].reference
    assert answer == "Each partition is one log; a topic is many logs read in parallel."
    assert "connect(" not in "".join(q.reference or "" for q in report.bank.questions)


_APPROACHES = """# 笔试题

## 算法题

1、两个有序数组的中位数 -> 二分查找
2、接雨水 -> 双指针
3、岛屿数量 → 深度优先搜索
"""


def test_an_approach_after_an_arrow_is_the_answer_not_part_of_the_task(tmp_path):
    bank = read(tmp_path, _APPROACHES).bank
    assert [(q.question, q.reference) for q in bank.questions] == [
        ("两个有序数组的中位数", "二分查找"),
        ("接雨水", "双指针"),
        ("岛屿数量", "深度优先搜索"),
    ]


def test_one_arrow_in_a_question_is_left_as_written(tmp_path):
    text = "# Web\n\n1. 从输入 URL -> 页面展示经历了哪些步骤？\n2. 什么是 CORS？\n"
    assert questions(read(tmp_path, text)) == [
        "从输入 URL -> 页面展示经历了哪些步骤？",
        "什么是 CORS？",
    ]


_TEMPLATE = """# 项目面试题

## 项目一：推荐系统

### 项目背景

电商首页的个性化推荐，日活百万。

### 技术栈

召回、粗排、精排三段式。

### 如何解决推荐的冷启动问题？

新用户用热门与人口属性召回，新物品用内容特征。

## 项目二：搜索系统

### 项目背景

站内商品搜索，支持拼音纠错。

### 技术栈

Elasticsearch 加向量召回。

### 如何评估搜索结果的相关性？

人工标注 NDCG，线上看点击率与无结果率。
"""


def test_template_headings_repeated_in_each_section_are_no_questions(tmp_path):
    report = read(tmp_path, _TEMPLATE)
    assert questions(report) == ["如何解决推荐的冷启动问题？", "如何评估搜索结果的相关性？"]
    assert report.bank.questions[1].reference == "人工标注 NDCG，线上看点击率与无结果率。"
