"""Failure classes a seventeenth batch of real public question files showed (issue 34), part P.

Each file here is written for the test, in the shape those files had: Anki's plain-text card
export under a ``# …`` title line, most cards without a back; a headerless card export whose
fronts and backs are HTML (``<code>``, ``<a href=…>``, ``<strong>``, ``<br>``, entities); a
notebook whose questions are one numbered list in a cell and whose answers are later cells
numbered ``1. …`` … ``N. …`` under an ``答案`` label.
"""

from __future__ import annotations

from imported import notebook_text, previewed, questions, read

_TITLED_DECK = (
    "# Cards from my compilers course\n"
    "Name the phase after lexing\n"
    "What does a <b>parser</b> build?\tAn <b>abstract syntax tree</b>.<br>Checks run on it.\n"
    "Why is left recursion a problem for LL parsers?\n"
    "What is constant folding?\tEvaluating <code>2 * 3</code> at compile time &amp; emitting "
    "<code>6</code>.\n"
    "How does register allocation use graph colouring?\n"
)


def test_a_card_export_under_a_title_line_is_cards_and_the_title_their_chapter(tmp_path):
    report = read(tmp_path, _TITLED_DECK, "deck.txt")
    assert questions(report) == [
        "Name the phase after lexing",
        "What does a parser build?",
        "Why is left recursion a problem for LL parsers?",
        "What is constant folding?",
        "How does register allocation use graph colouring?",
    ]
    assert [q.reference for q in report.bank.questions] == [
        None,
        "An **abstract syntax tree**.\nChecks run on it.",
        None,
        "Evaluating `2 * 3` at compile time & emitting `6`.",
        None,
    ]
    assert {c.title for c in report.bank.chapters} == {"Cards from my compilers course"}


def test_the_preview_of_a_titled_card_export_names_the_title_and_every_card(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _TITLED_DECK, "deck.txt")
    assert "Cards from my compilers course: 5 question(s)" in shown
    assert "Line 1 is the deck's title (Cards from my compilers course)" in shown
    assert "Total: 5 question(s) in 1 chapter(s); 2 with a reference answer" in shown


def test_a_titled_text_file_of_list_items_with_a_tab_stays_markdown(tmp_path):
    notes = (
        "# Compiler notes\n"
        "- What is a basic block?\tA straight run of instructions.\n"
        "- What is SSA form?\n"
        "- Why do compilers inline small functions?\n"
    )
    report = read(tmp_path, notes, "notes.txt")
    assert report.bank.title == "Compiler notes"
    assert len(questions(report)) == 3
    assert questions(report)[1:] == [
        "What is SSA form?",
        "Why do compilers inline small functions?",
    ]


_HTML_CARDS = (
    "Which call frees a <code>Tensor</code>'s gradient history?\t"
    "Call <code>detach()</code>.<br>It shares storage.\n"
    'What did <a href="https://example.org/book">the 1986 book</a> call hidden units?\t'
    "Internal representations &amp; features.\n"
    "How do you update weights <strong>without</strong> autograd tracking?\t"
    "Inside <code>torch.no_grad()</code>.\n"
    "What is the difference between <div> and <span>?\t"
    "One is a block, the other inline.<br>Both are generic.\n"
)


def test_html_in_card_fronts_and_backs_is_read_as_text(tmp_path):
    report = read(tmp_path, _HTML_CARDS, "cards.txt")
    assert questions(report) == [
        "Which call frees a `Tensor`'s gradient history?",
        "What did the 1986 book call hidden units?",
        "How do you update weights without autograd tracking?",
        "What is the difference between <div> and <span>?",  # text about HTML stays
    ]
    assert [q.reference for q in report.bank.questions] == [
        "Call `detach()`.\nIt shares storage.",
        "Internal representations & features.",
        "Inside `torch.no_grad()`.",
        "One is a block, the other inline.\nBoth are generic.",
    ]


_KEYED_NOTEBOOK = notebook_text(
    ("markdown", "# 笔试题\n"),
    ("markdown", "### 某公司一面\n"),
    (
        "markdown",
        "1. 什么是过拟合？\n2. 梯度消失怎么缓解？\n3. 写出快速排序并说明复杂度\n"
        "4. 常见的降维方法有哪些？\n",
    ),
    ("markdown", "**答案**\n"),
    ("markdown", "1. 模型在训练集上很好，在新数据上变差。\n"),
    ("markdown", "2. 用残差连接、归一化和合适的初始化。\n"),
    ("markdown", "3. 快排\n"),
    ("code", "def quick(xs):\n    return xs\n"),
    (
        "markdown",
        "4. 降维\n\n**方法**：\n   1. 主成分分析，按方差取方向\n   2. 线性判别分析\n\n"
        "### PCA\n**步骤：**\n   * 中心化数据\n   * 求协方差矩阵的特征向量\n",
    ),
)


def test_numbered_answer_cells_under_an_answer_label_answer_the_question_list(tmp_path):
    report = read(tmp_path, _KEYED_NOTEBOOK, "quiz.ipynb")
    assert questions(report) == [
        "什么是过拟合？",
        "梯度消失怎么缓解？",
        "写出快速排序并说明复杂度",
        "常见的降维方法有哪些？",
    ]
    answers = [q.reference or "" for q in report.bank.questions]
    assert answers[:3] == [
        "模型在训练集上很好，在新数据上变差。",
        "用残差连接、归一化和合适的初始化。",
        "快排",
    ]
    assert answers[3].startswith("降维\n\n**方法**：")  # its own numbered list and heading too
    assert "主成分分析" in answers[3] and "求协方差矩阵的特征向量" in answers[3]


def test_the_preview_of_an_answer_key_shows_no_question_from_inside_an_answer(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _KEYED_NOTEBOOK, "quiz.ipynb")
    assert "Total: 4 question(s) in 1 chapter(s); 4 with a reference answer" in shown
    assert "PCA:" not in shown  # the answer's heading is no chapter


def test_an_answer_key_in_markdown_ends_at_the_next_list_of_questions(tmp_path):
    text = (
        "## Round one\n\n1. What is a hash map?\n2. What is a heap?\n\n## Answers\n\n"
        "1. Buckets indexed by a hash.\n2. A tree where each parent is ordered before its "
        "children.\n\n## Round two\n\n1. What is a trie?\n2. What is a B-tree?\n"
    )
    report = read(tmp_path, text)
    assert [(q.question, q.reference) for q in report.bank.questions] == [
        ("What is a hash map?", "Buckets indexed by a hash."),
        ("What is a heap?", "A tree where each parent is ordered before its children."),
        ("What is a trie?", None),
        ("What is a B-tree?", None),
    ]


def test_a_label_over_items_not_numbered_from_one_is_no_answer_key(tmp_path):
    text = (
        "1. What is a mutex?\n2. What is a semaphore?\n\n**答案**\n\n"
        "3. What is a condition variable?\n"
    )
    report = read(tmp_path, text)
    assert [q.reference for q in report.bank.questions][:2] == [None, None]
