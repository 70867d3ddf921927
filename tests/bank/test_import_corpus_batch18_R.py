"""Failure classes an eighteenth batch of real public question files showed (issue 34), part R.

Each file here is written for the test, in the shape those files had: a JSON object whose
records sit under their numbers or ids instead of in a list; a numbered list whose items are
each an indented ``<details>`` box; a notebook whose question cell is followed by a cell
that explains, with no question in it.
"""

from __future__ import annotations

import json

from imported import notebook_text, previewed, questions, read

_NUMBERED = json.dumps(
    {
        "1": {"title": "1. What is tokenization?", "dir": "./q/01", "widget": "Token explorer"},
        "2": {"title": "2. Why does attention scale badly?", "dir": "./q/02", "widget": "Heatmap"},
        "3": {"title": "3. What is a context window?", "dir": "./q/03", "widget": "Slider"},
    },
    indent=2,
)


def test_an_object_of_numbered_records_is_a_list_of_questions(invoke, tmp_path):
    report = read(tmp_path, _NUMBERED, "manifest.json")
    assert questions(report) == [
        "What is tokenization?",
        "Why does attention scale badly?",
        "What is a context window?",
    ]
    shown = previewed(invoke, tmp_path, _NUMBERED, "manifest.json")
    assert "first: Q1 What is tokenization?" in shown
    assert "last: Q3 What is a context window?" in shown
    assert "Read question ← 'title'" in shown


def test_records_keyed_by_ids_keep_the_order_written_and_take_a_map(invoke, tmp_path):
    text = json.dumps(
        {
            "q-b": {"prompt_text": "Why normalise inputs?", "body": "Steadier steps."},
            "q-a": {"prompt_text": "What is overfitting?", "body": "Fitting the noise."},
        }
    )
    mapping = (("question", "prompt_text"), ("answer", "body"))
    report = read(tmp_path, text, "ids.json", mapping=mapping)
    answers = {q.question: q.reference for q in report.bank.questions}
    assert list(answers) == ["Why normalise inputs?", "What is overfitting?"]
    assert answers["What is overfitting?"] == "Fitting the noise."
    shown = previewed(invoke, tmp_path, text, "ids.json", "--map", "answer=body")
    assert "2 with a reference answer" in shown


def test_an_object_that_mixes_records_with_settings_is_still_refused(invoke, tmp_path):
    text = json.dumps({"meta": {"title": "My bank"}, "settings": {"shuffle": True}})
    path = tmp_path / "settings.json"
    path.write_text(text, encoding="utf-8")
    result = invoke("bank", "import", str(path), "--preview")
    assert result.exit_code != 0
    assert "expected a list of questions" in result.stderr


_LISTED_BOXES = """### 题目汇总
#### 进程
1.\x20
    <details><summary>进程与线程有什么区别？\x20
    </summary>
    进程是资源分配的单位，线程是调度的单位。 <br/>
    </details>
2.\x20
    <details><summary>title
    </summary>
    contents
    </details>
#### 内存
1.\x20
    <details><summary>栈和堆的区别</summary>\x20

    栈由编译器管理，堆由程序员申请和释放。\x20
    </details>

2.\x20
    <details><summary>什么是内存泄漏？
    </summary>
    申请的内存没有释放。
    </details>
"""


def test_numbered_items_holding_details_boxes_are_the_questions(invoke, tmp_path):
    report = read(tmp_path, _LISTED_BOXES)
    answers = {q.question: q.reference for q in report.bank.questions}
    assert list(answers) == ["进程与线程有什么区别？", "栈和堆的区别", "什么是内存泄漏？"]
    assert "线程是调度的单位" in answers["进程与线程有什么区别？"]
    assert "堆由程序员申请和释放" in answers["栈和堆的区别"]
    assert answers["什么是内存泄漏？"] == "申请的内存没有释放。"
    shown = previewed(invoke, tmp_path, _LISTED_BOXES)
    assert "第 1 章 进程: 1 question(s)" in shown
    assert "第 2 章 内存: 2 question(s)" in shown
    assert "Total: 3 question(s) in 2 chapter(s); 3 with a reference answer" in shown


def test_the_details_selector_leaves_a_template_box_out(tmp_path):
    report = read(tmp_path, _LISTED_BOXES, questions="details")
    assert "title" not in questions(report)
    assert len(questions(report)) == 3


_EXPLAINED = notebook_text(
    ("code", "import numpy as np"),
    ("markdown", "什么是过拟合？"),
    ("markdown", "我们先画出样本，看看特征和标签的关系"),
    ("code", "x = np.linspace(0, 1, 10)"),
    ("markdown", "再用一个高阶多项式去拟合它"),
)


def test_a_cell_that_explains_after_the_question_cell_is_its_answer(invoke, tmp_path):
    report = read(tmp_path, _EXPLAINED, "nb.ipynb")
    assert questions(report) == ["什么是过拟合？"]
    answer = report.bank.questions[0].reference or ""
    assert answer.startswith("我们先画出样本")
    assert "高阶多项式" in answer
    shown = previewed(invoke, tmp_path, _EXPLAINED, "nb.ipynb")
    assert "Total: 1 question(s) in 1 chapter(s); 1 with a reference answer" in shown


def test_a_cell_that_asks_after_the_question_cell_is_the_next_question(tmp_path):
    text = notebook_text(
        ("markdown", "什么是过拟合？"),
        ("markdown", "什么是欠拟合？"),
        ("markdown", "模型太简单，训练误差也大。"),
    )
    report = read(tmp_path, text, "nb.ipynb")
    assert questions(report) == ["什么是过拟合？", "什么是欠拟合？"]
