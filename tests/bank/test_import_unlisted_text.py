"""Shapes nobody listed, imported as a user does it: JSON at any depth, Chinese numbering.

Deeply nested JSON (the chapter from the nearest named parent), Chinese
numbering with notes after the question, and source lines under a question,
through ``bank import --preview`` and the import itself.
"""

from __future__ import annotations

import json

from studybot import bank

NESTED = {
    "name": "我的题库",
    "categories": [
        {
            "name": "基础",
            "sub_categories": [
                {"name": "注意力", "items": [{"q": "什么是因果掩码？", "a": "上三角置负无穷。"}]},
                {
                    "title": "训练",
                    "children": [
                        {"category": "优化器", "items": [{"question": "AdamW 改了什么？"}]},
                    ],
                },
            ],
        },
        {"name": "部署", "items": [{"title": "什么是 TTFT？", "content": "首 token 延迟。"}]},
    ],
}


def test_json_at_any_depth_takes_the_nearest_named_parent_as_chapter(invoke, tmp_path):
    path = tmp_path / "nested.json"
    path.write_text(json.dumps(NESTED, ensure_ascii=False, indent=2), encoding="utf-8")
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code == 0, preview.stderr
    assert "我的题库 (nothing saved)" in preview.stdout
    for title in ("注意力", "优化器", "部署"):
        assert f"{title}: 1 question(s)" in preview.stdout
    assert "question ← 'question' or 'q' or 'title', answer ← 'a' or 'content'" in preview.stdout
    result = invoke("bank", "import", str(path), "--name", "nested")
    assert result.exit_code == 0, result.stderr
    loaded = bank.load("nested")
    assert loaded.title == "我的题库"
    assert [(q.question, q.reference) for q in loaded.questions] == [
        ("什么是因果掩码？", "上三角置负无穷。"),
        ("AdamW 改了什么？", None),
        ("什么是 TTFT？", "首 token 延迟。"),
    ]


def test_lists_of_lists_and_an_object_of_topics_with_a_bad_record_at_its_line(invoke, tmp_path):
    doc = {
        "Statistics": {"Testing": [{"q": "What is a p-value?", "a": "Extreme-data odds."}]},
        "Deep Learning": [[{"q": "Why use ReLU?"}], [{"q": "What is dropout?"}, {"q": ""}]],
    }
    path = tmp_path / "topics.json"
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    taken = invoke("bank", "import", str(path), "--name", "topics")
    assert taken.exit_code == 0, taken.stderr
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if '""' in text)
    assert f"{path}:{line - 1}: a question with no text; not taken" in taken.stdout
    loaded = bank.load("topics")
    assert [c.title for c in loaded.chapters] == ["Testing", "Deep Learning"]
    assert [q.question for q in loaded.questions] == [
        "What is a p-value?",
        "Why use ReLU?",
        "What is dropout?",
    ]


ZH_NUMBERED = """# 面经

## 一、基础

1、讲讲 Transformer 的结构（高频，字节/阿里都问过）

编码器和解码器堆叠而成。

2、聊聊 LayerNorm 的位置(必考)

Pre-Norm 更稳。

## 二、推理

（1）说一下 KV 缓存【美团】

存下之前的 K 和 V。

（2）介绍一下 RLHF（基于人类反馈的强化学习）

先训奖励模型再做强化学习。

第3题 描述一下投机解码（字节三面）

小模型草拟，大模型验证。

## 三、RAG

一、讲讲 RAG 的流程

切块、检索、生成。

二、列举几种切块方法

按长度、按段落、按语义。

## 四、其他

① 画出 MoE 的路由流程 [必考]

门控打分，选 Top-k 专家。
"""


def test_chinese_numbering_and_notes_after_the_question(invoke, tmp_path):
    path = tmp_path / "mianjing.md"
    path.write_text(ZH_NUMBERED, encoding="utf-8")
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code == 0, preview.stderr
    assert "第 1 章 基础: 2 question(s)" in preview.stdout
    assert "第 3 章 RAG: 2 question(s)" in preview.stdout
    assert "0 question-like line(s) not taken" in preview.stdout
    result = invoke("bank", "import", str(path), "--name", "zh")
    assert result.exit_code == 0, result.stderr
    loaded = bank.load("zh")
    assert [(q.question, (q.reference or "")[:6]) for q in loaded.questions] == [
        ("讲讲 Transformer 的结构", "编码器和解码"),
        ("聊聊 LayerNorm 的位置", "Pre-No"),
        ("说一下 KV 缓存", "存下之前的 "),
        ("介绍一下 RLHF（基于人类反馈的强化学习）", "先训奖励模型"),  # a gloss stays
        ("描述一下投机解码", "小模型草拟，"),
        ("讲讲 RAG 的流程", "切块、检索、"),
        ("列举几种切块方法", "按长度、按段"),
        ("画出 MoE 的路由流程", "门控打分，选"),
    ]


