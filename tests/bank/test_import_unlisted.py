"""Shapes nobody listed, imported the way a user does it: ``bank import --preview``, then the import.

Flashcard exports (Anki's header lines, HTML fields), headerless cards,
deeply nested JSON, Chinese numbering with notes after the question,
source lines under a question, and CSV/JSON headers in other words.
"""

from __future__ import annotations

import json

from studybot import bank

ANKI = (
    "#separator:tab\n"
    "#html:true\n"
    "#notetype column:1\n"
    "#deck column:2\n"
    "#tags column:5\n"
    "Basic\t面试::解码\t温度怎么影响采样？\t温度低更确定，<br>温度高更多样。\tdecoding sampling\n"
    "Basic\t面试::解码\t缺少 </s> 的模板会怎样\t<div>模型不会停。</div><div>一直生成到上限。</div>\tsft\n"
    "Basic\t面试::对齐\t&lt;think&gt; 标签有什么用？\t把思考&nbsp;和回答分开。\t\n"
)


def test_a_flashcard_export_is_read_by_its_header_lines(invoke, tmp_path):
    path = tmp_path / "deck.txt"  # Anki's "Notes in Plain Text" ends in .txt
    path.write_text(ANKI, encoding="utf-8")
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code == 0, preview.stderr
    assert "第 1 章 解码: 2 question(s)" in preview.stdout
    assert "第 2 章 对齐: 1 question(s)" in preview.stdout
    assert "A flashcard export: its columns are named by its header lines" in preview.stdout
    assert "Read question ← 'field 1', answer ← 'field 2', chapter ← 'deck'" in preview.stdout
    assert "Not used: 'notetype'" in preview.stdout
    assert "separator" not in preview.stdout.split("A flashcard")[0]
    imported = invoke("bank", "import", str(path), "--name", "deck")
    assert imported.exit_code == 0, imported.stderr
    loaded = bank.load("deck")
    assert [(q.question, q.reference, q.tags) for q in loaded.questions] == [
        ("温度怎么影响采样？", "温度低更确定，\n温度高更多样。", ("decoding", "sampling")),
        ("缺少 </s> 的模板会怎样", "模型不会停。\n一直生成到上限。", ("sft",)),
        ("<think> 标签有什么用？", "把思考 和回答分开。", ()),
    ]


def test_an_export_with_named_columns_and_a_headerless_csv(invoke, tmp_path):
    named = tmp_path / "cards.txt"
    named.write_text(
        "#separator:tab\n#html:true\n#columns:Front\tBack\tTags\n#tags column:3\n"
        "Explain dropout\tZero random units<br>while training.\tdl\n"
        "What is an <eos> token?\tIt ends a sequence.\tnlp\n",
        encoding="utf-8",
    )
    shown = invoke("bank", "import", str(named), "--preview")
    assert shown.exit_code == 0, shown.stderr
    assert "Read question ← 'Front', answer ← 'Back', tags ← 'Tags'" in shown.stdout
    assert "Q2 What is an <eos> token?" in shown.stdout
    plain = tmp_path / "plain.csv"
    plain.write_text(
        "Explain the kernel trick,Inner products in feature space via a kernel.\n"
        "Why normalise features,So optimisation is well conditioned.\n",
        encoding="utf-8",
    )
    result = invoke("bank", "import", str(plain), "--name", "plain")
    assert result.exit_code == 0, result.stderr
    assert "No header row: column 1 is read as the question" in result.stdout
    assert [q.question for q in bank.load("plain").questions] == [
        "Explain the kernel trick",
        "Why normalise features",
    ]
    header = tmp_path / "terms.csv"  # a first row that names no field and does not ask
    header.write_text("Term,Meaning\nLoRA,Low-rank adaptation\n", encoding="utf-8")
    refused = invoke("bank", "import", str(header), "--name", "terms")
    assert refused.exit_code == 2
    assert "no question column in the header" in refused.stderr
    assert "Hint: --map question=" in refused.stderr


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
    refused = invoke("bank", "import", str(path), "--name", "topics")
    assert refused.exit_code == 2
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if '""' in text)
    assert f"{path}:{line - 1}: a question with no text" in refused.stderr
    forced = invoke("bank", "import", str(path), "--name", "topics", "--force")
    assert forced.exit_code == 0, forced.stderr
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


def test_headers_in_other_words_are_matched_by_their_words(invoke, tmp_path):
    english = tmp_path / "interview.csv"
    english.write_text(
        "No.,Interview Question,Expected Answer,Topic Area,Question Type\n"
        "1,What is a context window?,The tokens one request can attend to.,Basics,recall\n"
        "2,Explain prefix caching,Reuse the KV cache of a shared prefix.,Serving,explain\n",
        encoding="utf-8",
    )
    preview = invoke("bank", "import", str(english), "--preview")
    assert preview.exit_code == 0, preview.stderr
    assert (
        "Read question ← 'Interview Question', answer ← 'Expected Answer', "
        "chapter ← 'Topic Area', id ← 'No.'" in preview.stdout
    )
    assert "Not used: 'Question Type'" in preview.stdout
    chinese = tmp_path / "题库.csv"
    chinese.write_text(
        "序号,题目描述,参考答案,答案解析,所属分类,难度\n1,什么是困惑度？,负对数似然的指数。,越低越好。,基础,2\n",
        encoding="utf-8",
    )
    result = invoke("bank", "import", str(chinese), "--name", "zhcsv")
    assert result.exit_code == 0, result.stderr
    assert "answer ← '参考答案' or '答案解析', chapter ← '所属分类', id ← '序号'" in result.stdout
    assert "Not used: '难度'" in result.stdout
    question = bank.load("zhcsv").get(1)
    assert (question.question, question.reference) == (
        "什么是困惑度？",
        "负对数似然的指数。\n\n越低越好。",
    )
    camel = tmp_path / "camel.jsonl"
    camel.write_text(
        json.dumps({"QuestionText（中文）": "什么是胜率？", "SampleAnswer": "被偏好的比例。"})
        + "\n",
        encoding="utf-8",
    )
    mapped = invoke("bank", "import", str(camel), "--name", "camel")
    assert mapped.exit_code == 0, mapped.stderr
    assert "Read question ← 'QuestionText（中文）', answer ← 'SampleAnswer'" in mapped.stdout


