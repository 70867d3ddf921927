"""Failure classes a fifth batch of real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had: a
quiz whose question sits under a ``### 题目`` label with its answer in
``<details>``, inline code that looks like HTML, metadata sub-bullets under
``- Question:`` items, and the rest named in each test.
"""

from __future__ import annotations

from imported import questions, read

_QUIZ = """# 第 2 章：作用域 - 练习

**难度：** 🟢 x1 | 🟡 x1

---

## 第 1 题 🟢

**类型：** 单选题
**标签：** LEGB

### 题目

函数里读取一个只在模块顶层赋值的名字时，Python 在哪里找到它？

**选项：**
- A. 局部作用域
- B. 全局作用域

<details>
<summary>查看答案</summary>

### ✅ 正确答案：B

### 📖 解析

按 LEGB 顺序查找，最后在模块的全局作用域找到。

</details>

---

## 第 2 题 🟡

**类型：** 代码题

### 题目

以下代码中，`<module>` 里的 `__name__` 是什么？

```python
print(__name__)
```

<details>
<summary>查看答案</summary>

### ✅ 正确答案：`__main__`

直接运行的脚本，模块名是 `__main__`。

</details>
"""


def test_a_quiz_question_under_its_label_heading_is_taken_with_its_hidden_answer(tmp_path):
    report = read(tmp_path, _QUIZ)
    assert questions(report) == [
        "函数里读取一个只在模块顶层赋值的名字时，Python 在哪里找到它？",
        "以下代码中，`<module>` 里的 `__name__` 是什么？",
    ]
    first, second = report.bank.questions
    assert "正确答案：B" in first.reference
    assert "最后在模块的全局作用域找到" in first.reference
    assert "单选题" not in first.reference  # the metadata above the label is no answer
    assert "直接运行的脚本" in second.reference
    assert not report.refused
    assert [q.id for q in report.bank.questions] == [1, 2]


def test_choices_right_under_a_quiz_question_are_part_of_what_it_asks(tmp_path):
    quiz = (
        "## 第 1 题\n\n### 题目\n\n哪种做法能让 KV 缓存减半？\n\n"
        "- A. 把批大小加倍\n- B. 用 GQA 把 KV 头数减半\n\n"
        "<details><summary>查看答案</summary>\n\n答案：B。\n\n</details>\n\n"
        "## 第 2 题\n\n### 题目\n\n前缀缓存省下哪一阶段的计算？\n\n"
        "- A. prefill\n- B. decode\n\n"
        "<details><summary>查看答案</summary>\n\n答案：A。\n\n</details>\n"
    )
    first, second = read(tmp_path, quiz).bank.questions
    assert first.question.endswith("- A. 把批大小加倍\n- B. 用 GQA 把 KV 头数减半")
    assert second.question.endswith("- A. prefill\n- B. decode")  # short choices too
    assert second.reference.strip().endswith("A。") and not second.key_points


def test_html_and_underscores_inside_inline_code_stay_as_written(tmp_path):
    report = read(
        tmp_path,
        "1. Why does `<br>` need no closing tag, but `<p>` does?\n"
        "2. What does `__init__` return, and why is **that** required?\n",
    )
    assert questions(report) == [
        "Why does `<br>` need no closing tag, but `<p>` does?",
        "What does `__init__` return, and why is that required?",
    ]


def test_type_and_choices_sub_bullets_describe_a_question_and_are_not_its_answer(tmp_path):
    report = read(
        tmp_path,
        "Format:\n"
        "Question: ...\n"
        "Type: Multiple Choice, Free Response\n\n"
        "# Unit 1\n\n"
        "- Question: Which shell command lists the files of a folder?\n"
        "  - Type: Multiple Choice (Single Correct Answer)\n"
        "  - Choices: ls; cd; pwd; rm\n\n"
        "- Question: Which of the following are valid Git subcommands?\n"
        "  - Type: Multiple Choice (Multiple Correct Answers).\n"
        "    Choices: add, push, teleport, commit\n\n"
        "- Question: How do you undo the last commit but keep its changes?\n"
        "  - Type: Free Response\n"
        "  - Choices : reset --soft, revert, checkout?\n",
    )
    assert questions(report) == [
        "Which shell command lists the files of a folder?",
        "Which of the following are valid Git subcommands?",
        "How do you undo the last commit but keep its changes?",
    ]
    first, second, third = report.bank.questions
    assert all(q.reference is None and not q.key_points for q in report.bank.questions)
    assert "type:multiple-choice-(single-correct-answer)" in first.tags
    assert first.hint == "Choices: ls; cd; pwd; rm"
    assert second.hint == "Choices: add, push, teleport, commit"
    assert third.tags == ("type:free-response",)


