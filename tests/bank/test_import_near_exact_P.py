"""Near-exact real files (issue 34, part P): one line off in each.

Each file here is written for the test, in the shape the real file had: a quiz whose
options are a task list with the right one ticked, and an article whose opening invites
the reader to get in touch.
"""

from __future__ import annotations

from imported import previewed, questions, read

# quiz sections: a label heading, the bold question, a task list with the right option
# ticked, then the explanation; one question asks "which of the following"
_TICKED = """# Cloud quiz

### Question 1: Scaling

**What does horizontal scaling add to a service?**

* [ ] A bigger CPU in the same host
* [x] More hosts running the same service

**Explanation**
Scaling out spreads the load over more machines.

### Question 2: Images

**Which of the following describes an immutable image?**

* [ ] A host patched in place every night
* [x] A built artifact that is replaced, never changed, on deploy
* [ ] A backup taken before each release

**Explanation**
An immutable image is rebuilt and redeployed instead of edited.
"""


def test_a_ticked_option_list_under_which_of_stays_in_the_answer(tmp_path):
    report = read(tmp_path, _TICKED)
    assert questions(report) == [
        "What does horizontal scaling add to a service?",
        "Which of the following describes an immutable image?",  # the tick is not shown
    ]
    second = report.bank.questions[1].reference
    assert "[x] A built artifact that is replaced, never changed, on deploy" in second
    assert "An immutable image is rebuilt" in second


def test_lettered_options_under_which_of_are_still_shown_with_the_question(tmp_path):
    text = """## 1. Which of these stores keys in sorted order?

- A. A hash map
- B. A B-tree

B: a B-tree keeps its keys sorted.
"""
    report = read(tmp_path, text)
    assert questions(report) == [
        "Which of these stores keys in sorted order?\n- A. A hash map\n- B. A B-tree"
    ]


# a blog article: greeting, the author's invitation, then the questions as headings
_ARTICLE = """# Shell 面试 3 连问

大家好，今天分享几道 Shell 面试题。

写这个专栏就是希望每篇文章都对你有用，如果你对文章有什么好的建议或者想讨论技术，欢迎加我微信

If you spot a mistake or have any idea what to add, feel free to reach out.

### 1、怎么查看当前目录？

答案：用 pwd。

### 2、怎么统计一个文件的行数？

答案：用 wc -l。

### 3、怎么找出占用端口的进程？

答案：用 lsof -i 或 ss -lntp。
"""


def test_an_invitation_to_get_in_touch_is_no_question(tmp_path):
    report = read(tmp_path, _ARTICLE)
    assert questions(report) == [
        "怎么查看当前目录？",
        "怎么统计一个文件的行数？",
        "怎么找出占用端口的进程？",
    ]
    assert all(q.reference for q in report.bank.questions)


def test_the_preview_takes_the_three_questions_and_lists_no_invitation(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _ARTICLE)
    assert "Took 3 question(s)" in shown
    assert "Asking lines not taken (" not in shown  # the invitation is not left as asking


# an answer under its sub-heading: points that explain, the last one a rhetorical question
_RHETORIC = """- **Why is the cache keyed by user?**

    Because the pages differ per user.

    So why not one shared cache? Because:

    - a shared page would show one user's name to another:
    - the hit rate per user is still high.
    - a purge must reach every copy:
    - with one copy per user, how could one user's purge leak to another?
- **When is a cache entry purged?**

    On write, and when its time to live runs out.
"""


def test_a_rhetorical_question_among_an_answers_points_stays_in_the_answer(tmp_path):
    report = read(tmp_path, _RHETORIC)
    assert questions(report) == [
        "Why is the cache keyed by user?",
        "When is a cache entry purged?",
    ]
    first = report.bank.questions[0].reference
    assert "how could one user's purge leak to another?" in first


def test_follow_ups_listed_in_an_answer_are_still_questions(tmp_path):
    text = """- **Why is the cache keyed by user?**

    Because the pages differ per user.

    - Why not one shared cache?
    - What would a shared cache leak?
- **When is a cache entry purged?**

    On write.
"""
    report = read(tmp_path, text)
    assert "Why not one shared cache?" in questions(report)
    assert "What would a shared cache leak?" in questions(report)


# records whose answer is a list: of points, or of the lines of one text
_RECORDS = """{"questions": [
  {"question": "What are bias and variance?",
   "answer": ["**Bias**: error from wrong assumptions.", "", "**Fixes:**",
              "- more features", "- less regularisation"]},
  {"question": "Name two ways to regularise a model.",
   "answer": ["weight decay", "dropout"]}
]}
"""


def test_an_answer_given_as_lines_of_one_text_reads_as_that_text(tmp_path):
    report = read(tmp_path, _RECORDS, "deck.json")
    first, second = report.bank.questions
    assert first.reference == (
        "**Bias**: error from wrong assumptions.\n\n**Fixes:**\n- more features\n"
        "- less regularisation"
    )
    shown = (second.reference or "") + "".join(second.key_points)
    assert "- - " not in (first.reference or "")
    assert "weight decay" in shown and "dropout" in shown
