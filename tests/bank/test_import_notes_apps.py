"""Shapes a third blind set of files brought: note apps, collapsed answers, write-ups, exports.

Each file here is written for the test, in the shape those files had.
"""

from __future__ import annotations

import json

from imported import questions
from imported import read as read_as_given


def read(tmp_path, text: str, name: str = "q.md"):
    return read_as_given(tmp_path, text, name, force=True)  # as the bench reads the files


def test_obsidian_question_callouts_are_questions_with_their_content_as_answer(tmp_path):
    report = read(
        tmp_path,
        "---\ntitle: 复习笔记\ntags: [面试]\n---\n\n# 复习笔记\n\n"
        "> [!note] 怎么用这份笔记？\n> 先想再展开，相关概念见 [[注意力机制]]。\n\n"
        "## 归一化\n\n"
        "> [!question]- 为什么大模型多用 RMSNorm？ #高频\n"
        "> 省掉了==减均值==这一步，计算更快，效果相当。\n\n"
        "> [!faq]+ Pre-Norm 和 Post-Norm 的区别\n"
        "> - Pre-Norm：训练更稳；\n> - Post-Norm：效果上限略高。\n\n"
        "> [!tip] 记忆口诀\n> 先归一，再残差。\n\n"
        "> [!question] [[KV 缓存|KV Cache]] 为什么能加速解码？\n> 历史的 K、V 不用重算。\n",
    )
    assert questions(report) == [
        "为什么大模型多用 RMSNorm？",
        "Pre-Norm 和 Post-Norm 的区别",
        "KV Cache 为什么能加速解码？",
    ]
    first, second, third = report.bank.questions
    assert first.reference == "省掉了==减均值==这一步，计算更快，效果相当。"
    assert ">" not in (second.reference or "") + "".join(second.key_points)
    assert third.reference == "历史的 K、V 不用重算。"


def test_an_answer_label_under_a_heading_is_no_part_of_the_answer(tmp_path):
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# 第一部分 · 分词"]},
        {
            "cell_type": "markdown",
            "metadata": {},
            "source": ["### Q1. Why split words into subwords?\n", "\n", "**A:** Rare words."],
        },
        {
            "cell_type": "markdown",
            "metadata": {},
            "source": [
                "### Q2. 词表为什么要扩充中文？\n",
                "\n",
                "**答：** 一个汉字常被拆成多个 token。",
            ],
        },
        {"cell_type": "code", "metadata": {}, "source": ["print(1)"], "outputs": []},
        {"cell_type": "markdown", "metadata": {}, "source": ["## 总结 / Summary\n- 分词必考"]},
    ]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    report = read(tmp_path, json.dumps(notebook, ensure_ascii=False), name="prep.ipynb")
    assert questions(report) == ["Why split words into subwords?", "词表为什么要扩充中文？"]
    assert [q.reference for q in report.bank.questions] == [
        "Rare words.",
        "一个汉字常被拆成多个 token。",
    ]


def test_company_tags_and_a_collapsed_answer_after_a_numbered_question(tmp_path):
    report = read(
        tmp_path,
        "# ML questions\n\n## Basics\n\n"
        "1. Explain how bagging reduces variance. [Meta] [Airbnb]\n"
        "<details>\n<summary>Answer</summary>\n\n"
        "Averaging many trees trained on bootstrap samples cancels their errors.\n\n"
        "</details>\n\n"
        "2. What does the [CLS] token hold? [Google]\n"
        "<details><summary>Show answer</summary>A summary of the whole input.</details>\n",
    )
    assert questions(report) == [
        "Explain how bagging reduces variance.",
        "What does the [CLS] token hold?",
    ]
    bagging, cls = report.bank.questions
    assert bagging.reference == (
        "Averaging many trees trained on bootstrap samples cancels their errors."
    )
    assert cls.reference == "A summary of the whole input."