def test_a_headerless_tsv_whose_column_asks_and_cells_in_html(invoke, tmp_path):
    path = tmp_path / "cards.tsv"  # Anki's "Cards in Plain Text" with HTML kept
    path.write_text(
        "Transformer 的整体结构\t编码器和解码器<br>层层堆叠。\n"
        "为什么要除以根号 d_k\t防止&nbsp;softmax 饱和。\n"
        "介绍一下 LoRA\t<div>冻结原权重，</div><div>训练低秩增量。</div>\n"
        "解释 </s> 的作用\t结束一段生成。\n",
        encoding="utf-8",
    )
    result = invoke("bank", "import", str(path), "--name", "cards")
    assert result.exit_code == 0, result.stderr
    assert "No header row" in result.stdout and "Cells read as HTML" in result.stdout
    assert [(q.question, q.reference) for q in bank.load("cards").questions] == [
        ("Transformer 的整体结构", "编码器和解码器\n层层堆叠。"),
        ("为什么要除以根号 d_k", "防止 softmax 饱和。"),
        ("介绍一下 LoRA", "冻结原权重，\n训练低秩增量。"),
        ("解释 </s> 的作用", "结束一段生成。"),
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


def test_a_cloze_note_asks_its_gaps_and_a_list_answer_is_a_list(invoke, tmp_path):
    cloze = tmp_path / "cloze.txt"
    cloze.write_text(
        "#separator:tab\n#html:true\n#notetype column:1\n#deck column:2\n"
        "Cloze\t面试::位置\t{{c1::RoPE}} 把位置编码成{{c2::旋转::一种变换}}\t见论文\n",
        encoding="utf-8",
    )
    assert invoke("bank", "import", str(cloze), "--name", "cloze").exit_code == 0
    question = bank.load("cloze").get(1)
    assert (question.question, question.reference) == (
        "[…] 把位置编码成[一种变换]",
        "RoPE；旋转\n\n见论文",
    )
    listed = tmp_path / "listed.json"
    doc = {
        "topics": [
            {"name": "推理", "questions": [{"q": "如何加速解码？", "a": ["量化", "投机解码"]}]}
        ]
    }
    listed.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    result = invoke("bank", "import", str(listed), "--name", "listed")
    assert result.exit_code == 0, result.stderr
    assert bank.load("listed").get(1).reference == "- 量化\n- 投机解码"
    notes = tmp_path / "notes.md"
    notes.write_text(
        "## 推理\n\n### 什么是投机解码？\n\n*Source: 面试复盘*\n\n小模型草拟，大模型验证。\n",
        encoding="utf-8",
    )
    assert invoke("bank", "import", str(notes), "--name", "notes").exit_code == 0
    assert bank.load("notes").get(1).reference == "小模型草拟，大模型验证。\n\n*Source: 面试复盘*"


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


def test_cards_in_plain_text_a_txt_of_question_tab_answer_lines(invoke, tmp_path):
    path = tmp_path / "cards.txt"
    path.write_text("什么是 LoRA？\t低秩增量。\n解释 KV 缓存\t存下 K 和 V<br>以复用。\n", "utf-8")
    result = invoke("bank", "import", str(path), "--name", "txtcards")
    assert result.exit_code == 0, result.stderr
    assert [(q.question, q.reference) for q in bank.load("txtcards").questions] == [
        ("什么是 LoRA？", "低秩增量。"),
        ("解释 KV 缓存", "存下 K 和 V\n以复用。"),
    ]
    prose = tmp_path / "notes.txt"  # a tab in a line of prose does not make a table
    prose.write_text("## 基础\n\n### 什么是 LoRA？\n\n低秩\t增量。\n", "utf-8")
    assert invoke("bank", "import", str(prose), "--name", "prose").exit_code == 0
    assert bank.load("prose").get(1).reference.startswith("低秩")


def test_an_export_of_one_deck_names_its_chapter(invoke, tmp_path):
    path = tmp_path / "one.txt"
    path.write_text(
        "#separator:tab\n#html:true\n#notetype:Basic\n#deck:面试::Transformer\n"
        "什么是自注意力？\t打分后加权。\n讲讲位置编码\t把顺序加进表示。\n",
        encoding="utf-8",
    )
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code == 0, preview.stderr
    assert "第 1 章 Transformer: 2 question(s)" in preview.stdout
