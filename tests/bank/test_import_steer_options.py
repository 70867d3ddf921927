"""The preview names ``--level N`` when it reads the file plainly better (issue 34, item 2):
the same asking questions, the same answers, and a few stray section titles left out (the
``#### 1. Counting Words`` code examples at the end of a question list). It names none where
many questions do not ask: there they are the file's own terse questions.

The files are written for the test in the shapes of real question lists seen in the corpus.
"""

from __future__ import annotations

import json

from imported import previewed, questions, read

CARDS = [
    ("What Does the Borrow Checker Enforce?", "One mutable reference or many shared ones."),
    ("Why Does Rust Have No Garbage Collector?", "Ownership decides when a value is dropped."),
    ("When Would You Reach for Rc Instead of Box?", "When several owners share one value."),
    ("How Do Lifetimes Relate to References?", "A lifetime names how long a borrow lives."),
    ("What Is the Difference Between String and &str?", "String owns; &str borrows a slice."),
]
TOPICS = ["traits", "closures", "iterators", "modules", "macros", "errors", "slices"]
ROWS = [
    (f"What should you know about {topic} in part {part}?", f"Part {part} of {topic}.")
    for topic in TOPICS
    for part in (1, 2, 3, 4)
]
EXAMPLES = ["Counting Words with a HashMap", "Sharing State Across Threads", "An Iterator Adapter"]


def questions_file(examples: list[str] = EXAMPLES, rows: list[tuple[str, str]] = ROWS) -> str:
    """A list of ``###`` question cards, a quick-reference table of questions, then code examples
    under ``####`` titles that do not ask."""
    text = "# Rust Interview Questions\n\n## Core Questions\n\n"
    text += "".join(f"### {q}\n\n{a}\n\n" for q, a in CARDS)
    text += "## Quick Reference\n\n| # | Question | Short answer |\n|---|---|---|\n"
    text += "".join(f"| {n} | {q} | {a} |\n" for n, (q, a) in enumerate(rows, 1))
    text += "\n## Code Examples\n\n"
    text += "".join(
        f"#### {n}. {title}\n\n```rust\nlet example = {n};\n```\n\n"
        for n, title in enumerate(examples, 1)
    )
    return text


def test_the_preview_names_the_level_that_leaves_the_code_titles_out(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, questions_file(), "rust.md")
    assert "Took 36 question(s): 33 of the file's" in shown
    assert "3 that do not ask" in shown
    assert "Try --level 3: 33 questions, 3 fewer questions that do not ask" in shown
    assert shown.endswith(f"Run: studybot bank import {tmp_path / 'rust.md'} --name rust --level 3")


def test_following_it_keeps_every_question_and_answer_and_names_nothing_more(invoke, tmp_path):
    default = questions(read(tmp_path, questions_file(), "rust.md"))
    report = read(tmp_path, questions_file(), "rust.md", level=3)
    taken = questions(report)
    assert taken == [q for q in default if q.split(". ", 1)[-1] not in EXAMPLES]
    assert taken[:5] == [q for q, _ in CARDS]
    assert len(taken) == len(CARDS) + len(ROWS)
    assert report.bank.questions[0].reference == CARDS[0][1]
    shown = previewed(invoke, tmp_path, questions_file(), "rust.md", "--level", "3")
    assert "Took 33 question(s): 33 of the file's" in shown
    assert "0 that do not ask" in shown
    assert "Try " not in shown


def test_the_json_names_it_with_why(invoke, tmp_path):
    path = tmp_path / "rust.md"
    path.write_text(questions_file(), encoding="utf-8")
    data = json.loads(invoke("bank", "import", str(path), "--preview", "--json").stdout)
    suggestion = data["steer"]["suggestion"]
    assert suggestion["option"] == "--level 3"
    assert suggestion["why"] == "3 fewer questions that do not ask"


def test_two_titles_are_no_reason_to_name_a_level(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, questions_file(EXAMPLES[:2]), "rust.md")
    assert "2 that do not ask" in shown
    assert "--level" not in shown


def test_no_level_is_named_where_many_questions_do_not_ask(invoke, tmp_path):
    """A short list, five asking cards, four rows and three titles: the titles may be its
    questions (one question in ten at most may not ask for a level to be named)."""
    text = questions_file(rows=ROWS[:4])
    shown = previewed(invoke, tmp_path, text, "short.md")
    assert "Took 12 question(s): 9 of the file's" in shown
    assert "3 that do not ask" in shown
    assert "--level" not in shown
