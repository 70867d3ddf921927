"""Two negations that deny nothing (``negations``): "不是 X 就是 Y" says one of the two, and a
copula negation right before another ("并非完全没有") says some; each was a false ⚠ on a clean
answer, and the plain denial beside it is still read as one.
"""

from __future__ import annotations

import pytest
from imported import state

from studybot.learn.marks import CONTRADICTED


@pytest.mark.parametrize(
    "question, point, right, wrong",
    [
        # 不是 X 就是 Y: either X or Y
        (
            5,
            5,
            "一旦总长超过上限，接口不是直接拒绝请求就是把回答截断。",
            "一旦总长超过上限，接口既不会报错也不会截断回答。",
        ),
        # 并非完全没有 X: there is some X
        (
            185,
            5,
            "V3 并非完全没有保留序列级的平衡损失，只是系数非常小。",
            "V3 没有保留序列级的平衡损失。",
        ),
    ],
)
def test_a_negation_that_denies_nothing_is_no_denial_and_the_denial_still_is(
    grader, shipped, question, point, right, wrong
):
    assert state(grader, shipped, question, point, right) != CONTRADICTED
    assert state(grader, shipped, question, point, wrong) == CONTRADICTED
