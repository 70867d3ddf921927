"""The shapes real question collections come in, each imported exactly; preview and refusal.

Every file under tests/data/import/ was written for these tests; the counts
below were established by reading each file by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studybot import bank
from studybot.bank import importer
from studybot.errors import BankError

DATA = Path(__file__).resolve().parents[1] / "data" / "import"


def texts(loaded) -> list[str]:
    return [q.question for q in loaded.questions]


def spans(loaded) -> list[tuple[str, int, int]]:
    return [(c.title, c.first, c.last) for c in loaded.chapters]


# -- 1. Q&A notes: heading questions with whole Markdown answers -----------------------


def test_qa_notes_keep_each_answer_whole_as_the_reference():
    loaded = importer.read(DATA / "qa-notes.md")
    assert len(loaded.questions) == 5  # by hand: headings 1, 2, 3, 4, 5
    assert loaded.title == "大模型训练与推理笔记"
    assert [q.id for q in loaded.questions] == [1, 2, 3, 4, 5]
    q1, q2, q3, q4, q5 = loaded.questions
    assert q1.question == "如果想要在单张卡上推理一个 7B 的模型，大概需要多少显存？"
    # the answer is a reference, never key points, and never refused for being long
    assert all(q.key_points == () and q.reference for q in loaded.questions)
    assert "1.  **模型的大小**：7B 参数用 FP16 存储" in q1.reference
    assert "| INT4 | 0.5 | 约 3.5 GB |" in q1.reference
    assert q1.reference.endswith("要留意 KV 缓存。")
    # "**1、Megatron-LM**" and a <details> block belong to the answer of Q2
    assert q2.reference.startswith("**1、Megatron-LM**")
    assert "<details>" in q2.reference and "3. ZeRO-3 连参数也切分" in q2.reference
    # "## 3. …" with "#### 3.1 …" sub-headings: all answer; "### 4. …" is the next question
    assert q3.question == "prefix LM 和 causal LM 的区别是什么？"
    assert "#### 3.3 总结" in q3.reference and "few-shot" not in q3.reference
    assert "1. zero-shot" in q4.reference and "```python" in q4.reference
    assert q5.question == "为什么训练时要做梯度裁剪？"
    # the [toc] marker, the badge and the HTML comment are not questions
    assert not any("toc" in t.lower() or "badge" in t for t in texts(loaded))


# -- 2. nested bullet lists under section headings ---------------------------------------


def test_nested_bullets_take_every_asking_bullet_and_no_topic_or_link():
    report = importer.inspect(DATA / "nested-bullets.md")
    loaded = report.bank
    assert len(loaded.questions) == 13  # by hand: 3 + 3 + 5 + 2
    assert texts(loaded)[:6] == [
        "目前主流的开源模型体系有哪些？",
        "prefix LM 和 causal LM 有什么区别？",
        "大模型为什么会出现涌现能力？",
        "Layer Norm 的计算公式写一下？",
        "RMS Norm 相比 Layer Norm 有什么特点？",
        "Deep Norm 的思路是什么？",
    ]
    assert loaded.get(3).key_points == ("规模足够大之后才出现", "与评测指标的选择有关")
    # "- 5 …？" with a sub-bullet "5.1 …？": both are questions
    assert (loaded.get(10).question, loaded.get(11).question) == (
        "FlashAttention 为什么能加速？",
        "它减少了哪一部分的显存读写？",
    )
    assert not any("篇" in t or "答案" in t for t in texts(loaded))  # topics and links
    assert spans(loaded) == [("基础篇", 1, 6), ("进阶篇", 7, 13)]
    # numbering restarts per section: 1..N in file order, the source's numbers kept as labels
    assert [q.label for q in loaded.questions] == [
        "1", "2", "3", None, None, None, "4.1", "4.2", "4.3", "5", "5.1", "1", "2",
    ]  # fmt: skip
    assert "numbers used more than once: 1, 2" in report.numbering
    assert any(n.startswith("numbering restarts at 1 in 1 place(s)") for n in report.numbering)
    assert not any(n.startswith("numbers skip") for n in report.numbering)  # 3, 4.1, 5 is no skip
    assert "3 question(s) have no number" in report.numbering


# -- 3. decimal-numbered headings in parts -------------------------------------------------


def test_decimal_headings_are_questions_and_their_parts_are_chapters():
    loaded = importer.read(DATA / "decimal-headings.md")
    assert len(loaded.questions) == 5  # by hand: 1.1, 1.2, 1.3, 2.1, 2.2
    assert [q.label for q in loaded.questions] == ["1.1", "1.2", "1.3", "2.1", "2.2"]
    assert [q.id for q in loaded.questions] == [1, 2, 3, 4, 5]
    assert spans(loaded) == [("理论篇", 1, 3), ("实践篇", 4, 5)]
    assert loaded.get(2).question == "什么是混合精度训练"  # numbered, no question mark
    assert loaded.get(4).key_points[0] == "先看学习率是否过大"  # a short list alone: key points
    assert loaded.get(4).reference is None


# -- 4. unnumbered questions -----------------------------------------------------------------


def test_unnumbered_headings_and_items_that_ask_are_questions():
    loaded = importer.read(DATA / "unnumbered.md")
    assert len(loaded.questions) == 5  # by hand: 2 headings + 3 asking bullets
    assert texts(loaded) == [
        "什么是检索增强生成？",
        "向量数据库在 RAG 里起什么作用?",
        "智能体的 ReAct 模式是怎样工作的？",
        "工具调用失败时，智能体应该怎么处理？",
        "多智能体协作有哪些常见的组织方式？",
    ]
    assert spans(loaded) == [("检索增强", 1, 2), ("智能体", 3, 5)]
    assert all(q.label is None for q in loaded.questions)


# -- 5. noise: table of contents, title, [TOC], badges, images, comments ---------------------


def test_noise_is_not_taken_and_a_table_of_contents_is_only_reported():
    report = importer.inspect(DATA / "noise.md")
    loaded = report.bank
    assert len(loaded.questions) == 3  # by hand: the three ## questions, not their TOC links
    assert loaded.title == "面试题速记"
    assert [q.id for q in loaded.questions] == [1, 2, 3]
    assert [s.why for s in report.skipped] == ["a table-of-contents link"] * 3
    assert report.lost == () and not report.refused
    assert not any("<!--" in (q.reference or "") for q in loaded.questions)


# -- 6. chapters: 第一部分, 第三章, 一、, Part 2, ## sections -----------------------------------


def test_chapter_titles_lose_their_part_number_when_it_is_the_chapters_own():
    loaded = importer.read(DATA / "chapters.md")
    assert len(loaded.questions) == 8  # by hand: Q1–Q8
    assert spans(loaded) == [
        ("基础", 1, 2),  # "## 第一部分 基础", not "分 基础"
        ("注意力", 3, 3),
        ("推理加速", 4, 5),  # "**第三章 推理加速**" on its own line
        ("微调", 6, 6),  # "## 四、微调"
        ("Alignment", 7, 7),  # "## Part 5 Alignment"
        ("对齐之后", 8, 8),
    ]


# -- 7. options and hints attached to a question ----------------------------------------------


def test_options_stay_in_the_question_and_a_bracketed_hint_becomes_the_hint(invoke):
    loaded = importer.read(DATA / "attached.md")
    assert len(loaded.questions) == 4  # by hand: items 1–4
    assert loaded.get(1).question == (
        "以下三个提示词哪个会更有效？\n"
        "- 提示词一：写一篇文章\n"
        "- 提示词二：写一篇关于 RAG 的文章\n"
        "- 提示词三：为初学者写一篇 800 字的 RAG 入门文章，分三个小节"
    )
    assert loaded.get(1).key_points == ()
    assert loaded.get(2).question == "为什么给模型一个角色设定能改善回答？"
    assert loaded.get(2).hint == "想想预训练语料里的对话"
    assert loaded.get(3).hint == "中间步骤也是上下文"
    assert loaded.get(3).question == "思维链提示为什么对算术题有帮助？"
    assert loaded.get(4).question.endswith("- 让回答更长")
    shown = invoke("bank", "show", "2", "--bank", str(DATA / "attached.md"))
    assert "提示：想想预训练语料里的对话" in shown.stdout


# -- the **Qn：** notebook of the book's list: 200/200, 14 chapters -------------------------


def notebook(path: Path, labels: list[int] | None = None) -> Path:
    """The shipped 200 questions as a study notebook: one Markdown cell per chapter."""
    shipped = bank.load()
    cells = [{"cell_type": "markdown", "source": ["# 大模型面试题 200 问 复习本\n"]}]
    labels = labels or [q.id for q in shipped.questions]
    by_chapter: dict[int, list[str]] = {}
    for question, label in zip(shipped.questions, labels, strict=True):
        by_chapter.setdefault(question.chapter, []).append(
            f"**Q{label}：** {question.question}\n\n"
        )
    for chapter in shipped.chapters:
        source = [f"## 第{chapter.number}章 {chapter.title}\n\n", *by_chapter[chapter.number]]
        cells.append({"cell_type": "markdown", "source": source})
        cells.append({"cell_type": "code", "source": ["print('复习')"], "outputs": []})
    path.write_text(json.dumps({"cells": cells, "nbformat": 4}, ensure_ascii=False), "utf-8")
    return path


def test_a_200_question_notebook_imports_200_of_200_in_14_chapters(tmp_path):
    loaded = importer.read(notebook(tmp_path / "200.ipynb"))
    shipped = bank.load()
    assert len(loaded.questions) == 200 and len(loaded.chapters) == 14
    assert texts(loaded) == texts(shipped)
    assert [(c.first, c.last) for c in loaded.chapters] == [
        (c.first, c.last) for c in shipped.chapters
    ]
    assert all(q.label is None for q in loaded.questions)


def test_a_number_typed_twice_still_imports_every_question_in_order(invoke, tmp_path):
    labels = list(range(1, 201))
    labels[50] = 50  # the author typed Q50 where Q51 belongs
    path = notebook(tmp_path / "typo.ipynb", labels)
    report = importer.inspect(path)
    assert [q.id for q in report.bank.questions] == list(range(1, 201))
    assert texts(report.bank) == texts(bank.load())
    assert report.bank.get(51).label == "50"
    assert report.numbering[0] == "numbers used more than once: 50"
    result = invoke("bank", "import", str(path), "--name", "typo")
    assert result.exit_code == 0, result.stderr
    assert "numbers used more than once: 50" in result.stdout
    assert bank.load("typo").get(51).label == "50"


# -- --preview, and no silent losses ------------------------------------------------------------

LOSSY = """# 我的题目

