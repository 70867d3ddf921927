"""YAML question files (issue 34): read as JSON records are, by PyYAML's safe loader.

The files are written for these tests: a quiz list of ``{title, type, text, opt, ans, sol}``
records (the stem asks; the title is a short label, kept as the hint), topics → questions,
keys nobody names read with ``--map``, and the YAML a user gets wrong.
"""

from __future__ import annotations

from studybot import bank

QUIZ = """---
# a quiz on inference

- title: Scaling the scores
  type: mcq
  text: Which term keeps the attention logits in range?
  opt:
    - the softmax temperature
    - 1/sqrt(d_k)
    - the value projection
  ans:
    - 1/sqrt(d_k)
  sol:
    Dividing by the square root of the key size keeps the dot products from growing with it.
  tags:
    - attention
  diff: easy
  ref: NULL

- title: What the cache keeps
  type: mcq
  text: What does a KV cache hold between decoding steps?
  opt:
    - the queries of every token
    - the keys and values of past tokens
  ans: 1
  sol:
    - Past keys and values are read again at each step.
    - Queries are used once and dropped.
  diff: medium
"""

TOPICS = """Attention:
  - question: Why scale the dot product?
    answer: To keep the softmax out of its flat regions.
  - question: What do multiple heads add?
    answer: Several subspaces attended at once.
Serving:
  - question: What is continuous batching?
    answer: Requests join and leave a running batch between steps.
"""


def test_a_yaml_quiz_is_read_as_questions_with_their_options_and_answers(invoke, tmp_path):
    path = tmp_path / "inference-quiz.yml"
    path.write_text(QUIZ, encoding="utf-8")
    shown = invoke("bank", "import", str(path), "--preview")
    assert shown.exit_code == 0, shown.stderr
    out = shown.stdout
    assert "first: Q1 Which term keeps the attention logits in range? (+3 lines)" in out
    assert "last:  Q2 What does a KV cache hold between decoding steps? (+2 lines)" in out
    assert "Read question ← 'text', answer ← 'ans', hint ← 'title', tags ← 'tags'" in out
    assert "Options shown under each question; the answer is the chosen option" in out
    assert "As tags: 'diff'" in out
    assert "Not used: 'type', 'ref'" in out
    assert "Total: 2 question(s) in 1 chapter(s); 2 with a reference answer" in out
    saved = invoke("bank", "import", str(path), "--name", "quiz")
    assert saved.exit_code == 0, saved.stderr
    first, second = bank.load("quiz").questions
    assert first.question == (
        "Which term keeps the attention logits in range?\n"
        "- A. the softmax temperature\n- B. 1/sqrt(d_k)\n- C. the value projection"
    )
    assert first.reference == (
        "1/sqrt(d_k)\n\nDividing by the square root of the key size keeps the dot products "
        "from growing with it."
    )
    assert first.hint == "Scaling the scores"
    assert set(first.tags) == {"attention", "difficulty:easy"}
    assert second.reference == (
        "the keys and values of past tokens\n\nPast keys and values are read again at each "
        "step.\nQueries are used once and dropped."
    )


def test_topics_holding_questions_become_chapters(invoke, tmp_path):
    path = tmp_path / "llm.yaml"
    path.write_text(TOPICS, encoding="utf-8")
    saved = invoke("bank", "import", str(path), "--name", "llm")
    assert saved.exit_code == 0, saved.stderr
    assert "3 questions (Q1–Q3) in 2 chapter(s)" in saved.stdout
    loaded = bank.load("llm")
    assert [c.title for c in loaded.chapters] == ["Attention", "Serving"]
    assert loaded.questions[2].question == "What is continuous batching?"
    assert loaded.questions[2].reference == "Requests join and leave a running batch between steps."


def test_keys_nobody_names_are_read_with_map_and_a_record_names_its_line(invoke, tmp_path):
    path = tmp_path / "cards.yml"
    path.write_text(
        "- cue: What is speculative decoding?\n  recall: A small model drafts, the large one "
        "checks.\n- cue: [not, text]\n  recall: nothing\n",
        encoding="utf-8",
    )
    plain = invoke("bank", "import", str(path), "--preview")
    assert plain.exit_code == 2
    assert f"{path}:1: no key holds the questions (keys: cue, recall)" in plain.stderr
    assert "Hint: --map question=cue" in plain.stderr
    mapping = "question=cue,answer=recall"
    wrong = invoke("bank", "import", str(path), "--preview", "--map", mapping)
    assert wrong.exit_code == 2
    assert f"{path}:3: Q2 has no question text" in wrong.stderr  # the list's line, not "item 2"
    path.write_text(path.read_text(encoding="utf-8").replace("[not, text]", "Why verify drafts?"))
    mapped = invoke("bank", "import", str(path), "--preview", "--map", mapping)
    assert mapped.exit_code == 0, mapped.stderr
    assert "Read question ← 'cue', answer ← 'recall'" in mapped.stdout
    assert "first: Q1 What is speculative decoding?" in mapped.stdout
    assert "last:  Q2 Why verify drafts?" in mapped.stdout
    last = mapped.stdout.rstrip("\n").split("\n")[-1]
    assert last == f"Run: studybot bank import {path} --name cards --map {mapping}"


def test_a_yaml_syntax_error_names_its_line_and_how_yaml_is_mended(invoke, tmp_path):
    path = tmp_path / "broken.yml"
    path.write_text(
        "- question: What is a KV cache?\n  answer: keys and values\n"
        "- question: Why: quotes\n  answer: a colon and a space inside a value\n",
        encoding="utf-8",
    )
    shown = invoke("bank", "import", str(path), "--preview")
    assert shown.exit_code == 2
    assert "Traceback" not in shown.stderr and "unexpected" not in shown.stderr
    assert f"Error: {path}:3: YAML syntax error: mapping values are not allowed here" in (
        shown.stderr
    )
    assert "Hint: YAML nests by spaces (no tabs)" in shown.stderr
    assert "a value holding `: `" in shown.stderr


def test_aliases_that_expand_past_a_question_list_are_refused(invoke, tmp_path):
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in "bcdefghi":
        previous = chr(ord(level) - 1)
        lines.append(f"{level}: &{level} [{', '.join(['*' + previous] * 9)}]")
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    shown = invoke("bank", "import", str(path), "--preview")
    assert shown.exit_code == 2
    assert f"{path}:1: YAML expands (anchors and aliases) past a question list" in shown.stderr


def test_a_reimport_of_the_file_reads_it_with_the_map_it_was_imported_with(invoke, tmp_path):
    path = tmp_path / "cards.yml"
    path.write_text("- cue: What is speculative decoding?\n  recall: Drafts, checked.\n")
    mapping = "question=cue,answer=recall"
    first = invoke("bank", "import", str(path), "--name", "cards", "--map", mapping)
    assert first.exit_code == 0, first.stderr
    path.write_text(path.read_text() + "- cue: Why verify drafts?\n  recall: To keep quality.\n")
    again = invoke("bank", "import", str(path), "--name", "cards", "--force")
    assert again.exit_code == 0, again.stderr
    assert f"Read with --map {mapping}, as when 'cards' was imported from it" in again.stdout
    assert [(q.question, q.reference) for q in bank.load("cards").questions] == [
        ("What is speculative decoding?", "Drafts, checked."),
        ("Why verify drafts?", "To keep quality."),
    ]
