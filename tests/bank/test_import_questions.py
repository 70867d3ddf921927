"""What makes text a question, and what its answer: the rules of issue 19, one file each."""

from __future__ import annotations

from imported import questions, read

from studybot import bank
from studybot.bank import importer


def test_text_that_looks_like_html_is_kept_as_written(tmp_path):
    report = read(
        tmp_path,
        "## 特殊标记\n\n"
        "### 如果微调数据模板中缺少了结束标记</s>会产生什么影响？\n\n模型学不会停。\n\n"
        "### <think> 和 <|im_end|> 有什么用？\n\n思考和结束。\n\n"
        "### Gemma 的 <eos> 是什么？\n\n文档结束。\n",
    )
    assert questions(report) == [
        "如果微调数据模板中缺少了结束标记</s>会产生什么影响？",
        "<think> 和 <|im_end|> 有什么用？",
        "Gemma 的 <eos> 是什么？",
    ]


def test_a_horizontal_rule_and_a_back_to_top_link_are_no_part_of_an_answer(tmp_path):
    report = read(
        tmp_path,
        "### 1. 什么是词元？\n\n最小单位。\n\n---\n\n### 2. 什么是嵌入？\n\n向量。\n\n"
        "**[⬆ back to top](#top)**\n\n---\n\n最后更新：2024-06\n",
    )
    assert [q.reference for q in report.bank.questions] == ["最小单位。", "向量。"]


def test_company_suffixes_and_citation_links_leave_the_question(tmp_path):
    report = read(
        tmp_path,
        "## Models\n\n"
        "### What is overfitting? - Google, Amazon Interview Question\n\nFits noise.\n\n"
        "### 1) What are RCNNs? [[src]](https://example.org/rcnn)\n\nRegion CNNs.\n\n"
        "### Compare RNN - LSTM\n\nGates.\n",
    )
    assert questions(report) == ["What is overfitting?", "What are RCNNs?", "Compare RNN - LSTM"]


def test_questions_without_a_question_mark_or_number(tmp_path):
    report = read(
        tmp_path,
        "# 笔记\n\n## 结构\n\n### 为什么现在都是decoder-only架构\n\n统一目标。\n\n"
        "### SwiGLU 激活函数\n\n门控 FFN。\n\n### RMSNorm 为什么快\n\n少算均值。\n\n"
        "## 训练\n\n- 推导反向传播\n- 分享一次落地经验。\n- 学习率 warmup 的作用\n  训练初期更稳。\n\n"
        "## TODO\n\n- 看 DeepSeek-V3 技术报告\n- 整理面经\n",
    )
    assert questions(report) == [
        "为什么现在都是decoder-only架构",
        "SwiGLU 激活函数",  # a heading at the level where this file's questions are
        "RMSNorm 为什么快",
        "推导反向传播",
        "分享一次落地经验。",
        "学习率 warmup 的作用",
    ]
    assert report.bank.get(6).reference == "训练初期更稳。"  # the next line answers, not asks


def test_the_answer_on_the_next_line_is_not_glued_into_the_question(tmp_path):
    report = read(
        tmp_path,
        "**12. 什么是 Transformer？**\n Transformer 是注意力架构。\n\n"
        "- **Q：什么是 CoT？**\n  A：把推理写出来。\n\n"
        "1. 什么是 LoRA？\n答：低秩旁路。\n\n"
        "问：什么是 RAG？答：检索增强生成。\n",
    )
    assert [(q.question, q.reference) for q in report.bank.questions] == [
        ("什么是 Transformer？", "Transformer 是注意力架构。"),
        ("什么是 CoT？", "把推理写出来。"),
        ("什么是 LoRA？", "低秩旁路。"),
        ("什么是 RAG？", "检索增强生成。"),
    ]


def test_details_front_matter_and_questions_before_the_first_heading(tmp_path):
    report = read(
        tmp_path,
        "---\ntitle: 我的 FAQ\ntags: [llm]\n---\n\n- 为什么要做归一化？\n\n# Tokens\n\n"
        "<details>\n<summary>What is BPE?</summary>\n\nMerges frequent pairs.\n\n</details>\n\n"
        "<details><summary>Show example</summary>\nnot a question\n</details>\n",
    )
    assert report.bank.title == "我的 FAQ"
    assert questions(report) == ["为什么要做归一化？", "What is BPE?"]
    assert report.bank.get(2).reference == "Merges frequent pairs."
    assert [c.title for c in report.bank.chapters] == ["我的 FAQ", "Tokens"]


