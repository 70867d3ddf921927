"""What the preview lists apart: asking lines an answer taken holds, and topic headings.

An asking line inside an answer that was taken (an interviewer's follow-up, a sub-question
bullet) was imported, as a line of that answer: the preview lists it under its own title,
"kept in an answer, not as questions", and the Total's "not taken" leaves it out; a line no
answer holds is still "not taken" and counted, and one left on purpose is shown once, there. A
topic heading over its labelled question (``### 3. 架构差异`` over ``**问题**: …？``) is the
question's chapter: no asking line at all.
"""

from __future__ import annotations

import json

from imported import previewed, questions, read

_LOCKS = """\
# Locks

## What is a mutex?

A lock one thread holds at a time.

## What is a semaphore?

A counter of permits.

- How many threads may enter at once?

## Further reading

- [Which lock should I pick?](https://example.org/locks)
"""

_TOPICS = """\
# 模型结构

### 1. 架构差异
**问题**: 编码器和解码器结构的主要区别是什么？

**答案要点**:
- 编码器双向看全文，解码器只看左侧

### 2. 归一化位置
**问题**: Pre-LN 和 Post-LN 哪个训练更稳？

**答案要点**:
- Pre-LN 梯度更平稳，深层更易训练
"""


def test_a_follow_up_inside_an_answer_is_listed_apart_and_not_counted_as_left(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _LOCKS)
    # the link under Further reading: left on purpose, shown there once and counted once
    assert "1 question-like line(s) not taken." in shown
    assert (
        "Left on purpose (1): 1 × in a section that holds no questions, first at line 15" in shown
    )
    assert "Asking lines not taken" not in shown
    assert (
        "Asking lines kept in an answer, not as questions (1): "
        "line 11: How many threads may enter at once?" in shown
    )
    path = tmp_path / "locks.md"
    path.write_text(_LOCKS, encoding="utf-8")
    steer = json.loads(invoke("bank", "import", str(path), "--preview", "--json").stdout)["steer"]
    assert [a["text"] for a in steer["asking_in_answers"]] == [
        "How many threads may enter at once?"
    ]
    assert {a["text"] for a in steer["asking_not_taken"]} >= {"Which lock should I pick?"}


def test_a_topic_heading_over_its_labelled_question_is_no_asking_line(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _TOPICS)
    assert "Took 2 question(s): 2 of the file's 2 asking line(s)" in shown
    assert "架构差异" not in shown.split("Total:")[-1]
    assert "Asking lines not taken" not in shown
    assert questions(read(tmp_path, _TOPICS)) == [
        "编码器和解码器结构的主要区别是什么？",
        "Pre-LN 和 Post-LN 哪个训练更稳？",
    ]
