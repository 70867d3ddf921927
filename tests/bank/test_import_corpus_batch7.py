"""Failure classes a seventh batch of real public question files showed (issue 34).

Each file here is written for the test, in the shape those files had: a
README whose questions are headings inside numbered list items, answer
sub-sections under question headings, an answer label at the question's own
level, closing sections after the numbered questions, and a file that holds
one question under a ``# 题目`` label.
"""

from __future__ import annotations

from imported import questions, read

_LISTED_HEADINGS = """# Web Questions

| No. | Questions |
| --- | --------- |
| 1 | [What is a closure](#what-is-a-closure) |
| 2 | [How to use await outside of an async function?](#how-to-use-await) |
| 3 | [What is the difference between map and forEach?](#map-and-foreach) |

1. ### What is a closure

    A function together with the variables of the scope it was made in.

    ```javascript
    const add = (x) => (y) => x + y;
    ```

    **[⬆ Back to Top](#web-questions)**

2. ### How to use await outside of an async function?

  Wrap it in an async function that calls itself at once.

  #### Example

  Since ES2022 a module may await at its top level.

3. ### What is the difference between map and forEach?

    1. **map:** returns a new array of the results.
    2. **forEach:** returns nothing; it runs for the side effects.
"""


def test_a_heading_inside_a_numbered_item_is_a_question_answered_by_what_the_item_holds(
    tmp_path,
):
    report = read(tmp_path, _LISTED_HEADINGS)
    assert questions(report) == [
        "What is a closure",
        "How to use await outside of an async function?",  # "How to use …" asks: no section
        "What is the difference between map and forEach?",
    ]
    closure, wait, each = report.bank.questions
    assert "variables of the scope" in closure.reference
    assert "const add" in closure.reference
    assert "Back to Top" not in closure.reference
    # its answer indented less than the item's text still follows it, sub-heading and all
    assert "calls itself at once" in wait.reference
    assert "top level" in wait.reference
    assert "returns a new array" in (each.reference or "\n".join(each.key_points))
    assert not report.lost