def test_a_solution_label_with_nothing_under_it_is_no_answer(tmp_path):
    report = read(
        tmp_path,
        "**1. What is a hash collision?**\n\n"
        "*solution*\n\n"
        "Two keys that map to the same bucket.\n\n"
        "**2. Why does a B-tree suit disks?**\n\n"
        "*Solution*\n\n"
        "**3. What does an index cost on writes?**\n\n"
        "**Answer:**\n",
    )
    first, second, third = report.bank.questions
    assert "Two keys that map to the same bucket." in first.reference
    assert second.reference is None and third.reference is None


def test_a_bold_numbered_line_that_continues_the_numbering_is_the_next_question(tmp_path):
    report = read(
        tmp_path,
        "**1. What is overfitting?**\n\n"
        "Fitting the noise of the training set.\n\n"
        "**2. Name a model that rarely overfits with more trees.**\n\n"
        "A random forest.\n\n"
        "**3. Pick a metric for a ranking task and justify it.**\n\n"
        "NDCG: it weighs the top of the list.\n",
    )
    assert questions(report) == [
        "What is overfitting?",
        "Name a model that rarely overfits with more trees.",
        "Pick a metric for a ranking task and justify it.",
    ]
    assert report.bank.questions[1].reference == "A random forest."


def test_a_bracketed_topic_stays_in_the_question_and_a_number_before_it_is_its_label(tmp_path):
    report = read(
        tmp_path,
        "# 词向量\n\n"
        "- 一、词向量篇\n"
        "    - 1.1 【演变史】one-hot 有什么问题？\n"
        "    - 1.2【演变史】word2vec 有什么问题？\n"
        "    - 1.3【字节】GloVe 和 word2vec 的区别？\n",
    )
    assert questions(report) == [
        "【演变史】one-hot 有什么问题？",
        "【演变史】word2vec 有什么问题？",
        "GloVe 和 word2vec 的区别？",  # where it was asked is a note, not the question
    ]
    assert [q.label for q in report.bank.questions] == ["1.1", "1.2", "1.3"]


def test_one_marked_line_in_a_write_up_does_not_turn_its_numbered_items_into_answers(tmp_path):
    report = read(
        tmp_path,
        "# My data science interviews\n\n"
        "## Statistics round\n\n"
        "1. Differences between bagging and boosting:\n"
        "   Bagging averages, boosting corrects.\n"
        "2. How do you pick k in k-means?\n"
        "3. Explain the bias-variance trade-off\n"
        "4. Precision and recall for a rare-disease test\n\n"
        "## Startup round\n\n"
        "Question: what would you cache first in a slow dashboard?\n",
    )
    assert questions(report) == [
        "Differences between bagging and boosting:",
        "How do you pick k in k-means?",
        "Explain the bias-variance trade-off",
        "Precision and recall for a rare-disease test",
        "what would you cache first in a slow dashboard?",
    ]
    assert report.bank.questions[0].reference == "Bagging averages, boosting corrects."
    assert not report.lost and not report.refused


def test_a_file_of_numbered_links_to_answers_takes_each_link_as_a_question(tmp_path):
    report = read(
        tmp_path,
        "# 推荐系统面试题汇总\n\n"
        "## 目录\n\n"
        "1. [召回](#召回)\n"
        "2. [排序](#排序)\n\n"
        "## 召回\n\n"
        "1. [双塔模型的负采样](https://example.org/posts/two-tower)\n"
        "2. [Item2Vec 和 Word2Vec 的区别](https://example.org/posts/item2vec)\n\n"
        "## 排序\n\n"
        "1. [DIN 的注意力](https://example.org/din)[DIN 源码解读](https://example.org/din-code)\n"
        "2. [多目标排序怎么融合分数？](https://example.org/mmoe)\n\n"
        "## 推荐阅读\n\n"
        "- [一本推荐系统的书](https://example.org/book)\n",
    )
    assert questions(report) == [
        "双塔模型的负采样",
        "Item2Vec 和 Word2Vec 的区别",
        "DIN 的注意力",
        "多目标排序怎么融合分数？",
    ]
    first, _, third, _ = report.bank.questions
    assert first.reference == "[双塔模型的负采样](https://example.org/posts/two-tower)"
    assert "https://example.org/din-code" in third.reference
    assert not report.lost


