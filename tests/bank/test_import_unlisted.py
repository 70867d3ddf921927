"""Shapes nobody listed, imported the way a user does it: ``bank import --preview``, then the import.

Tables: flashcard exports (Anki's header lines, HTML fields, cloze notes),
headerless cards, and CSV/JSON headers in other words. JSON at any depth,
Chinese numbering and source lines: ``test_import_unlisted_text.py``.
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
    assert "As tags: '难度'" in result.stdout  # how hard it is: a tag (issue 34)
    question = bank.load("zhcsv").get(1)
    assert question.tags == ("difficulty:2",)
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
