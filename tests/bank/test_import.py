"""Importing a user's own question list: every format, every kind of broken file, saving."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studybot import bank
from studybot.bank import Bank, Chapter, Question, importer
from studybot.errors import BadInput, BankError

DATA = Path(__file__).resolve().parents[1] / "data" / "import"


def summary(loaded: Bank) -> list[tuple[int, int, str]]:
    return [(q.id, q.chapter, q.question) for q in loaded.questions]


# -- one realistic file per format ------------------------------------------------


def test_markdown_with_bold_q_numbers_headings_hints_and_bullets():
    loaded = importer.read(DATA / "notes.md")
    assert loaded.title == "大模型面试题 200 问 · 我的整理"
    assert loaded.language == "zh-CN"
    assert [(c.number, c.title, c.first, c.last) for c in loaded.chapters] == [
        (1, "大模型导论", 1, 3),
        (2, "Transformer、注意力与 KV 缓存", 4, 6),
    ]
    q1, q2, q3, q4, q5, q6 = loaded.questions
    # "**Q1：** …（提示：…）": the hint leaves the question text
    assert q1.question == "大模型的“大”具体体现在哪几个方面？"
    assert q1.hint == "参数、数据、算力"
    assert q1.key_points[0] == "参数量通常在数十亿到数千亿之间" and len(q1.key_points) == 3
    # "**Q2：…**" with a prose answer below it: no key points, and the prose is not the question
    assert q2.question == "为什么今天的生成式大模型大多只保留解码器？" and q2.key_points == ()
    assert q3.question.startswith("模型的最大上下文长度") and len(q3.key_points) == 3  # "Q3: …"
    # "### Q4 …" with a 提示 line and a numbered answer list
    assert q4.question == "为什么 KV 缓存只存 K 和 V，而不存 Q？"
    assert q4.hint.startswith("解码第 t 步时")
    assert q4.key_points[1] == "每个位置的 K、V 在之后的每一步都会被新词元的 Q 读取"
    # "### 5. …" followed by a fenced code block that must not leak in
    assert q5.question.startswith("把一个 8K 上下文的模型扩展到 32K")
    assert q5.key_points[:2] == (
        "KV 缓存与长度成正比：约 4 倍",
        "注意力分数矩阵与长度的平方成正比：约 16 倍",
    )
    assert not any("kv_bytes" in p for q in loaded.questions for p in q.key_points)
    assert q6.question.startswith("多轮对话越聊越慢") and len(q6.key_points) == 3


def test_markdown_plain_numbered_list_is_one_chapter_with_continuation_lines():
    loaded = importer.read(DATA / "plain-list.md")
    assert [q.id for q in loaded.questions] == list(range(1, 8))
    assert [(c.number, c.first, c.last) for c in loaded.chapters] == [(1, 1, 7)]
    assert loaded.title == "plain-list"  # no heading: the file's name
    q1, q2, q3 = loaded.questions[:3]
    assert len(q1.key_points) == 3
    assert q2.question == (
        "给文档切块（chunking）时，块的大小该怎么选？块太小会丢上下文，太大又会稀释相关性，如何权衡？"
    )
    assert q3.hint == "语义相近 vs 字面精确" and "hint" not in q3.question


def test_notebook_markdown_cells_hold_the_questions():
    loaded = importer.read(DATA / "review.ipynb")
    assert loaded.title == "多模态与微调复习笔记"
    # "第9章" as the file's first chapter keeps its full heading, so the user still sees "9"
    assert [(c.title, c.first, c.last) for c in loaded.chapters] == [
        ("第9章 多模态大模型", 1, 3),
        ("第12章 微调生成模型", 4, 6),
    ]
    assert loaded.get(2).question == "LLaVA 这类模型是怎样把视觉特征接入语言模型的？"
    assert loaded.get(2).hint == "投影层"
    assert loaded.get(4).key_points[1] == "可训练参数从 d×k 降到 r×(d+k)"
    assert loaded.get(5).key_points == ()  # the code cell after it is not an answer
    assert not any("import torch" in q.question for q in loaded.questions)


def test_csv_with_chinese_header_multiline_and_pipe_separated_key_points():
    loaded = importer.read(DATA / "questions.csv")
    assert [(c.title, c.first, c.last) for c in loaded.chapters] == [
        ("词元与嵌入", 1, 3),
        ("文本分类", 4, 6),
    ]
    assert loaded.get(1).key_points[2] == "词表大小是超参数，常见在 3 万到 15 万之间"
    assert loaded.get(1).hint == "从最小的单位开始合并"
    assert len(loaded.get(2).key_points) == 3  # split on |
    assert loaded.get(3).key_points == ()
    assert loaded.get(4).key_points[-1] == "在标注数据上微调"  # split on ；
    assert loaded.get(6).hint == "标签本身也是文本"  # a bracketed hint cell is unwrapped


def test_tsv_without_ids_is_numbered_in_order():
    loaded = importer.read(DATA / "questions.tsv")
    assert [q.id for q in loaded.questions] == list(range(1, 7))
    assert loaded.get(1).question.startswith("DeepSeek-V3 的多头潜在注意力（MLA）")
    assert loaded.get(1).tags == ("mla", "kv-cache")
    assert loaded.get(2).key_points[2] == "DeepSeek-V3 总参数 671B，每个词元只激活约 37B"
    assert loaded.get(4).key_points == ()


def test_json_object_with_title_and_questions():
    loaded = importer.read(DATA / "questions.json")
    assert loaded.title == "提示工程与结构化输出"
    assert [(c.title, c.first, c.last) for c in loaded.chapters] == [
        ("提示工程", 1, 3),
        ("结构化输出", 4, 6),
    ]
    assert loaded.get(1).tags == ("prompt",) and len(loaded.get(1).key_points) == 4
    assert loaded.get(2).hint == "中间步骤也是可以被注意力利用的上下文"
    assert loaded.get(3).hint == "近因偏差" and len(loaded.get(3).key_points) == 3


def test_jsonl_mixes_objects_and_plain_strings():
    loaded = importer.read(DATA / "questions.jsonl")
    assert [q.id for q in loaded.questions] == list(range(1, 7))
    assert loaded.get(2).question == "自洽性（self-consistency）解码是怎么做的？"
    assert loaded.get(2).key_points[1] == "对最终答案做多数投票"
    assert loaded.get(3).question == "过程奖励模型（PRM）和结果奖励模型（ORM）有什么区别？"
    assert loaded.get(5).tags == ("kv-cache", "reasoning")


def test_json_list_of_strings_and_unknown_extension(tmp_path):
    path = tmp_path / "my-questions"
    path.write_text(json.dumps(["什么是 RoPE？", "什么是 ALiBi？"], ensure_ascii=False))
    loaded = importer.read(path)
    assert summary(loaded) == [(1, 1, "什么是 RoPE？"), (2, 1, "什么是 ALiBi？")]


def test_numbering_may_start_past_one(tmp_path):
    path = tmp_path / "excerpt.md"
    path.write_text("Q21：什么是多头注意力？\nQ22：什么是 GQA？\n", encoding="utf-8")
    loaded = importer.read(path)
    assert [q.id for q in loaded.questions] == [21, 22]
    assert (loaded.chapters[0].first, loaded.chapters[0].last) == (21, 22)


def test_a_bold_number_alone_takes_the_question_on_the_next_line(tmp_path):
    path = tmp_path / "bold.md"
    path.write_text("**Q1：**\n什么是注意力？\n\n**Q2：** 什么是 KV 缓存？\n", encoding="utf-8")
    assert [q.question for q in importer.read(path).questions] == [
        "什么是注意力？",
        "什么是 KV 缓存？",
    ]


# -- broken files: file:line, message, exit 2, nothing saved --------------------------

BROKEN = [
    (
        "none.md",
        "# 读书笔记\n\n今天读完了第三章，还没整理题目。\n\n- 注意力\n- KV 缓存\n",
        1,
        "no questions found",
    ),
    (
        "no-column.csv",
        "编号,内容\n1,什么是词元？\n",
        1,
        "no question column in the header (need question, 题目 or 问题; found 编号, 内容)",
    ),
    ("blank-header.tsv", "\n什么是词元？\n", 1, "no question column in the header"),
    ("quote.csv", '题目\n什么是词元？\n"什么是嵌入？\n什么是注意力？\n', 3, "unreadable CSV"),
    ("syntax.json", '[\n  "什么是词元？",\n  "什么是嵌入？",\n]\n', 4, "JSON syntax error"),
    (
        "fields.json",
        '[\n  {"question": "什么是词元？"},\n  {"text": "什么是嵌入？"}\n]\n',
        3,
        "no question in this record (found text)",
    ),
    ("lines.jsonl", '"什么是词元？"\n{"question": "什么是嵌入？"\n', 2, "JSON syntax error"),
    (
        "eight.csv",
        "题目,要点\n什么是注意力？," + "|".join(f"第 {n} 条要点" for n in range(1, 9)) + "\n",
        2,
        "a question has 8 key points (need at most 7)",
    ),
    (
        "points.json",
        '[\n  {"question": "什么是词元？", "key_points": {"a": 1}}\n]\n',
        2,
        "key_points must be text or a list of texts (key_points is dict)",
    ),
    (
        "question.json",
        '[\n  "什么是词元？",\n  {"question": ["什么是嵌入？"]}\n]\n',
        3,
        "question must be text (question is list)",
    ),
    (
        "huge-id.jsonl",
        '{"id": 1, "question": "什么是词元？"}\n{"id": 99999999999999999999, "question": "什么是嵌入？"}\n',
        2,
        "id must be a whole number from 1 to 9223372036854775807",
    ),
    ("deep.json", "[" * 100_000 + "]" * 100_000, 1, "JSON nested too deeply"),
    (
        "deep.jsonl",
        '"什么是词元？"\n' + "[" * 100_000 + "]" * 100_000 + "\n",
        2,
        "nested too deeply",
    ),
]


@pytest.mark.parametrize(("name", "text", "line", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_file_is_refused_with_its_line_and_nothing_is_saved(
    invoke, tmp_path, studybot_home, name, text, line, message
):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = invoke("bank", "import", str(path), "--name", "mine")
    assert result.exit_code == 2
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"Error: {path}:{line}: "), first
    assert message.format(path=path) in first
    assert "Hint: " in result.stderr
    banks = studybot_home / "banks"
    assert not banks.exists() or not any(banks.iterdir())


def test_a_csv_that_is_not_utf8_names_the_line_of_the_bad_byte(invoke, tmp_path, studybot_home):
    path = tmp_path / "excel.csv"
    path.write_bytes("编号,题目\n1,什么是词元？\n".encode() + "2,什么是注意力？\n".encode("gbk"))
    result = invoke("bank", "import", str(path), "--name", "excel")
    assert result.exit_code == 2
    assert f"Error: {path}:3: not UTF-8 text" in result.stderr
    assert "UTF-8" in result.stderr.splitlines()[1]  # the hint says how to fix it
    assert not (studybot_home / "banks" / "excel").exists()


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        ("empty.md", "Q1：什么是词元？\nQ2：\n\nQ3：什么是注意力？\n", 2),
        ("empty-cell.csv", "编号,题目\n1,什么是词元？\n2,\n3,什么是注意力？\n", 3),
    ],
)
def test_a_question_with_no_text_is_left_out_and_listed_the_rest_imports(
    invoke, tmp_path, name, text, line
):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = invoke("bank", "import", str(path), "--name", "mine")
    assert result.exit_code == 0, result.stderr
    assert "Imported 2 questions" in result.stdout
    assert f"{path}:{line}: Q2 has no question text; not taken" in result.stdout
    listed = invoke("bank", "validate", str(path))
    assert f"{path}:{line}: Q2 has no question text" in listed.stdout


def test_a_file_of_questions_with_no_text_only_is_refused_naming_each(invoke, tmp_path):
    path = tmp_path / "messy.md"
    path.write_text("Q1：\nQ2：\n", encoding="utf-8")
    result = invoke("bank", "import", str(path), "--name", "messy")
    assert result.exit_code == 2
    assert f"Error: {path}:1: Q1 has no question text (and 1 more problem)" in result.stderr
    assert "write each question after its number" in result.stderr
    listed = invoke("bank", "validate", str(path))
    assert listed.exit_code == 2
    assert listed.stderr.splitlines() == [
        f"{path}:1: Q1 has no question text",
        f"{path}:2: Q2 has no question text",
        "2 problem(s) found.",
    ]


def test_notebook_questions_with_no_text_name_the_cell(tmp_path):
    cells = [
        {"cell_type": "markdown", "source": ["# 复习\n", "Q1：什么是 LoRA？\n"]},
        {"cell_type": "markdown", "source": ["Q2：什么是 QLoRA？\n", "\n", "Q3：\n"]},
    ]
    path = tmp_path / "empty.ipynb"
    path.write_text(json.dumps({"cells": cells, "nbformat": 4}), encoding="utf-8")
    report = importer.inspect(path)
    assert [q.question for q in report.bank.questions] == ["什么是 LoRA？", "什么是 QLoRA？"]
    assert [(s.where, s.why) for s in report.lost] == [
        (f"{path}:cell 2, line 3", "Q3 has no question text; not taken")
    ]


# -- saving: the canonical TOML, round trips, names -------------------------------------

FIXTURES = ["notes.md", "plain-list.md", "review.ipynb", "questions.csv", "questions.tsv",
            "questions.json", "questions.jsonl"]  # fmt: skip


@pytest.mark.parametrize("fixture", FIXTURES)
def test_an_imported_bank_loads_by_name_exactly_as_it_was_read(invoke, studybot_home, fixture):
    result = invoke("bank", "import", str(DATA / fixture), "--name", "mine")
    assert result.exit_code == 0, result.stderr
    read = importer.read(DATA / fixture)
    loaded = bank.load("mine")
    assert loaded.name == "mine"
    assert (loaded.title, loaded.language) == (read.title, read.language)
    assert loaded.chapters == read.chapters and loaded.questions == read.questions
    assert (studybot_home / "banks" / "mine" / "bank.toml").is_file()


def test_toml_escaping_round_trips_quotes_backslashes_and_control_characters(studybot_home):
    awkward = "He said \"KV\" \\ 反斜杠\t制表符\n换行 \x01 # 不是注释 '单引号'"
    original = Bank(
        name="x",
        title='标题 "引号" \\ 反斜杠',
        language="zh-CN",
        chapters=(Chapter(1, "第 [1] 章 = 测试", 7, 8),),
        questions=(
            Question(
                7,
                1,
                awkward,
                key_points=("a\\b", '"c"', "d\ne"),
                hint="[提示]",
                tags=("a-b",),
                reference="```python\nprint('\\t')\n```\n\n| a | b |\n|---|---|",
                label="4.1",
            ),
            Question(8, 1, "没有要点的题"),
        ),
    )
    folder = bank.save(original, "escapes")
    loaded = bank.load("escapes")
    assert folder == studybot_home / "banks" / "escapes"
    assert (loaded.title, loaded.chapters, loaded.questions) == (
        original.title,
        original.chapters,
        original.questions,
    )


def test_an_existing_name_is_refused_unless_forced(invoke, studybot_home):
    assert invoke("bank", "import", str(DATA / "notes.md"), "--name", "mine").exit_code == 0
    again = invoke("bank", "import", str(DATA / "questions.json"), "--name", "mine")
    assert again.exit_code == 2 and "a bank named 'mine' already exists" in again.stderr
    assert "--force" in again.stderr
    assert bank.load("mine").title == "大模型面试题 200 问 · 我的整理"
    forced = invoke("bank", "import", str(DATA / "questions.json"), "--name", "mine", "--force")
    assert forced.exit_code == 0, forced.stderr
    assert bank.load("mine").title == "提示工程与结构化输出"
    assert sorted(p.name for p in (studybot_home / "banks").iterdir()) == ["mine"]


def test_a_failed_forced_import_keeps_the_old_bank(invoke, tmp_path):
    assert invoke("bank", "import", str(DATA / "notes.md"), "--name", "mine").exit_code == 0
    broken = tmp_path / "broken.json"
    broken.write_text('[\n  "什么是词元？",\n', encoding="utf-8")  # cut short: nothing to import
    result = invoke("bank", "import", str(broken), "--name", "mine", "--force")
    assert result.exit_code == 2
    assert len(bank.load("mine").questions) == 6


@pytest.mark.parametrize("name", ["我的题库", "a b", "../up", "x" * 65, "default", ""])
def test_bad_bank_names_are_refused_before_reading(invoke, studybot_home, name):
    result = invoke("bank", "import", str(DATA / "notes.md"), "--name", name)
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ")
    banks = studybot_home / "banks"
    assert not banks.exists() or not any(banks.iterdir())


def test_bank_banks_lists_the_shipped_bank_and_imports(invoke):
    invoke("bank", "import", str(DATA / "questions.csv"), "--name", "csv-bank")
    rows = json.loads(invoke("bank", "banks", "--json").stdout)
    assert [(r["name"], r["questions"], r["chapters"]) for r in rows] == [
        ("default", 200, 14),
        ("csv-bank", 6, 2),
    ]
    text = invoke("bank", "banks").stdout
    assert "csv-bank" in text and "questions" in text


def test_import_json_reports_what_was_saved(invoke, studybot_home):
    result = invoke("bank", "import", str(DATA / "plain-list.md"), "--name", "rag", "--json")
    data = json.loads(result.stdout)
    steer = data.pop("steer")  # the same serialiser as --preview --json (test_import_steer.py)
    assert steer["found_in"] == {"list items": 7}
    assert steer["taken"] == {"option": "", "questions": 7, "asking": 7, "non_asking": 0} | {
        "answered": 1,
        "needs_force": False,
        "takes_not_taken": 0,
    }
    assert data.pop("command").endswith("plain-list.md --name rag")
    assert data == {
        "name": "rag",
        "path": str(studybot_home / "banks" / "rag"),
        "title": "plain-list",
        "questions": 7,
        "chapters": 1,
        "first": 1,
        "last": 7,
        "with_key_points": 1,
        "with_reference": 0,
        "not_taken": 0,
        "numbering": [],
        "notes": [],
        "repeats": [],
        "chapters_again": [],
        "problems": [],
        "not_taken_lines": [],
        "suggestions": [],
        "options": [],
    }


# -- key points: optional for imports, required for the shipped bank ------------------


def test_a_hand_made_folder_still_needs_three_key_points_but_an_import_does_not(tmp_path):
    loaded = importer.read(DATA / "questions.tsv")
    folder = bank.save(loaded, "deepseek")
    copy = tmp_path / "copy"
    copy.mkdir()
    for path in folder.iterdir():
        (copy / path.name).write_bytes(path.read_bytes())
    assert len(bank.load(str(folder)).questions) == 6  # the saved folder, by path
    with pytest.raises(BankError) as caught:
        bank.load(str(copy))
    assert "Q4 key_points must be a list" in caught.value.message
    assert any("Q5 has 2 key points (need 3–7)" in p for p in caught.value.problems)


def test_bank_path_works_without_importing(invoke):
    listed = json.loads(
        invoke("bank", "list", "--bank", str(DATA / "questions.jsonl"), "--json").stdout
    )
    assert [row["id"] for row in listed] == list(range(1, 7))
    shown = json.loads(
        invoke("bank", "show", "2", "--bank", str(DATA / "notes.md"), "--json").stdout
    )
    assert shown["question"] == "为什么今天的生成式大模型大多只保留解码器？"
    assert shown["key_points"] == []


def test_saving_an_unchecked_name_is_refused():
    with pytest.raises(BadInput, match="not allowed"):
        bank.save(importer.read(DATA / "notes.md"), "../escape")
