"""Two things a key point writes side by side, each given the other's figure or words.

"前向约 2ND、反向约 4ND": an answer that gives 前向 4ND and 反向 2ND has swapped
the two, and contradicts the point. One side given the other's figure (both
said to be 4ND) is not a swap, and the point said the right way round stays
covered.
"""

from __future__ import annotations

import pytest

from studybot.learn import grading
from studybot.learn.marks import CONTRADICTED


@pytest.fixture(scope="module")
def graded(shipped):
    """The state the offline grader gives a point of a shipped question for a text."""
    offline = grading.offline(shipped)
    return lambda question, point, text: (
        offline.grade(shipped.get(question), text).points[point - 1].state
    )


@pytest.mark.parametrize(
    "question, point, swapped, right, one_side",
    [
        # two figures, each bound to the thing named just before it
        (
            4,
            2,
            "总共约 6ND：前向大致是 4ND、反向大致是 2ND。",
            "总共约 6ND：前向大致是 2ND、反向大致是 4ND。",
            "总共约 6ND：前向和反向大致都是 4ND。",
        ),
        # a thing of one character beside its figure (头 128 + 尾 382)
        (
            140,
            1,
            "截断时头部留 382 个 token、尾部留 128 个效果最好。",
            "截断时留头 128、尾 382 效果最好。",
            "截断时留头 382 个 token 效果最好。",
        ),
        # two Chinese sides in one frame (…维度…), each given the other's words
        (
            32,
            2,
            "NTK-aware 放大 base 之后，低频维度几乎不变，高频维度被按 s 插值。",
            "NTK-aware 放大 base 之后，高频维度几乎不变，低频维度接近按 s 插值。",
            "NTK-aware 放大 base 之后，高频维度并不是按 s 插值，低频维度才几乎不变。",
        ),
        # 把 X 编译成 Y, 把 Z 编译成 W: a Latin thing and a Chinese one
        (
            67,
            3,
            "上下文无关文法只需要有限状态机，JSON Schema 反而要用下推自动机来表示。",
            "JSON Schema 用有限状态机就够了，上下文无关文法要用下推自动机。",
            "JSON Schema 和上下文无关文法都编译成有限状态机。",
        ),
    ],
)
def test_two_things_swapped_contradict_the_point(graded, question, point, swapped, right, one_side):
    assert graded(question, point, swapped) == CONTRADICTED
    assert graded(question, point, right) != CONTRADICTED
    assert graded(question, point, one_side) != CONTRADICTED


def test_a_clause_naming_no_thing_is_about_the_one_before(graded):
    """ "JSON Schema 有嵌套，所以要编译成下推自动机": the second clause is still about JSON Schema."""
    text = "JSON Schema 因为会嵌套，所以要编译成下推自动机；上下文无关文法则编译成有限状态机。"
    assert graded(67, 3, text) == CONTRADICTED
    kept = "JSON Schema 因为不嵌套，所以编译成有限状态机；上下文无关文法则编译成下推自动机。"
    assert graded(67, 3, kept) != CONTRADICTED


def test_a_word_inside_another_things_name_grades_without_error(invoke):
    # "预计算掩码": a thing's word overlaps another's; grading it once raised ValueError
    text = "XGrammar 的办法是预计算掩码，所以每一步的额外开销很小。"
    result = invoke("grade", "67", "--offline", "--json", input=text)
    assert result.exit_code == 0, result.output
    assert '"points"' in result.output
