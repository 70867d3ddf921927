"""Failure classes a fifteenth batch of real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had: ``## N.`` question
headings with ``_emphasis_`` in them, a GitHub task-list outline (``- [x]`` / ``- [ ]``
items at several depths, numbered inside the checkbox), ``<details>`` blocks whose
summary names a topic and whose body has bold sub-headings.
"""

from __future__ import annotations

from imported import previewed, questions, read

_UNDERSCORED = """# Interview questions on search

## 1. What is _inverted indexing_ and why is it fast?

### The _index_

Each term points to the documents that hold it, so a lookup reads one short list.

## 2. How does _BM25_ differ from plain _tf-idf_?

It saturates term frequency; `score_doc_term` keeps its underscores in code.

## 3. What does a ranker return at step _k_ and why use snake_case_names?

The top k results, re-ranked.
"""


def test_underscore_emphasis_in_a_question_is_shown_as_a_reader_sees_it(tmp_path):
    report = read(tmp_path, _UNDERSCORED)
    assert questions(report) == [
        "What is inverted indexing and why is it fast?",
        "How does BM25 differ from plain tf-idf?",
        # a one-letter variable stays as written; words joined by underscores are a name
        "What does a ranker return at step _k_ and why use snake_case_names?",
    ]
    first, second, _ = report.bank.questions
    assert "one short list" in first.reference
    assert "`score_doc_term`" in second.reference


_CHECKLIST = """# Search interview notes

## 更新记录

1. 2024.03 新增：索引篇，排序篇？

## 目录

- [x] **[索引篇](./索引篇.md)**
  - [x] 1. 倒排索引是什么？
  - [ ] 2. 索引 构建 流程
    - [x] 1. 分词之后如何归一化？
    - [x] 2. 增量更新怎么做？
  - [x] 3. 索引压缩的方法有哪些？
    - [x] 优点：
    - [x] 缺点：
  - [ ] 4. 冷热数据分层存储
- [ ] **[排序篇](./排序篇.md)**
  - [x] 一、为什么需要精排？
  - [ ] 二、召回 和 排序 的区别是什么？
  - [x] 排序特征篇
    - [x] 4.1 特征工程篇
      - [x] 4.1.1 特征交叉有哪些做法？
      - [ ] 痛点2：如何处理特征缺失
  - [ ] **[排序评估 篇](./排序篇/评估.md)**
"""


def test_a_checklist_under_a_contents_heading_is_the_questions(tmp_path):
    report = read(tmp_path, _CHECKLIST)
    assert questions(report) == [
        "倒排索引是什么？",
        "分词之后如何归一化？",
        "增量更新怎么做？",
        "索引压缩的方法有哪些？",
        "冷热数据分层存储",
        "为什么需要精排？",
        "召回 和 排序 的区别是什么？",
        "特征交叉有哪些做法？",
        "如何处理特征缺失",
    ]
    # a ticked list holds no answers: "优点：" under a question is its outline's label
    assert not any(q.reference or q.key_points for q in report.bank.questions)
    # the linked file titles are the chapters
    assert [(c.title, c.first, c.last) for c in report.bank.chapters] == [
        ("索引篇", 1, 5),
        ("排序篇", 6, 9),
    ]


def test_a_checklist_preview_takes_its_questions_and_names_the_labels_left(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _CHECKLIST)
    assert "Took 9 question(s)" in shown
    assert "2 × a label in a checklist of questions, first at line 15" in shown
    assert "no questions found" not in shown


_CONTENTS_OF_LINKS = """# Search interview notes

## 目录

- [x] [倒排索引是什么？](#倒排索引是什么)
- [ ] [增量更新怎么做？](#增量更新怎么做)

## 倒排索引是什么？

Each term points to the documents that hold it.

## 增量更新怎么做？

Write a small new segment and merge it later.
"""


def test_a_ticked_contents_of_links_into_the_file_stays_a_contents(tmp_path):
    report = read(tmp_path, _CONTENTS_OF_LINKS)
    assert questions(report) == ["倒排索引是什么？", "增量更新怎么做？"]
    assert all(q.reference for q in report.bank.questions)


_TICKED_POINTS = """# Notes

## 面试题

- [x] 1. 倒排索引是什么？
  - [x] 词到文档的映射
  - [ ] 查询时读一条短列表
- [ ] 2. 增量更新怎么做？
"""


