"""Failure classes a thirty-second batch of real public question files showed, part I6.

Each file here is written for the test, in the shape those files had: a multiple-choice quiz
whose right option is in bold and whose every option has an ``*Explanation:*`` line under
it (a hard break between them); a ``+`` bullet list of interview questions where some items
set a task without a question mark (``Find all …``, ``Name a few …``) or name a topic over
their own nested answer; study notes whose question headings carry a stray emphasis star
before their marker (``### *Q12: …``).
"""

from __future__ import annotations

from imported import questions, read

_QUIZ = """### Question 1:
**Which layer turns pixels into feature maps?**
- A) A pooling layer.|
  *Explanation:* Wrong; pooling only shrinks the maps it is given.
- **B) A convolutional layer.**|
  *Explanation:* Right: its filters slide over the image and give one map each.
- C) A softmax layer.|
  *Explanation:* Wrong; softmax turns scores into probabilities.

---

### Question 2:
**What does dropout do while training?**
- **A) It zeroes random units.**|
  *Explanation:* Right: each step drops a random share of the units.
- B) It removes whole layers.|
  *Explanation:* Wrong; the layers stay, some units are silenced.
""".replace("|\n", "  \n")  # "|": where a hard break's two spaces end the line


def test_a_bold_option_and_the_options_explanations_are_the_answer(tmp_path):
    report = read(tmp_path, _QUIZ)
    assert questions(report) == [
        "Which layer turns pixels into feature maps?\n- A. A pooling layer.\n"
        "- B. A convolutional layer.\n- C. A softmax layer.",
        "What does dropout do while training?\n- A. It zeroes random units.\n"
        "- B. It removes whole layers.",
    ]
    first, second = report.bank.questions
    assert (first.reference or "").startswith("B. A convolutional layer.")
    assert "- C: *Explanation:* Wrong; softmax" in (first.reference or "")
    assert (second.reference or "").startswith("A. It zeroes random units.")
    assert "Explanation" not in first.question


_BULLETS = """## Coding

Sample Questions
+ How do you reverse a linked list?

+ Given two sorted arrays, find their common values.
+ What is the cost of a hash lookup? Can it be worse?
+ Find all pairs of numbers that add up to a target.

## Models

+ What is a decision tree?
  - A tree of tests on features, a label at each leaf.
+ Strengths of random forests
  - Little tuning
  - Robust to noise
+ Why do forests overfit less than single trees?
+ Name a few boosting libraries
  - XGBoost, LightGBM, CatBoost
"""


def test_bullet_tasks_and_answered_topic_items_in_an_asking_list_are_questions(tmp_path):
    report = read(tmp_path, _BULLETS)
    assert questions(report) == [
        "How do you reverse a linked list?",
        "Given two sorted arrays, find their common values.",
        "What is the cost of a hash lookup? Can it be worse?",
        "Find all pairs of numbers that add up to a target.",
        "What is a decision tree?",
        "Strengths of random forests",
        "Why do forests overfit less than single trees?",
        "Name a few boosting libraries",
    ]
    strengths, libraries = report.bank.questions[5], report.bank.questions[7]
    assert list(strengths.key_points) == ["Little tuning", "Robust to noise"]
    assert list(libraries.key_points) == ["XGBoost, LightGBM, CatBoost"]
    assert report.bank.questions[6].reference is None  # no answer of another item


_STARRED = """# Part one

### Q11: What is a feature store?

A shared place for features, online and offline.

### *Q12: How do you version a model?

Tag the weights with the data and code that made them.

### *Q13: What is shadow traffic?*

Copies of live requests sent to a new model.
"""


def test_a_stray_star_before_a_headings_marker_is_no_text(tmp_path):
    report = read(tmp_path, _STARRED)
    assert questions(report) == [
        "What is a feature store?",
        "How do you version a model?",
        "What is shadow traffic?",
    ]
    assert all(q.reference for q in report.bank.questions)


_REVIEW = """---
# Three questions per page.
    # question: one sentence

review:
    - questions:
        question: >
            Does a max-pooling layer have weights to learn?
        answers:
            - "Yes"
            - "No"
        correct_answer: 1
        explanation: >
            No: it only keeps the largest value of each window.
    - questions:
        question: >
            Can a model be quantized after training?
        answers:
            - "Yes"
            - "No"
        correct_answer: 0
        explanation: >
            Yes, post-training quantization needs no retraining.

title: "Review"
weight: 20
---
"""


def test_questions_only_in_front_matter_are_read_as_its_records(tmp_path):
    report = read(tmp_path, _REVIEW, name="_review.md")
    assert questions(report) == [
        "Does a max-pooling layer have weights to learn?\n- A. Yes\n- B. No",
        "Can a model be quantized after training?\n- A. Yes\n- B. No",
    ]
    pooling, quantized = report.bank.questions
    assert (pooling.reference or "").startswith("No\n\nNo: it only keeps")
    assert (quantized.reference or "").startswith("Yes\n\nYes, post-training")


def test_front_matter_stays_metadata_beside_questions_in_the_text(tmp_path):
    text = "---\ntitle: Pooling\nquestion: Is this a question?\n---\n\n## What is pooling?\n\nA summary of each window.\n"
    report = read(tmp_path, text)
    assert questions(report) == ["What is pooling?"]