def test_bracketed_part_names_over_a_plain_list_of_questions_are_chapters(tmp_path):
    report = read(
        tmp_path,
        "面试题清单（自己整理）\n来源：群友分享\n\n"
        "【一、注意力】\n为什么要除以根号 d？\n多头有什么好处？\n手写 softmax\n\n"
        "【二、训练】\n什么是 Scaling Law？\nZeRO 分几个阶段？\n梯度累积有什么用？\n",
        name="list.txt",
    )
    assert questions(report) == [
        "为什么要除以根号 d？",
        "多头有什么好处？",
        "手写 softmax",
        "什么是 Scaling Law？",
        "ZeRO 分几个阶段？",
        "梯度累积有什么用？",
    ]
    assert [c.title for c in report.bank.chapters] == ["注意力", "训练"]


def test_a_note_row_under_a_csv_table_is_listed_not_imported(tmp_path):
    text = (
        "\ufeff序号;分类;题目;参考答案\r\n"
        '1;基础;什么是词元？;"模型读写的单位，\r\n中文约一字一到两个。"\r\n'
        "2;基础;为什么要分词？;词表有限。\r\n"
        ";;;\r\n"
        ";;注：答案为个人整理，仅供参考;\r\n"
    )
    report = read(tmp_path, text, name="bank.csv")
    assert questions(report) == ["什么是词元？", "为什么要分词？"]
    assert [(s.text, s.why) for s in report.skipped] == [
        ("注：答案为个人整理，仅供参考", "a note below the table")
    ]


def test_a_write_ups_own_answer_in_brackets_after_the_question_is_its_answer(tmp_path):
    report = read(
        tmp_path,
        "## 一面\n\n"
        "1. 为什么用 bge 做向量检索？（说了中文效果好、能私有化部署）\n"
        "2. Attention 为什么要 scale？\n"
        "3. 讲讲 RoPE（高频）\n"
        "4. 什么是词元？(hint: 想想分词器)\n",
    )
    assert questions(report) == [
        "为什么用 bge 做向量检索？",
        "Attention 为什么要 scale？",
        "讲讲 RoPE",
        "什么是词元？",
    ]
    bge, scale, rope, token = report.bank.questions
    assert bge.reference == "说了中文效果好、能私有化部署"
    assert scale.reference is None and rope.reference is None
    assert token.hint == "想想分词器" and token.reference is None


def test_bold_q_dot_and_a_dot_pairs_are_questions_and_answers(tmp_path):
    report = read(
        tmp_path,
        "# Cheat sheet\n\n## Basics\n\n"
        "**Q.** Why use a non-linear activation?\n"
        "**A.** Stacked linear layers are still one linear map.\n\n"
        "**Q.** Explain weight decay in one sentence.\n"
        "**A.** It shrinks the weights a little at every step.\n\n"
        "## Options\n\n"
        "**Which of these is a regularizer?**\n\n"
        "A. Dropout\nB. Adam\n",
    )
    assert questions(report)[:2] == [
        "Why use a non-linear activation?",
        "Explain weight decay in one sentence.",
    ]
    first, second = report.bank.questions[:2]
    assert first.reference == "Stacked linear layers are still one linear map."
    assert second.reference == "It shrinks the weights a little at every step."


def test_an_interviewers_follow_up_inside_an_answer_is_a_question(tmp_path):
    report = read(
        tmp_path,
        "## 推理\n\n#### 1. KV Cache 是什么？\n\n缓存历史的 K、V。\n\n"
        "**【面试官追问】它会改变生成结果吗？**<br />不会，数学上等价。\n\n"
        "#### 2. 为什么 GQA 省显存？\n\nKV 头更少。\n\n"
        "追问：MQA 呢？\n\n只有一组 KV。\n\n#### 小结\n\n推理优化主要省显存和带宽。\n",
    )
    assert questions(report) == [
        "KV Cache 是什么？",
        "它会改变生成结果吗？",
        "为什么 GQA 省显存？",
        "MQA 呢？",
    ]
    kv, change, gqa, mqa = report.bank.questions
    assert kv.reference == "缓存历史的 K、V。"
    assert change.reference == "不会，数学上等价。"
    assert mqa.reference == "只有一组 KV。"