def test_links_beside_questions_that_ask_stay_links(tmp_path):
    report = read(
        tmp_path,
        "## Reading\n\n"
        "1. [A survey of retrieval](https://example.org/a)\n"
        "2. [Dense passage retrieval](https://example.org/b)\n"
        "3. [ColBERT](https://example.org/c)\n\n"
        "## Questions\n\n"
        "1. Why does BM25 still win on rare terms?\n",
    )
    assert questions(report) == ["Why does BM25 still win on rare terms?"]


def test_q_dot_without_a_number_marks_a_question_and_leaves_its_text(tmp_path):
    report = read(
        tmp_path,
        "## easy\n"
        "### Q. What is a p-value?\n"
        "The chance of data this extreme if the null hypothesis holds.\n"
        "## medium\n"
        "### Q. Sketch the curve of log(x + 1)\n"
        "### Q. Derive the variance of a Bernoulli variable\n",
    )
    assert questions(report) == [
        "What is a p-value?",
        "Sketch the curve of log(x + 1)",
        "Derive the variance of a Bernoulli variable",
    ]
    assert report.bank.questions[0].reference.startswith("The chance of data")


def test_an_answer_guide_heading_after_a_question_in_prose_is_its_answer(tmp_path):
    report = read(
        tmp_path,
        "---\ntitle: Pick a cache eviction policy\ndifficulty: middle\n---\n\n"
        "# Pick a cache eviction policy\n\n"
        "How do you choose between LRU and LFU for a product catalogue cache?\n\n"
        "## Answer guide\n\n"
        "- LRU suits recency-driven traffic.\n"
        "- LFU keeps the long-lived best sellers.\n\n"
        "## What to learn next\n\n"
        "- [Caching strategies](https://example.org/caching)\n",
    )
    assert questions(report) == [
        "How do you choose between LRU and LFU for a product catalogue cache?"
    ]
    (only,) = report.bank.questions
    assert only.key_points == (
        "LRU suits recency-driven traffic.",
        "LFU keeps the long-lived best sellers.",
    )


def test_bold_label_items_are_fields_of_an_answer_and_a_list_right_below_a_question_answers_it(
    tmp_path,
):
    report = read(
        tmp_path,
        "1. **Which models suit which tasks?**\n\n"
        "   Encoder-only\n"
        "      - **Best for**: classification.\n"
        "      - **Why?**: it reads the whole sentence at once.\n\n"
        "Decoder-only models generate.\n\n"
        "2. **What ways of batching requests do you know?**\n"
        "- **Static batching**: wait for a full batch.\n"
        "- **Continuous batching**: join requests between decoding steps.\n\n"
        "3. **What does paged attention fix?**\n\n"
        "Fragmented KV cache memory.\n",
    )
    assert questions(report) == [
        "Which models suit which tasks?",
        "What ways of batching requests do you know?",
        "What does paged attention fix?",
    ]
    first, second, _ = report.bank.questions
    assert "it reads the whole sentence at once" in (first.reference or "")
    assert second.key_points == (
        "Static batching: wait for a full batch.",
        "Continuous batching: join requests between decoding steps.",
    )


def test_a_pointer_after_a_task_goes_and_a_quantity_in_front_stays(tmp_path):
    report = read(
        tmp_path,
        "## 手撕 / 项目\n\n"
        "41. 手写 RMSNorm → [07](../07_Code/README.md)\n"
        "42. 手算 KV Cache 大小 → [07](../07_Code/README.md), [08](../08_Serving/README.md)\n"
        "43. 3 分钟怎么讲清你的项目？ → [09](../09_Project/README.md)\n",
    )
    assert questions(report) == ["手写 RMSNorm", "手算 KV Cache 大小", "3 分钟怎么讲清你的项目？"]


def test_section_numbers_before_chinese_text_and_lettered_sub_questions_are_labels(tmp_path):
    report = read(
        tmp_path,
        "# Q1. What is an embedding?\nA dense vector for a token.\n\n"
        "# Q 1.a) Explain how the embedding table is trained.\nBy backpropagation.\n\n"
        "### **2.1.3为什么要做特征归一化？**\n梯度下降收敛更快。\n\n"
        "### **2.1.4 3.5亿参数的模型要多少显存？**\n约 700 MB（FP16）。\n",
    )
    assert questions(report) == [
        "What is an embedding?",
        "Explain how the embedding table is trained.",
        "为什么要做特征归一化？",
        "3.5亿参数的模型要多少显存？",
    ]
    assert [q.label for q in report.bank.questions][1:3] == ["1.a", "2.1.3"]