def test_a_ticked_question_keeps_neither_its_number_nor_the_ticks_of_its_points(tmp_path):
    report = read(tmp_path, _TICKED_POINTS)
    assert questions(report) == ["倒排索引是什么？", "增量更新怎么做？"]
    assert report.bank.questions[0].key_points == ("词到文档的映射", "查询时读一条短列表")


_CARD = """<details>
<summary>{summary}</summary>

**{first}**

{body}

**{second}**

- {point}
- {point2}

</details>
"""

_DECK = "## 检索相关\n\n" + "\n".join(
    _CARD.format(summary=s, first=f, body=b, second=t, point=p, point2=q)
    for s, f, b, t, p, q in [
        (
            "BM25 (Best Matching 25)",
            "背景：为什么要 BM25？",
            "词频在 tf-idf 里线性增长，长文档占便宜。",
            "计算开销：",
            "每个词查一次倒排表",
            "文档长度预先算好",
        ),
        (
            "倒排索引",
            "核心原理",
            "每个词指向含它的文档列表，查询时只读几条短列表。",
            "为什么比顺序扫描快？",
            "跳过不含查询词的文档",
            "列表可以压缩",
        ),
        (
            "向量检索为什么需要近似最近邻？",
            "精确检索的代价",
            "十亿条向量逐一比较太慢。",
            "常见方法",
            "HNSW 图",
            "IVF 分桶",
        ),
        (
            "Reranker",
            "它解决什么问题？",
            "召回只看粗粒度相似度，精排用交叉编码器重新打分。",
            "代价",
            "每个候选都要过一次模型",
            "通常只排前一百条",
        ),
    ]
)


def test_a_deck_of_details_cards_with_topic_summaries_is_read_as_cards(invoke, tmp_path):
    report = read(tmp_path, _DECK)
    assert questions(report) == [
        "BM25 (Best Matching 25)",
        "倒排索引",
        "向量检索为什么需要近似最近邻？",
        "Reranker",
    ]
    # the bold sub-headings are lines of each answer, asking or not
    assert "为什么比顺序扫描快？" in report.bank.questions[1].reference
    assert "计算开销：" in report.bank.questions[0].reference
    shown = previewed(invoke, tmp_path, _DECK)
    assert "Read as a deck of 4 <details> cards (as --questions details reads)" in shown
    assert "Took 4 question(s)" in shown


def test_another_reading_of_a_deck_is_pointed_to_the_details_selector(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _DECK, "q.md", "--questions", "bold")
    assert "Try --questions details: 4 questions, 4 <details> cards, 4 with an answer" in shown
    assert shown.endswith("--questions details")


def test_a_deck_whose_summaries_ask_is_read_by_default_and_names_no_selector(invoke, tmp_path):
    asked = _DECK.replace("<summary>倒排索引</summary>", "<summary>倒排索引是什么？</summary>")
    asked = asked.replace(
        "<summary>BM25 (Best Matching 25)</summary>", "<summary>BM25 是什么？</summary>"
    )
    asked = asked.replace("<summary>Reranker</summary>", "<summary>Reranker 有什么用？</summary>")
    shown = previewed(invoke, tmp_path, asked)
    assert "Took 4 question(s)" in shown
    assert "--questions details" not in shown


_CHAPTER_BOXES = "\n".join(
    f"<details>\n<summary>{title}</summary>\n\n"
    + "\n\n".join(f"**{q}**\n\n{a}" for q, a in pairs)
    + "\n\n</details>\n"
    for title, pairs in [
        (
            "索引篇",
            [
                ("倒排索引是什么？", "词到文档的映射。"),
                ("增量更新怎么做？", "写新段，之后合并。"),
                ("索引怎么压缩？", "差值编码加变长整数。"),
            ],
        ),
        (
            "排序篇",
            [
                ("为什么需要精排？", "召回的打分太粗。"),
                ("精排的特征有哪些？", "查询、文档和交叉特征。"),
                ("如何评估排序？", "NDCG 和 MRR。"),
            ],
        ),
        (
            "服务篇",
            [
                ("如何降低尾延迟？", "缓存和超时重试。"),
                ("如何扩容？", "按分片水平扩展。"),
                ("怎么做灰度？", "按流量比例放量。"),
            ],
        ),
    ]
)


def test_boxes_over_their_own_questions_name_bold_not_details(invoke, tmp_path):
    path = tmp_path / "q.md"
    path.write_text(_CHAPTER_BOXES, encoding="utf-8")
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code != 0
    said = " ".join(preview.stderr.split())
    assert "Hint: try --questions bold: 9 questions" in said
    assert "details" not in said