def test_lettered_follow_ups_under_a_numbered_question_are_questions(tmp_path):
    report = read(
        tmp_path,
        "## Serving\n\n"
        "1. How does continuous batching work?\n"
        "   > New requests join the batch as soon as others finish.\n\n"
        "   a) What limits the batch size?\n"
        "      > The KV cache memory.\n\n"
        "   b) Why does it raise throughput?\n"
        "      > No slot waits for the longest sequence.\n\n"
        "2. What is prefix caching?\n"
        "   > Reusing the KV cache of a shared prompt prefix.\n",
    )
    assert questions(report) == [
        "How does continuous batching work?",
        "What limits the batch size?",
        "Why does it raise throughput?",
        "What is prefix caching?",
    ]
    answers = [q.reference for q in report.bank.questions]
    assert answers == [
        "New requests join the batch as soon as others finish.",
        "The KV cache memory.",
        "No slot waits for the longest sequence.",
        "Reusing the KV cache of a shared prompt prefix.",
    ]


def test_a_run_of_question_lines_is_not_answered_by_what_follows_it(tmp_path):
    report = read(
        tmp_path,
        "## 三面\n\n① 你觉得 RAG 会被长上下文取代吗？\n② 为什么选择我们组？\n\n"
        "━━━━━━━━\n\n💬 反问：\n· 组里做什么？——预训练\n",
    )
    assert questions(report) == ["你觉得 RAG 会被长上下文取代吗？", "为什么选择我们组？"]
    assert all(q.reference is None for q in report.bank.questions)


def test_a_topic_heading_over_a_list_of_questions_is_a_section(tmp_path):
    report = read(
        tmp_path,
        "# 八股整理\n\n## 介绍一下 Transformer\n\n编码器加解码器。\n\n"
        "## 说一下自注意力的计算过程\n\n先算 QK 点积再 softmax。\n\n"
        "## 位置编码\n\n- 为什么需要位置编码？\n\n  自注意力不看顺序。\n\n"
        "- RoPE 的核心思想是什么？\n\n  按位置旋转 q、k。\n\n"
        "## 介绍一下 LoRA\n\n冻结原权重，训练低秩增量。\n",
    )
    assert sorted(questions(report)) == sorted(
        [
            "介绍一下 Transformer",
            "说一下自注意力的计算过程",
            "为什么需要位置编码？",
            "RoPE 的核心思想是什么？",
            "介绍一下 LoRA",
        ]
    )
    assert "位置编码" in [c.title for c in report.bank.chapters]
    (rope,) = [q for q in report.bank.questions if q.question.startswith("RoPE")]
    assert rope.reference == "按位置旋转 q、k。" or rope.key_points == ("按位置旋转 q、k。",)


def test_a_mock_interview_transcript_gives_the_interviewers_questions(tmp_path):
    report = read(
        tmp_path,
        "MOCK INTERVIEW - notes\nInterviewer: a friend from a cloud company\n\n"
        "Interviewer: Can you hear me? Great.\nMe: Yes.\n\n"
        "Interviewer: Why is attention masked in a decoder?\n"
        "Me: So a position cannot see the tokens after it.\n\n"
        "Interviewer: Let's move on.\nMe: Sure.\n\n"
        "Interviewer: And how would you shrink the KV cache?\n"
        "Me: Fewer KV heads, or quantize it.\n",
        name="transcript.txt",
    )
    assert questions(report) == [
        "Why is attention masked in a decoder?",
        "And how would you shrink the KV cache?",
    ]
    assert [q.reference for q in report.bank.questions] == [
        "So a position cannot see the tokens after it.",
        "Fewer KV heads, or quantize it.",
    ]


