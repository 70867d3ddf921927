"""Failure classes batches 36 and 38 of real public question files showed, part I6.

Each file here is written for the test, in the shape those files had: a quiz whose stems are
block quotes (a lead-in, quoted code, the asking line) over ``- [ ]``/``- [x]`` options; a
log that lists each round's questions, then ``### Short answers (…)`` numbered ``1)``…; a
one-question page that opens with a quoted question over ``###`` sections; an interview
write-up whose bullets name a problem over its code or carry the candidate's reply.
"""

from __future__ import annotations

from imported import questions, read

_QUIZ = """## Quiz
___
> 1、下面哪个函数把列表排好序？
- [ ] list.reverse()
- [x] sorted(list)
    ```diff
        sorted 返回一个新的有序列表。
    ```
- [ ] list.pop()
___
> 2、看一下下面的两个变量“x”和“y”

>       x = [1, 2]
>       y = x * 2
> 请问y的值是多少？

- [ ] [2, 4]
- [x] [1, 2, 1, 2]
___
> 3、看一下下面的两个变量“x”和“y”

>       x = (1, 2)
>       y = x + (3,)
> 请问y的值是多少？
- [x] (1, 2, 3)
- [ ] 报错
___
"""


def test_a_quoted_stem_over_a_ticked_task_list_is_one_question_the_list_its_answer(tmp_path):
    bank = read(tmp_path, _QUIZ).bank
    assert [" ".join(q.question.replace("```", "").split()) for q in bank.questions] == [
        "下面哪个函数把列表排好序？",
        "看一下下面的两个变量“x”和“y” x = [1, 2] y = x * 2 请问y的值是多少？",
        "看一下下面的两个变量“x”和“y” x = (1, 2) y = x + (3,) 请问y的值是多少？",
    ]
    first, second, third = bank.questions
    assert "- [x] sorted(list)" in (first.reference or "")
    assert "返回一个新的有序列表" in (first.reference or "")
    assert "- [x] [1, 2, 1, 2]" in (second.reference or "")
    assert "- [x] (1, 2, 3)" in (third.reference or "")
    assert not any(q.key_points for q in bank.questions)  # the options are no key points


def test_a_quote_with_no_ticked_list_below_is_read_as_before(tmp_path):
    text = "> 为什么要做归一化？\n\n因为量纲不同。\n\n> 什么是过拟合？\n\n训练好，测试差。\n"
    assert questions(read(tmp_path, text)) == ["为什么要做归一化？", "什么是过拟合？"]


_ROUNDS = """# Questions I was asked

## Round 1

1. Explain the project you are proudest of.
2. How do you cache model outputs?
3. Rate limiting.

### Short answers (plain words)

1) **Proudest project.**

A search tool for support tickets.

2) **Caching outputs.**

- Key on the prompt hash
- Expire after a day

3) **Rate limiting.**

A token bucket per user.

## Round 2

1. What is a vector index?
2. Why re-rank results?

### Short answers (Round 2)

1) **Vector index.**

A structure for nearest-neighbour search.

2) **Re-ranking.**

A second model orders the top hits.
"""


def test_short_answers_numbered_as_the_questions_above_answer_them_in_turn(tmp_path):
    bank = read(tmp_path, _ROUNDS).bank
    assert questions(read(tmp_path, _ROUNDS)) == [
        "Explain the project you are proudest of.",
        "How do you cache model outputs?",
        "Rate limiting.",  # a topic, yet the key answers it: a question
        "What is a vector index?",
        "Why re-rank results?",
    ]
    answers = [q.reference or "\n".join(q.key_points) for q in bank.questions]
    assert "support tickets" in answers[0]
    assert "prompt hash" in answers[1]
    assert "token bucket" in answers[2]
    assert "nearest-neighbour" in answers[3] and "Round 2" not in answers[2]
    assert "top hits" in answers[4]


_ONE = """> 了解 Dropout 吗？简述它和 L2 正则的联系和区别

### Dropout 简述

训练时随机丢弃神经元。

### 与 L2 正则的联系和区别

都能减轻过拟合。

### 实现示例（PyTorch）

```python
nn.Dropout(p=0.5)
```
"""


def test_a_file_opening_with_a_quoted_question_over_sections_is_that_one_question(tmp_path):
    bank = read(tmp_path, _ONE).bank
    assert questions(read(tmp_path, _ONE)) == ["了解 Dropout 吗？简述它和 L2 正则的联系和区别"]
    reference = bank.questions[0].reference or ""
    assert "### Dropout 简述" in reference and "nn.Dropout" in reference


_WRITE_UP = """## 二面

- 讲讲注意力机制的计算过程
- 来一道有意思的编程题：

  ```
  把 getUserName 这样的驼峰名改成 get_user_name
  ```

  用正则写的，一次过。

- 周末加班可以吗？ 可以，偶尔
- 你找工作最看重哪些方面：我说先看团队，再看城市
"""


def test_a_problem_over_its_code_and_a_reply_on_the_line_are_answered_questions(tmp_path):
    bank = read(tmp_path, _WRITE_UP).bank
    assert questions(read(tmp_path, _WRITE_UP)) == [
        "讲讲注意力机制的计算过程",
        "来一道有意思的编程题：",
        "周末加班可以吗？",
        "你找工作最看重哪些方面",
    ]
    _, problem, overtime, choice = bank.questions
    assert "get_user_name" in (problem.reference or "") and "用正则" in (problem.reference or "")
    assert overtime.reference == "可以，偶尔"
    assert choice.reference == "我说先看团队，再看城市"


def test_a_premise_after_a_chinese_question_mark_stays_in_the_question(tmp_path):
    text = "- 抛硬币三次都是正面的概率是多少？ 假设硬币是均匀的\n- 什么是偏差？\n"
    assert questions(read(tmp_path, text))[0].startswith("抛硬币三次都是正面的概率是多少？")
    assert not read(tmp_path, text).bank.questions[0].reference
