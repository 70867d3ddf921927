"""Failure classes a thirty-sixth batch of real public question files showed, part I5.

Each file here is written for the test, in the shape those files had: a headerless
plain-text deck of ``front; back`` lines (and one of ``front | back`` lines); a Mochi-style
deck whose cards are separated by ``---`` lines, with a ``card_id:`` block between them; a
notebook whose questions are comments opening code cells (``# Q1. …``); a
reStructuredText page that is one ``.. raw:: html`` accordion of question cards.
"""

from __future__ import annotations

from imported import notebook_text, questions, read

_SEMICOLONS = """What does a hash map trade for speed?; Memory: it keeps spare buckets.

Why are B-trees wide?; Fewer levels mean fewer disk reads per lookup.
Sorting a nearly sorted list; insertion sort, close to linear time.

What makes a sort stable? Equal keys keep their order.
When is quicksort slow?; On sorted input with a naive pivot.
Reverse a linked list in place; walk it once, flipping each next pointer.
"""


def test_a_deck_of_front_semicolon_back_lines_is_a_card_a_line(tmp_path):
    report = read(tmp_path, _SEMICOLONS, "deck.txt")
    assert questions(report) == [
        "What does a hash map trade for speed?",
        "Why are B-trees wide?",
        "Sorting a nearly sorted list",
        "What makes a sort stable?",
        "When is quicksort slow?",
        "Reverse a linked list in place",
    ]
    answers = [q.reference for q in report.bank.questions]
    assert answers[0] == "Memory: it keeps spare buckets."
    assert answers[2] == "insertion sort, close to linear time."
    assert answers[3] == "Equal keys keep their order."  # no separator: split after it asks
    assert all(answers)
    assert not report.skipped


def test_a_deck_of_front_bar_back_lines_under_a_title_is_a_card_a_line(tmp_path):
    text = (
        "# Networking\n"
        "What does TCP add over IP? | Ordered, reliable delivery.\n"
        "Why does DNS use UDP? | Short queries fit one packet.\n"
        "Port of HTTPS | 443\n"
    )
    report = read(tmp_path, text, "net.txt")
    assert questions(report) == [
        "What does TCP add over IP?",
        "Why does DNS use UDP?",
        "Port of HTTPS",
    ]
    assert [q.reference for q in report.bank.questions][2] == "443"
    assert [c.title for c in report.bank.chapters] == ["Networking"]


def test_prose_with_a_semicolon_now_and_then_stays_markdown(tmp_path):
    text = (
        "What is caching?\n\nIt keeps results near; reads get faster.\n\n"
        "Why evict?\n\nMemory is finite; old entries go.\n"
    )
    report = read(tmp_path, text, "notes.txt")
    assert questions(report) == ["What is caching?", "Why evict?"]


_MOCHI = """---
card_id: aB3dE5fG
---
What does a load balancer do?
---
Spreads requests across servers so none is overloaded.
---
card_id: hI7jK9lM
---
Why use health checks?
---
So traffic skips servers that stopped answering.
---
card_id: nO1pQ2rS
---
When would you pick sticky sessions?
---
- Session state kept in memory
- When a rewrite is not possible yet
---
card_id: tU4vW6xY
---
Round robin
---
Each server in turn, no weights.
"""


def test_a_deck_of_cards_between_dashes_keeps_every_back(tmp_path):
    report = read(tmp_path, _MOCHI, "deck.md")
    assert questions(report) == [
        "What does a load balancer do?",
        "Why use health checks?",
        "When would you pick sticky sessions?",
        "Round robin",
    ]
    first, second, third, fourth = report.bank.questions
    assert first.reference == "Spreads requests across servers so none is overloaded."
    assert second.reference == "So traffic skips servers that stopped answering."
    assert "Session state kept in memory" in (third.reference or " ".join(third.key_points))
    assert fourth.reference == "Each server in turn, no weights."
    assert not any("card_id" in (q.reference or "") for q in report.bank.questions)


def test_setext_headings_with_blank_lines_under_them_stay_headings(tmp_path):
    text = (
        "Caching\n-------\n\nWhat is a cache hit?\n\nThe data was found.\n\n"
        "Queues\n------\n\nWhy use a queue?\n\nTo absorb bursts.\n\n"
        "Locks\n-----\n\nWhat is a deadlock?\n\nTwo waits on each other.\n\n"
        "Logs\n----\n\nWhy rotate logs?\n\nTo bound disk use.\n"
    )
    report = read(tmp_path, text, "notes.md")
    assert [c.title for c in report.bank.chapters] == ["Caching", "Queues", "Locks", "Logs"]


def test_a_code_cell_whose_first_comment_asks_is_a_question_its_code_the_answer(tmp_path):
    text = notebook_text(
        ("code", "# Setup\nimport math"),
        ("code", "# Q1. What is a closure\n# A function that keeps the names it was made in."),
        ("code", "#Q2 Uses of closures"),
        ("code", "# Question 3: How do you square a list?\nsquares = [x * x for x in range(4)]"),
        ("code", "print(squares)"),
        ("markdown", "Q4. What is a lambda?\n\nA function written as one expression."),
    )
    report = read(tmp_path, text, "nb.ipynb")
    assert questions(report) == [
        "What is a closure",
        "Uses of closures",
        "How do you square a list?",
        "What is a lambda?",
    ]
    first, second, third, fourth = report.bank.questions
    assert "keeps the names" in (first.reference or "")
    assert not second.reference
    assert "x * x" in (third.reference or "") and "print(squares)" in (third.reference or "")
    assert "one expression" in (fourth.reference or "")
    assert "import math" not in " ".join(q.reference or "" for q in report.bank.questions)


_ACCORDION = """.. raw:: html

    <div id="faq">
      <div class="card">
        <h5 class="card-header">
          <button class="btn" data-toggle="collapse">
            What is a message broker?
          </button>
        </h5>
        <div class="collapse"><div class="card-body">
          A service that <b>routes messages</b> between producers and consumers.
        </div></div>
      </div>
      <div class="card">
        <h5 class="card-header">
          <button class="btn" data-toggle="collapse">Is the broker a single point of failure?</button>
        </h5>
        <div class="collapse"><div class="card-body">
          Not when it runs as a cluster with replicated queues.
        </div></div>
      </div>
    </div>
"""


def test_an_rst_file_that_is_a_raw_html_accordion_is_read_as_that_page(tmp_path):
    report = read(tmp_path, _ACCORDION, "faq.rst")
    assert questions(report) == [
        "What is a message broker?",
        "Is the broker a single point of failure?",
    ]
    first, second = report.bank.questions
    assert "routes messages" in (first.reference or "")
    assert "replicated queues" in (second.reference or "")