def test_a_bullet_with_its_answer_after_a_dash_and_numbered_q_lines(tmp_path):
    report = read(
        tmp_path,
        "# Quick answers\n\n# Basics\n\n"
        "- What is GQA? — Query heads share fewer key/value heads.\n"
        "- Describe the RLHF pipeline. — SFT, a reward model, then PPO.\n\n"
        "# Contributing\n\n- Found a wrong answer? — Open an issue.\n",
    )
    assert questions(report) == ["What is GQA?", "Describe the RLHF pipeline."]
    assert [q.reference for q in report.bank.questions] == [
        "Query heads share fewer key/value heads.",
        "SFT, a reward model, then PPO.",
    ]
    notes = read(
        tmp_path,
        "面试准备（自用）\n\nQ1 残差连接有什么用？\n    让梯度直接传回浅层。\n\n"
        "Q2 为什么 NLP 里用 LayerNorm？ *\n    batch 统计量不稳定。\n",
        name="notes.txt",
    )
    assert questions(notes) == ["残差连接有什么用？", "为什么 NLP 里用 LayerNorm？"]
    assert [q.reference for q in notes.bank.questions] == [
        "让梯度直接传回浅层。",
        "batch 统计量不稳定。",
    ]


def test_a_forum_dumps_title_is_the_question_and_the_accepted_answer_its_answer(tmp_path):
    posts = {
        "questions": [
            {
                "id": 7,
                "title": "Why does my fine-tuned model repeat itself?",
                "body": "After SFT it loops on one sentence.",
                "accepted_answer": {"id": 70, "text": "EOS is missing from the targets."},
            },
            {
                "id": 8,
                "title": "How do I pick a LoRA rank?",
                "body": "r=8 or 64?",
                "accepted_answer": None,
            },
        ]
    }
    report = read(tmp_path, json.dumps(posts), name="forum.json")
    assert questions(report) == [
        "Why does my fine-tuned model repeat itself?",
        "How do I pick a LoRA rank?",
    ]
    assert [q.reference for q in report.bank.questions] == [
        "EOS is missing from the targets.",
        None,
    ]
    assert "'body'" in " ".join(report.notes)  # listed among the keys not used


def test_a_write_up_in_prose_gives_the_questions_it_tells(tmp_path):
    report = read(
        tmp_path,
        "# 实习面经\n\n楼主背景：硕士，做过 RAG。问题按记忆还原。\n\n## 一面\n\n"
        "他先问了：“你们的切块长度是怎么定的？”我说是在验证集上比出来的。\n\n"
        "接着让我讲一下 RoPE 是怎么实现相对位置的，我推了一下旋转矩阵。\n\n"
        "然后他抛了一个场景题：回答经常出现幻觉，你会从哪些方面排查？我从数据讲起。\n\n"
        "## 二面\n\n面试官人很 nice，聊得很开心。\n",
    )
    assert questions(report) == [
        "你们的切块长度是怎么定的？",
        "讲一下 RoPE 是怎么实现相对位置的",
        "回答经常出现幻觉，你会从哪些方面排查？",
    ]


def test_an_answer_in_a_text_box_and_a_numbered_summary_heading(tmp_path):
    report = read(
        tmp_path,
        "## 1 分词\n\n#### Q1: BPE 是怎么训练的？\n\n```text\n从字符出发，反复合并最常见的相邻对。\n```\n\n"
        "#### Q2: 怎么写 softmax？\n\n```python\nexp = x.exp()\n```\n\n## 4 总结\n\n分词是基础。\n",
    )
    assert questions(report) == ["BPE 是怎么训练的？", "怎么写 softmax？"]
    bpe, softmax = report.bank.questions
    assert bpe.reference == "从字符出发，反复合并最常见的相邻对。"
    assert softmax.reference.startswith("```python")


