"""Failure classes a thirty-fourth batch of real public question files showed, part I2.

Each file here is written for the test, in the shape those files had: an exam kept as YAML
whose questions sit two levels down (``exam.parts[].items[]``), each with its words under
``text``, a score and a rubric of criteria; the same exam as a web page, a form whose
questions are paragraphs under a title label over an empty answer box.
"""

from __future__ import annotations

import pytest
from imported import questions, read

from studybot.errors import BankError

_EXAM = """# Practice exam: caching
exam:
  name: "Caching, part one"
  minutes: 60
  parts:
    - id: "p1"
      name: "Basics"
      points: 10
      items:
        - id: "p1_a"
          text: |
            A service reads the same rows a thousand times a minute.

            (a) Say where a cache would sit. (2 pts)
          points: 4
          rubric:
            - criterion: "Places the cache between the service and the store"
              points: 2
              keywords: ["read-through", "in front of the store"]
            - criterion: "Names an eviction policy"
              points: 2
              keywords: ["LRU", "TTL"]
        - id: "p1_b"
          text: Explain why a cache can serve stale rows.
          points: 3
          rubric:
            - "Writes that skip the cache"
            - "Expiry set too long"
    - id: "p2"
      name: "Design"
      points: 5
      items:
        - id: "p2_a"
          text: Design a cache for a feed of posts.
          points: 5
          rubric:
            - criterion: "Keys posts by author and time"
              points: 5
"""


def test_an_exams_records_two_levels_down_are_read_by_their_text(tmp_path):
    report = read(tmp_path, _EXAM, "exam.yaml")
    assert questions(report) == [
        "A service reads the same rows a thousand times a minute.\n\n"
        "(a) Say where a cache would sit. (2 pts)",
        "Explain why a cache can serve stale rows.",
        "Design a cache for a feed of posts.",
    ]
    assert [(c.title, c.first, c.last) for c in report.bank.chapters] == [
        ("Basics", 1, 2),
        ("Design", 3, 3),
    ]
    assert "read question ← 'text', id ← 'id'" in report.notes


def test_a_rubrics_criteria_are_the_key_points_and_a_score_is_none(tmp_path):
    first, second, third = read(tmp_path, _EXAM, "exam.yaml").bank.questions
    assert list(first.key_points) == [
        "Places the cache between the service and the store",
        "Names an eviction policy",
    ]
    assert list(second.key_points) == ["Writes that skip the cache", "Expiry set too long"]
    assert list(third.key_points) == ["Keys posts by author and time"]
    assert "4" not in first.key_points  # "points: 4" is the question's score


def test_the_preview_says_the_rubric_is_read_and_the_score_is_not(tmp_path):
    notes = read(tmp_path, _EXAM, "exam.yaml").notes
    assert "key points ← the criteria of 'rubric'" in notes
    assert any(n.startswith("not used:") and "'points'" in n for n in notes)


def test_a_document_refused_names_its_lists_and_the_map_that_reads_them(tmp_path):
    exam = _EXAM.replace("text:", "wording:").replace("rubric:", "marking:")
    with pytest.raises(BankError) as caught:
        read(tmp_path, exam, "exam.yaml")
    assert "lists of objects in it: exam.parts[].items[] (3: id, wording, points" in (
        caught.value.message
    )
    assert "--map question=wording" in (caught.value.hint or "")
    mapped = read(tmp_path, exam, "exam.yaml", mapping=(("question", "wording"),))
    assert questions(mapped)[1] == "Explain why a cache can serve stale rows."


_FORM = """<!DOCTYPE html>
<html lang="en">
<head><title>Caching exam</title>
<style>.box { width: 100%; } h2 { color: navy; }</style>
<script>function tick() { return "Why not?"; }</script>
</head>
<body>
<div id="clock">45:00</div>
<h1>Caching, part one</h1>
<div class="rules"><h3>Rules</h3>
<ul><li><strong>Closed book.</strong> No notes.</li><li>One try only.</li></ul></div>
<form action="/send" method="POST">
  <input type="hidden" name="who" value="">
  <label for="name">Your name</label> <input type="text" id="name">
  <div class="part">
    <h2>Part 1: Basics (10 points)</h2>
    <div class="item">
      <div class="item-head"><span>Item 1.1 <span class="must">MUST</span></span>
        <span>4 points</span></div>
      <div class="item-text">
        <p>A service reads the same rows a thousand times a minute.</p>
        <p><strong>(a)</strong> Say where a <code>cache</code> would sit. (2 pts)</p>
      </div>
      <textarea name="a1" placeholder="Type here..."></textarea>
    </div>
    <div class="item">
      <div class="item-head"><span>Item 1.2</span><span>3 points</span></div>
      <div class="item-text"><p>Explain why a cache can serve stale rows.</p></div>
      <textarea name="a2"></textarea>
    </div>
  </div>
  <label><input type="checkbox"> I worked alone on this.</label>
  <button type="submit">Send</button>
</form>
<div class="done"><h2>Sent</h2><p>Thank you for your answers.</p></div>
</body>
</html>
"""


def test_a_forms_questions_are_the_text_above_each_answer_box(tmp_path):
    report = read(tmp_path, _FORM, "exam.html")
    assert questions(report) == [
        "A service reads the same rows a thousand times a minute. "
        "(a) Say where a `cache` would sit. (2 pts)",
        "Explain why a cache can serve stale rows.",
    ]
    assert [(c.title, c.first, c.last) for c in report.bank.chapters] == [
        ("Basics (10 points)", 1, 2)
    ]
    # the boxes are empty: no answers; the pledge after the last box is the form's
    assert [q.reference for q in report.bank.questions] == [None, None]


def test_a_page_without_a_form_is_read_as_the_markdown_it_shows(tmp_path):
    page = (
        "<html><head><title>Notes</title><script>var q = 'What?';</script></head><body>"
        "<h2>Caching</h2><h3>What is a cache?</h3><p>A fast copy of data.</p>"
        "<h3>Why expire entries?</h3><p>So that <em>stale</em> rows go.</p>"
        "<ul><li>TTL</li><li>LRU</li></ul></body></html>"
    )
    report = read(tmp_path, page, "notes.htm")
    assert questions(report) == ["What is a cache?", "Why expire entries?"]
    first, second = report.bank.questions
    assert first.reference == "A fast copy of data."
    assert second.reference is not None and "*stale*" in second.reference


def test_a_single_comment_box_under_a_page_of_questions_makes_no_question(tmp_path):
    page = (
        "<html><body><h3>What is a cache?</h3><p>A fast copy of data.</p>"
        "<h3>Why expire entries?</h3><p>So that stale rows go.</p>"
        "<h4>Leave a comment</h4><form><textarea name='c'></textarea>"
        "<button>Post</button></form></body></html>"
    )
    report = read(tmp_path, page, "notes.html")
    assert questions(report) == ["What is a cache?", "Why expire entries?"]
    assert report.bank.questions[0].reference == "A fast copy of data."
