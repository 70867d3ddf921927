"""Two turns that read like negations or comparisons and are neither: 除非 (unless), whose
clause states the way out ("收不到梯度，除非调用 X" says X is the fix), and a 不如 that says
which way to take ("与其…，不如把算力花在更大的模型上", "还不如直接…"), which compares no two
things. A wrong way out after 除非, a denial of the fix and a real 不如 comparison said the
wrong way round are still ⚠.
"""

from __future__ import annotations

import pytest
from imported import state

from studybot.learn.marks import CONTRADICTED


@pytest.mark.parametrize(
    "text, caught",
    [
        ("LoRA 权重这时得不到梯度，除非调用 enable_input_require_grads()。", False),
        (
            "LoRA 权重这时得不到梯度，除非调 enable_input_require_grads() 或者换成 "
            "use_reentrant=False。",
            False,
        ),
        ("LoRA 收不到梯度，除非把 use_reentrant 设成 True。", True),  # the wrong way out
        ("LoRA 收不到梯度这个问题，并不能靠调用 enable_input_require_grads() 解决。", True),
    ],
)
def test_the_way_out_after_unless_is_stated(grader, shipped, text, caught):
    assert (state(grader, shipped, 147, 6, text) == CONTRADICTED) is caught  # the LoRA fix


def test_the_way_out_after_unless_is_credited(grader, shipped):
    text = "LoRA 权重这时得不到梯度，除非调用 enable_input_require_grads()。"
    assert state(grader, shipped, 147, 6, text) != CONTRADICTED
    assert grader.grade(shipped.get(147), text).points[5].state == "covered"


@pytest.mark.parametrize(
    "text, caught",
    [
        ("难题上与其让小模型反复采样，倒不如把算力花在一个更大的模型上。", False),
        ("难题上与其让小模型反复采样，不如换一个更大的模型。", False),
        ("碰到小模型根本做不出来的难题，还不如直接把这份算力拿去训更大的模型。", False),
        ("中低难度题上，小模型加再多测试时计算也不如大十几倍的模型。", True),  # compared
    ],
)
def test_a_better_way_to_take_compares_nothing(grader, shipped, text, caught):
    assert (state(grader, shipped, 167, 6, text) == CONTRADICTED) is caught  # hard: a larger model