def test_banner_lines_name_the_chapters_of_a_plain_list(tmp_path):
    report = read(
        tmp_path,
        "LLM questions to practice\n\n=== Basics ===\nWhat is a token?\nWhy scale attention scores?\n"
        "Explain layer norm.\n\n=== Coding ===\nImplement top-k sampling.\nWrite a BPE merge step.\n"
        "Implement softmax in numpy.\n",
        name="practice.txt",
    )
    assert questions(report) == [
        "What is a token?",
        "Why scale attention scores?",
        "Explain layer norm.",
        "Implement top-k sampling.",
        "Write a BPE merge step.",
        "Implement softmax in numpy.",
    ]
    assert [c.title for c in report.bank.chapters] == ["Basics", "Coding"]


def test_a_numbered_question_after_a_skipped_number_is_not_the_answer_above(tmp_path):
    report = read(
        tmp_path,
        "## Losses\n\nQ10. What is focal loss?\n\nIt down-weights easy examples.\n\n"
        "11. **What is label smoothing?**\n<details>\n<summary>Answer</summary>\n\n"
        "Soft targets instead of one-hot.\n\n</details>\n\n"
        "13. **Explain the bias-variance trade-off.**\n<details>\n<summary>Answer</summary>\n\n"
        "Flexible models trade bias for variance.\n\n</details>\n",
    )
    assert questions(report) == [
        "What is focal loss?",
        "What is label smoothing?",
        "Explain the bias-variance trade-off.",
    ]
    assert report.bank.questions[2].reference == "Flexible models trade bias for variance."


def test_a_faq_about_the_collection_itself_is_no_part_of_the_bank(tmp_path):
    report = read(
        tmp_path,
        "# LLM interview questions\n\n## Basics\n\n### 1. What is a token?\n\nA unit of text.\n\n"
        "### 2. Why use subwords?\n\nA small vocabulary covers rare words.\n\n## FAQ\n\n"
        "**Q: Can I use these questions for hiring?**\nA: Yes, MIT.\n\n"
        "**Q: Will there be a PDF version?**\nA: Maybe.\n\n"
        "**Q: Are the answers complete?**\nA: No, read the papers.\n",
    )
    assert questions(report) == ["What is a token?", "Why use subwords?"]
    faq = read(
        tmp_path,
        "# FAQ\n\n## FAQ\n\n**Q: What is a token?**\nA: A unit of text.\n\n"
        "**Q: Why use subwords?**\nA: Rare words still get pieces.\n",
        name="faq.md",
    )
    assert questions(faq) == ["What is a token?", "Why use subwords?"]


def test_a_bold_question_with_its_answer_on_the_same_line(tmp_path):
    report = read(
        tmp_path,
        "## 微调\n\n这一节的答案写在每题后面。\n\n"
        "**1. 全参数微调和 PEFT 的区别是什么？** 全参数微调更新所有权重；PEFT 只训练少量参数。\n\n"
        "**2. Adapter 插在哪里？** 插在 attention 和 FFN 之后。\n\n"
        "**注意：** 以上是常见做法。\n",
    )
    assert questions(report) == ["全参数微调和 PEFT 的区别是什么？", "Adapter 插在哪里？"]
    assert [q.reference for q in report.bank.questions] == [
        "全参数微调更新所有权重；PEFT 只训练少量参数。",
        "插在 attention 和 FFN 之后。\n\n**注意：** 以上是常见做法。",
    ]


def test_a_json_topic_named_like_a_field_is_still_a_topic(tmp_path):
    data = {
        "name": "应用面试题",
        "data": {
            "RAG": [{"id": "q1", "q": "RAG 的基本流程是什么？", "a": "先检索再生成。"}],
            "提示工程": [{"id": "q2", "q": "什么是思维链提示？", "a": "先写推理步骤。"}],
        },
    }
    report = read(tmp_path, json.dumps(data, ensure_ascii=False), name="bank.json")
    assert questions(report) == ["RAG 的基本流程是什么？", "什么是思维链提示？"]
    assert [c.title for c in report.bank.chapters] == ["RAG", "提示工程"]