def test_numbered_lists_in_resources_and_contributing_are_not_questions(tmp_path):
    report = read(
        tmp_path,
        "## Questions\n\n1. What is a p-value?\n2. Why does dropout help?\n\n"
        "## Resources\n\n1. *Pattern Recognition* — Bishop\n2. [CS229](https://cs229.stanford.edu)\n\n"
        "## Contributing\n\nFound a mistake?\n\n1. Fork the repository.\n2. Open a pull request.\n",
    )
    assert questions(report) == ["What is a p-value?", "Why does dropout help?"]
    assert report.lost == ()  # "Found a mistake?" is listed as a note, no reason to refuse


def test_topic_headings_defeat_the_reader_and_level_reads_them(invoke, tmp_path):
    text = "# 笔记\n\n" + "".join(f"## 主题 {n}\n\n第 {n} 个主题的讲解。\n\n" for n in range(1, 6))
    path = tmp_path / "topics.md"
    path.write_text(text, encoding="utf-8")
    refused = invoke("bank", "import", str(path), "--preview")
    assert refused.exit_code == 2
    assert "Hint: --level 2 reads each of the 5 level-2 headings as a question" in refused.stderr
    taken = importer.inspect(path, level=2)
    assert questions(taken) == [f"主题 {n}" for n in range(1, 6)]
    assert taken.bank.get(3).reference == "第 3 个主题的讲解。"
    saved = invoke("bank", "import", str(path), "--name", "topics", "--level", "2")
    assert saved.exit_code == 0, saved.stderr
    assert len(bank.load("topics").questions) == 5


def test_a_readme_pasted_twice_imports_once_and_lists_each_repeat(invoke, tmp_path):
    once = "# 面试题\n\n## 一、基础\n\n### 1. 什么是词元？\n\n最小单位。\n\n### 2. 什么是嵌入？\n\n向量。\n\n"
    path = tmp_path / "twice.md"
    path.write_text(once + once, encoding="utf-8")
    result = invoke("bank", "import", str(path), "--name", "twice")
    assert result.exit_code == 0, result.stderr
    loaded = bank.load("twice")
    assert [q.question for q in loaded.questions] == ["什么是词元？", "什么是嵌入？"]
    assert [c.title for c in loaded.chapters] == ["基础"]
    assert f"{path}:17: asked again (first at line 5): 什么是词元？" in result.stdout
    assert f"{path}:21: asked again (first at line 9): 什么是嵌入？" in result.stdout


def test_an_interview_write_up_gives_its_labelled_and_listed_questions(tmp_path):
    report = read(
        tmp_path,
        "# 面经合集\n\n"
        "## 【某厂】大模型应用 二面\n\n"
        "1、向量检索召回不全怎么办？\n2、重排模型怎么选？\n\n"
        "场景题：设计一个支持多租户权限的文档问答服务。\n\n"
        "反问：团队现在主要做什么？\n\n"
        "## 【某厂】训练 一面\n\n"
        "八股：\n\n- 讲讲 GQA 的原理\n- 交叉熵的梯度推一下\n- Adam 和 AdamW 的区别\n\n"
        "代码：手撕 softmax。\n\n"
        "问了 FlashAttention 为什么快、ZeRO 三个阶段的区别、梯度检查点省多少显存，"
        "然后聊了下实习项目。\n\n"
        "问了 LoRA、QLoRA、DoRA 的区别。\n",
    )
    assert questions(report) == [
        "向量检索召回不全怎么办？",
        "重排模型怎么选？",
        "设计一个支持多租户权限的文档问答服务",
        "讲讲 GQA 的原理",
        "交叉熵的梯度推一下",
        "Adam 和 AdamW 的区别",
        "手撕 softmax",
        "FlashAttention 为什么快",
        "ZeRO 三个阶段的区别",
        "梯度检查点省多少显存",
        "LoRA、QLoRA、DoRA 的区别",
    ]
    scene = report.bank.questions[1]
    assert scene.reference is None  # the scenario question after it is no answer of it


def test_numbers_past_9999_are_numbers_and_10000_tokens_is_text(tmp_path):
    report = read(
        tmp_path,
        "## 长题库\n\n### 9999. 什么是词元？\n\n单位。\n\n### 10000. 什么是嵌入？\n\n向量。\n\n"
        "### 10001. 10000 tokens 的上下文要多少显存？\n\n看层数。\n",
    )
    assert [(q.id, q.question) for q in report.bank.questions] == [
        (9999, "什么是词元？"),
        (10000, "什么是嵌入？"),
        (10001, "10000 tokens 的上下文要多少显存？"),
    ]
