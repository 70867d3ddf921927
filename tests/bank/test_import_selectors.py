"""``bank import FILE --questions WHAT [--answers none]``: the user says where questions sit.

Issue 34, item 1. Each file here is written for the test, in a shape real
question files have.
"""

from __future__ import annotations

import json

import pytest

from studybot import bank

TOPICS = """# 深度学习复习

## 优化

### 学习率预热

训练初期梯度大，先用小学习率。

### 梯度裁剪

把梯度的范数限制在阈值内。

- 防止梯度爆炸
- 常用阈值 1.0

## 正则化

### Dropout

训练时随机置零一部分神经元。
"""

NESTED = """# NLP interview

- Tokenization
  - What is BPE?
    Merges the most frequent pair again and again.
  - Why do subwords help with rare words?
- Attention
  - Why scale the dot product by sqrt(d)?
    Keeps the softmax out of its flat region.
"""


def imported(invoke, tmp_path, text: str, *options: str, name="q.md", bank_name="mine"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = invoke("bank", "import", str(path), "--name", bank_name, *options)
    assert result.exit_code == 0, result.stderr
    return bank.load(bank_name)


def test_headings_of_one_level_are_the_questions_and_the_headings_above_the_chapters(
    invoke, tmp_path
):
    loaded = imported(invoke, tmp_path, TOPICS, "--questions", "headings:3")
    assert [(q.question, q.reference) for q in loaded.questions] == [
        ("学习率预热", "训练初期梯度大，先用小学习率。"),
        ("梯度裁剪", "把梯度的范数限制在阈值内。\n\n- 防止梯度爆炸\n- 常用阈值 1.0"),
        ("Dropout", "训练时随机置零一部分神经元。"),
    ]
    assert [c.title for c in loaded.chapters] == ["优化", "正则化"]
    assert loaded.title == "深度学习复习"


def test_items_at_any_depth_or_at_one_depth(invoke, tmp_path):
    every = imported(invoke, tmp_path, NESTED, "--questions", "items", bank_name="every")
    assert [q.question for q in every.questions] == [
        "Tokenization",
        "What is BPE?",
        "Why do subwords help with rare words?",
        "Attention",
        "Why scale the dot product by sqrt(d)?",
    ]
    second = imported(invoke, tmp_path, NESTED, "--questions", "items:2", bank_name="second")
    assert [(q.question, q.reference) for q in second.questions] == [
        ("What is BPE?", "Merges the most frequent pair again and again."),
        ("Why do subwords help with rare words?", None),
        ("Why scale the dot product by sqrt(d)?", "Keeps the softmax out of its flat region."),
    ]
    bare = imported(
        invoke, tmp_path, NESTED, "--questions", "items:2", "--answers", "none", bank_name="bare"
    )
    assert [q.reference for q in bare.questions] == [None, None, None]


def test_bold_lines_tables_details_and_every_asking_line(invoke, tmp_path):
    bold = imported(
        invoke,
        tmp_path,
        "## RAG\n\n**什么是 RAG** —— 先检索再生成。\n\n**切块大小怎么选**\n\n看任务，300–800 字常见。\n",
        "--questions",
        "bold",
        bank_name="bold",
    )
    assert [(q.question, q.reference) for q in bold.questions] == [
        ("什么是 RAG", "先检索再生成。"),
        ("切块大小怎么选", "看任务，300–800 字常见。"),
    ]
    table = imported(
        invoke,
        tmp_path,
        "| 编号 | 题目 | 参考答案 |\n|---|---|---|\n| 1 | KV 缓存存什么 | K 和 V |\n"
        "| 2 | 为什么不存 Q | Q 只用一次 |\n",
        "--questions",
        "table:题目",
        bank_name="table",
    )
    assert [(q.question, q.reference) for q in table.questions] == [
        ("KV 缓存存什么", "K 和 V"),
        ("为什么不存 Q", "Q 只用一次"),
    ]
    details = imported(
        invoke,
        tmp_path,
        "# FAQ\n\n<details>\n<summary>Explain beam search</summary>\n\nKeep the k best prefixes."
        "\n\n</details>\n\n<details><summary>Greedy decoding</summary>\n\nTake the argmax.\n\n"
        "</details>\n",
        "--questions",
        "details",
        bank_name="details",
    )
    assert [(q.question, q.reference) for q in details.questions] == [
        ("Explain beam search", "Keep the k best prefixes."),
        ("Greedy decoding", "Take the argmax."),
    ]
    lines = imported(
        invoke,
        tmp_path,
        "面试复盘\n\n一面先聊项目。然后问 LoRA 的秩怎么选？\n我说看任务。\n\n"
        "为什么 DPO 不需要奖励模型？\n因为它把奖励写进了策略的对数比。\n",
        "--questions",
        "lines",
        bank_name="lines",
    )
    assert [(q.question, q.reference) for q in lines.questions] == [
        ("一面先聊项目。然后问 LoRA 的秩怎么选？", "我说看任务。"),
        ("为什么 DPO 不需要奖励模型？", "因为它把奖励写进了策略的对数比。"),
    ]


def test_notebook_cells_are_questions_with_the_code_after_them_as_answer(invoke, tmp_path):
    cells = [
        {
            "cell_type": "markdown",
            "metadata": {},
            "source": ["## 实现 softmax\n", "数值稳定的写法"],
        },
        {"cell_type": "code", "metadata": {}, "source": ["x = x - x.max()\n", "e = np.exp(x)"]},
        {"cell_type": "markdown", "metadata": {}, "source": ["## 实现 LayerNorm"]},
        {"cell_type": "code", "metadata": {}, "source": ["(x - mu) / sigma"], "outputs": []},
    ]
    notebook = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    loaded = imported(invoke, tmp_path, notebook, "--questions", "cells", name="nb.ipynb")
    assert [(q.question, q.reference) for q in loaded.questions] == [
        ("实现 softmax", "数值稳定的写法\n\n```\nx = x - x.max()\ne = np.exp(x)\n```"),
        ("实现 LayerNorm", "```\n(x - mu) / sigma\n```"),
    ]


@pytest.mark.parametrize(
    ("options", "message", "hint"),
    [
        (["--questions", "heading"], "--questions 'heading': not a place questions can sit",
         "give one of headings:N, items, items:N, bold, lines, table:COLUMN, details, cells"),
        (["--questions", "headings"], "--questions 'headings': say which heading level (1–6)",
         "--questions headings:3 for '### …' headings"),
        (["--questions", "headings:9"], "--questions 'headings:9': no such heading level",
         "headings go from 1 (#) to 6 (######)"),
        (["--answers", "maybe"], "--answers 'maybe': not a way to find answers",
         "give --answers none"),
        (["--questions", "cells"], "--questions cells reads a Jupyter notebook (.ipynb)",
         "--questions headings:N, items or lines"),
        (["--questions", "headings:4"],
         "--questions headings:4 finds nothing: its headings are of level 1",
         "preview the file without --questions to see what it holds"),
        (["--questions", "items:3"], "--questions items:3 finds nothing: its lists go 2 deep",
         "preview the file without --questions"),
        (["--questions", "table:问题"], "--questions table:问题 finds nothing: no tables",
         "preview the file without --questions"),
    ],
)  # fmt: skip
def test_a_bad_selector_is_one_clear_message_with_a_hint(invoke, tmp_path, options, message, hint):
    path = tmp_path / "q.md"
    path.write_text(NESTED, encoding="utf-8")
    result = invoke("bank", "import", str(path), "--preview", *options)
    assert result.exit_code == 2
    assert message in result.stderr
    assert f"Hint: {hint}" in result.stderr or hint in result.stderr.split("Hint:")[1]
    assert "Traceback" not in result.stderr


def test_a_selector_on_records_points_to_map(invoke, tmp_path):
    path = tmp_path / "q.csv"
    path.write_text("question,answer\nWhat is BPE?,Merges pairs.\n", encoding="utf-8")
    result = invoke("bank", "import", str(path), "--preview", "--questions", "items")
    assert result.exit_code == 2
    assert "--questions reads Markdown files and notebooks, not CSV" in result.stderr
    assert "--map question=KEY,answer=KEY" in result.stderr


def test_the_bank_remembers_its_selectors_for_the_next_import_of_the_file(invoke, tmp_path):
    path = tmp_path / "q.md"
    first = imported(invoke, tmp_path, NESTED, "--questions", "items:2", "--answers", "none")
    assert len(first.questions) == 3
    path.write_text(NESTED + "  - What is a KV cache?\n", encoding="utf-8")
    again = invoke("bank", "import", str(path), "--name", "mine", "--force")
    assert again.exit_code == 0, again.stderr
    assert (
        "Read with --questions items:2 --answers none, as when 'mine' was imported from it"
        in again.stdout
    )
    loaded = bank.load("mine")
    assert [q.question for q in loaded.questions][-1] == "What is a KV cache?"
    assert len(loaded.questions) == 4 and not any(q.reference for q in loaded.questions)
    other = tmp_path / "other.md"
    other.write_text(NESTED, encoding="utf-8")  # another file under the same name: no memory
    fresh = invoke("bank", "import", str(other), "--name", "mine", "--force")
    assert "as when 'mine' was imported" not in fresh.stdout
    changed = invoke(
        "bank", "import", str(path), "--name", "mine", "--force", "--questions", "items"
    )
    assert "as when 'mine' was imported" not in changed.stdout
    assert len(bank.load("mine").questions) == 6


def test_the_bank_remembers_its_level_for_the_next_import_of_the_file(invoke, tmp_path):
    path = tmp_path / "topics.md"
    text = "# Notes\n\n## Attention\n\nScaled dot products.\n\n## Batching\n\nJoin between steps.\n"
    path.write_text(text, encoding="utf-8")
    first = invoke("bank", "import", str(path), "--name", "topics", "--level", "2")
    assert first.exit_code == 0, first.stderr
    path.write_text(text + "\n## Paging\n\nBlocks of the cache.\n", encoding="utf-8")
    again = invoke("bank", "import", str(path), "--name", "topics", "--force")
    assert again.exit_code == 0, again.stderr
    assert "Read with --level 2, as when 'topics' was imported from it" in again.stdout
    assert [(q.question, q.reference) for q in bank.load("topics").questions] == [
        ("Attention", "Scaled dot products."),
        ("Batching", "Join between steps."),
        ("Paging", "Blocks of the cache."),
    ]