SOURCES = """# Notes

### What is dense retrieval?
(source: an interview at a search company)

Queries and passages are embedded and compared.

### What is a reranker? (source: team wiki)

A model that scores a query and a passage together.

### 视觉 token 太多怎么办？
参考：[一篇综述](https://example.com/survey)

用重采样器压缩。

## More

- How do you evaluate a retriever?
  https://example.com/metrics
  Recall@k and MRR.
- Source: a note that is no question
"""


def test_source_lines_are_never_a_question_nor_the_start_of_an_answer(invoke, tmp_path):
    path = tmp_path / "sources.md"
    path.write_text(SOURCES, encoding="utf-8")
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code == 0, preview.stderr
    assert "Total: 4 question(s)" in preview.stdout
    result = invoke("bank", "import", str(path), "--name", "src")
    assert result.exit_code == 0, result.stderr
    loaded = bank.load("src")
    assert [(q.question, q.reference) for q in loaded.questions] == [
        (
            "What is dense retrieval?",
            "Queries and passages are embedded and compared.\n\n"
            "(source: an interview at a search company)",
        ),
        ("What is a reranker?", "A model that scores a query and a passage together."),
        (
            "视觉 token 太多怎么办？",
            "用重采样器压缩。\n\n参考：[一篇综述](https://example.com/survey)",
        ),
        ("How do you evaluate a retriever?", "Recall@k and MRR.\n\nhttps://example.com/metrics"),
    ]


def test_an_object_of_questions_and_notes_in_front_or_before_the_mark(invoke, tmp_path):
    doc = {
        "title": "速记",
        "基础": {"什么是 LoRA？": "低秩增量。", "【字节】讲讲 KV 缓存（高频）？": "存 K 和 V。"},
        "进阶": {"为什么用 GQA": "省显存。", "What is MoE? (asked at Google)": "Experts."},
    }
    path = tmp_path / "map.json"
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=2), encoding="utf-8")
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code == 0, preview.stderr
    assert "第 1 章 基础: 2 question(s)" in preview.stdout
    assert invoke("bank", "import", str(path), "--name", "map").exit_code == 0
    assert [(q.question, q.reference) for q in bank.load("map").questions] == [
        ("什么是 LoRA？", "低秩增量。"),
        ("讲讲 KV 缓存？", "存 K 和 V。"),
        ("为什么用 GQA", "省显存。"),
        ("What is MoE?", "Experts."),
    ]


def test_a_write_up_with_its_own_sections_and_a_source_item(invoke, tmp_path):
    path = tmp_path / "yimian.md"
    path.write_text(
        "# 一面\n\n## 八股\n\n1、讲讲 Attention 的计算（被问了两次）\n答：QK^T 缩放后 softmax。\n\n"
        "## 手撕\n\n1、手写 MHA（30min）\n\n## 反问\n\n1、团队做什么？\n\n"
        "## 评估\n\n1. **What is cross-validation?**\n"
        "   - Source: [notes](https://example.org/cv)\n   - Rotate the held-out fold.\n",
        encoding="utf-8",
    )
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code == 0, preview.stderr
    assert "第 2 章 手撕: 1 question(s)" in preview.stdout  # 反问: your questions, not the bank's
    assert invoke("bank", "import", str(path), "--name", "yimian").exit_code == 0
    loaded = bank.load("yimian")
    assert [
        (c.title, q.question)
        for q in loaded.questions
        for c in loaded.chapters
        if c.number == q.chapter
    ] == [
        ("八股", "讲讲 Attention 的计算"),
        ("手撕", "手写 MHA"),
        ("评估", "What is cross-validation?"),
    ]
    assert loaded.get(3).reference.startswith("- Rotate the held-out fold.")
    nested = tmp_path / "sub.json"
    doc = [{"category": "NLP", "subcategories": [
        {"subcategory": "Tokens", "questions": [{"question": "What is BPE?"}]},
        {"subcategory": "Models", "questions": [{"question": "What is BERT?"}]},
    ]}]  # fmt: skip
    nested.write_text(json.dumps(doc), encoding="utf-8")
    assert invoke("bank", "import", str(nested), "--name", "sub").exit_code == 0
    assert [c.title for c in bank.load("sub").chapters] == ["Tokens", "Models"]
