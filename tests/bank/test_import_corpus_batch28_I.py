"""Failure classes a twenty-eighth batch of real public question files showed, part I.

Each file here is written for the test, in the shape those files had: JSON flashcards whose
answers are operators written in angle brackets (``<~>``) and whose questions spell out an
acronym in brackets; interview notes whose heading questions carry ``[Question]`` or
``2>`` in front, and whose empty question heading is answered by the shallower sections
after it; a notebook whose Markdown cells open with ``##Problem 1`` (no space) over the
problem's paragraph; a question list that closes with a list of bold tips.
"""

from __future__ import annotations

import json

from imported import notebook_text, questions, read

_OPERATORS = json.dumps(
    [
        {"question": "Which operator gives the L1 distance in the extension?", "answer": "<+>"},
        {"question": "Which operator gives the bitwise distance?", "answer": "<~>"},
        {"question": "Which operator gives set overlap?", "answer": "<%>"},
        {
            "question": "What is an MVCC (Multi Version Concurrency Control) snapshot?",
            "answer": "x",
        },
        {"question": "What does WAL stand for (common)?", "answer": "Write-ahead log"},
        {"question": "What marks a separator?", "answer": "---"},
    ]
)


def test_an_operator_in_angle_brackets_is_an_answer_and_a_spelled_out_acronym_stays(tmp_path):
    report = read(tmp_path, _OPERATORS, "cards.json")
    assert questions(report) == [
        "Which operator gives the L1 distance in the extension?",
        "Which operator gives the bitwise distance?",
        "Which operator gives set overlap?",
        "What is an MVCC (Multi Version Concurrency Control) snapshot?",
        "What does WAL stand for?",  # "(common)" is a note on the question, not part of it
        "What marks a separator?",
    ]
    answers = [q.reference for q in report.bank.questions]
    assert answers[:3] == ["<+>", "<~>", "<%>"]
    assert answers[5] is None  # a rule with no word is still no answer


def test_an_operator_answer_under_a_markdown_heading_is_kept(tmp_path):
    report = read(tmp_path, "# Ops\n\n## Which operator compares two rows?\n\n<=>\n")
    assert [q.reference for q in report.bank.questions] == ["<=>"]


_MARKED = """# Text models

#### [Question] What does a tokenizer produce ?

Ids of sub-word pieces.

#### 2> Is byte-pair encoding greedy ?

Yes, it merges the most frequent pair first.

#### [Q] What is a vocabulary?

The set of pieces a tokenizer knows.

#### 【问题】为什么要用子词？

兼顾词表大小与未登录词。

#### What is quantization ?

### 1. **Quantization stores weights in fewer bits**:

- Each weight is stored in 4 or 8 bits instead of 16.

### Why Quantization Helps:

- Less memory, faster matrix products.

### Summary:

- Smaller models that run on one card.

#### What is distillation ?

A small model learns from a large one's outputs.
"""


def test_question_markers_go_and_an_empty_question_takes_the_shallower_sections(tmp_path):
    report = read(tmp_path, _MARKED)
    assert questions(report) == [
        "What does a tokenizer produce ?",
        "Is byte-pair encoding greedy ?",
        "What is a vocabulary?",
        "为什么要用子词？",
        "What is quantization ?",
        "What is distillation ?",
    ]
    quantization = report.bank.questions[4].reference or ""
    assert "fewer bits" in quantization and "Less memory" in quantization
    assert "one card" in quantization
    assert report.bank.questions[5].reference == "A small model learns from a large one's outputs."


def test_a_shallower_heading_that_names_another_subject_stays_a_section(tmp_path):
    text = "# Notes\n\n#### What is a vector index ?\n\n### Chapter two\n\nIntro.\n\n"
    text += "#### What is recall ?\n\nShare of true neighbours found.\n"
    report = read(tmp_path, text)
    assert questions(report) == ["What is a vector index ?", "What is recall ?"]
    assert report.bank.questions[0].reference is None


def test_a_notebook_heading_with_no_space_after_its_marks_is_a_heading(tmp_path):
    text = notebook_text(
        ("markdown", "##Problem 1\nA die is rolled twice. What is the chance of two sixes?"),
        ("markdown", "###My answer explained:\nEach roll is a sixth, so a sixth of a sixth."),
        ("code", "print(1 / 36)"),
        ("markdown", "##Problem 2\nA coin is flipped until heads. How many flips on average?"),
        ("markdown", "###My answer explained:\nA geometric distribution with p = 1/2: two."),
    )
    report = read(tmp_path, text, "problems.ipynb")
    assert questions(report) == [
        "A die is rolled twice. What is the chance of two sixes?",
        "A coin is flipped until heads. How many flips on average?",
    ]
    assert all(q.reference for q in report.bank.questions)


_TIPS = """# Data questions

1. **What is a feature store?**
   A shared place for model inputs.

2. **What is data drift?**
   A change in the input distribution over time.

### Tips for the day

* **Bring a notebook**: Write down what you are asked.
* **Sleep well**: A rested mind thinks faster.
* **Describe your projects**: Tell how you chose the model and why.
"""


def test_a_task_label_among_bold_tips_is_a_tip(tmp_path):
    report = read(tmp_path, _TIPS)
    assert questions(report) == ["What is a feature store?", "What is data drift?"]


def test_a_capitalised_heading_ending_in_a_colon_is_a_label(tmp_path):
    text = "# Notes\n\n#### What is pruning ?\n\nRemoving weights.\n\n### Why Pruning Helps:\n\n"
    text += "- Smaller models.\n\n#### How to evaluate pruning :\n\nCompare accuracy.\n"
    report = read(tmp_path, text)
    assert questions(report) == ["What is pruning ?", "How to evaluate pruning :"]