def test_sub_numbered_questions_under_a_numbered_heading_question_are_questions(tmp_path):
    report = read(
        tmp_path,
        "## 向量数据库面\n\n"
        "### 1、 什么是向量数据库?\n"
        "专门存储和检索向量的数据库。\n\n"
        "###2、 向量数据库包含哪些 核心组件？\n"
        "2.1 向量数据库中 索引 是什么？\n"
        "索引 作用：加速近邻检索。\n"
        "优点：查询延迟低，有助于提升召回的理解\n"
        "注：索引要定期重建\n\n"
        "2.2 向量数据库中 分片 是什么？\n"
        "分片 作用：把数据分到多台机器上。\n",
    )
    assert questions(report) == [
        "什么是向量数据库?",
        "向量数据库包含哪些 核心组件？",
        "向量数据库中 索引 是什么？",
        "向量数据库中 分片 是什么？",
    ]
    index = report.bank.questions[2]
    assert index.label == "2.1"
    assert "优点：查询延迟低" in index.reference


def test_marked_follow_up_bullets_after_a_heading_answer_are_questions(tmp_path):
    report = read(
        tmp_path,
        "## Q01 · 什么是 KV Cache？\n\n"
        "缓存已算过的 K/V，解码时不再重算。\n\n"
        "直观理解：\n\n"
        "- **K**：我能被怎样找到；\n"
        "- **V**：我提供什么内容。\n\n"
        "### 面试常见追问\n\n"
        "- **Q：KV Cache 的显存怎么估算？**\n"
        "  A：2 × 层数 × 头数 × 头维度 × 序列长度 × 字节数。\n\n"
        "- **Q：为什么 prefill 和 decode 的瓶颈不同？**\n"
        "  A：prefill 算力受限，decode 带宽受限。\n\n"
        "## Q02 · 什么是 PagedAttention？\n\n"
        "按页管理 KV Cache。\n",
    )
    assert questions(report) == [
        "什么是 KV Cache？",
        "KV Cache 的显存怎么估算？",
        "为什么 prefill 和 decode 的瓶颈不同？",
        "什么是 PagedAttention？",
    ]
    first, second, _, _ = report.bank.questions
    assert "**V**：我提供什么内容。" in first.reference
    assert second.reference.startswith("2 × 层数")


def test_a_bullet_list_between_answered_numbered_questions_answers_the_one_above(tmp_path):
    report = read(
        tmp_path,
        "1. **What does a tokenizer do?**\n"
        "It turns text into ids.\n"
        "2. **Which tokenizers do you know?**\n\n"
        "- **BPE**: merges frequent pairs.\n"
        "- **Unigram**: prunes a large vocabulary.\n\n"
        "3. **Why add special tokens?**\n"
        "To mark boundaries and roles.\n\n"
        "## More questions\n\n"
        "1. What is a byte-level BPE?\n"
        "2. What is SentencePiece?\n\n"
        "- [A tokenizer survey](https://example.org/survey)\n",
    )
    second = report.bank.questions[1]
    assert second.question == "Which tokenizers do you know?"
    assert second.key_points == (
        "BPE: merges frequent pairs.",
        "Unigram: prunes a large vocabulary.",
    )
    last = report.bank.questions[-1]
    assert last.question == "What is SentencePiece?" and last.reference is None  # a bare list


def test_an_item_that_leads_into_its_own_sub_list_is_part_of_the_answer(tmp_path):
    report = read(
        tmp_path,
        "31. **Explain the k-means algorithm.**\n"
        "   It splits points into k clusters.\n"
        "   * How k-means works:\n"
        "     1. Pick k centres.\n"
        "     2. Assign each point to the nearest centre.\n"
        "     3. Move each centre to the mean of its points.\n",
    )
    assert questions(report) == ["Explain the k-means algorithm."]
    assert "How k-means works:" in report.bank.questions[0].reference


def test_a_numbered_answer_framework_of_key_value_items_is_no_lost_question(tmp_path):
    report = read(
        tmp_path,
        "## 基础\n\n"
        "1. **Q**: 解释 BatchNorm 的作用\n"
        "   **A**: 让每层输入的分布稳定，训练更快。\n\n"
        "2. **Q**: 为什么 Transformer 用 LayerNorm？\n"
        "   **A**: 序列长度不一，按样本归一化更合适。\n\n"
        "3. **Q**: Dropout 在推理时怎么处理？\n"
        "   **A**: 关闭，并按保留概率缩放。\n\n"
        "## 答题框架\n\n"
        "1. 定义：清晰解释概念\n"
        "2. 原理：说明工作机制\n"
        "3. 应用：结合实际场景\n",
    )
    assert questions(report) == [
        "解释 BatchNorm 的作用",
        "为什么 Transformer 用 LayerNorm？",
        "Dropout 在推理时怎么处理？",
    ]
    assert not report.refused and not report.lost