def test_a_collapsed_answer_inside_a_list_item_and_a_noun_after_a_task_verb(tmp_path):
    report = read(
        tmp_path,
        "## Basics\n\n1. **What is a token?**\n\n   <details>\n   <summary>Answer</summary>\n\n"
        "   A sub-word unit from the tokenizer.\n\n   </details>\n\n"
        "> [!question]- FlashAttention 为什么快？\n> 分块在 SRAM 里算注意力。\n> 计算量没变，省的是 IO。\n",
    )
    assert questions(report) == ["What is a token?", "FlashAttention 为什么快？"]
    token, flash = report.bank.questions
    assert token.reference == "A sub-word unit from the tokenizer."
    assert flash.reference == "分块在 SRAM 里算注意力。\n计算量没变，省的是 IO。"


def test_question_callouts_under_numbered_section_headings(tmp_path):
    report = read(
        tmp_path,
        "# 对齐笔记\n\n## 1. 对齐\n\n> [!question] 为什么 SFT 之后还要做 RLHF？\n> SFT 学不到好坏排序。\n\n"
        "> [!tip] 面试技巧\n> 先画四个模型。\n\n## 2. 推理\n\n> [!question]- KV cache 的原理是什么？\n"
        "> 缓存历史的 K、V。\n",
    )
    assert questions(report) == ["为什么 SFT 之后还要做 RLHF？", "KV cache 的原理是什么？"]
    assert [c.title for c in report.bank.chapters] == ["对齐", "推理"]


def test_a_title_row_above_a_csv_header_and_a_todo_answer(tmp_path):
    text = (
        "\ufeff大模型面试题整理（持续更新）;;;\r\n编号;模块;题目;参考答案\r\n"
        "1;基础;什么是词元？;模型读写的单位。\r\n2;基础;为什么要分词？;词表有限。\r\n"
    )
    report = read(tmp_path, text, name="bank.csv")
    assert questions(report) == ["什么是词元？", "为什么要分词？"]
    assert report.bank.questions[0].chapter == report.bank.chapters[0].number
    assert any("row 1 is a title" in note for note in report.notes)
    todo = read(
        tmp_path,
        "## Basics\n\n**6. Walk through a single Transformer decoder block.**\n\nNorm, attention, MLP.\n\n"
        "**7. What is curriculum learning?**\n\n_TODO: add answer — PRs welcome!_\n",
        name="todo.md",
    )
    assert questions(todo) == [
        "Walk through a single Transformer decoder block.",
        "What is curriculum learning?",
    ]
    assert [q.reference for q in todo.bank.questions] == ["Norm, attention, MLP.", None]


def test_a_todo_cell_is_no_answer_and_a_generic_instruction_leaves_the_question_to_its_input(
    tmp_path,
):
    table = read(
        tmp_path,
        "## Basics\n\n| # | Question | Answer |\n|---|---|---|\n| 1 | What is weight tying? | _TODO_ |\n"
        "| 2 | What is a token? | A unit of text. |\n",
    )
    assert [(q.question, q.reference) for q in table.bank.questions] == [
        ("What is weight tying?", None),
        ("What is a token?", "A unit of text."),
    ]
    lines = [
        {"instruction": "Answer the following interview question.", "input": "What is teacher forcing?",
         "output": "Feeding the true prefix while training."},
        {"instruction": "Explain what this code does.", "input": "x = x / x.norm()", "output": "It normalises x."},
    ]  # fmt: skip
    records = read(tmp_path, "\n".join(json.dumps(r) for r in lines), name="sft.jsonl")
    assert questions(records) == [
        "What is teacher forcing?",
        "Explain what this code does.\n\nx = x / x.norm()",
    ]
