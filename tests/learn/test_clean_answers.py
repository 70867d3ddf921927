"""Correct sentences of clean answers that a reading took for an error: a supposition after
its topic ("b 若初始化为 0，…"), a negation denied by 不等于 ("不等于不会判错"). Each pairs
with the plain error on the same point, still ⚠.
"""

from __future__ import annotations

import pytest
from imported import state

from studybot.learn.marks import CONTRADICTED


@pytest.mark.parametrize(
    "question, point, right, wrong",
    [
        # 若 after the topic: what would follow if b started at 0
        (
            103,
            2,
            "训练刚开始时 b 若初始化为 0，损失会大得离谱。",
            "偏置 b 初始化为 0，训练一开始就很平稳。",
        ),
        # 如果 after the topic, its consequence in the next clause
        (
            24,
            6,
            "做张量并行的时候，KV 头数如果不能被并行度整除，每张卡上就得复制几份 KV 头。",
            "做张量并行的时候，KV 头数不能被并行度整除。",
        ),
    ],
)
def test_a_supposition_asserts_nothing(grader, shipped, question, point, right, wrong):
    assert state(grader, shipped, question, point, right) != CONTRADICTED
    assert state(grader, shipped, question, point, wrong) == CONTRADICTED


@pytest.mark.parametrize(
    "right, wrong",
    [
        ("答案抽取用规则来做，也不等于不会判错。", "答案抽取用规则来做，就不会判错。"),
        ("答案抽取交给规则并不等于不会判错。", "答案抽取交给规则后不会判错。"),
    ],
)
def test_denying_that_it_never_errs_says_it_may(grader, shipped, right, wrong):
    assert state(grader, shipped, 174, 4, right) != CONTRADICTED  # extraction may be wrong
    assert state(grader, shipped, 174, 4, wrong) == CONTRADICTED