Q1：什么是注意力？

Q2：什么是 KV 缓存？

## 还没整理

| 序号 | 内容 |
|---|---|
| 1 | 为什么需要位置编码？ |
| 2 | 什么是 RoPE？ |
| 3 | ALiBi 和 RoPE 有什么不同？ |
"""


def test_preview_shows_chapters_lines_not_taken_and_totals_and_saves_nothing(
    invoke, tmp_path, studybot_home
):
    path = tmp_path / "lossy.md"
    path.write_text(LOSSY, encoding="utf-8")
    result = invoke("bank", "import", str(path), "--preview")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "first: Q1 什么是注意力？" in out and "last:  Q2 什么是 KV 缓存？" in out
    assert (
        "line 11: a table row, not a heading, list item or Q1： line: 为什么需要位置编码？" in out
    )
    assert "Not taken (3):" in out
    assert "Total: 2 question(s) in 1 chapter(s)" in out and "3 question-like line(s)" in out
    # the file defeated the reader: the preview says which option reads the rest
    assert "Try: --map question=内容" in out
    assert not (studybot_home / "banks").exists()

    data = json.loads(invoke("bank", "import", str(path), "--preview", "--json").stdout)
    assert data["totals"] == {
        "questions": 2,
        "chapters": 1,
        "with_reference": 0,
        "with_key_points": 0,
        "not_taken": 3,
        "repeats": 0,
        "problems": 0,
    }
    assert [s["where"] for s in data["not_taken"]] == [f"{path}:{n}" for n in (11, 12, 13)]
    assert data["chapters"][0]["first"] == {"id": 1, "label": None, "question": "什么是注意力？"}
    assert data["refused"] is True

    fixed = json.loads(
        invoke("bank", "import", str(path), "--preview", "--json", "--map", "question=内容").stdout
    )
    assert fixed["totals"]["questions"] == 5 and fixed["totals"]["not_taken"] == 0


def test_import_refuses_many_lines_not_taken_unless_forced(invoke, tmp_path, studybot_home):
    path = tmp_path / "lossy.md"
    path.write_text(LOSSY, encoding="utf-8")
    refused = invoke("bank", "import", str(path), "--name", "lossy")
    assert refused.exit_code == 2
    assert refused.stderr.startswith(
        f"Error: 3 question-like line(s) of {path} were not taken (first at {path}:11: "
    )
    assert "--preview" in refused.stderr and "--force" in refused.stderr
    assert not (studybot_home / "banks" / "lossy").exists()
    forced = invoke("bank", "import", str(path), "--name", "lossy", "--force")
    assert forced.exit_code == 0, forced.stderr
    assert len(bank.load("lossy").questions) == 2
    # the import output lists every line it did not take, with its line
    assert (
        f"{path}:12: a table row, not a heading, list item or Q1： line: 什么是 RoPE？"
        in forced.stdout
    )


def test_questions_asked_as_plain_lines_are_questions_wherever_they_sit():
    """Lines that ask under a heading of their own: questions, not lines left out."""
    report = importer.inspect(DATA / "plain-lines.md")
    assert texts(report.bank) == [
        "什么是注意力？",
        "什么是 KV 缓存？",
        "为什么需要位置编码？",
        "什么是 RoPE？",
        "ALiBi 和 RoPE 有什么不同？",
    ]
    assert report.bank.get(3).reference == "自注意力对顺序不敏感，要靠位置编码区分先后。"
    assert report.lost == ()


def test_preview_needs_no_name_but_import_does(invoke):
    result = invoke("bank", "import", str(DATA / "chapters.md"))
    assert result.exit_code == 2 and "--name" in result.stderr


# -- encodings and limits ---------------------------------------------------------------------


def test_a_utf16_file_gets_a_utf16_hint(invoke, tmp_path):
    path = tmp_path / "excel.csv"
    path.write_text("题目\n什么是词元？\n", encoding="utf-16")  # with a BOM, as Excel writes it
    result = invoke("bank", "import", str(path), "--name", "x")
    assert result.exit_code == 2
    assert f"Error: {path}:1: the file is UTF-16 text, not UTF-8" in result.stderr
    assert "iconv -f UTF-16 -t UTF-8" in result.stderr


def test_a_file_over_200_mb_is_refused_before_reading(tmp_path):
    path = tmp_path / "huge.md"
    with path.open("wb") as handle:
        handle.truncate(201 * 2**20)
    with pytest.raises(BankError, match="a question file may be at most 200 MB"):
        importer.read(path)


def test_a_readme_of_question_links_takes_each_linked_question_and_no_toc_or_filler():
    loaded = importer.read(DATA / "readme-links.md")
    assert len(loaded.questions) == 5  # by hand: three numbered links, two linked bullets
    assert loaded.title == "大模型面试题汇总"  # the badge is not part of the title
    assert texts(loaded) == [
        "Transformer 的整体结构是怎样的？",
        "为什么用 LayerNorm 而不是 BatchNorm？",
        "什么是位置编码？",
        "什么是混合专家模型（MoE）？",
        "LoRA 的原理是什么？",
    ]
    assert [q.id for q in loaded.questions] == [1, 2, 3, 4, 5]  # the links' own numbers
    assert spans(loaded) == [("基础篇", 1, 3), ("进阶篇", 4, 5)]
    # the "- ... [更多题目](…)" filler after Q3 is neither a question nor Q3's answer
    assert all(q.key_points == () and q.reference is None for q in loaded.questions)


def test_utf16_without_a_byte_order_mark_gets_the_utf16_hint_too(tmp_path):
    path = tmp_path / "notes.md"
    path.write_bytes("# 笔记\n1. 什么是注意力？\n".encode("utf-16-le"))
    with pytest.raises(BankError, match="UTF-16") as caught:
        importer.read(path)
    assert "iconv -f UTF-16" in caught.value.hint


def test_questions_in_a_table_with_a_question_column_are_taken(invoke, tmp_path):
    path = tmp_path / "table.md"
    path.write_text(
        "# 题目表\n\n| 序号 | 问题 | 答案 |\n|---|---|---|\n"
        "| 1 | 什么是词元？ | [链接](a.md) |\n| 2 | 什么是嵌入？ | [链接](b.md) |\n"
        "| 3 | 什么是注意力？ | [链接](c.md) |\n\n> Q1：引用块里的题也算吗？\n",
        encoding="utf-8",
    )
    report = importer.inspect(path)
    # a table with a 问题 column is a list of questions, its 答案 column their answers
    assert texts(report.bank) == [
        "什么是词元？",
        "什么是嵌入？",
        "什么是注意力？",
        "引用块里的题也算吗？",
    ]
    assert [q.label for q in report.bank.questions] == ["1", "2", "3", "1"]  # 序号, then Q1
    assert [q.id for q in report.bank.questions] == [1, 2, 3, 4]
    assert report.bank.get(1).reference == "[链接](a.md)"
    assert report.lost == ()
    assert invoke("bank", "import", str(path), "--name", "table").exit_code == 0


def test_a_run_names_each_question_by_its_source_label_too(invoke):
    assert (
        invoke("bank", "import", str(DATA / "decimal-headings.md"), "--name", "dec").exit_code == 0
    )
    result = invoke("run", "--bank", "dec", "--from", "4", "--to", "5")
    assert result.exit_code == 0, result.stderr
    assert "第 4 题（原题号 2.1）" in result.stdout
    assert "第 5 题（原题号 2.2）" in result.stdout


def test_preview_shows_a_long_question_by_its_first_line(invoke, tmp_path, studybot_home):
    path = tmp_path / "quiz.md"
    path.write_text(
        "## 第 1 题\n\n### 题目\n\n哪种做法能让 KV 缓存减半？\n\n- A. 批大小加倍\n- B. 用 GQA\n"
        "- C. 提高温度\n\n<details><summary>查看答案</summary>\n\n答案：B。\n\n</details>\n",
        encoding="utf-8",
    )
    result = invoke("bank", "import", str(path), "--preview")
    assert result.exit_code == 0, result.stderr
    assert "first: Q1 哪种做法能让 KV 缓存减半？ (+3 lines)" in result.stdout
    assert "- A. 批大小加倍" not in result.stdout  # the choices stay in the question, not here