def test_a_topic_heading_whose_answer_is_only_links_to_read_is_still_a_question(tmp_path):
    report = read(
        tmp_path,
        "# Machine Learning - Questions and Answers\n\n"
        "## Bagging vs Boosting\n"
        "Bagging averages independent models; boosting fits each model to the last one's errors.\n\n"
        "## Precision vs Recall\n"
        "###### Medium: https://example.org/precision-recall\n"
        "###### Reference: https://example.org/lecture.pdf\n\n"
        "## Why use dropout\n"
        "It keeps units from co-adapting.\n\n"
        "## How to pick a learning rate\n"
        "Sweep it on a log scale.\n",
    )
    assert questions(report) == [
        "Bagging vs Boosting",
        "Precision vs Recall",
        "Why use dropout",
        "How to pick a learning rate",
    ]
    assert "https://example.org/precision-recall" in report.bank.questions[1].reference


def test_a_heading_over_marked_follow_up_questions_is_their_topic(tmp_path):
    report = read(
        tmp_path,
        "### Q1：RAG 的主链路怎么设计？\n\n切分、召回、重排、生成。\n\n"
        "### Q2：怎么评估检索质量？\n\n看 Recall@K 和 MRR。\n\n"
        "### 追问链一：检索结果被污染\n\n"
        "场景：网页片段里夹带了指令。\n\n"
        "**追问：检索片段和系统指令冲突时信谁？**  \n系统指令优先。\n\n"
        "**追问：怎么在工程上隔离证据和指令？**  \n用不同的消息角色。\n\n"
        "### 追问链二：多轮检索什么时候停止\n\n"
        "**追问：如何定义证据足够？**  \n关键子问题都有可信来源。\n",
    )
    assert questions(report) == [
        "RAG 的主链路怎么设计？",
        "怎么评估检索质量？",
        "检索片段和系统指令冲突时信谁？",
        "怎么在工程上隔离证据和指令？",
        "如何定义证据足够？",
    ]


def test_a_part_heading_that_asks_over_question_headings_is_a_part(tmp_path):
    report = read(
        tmp_path,
        "# 01 · LLM Fundamentals\n\n"
        "# Part A. 从文本到输入\n\n"
        "## Q1. Tokenizer 是什么？\n\n把文本切成 token 的组件。\n\n"
        "# Part B. Transformer 为什么出现\n\n"
        "## Q2. 为什么 Transformer 取代了 RNN？\n\n可以并行训练。\n\n"
        "## Q3. Decoder-only 为什么成为主流？\n\n生成任务统一，扩展性好。\n",
    )
    assert questions(report) == [
        "Tokenizer 是什么？",
        "为什么 Transformer 取代了 RNN？",
        "Decoder-only 为什么成为主流？",
    ]


_CONTENTS_UNDER_ANY_NAME = """# 第 3 章 推理

## 🗂 本章索引

- [Q01 · KV Cache 是什么](#q01--kv-cache-是什么)
- [Q02 · 投机解码](#q02--投机解码)

## Q01 · KV Cache 是什么

缓存每层已算过的 K、V，生成下一个 token 时只算新的一行。

## Q02 · 投机解码

小模型先猜几个 token，大模型一次验证。
"""


def test_a_section_of_links_into_the_file_is_a_table_of_contents_under_any_name(tmp_path):
    report = read(tmp_path, _CONTENTS_UNDER_ANY_NAME)
    assert questions(report) == ["KV Cache 是什么", "投机解码"]
    assert "缓存每层" in report.bank.questions[0].reference


_QUALIFIED_REFERENCES = """# Serving

## Q1. Why batch requests on a GPU?

One pass over the weights serves every request in the batch.

## Q2. What does paged attention page?

The KV cache, in fixed-size blocks.

## Additional references

- Orca: https://example.org/orca
- vLLM paper: https://example.org/vllm

## Recommended reading

- A blog post on continuous batching
"""


def test_a_references_or_reading_section_with_a_qualifier_in_front_holds_no_question(tmp_path):
    report = read(tmp_path, _QUALIFIED_REFERENCES)
    assert questions(report) == ["Why batch requests on a GPU?", "What does paged attention page?"]
    assert report.bank.questions[1].reference == "The KV cache, in fixed-size blocks."
