"""Correct sentences whose negation presumes the point instead of denying it (``presumed``):
"不再 X" says X was done before, "不能太小" warns against the excess the point says harms,
"能用 X 就别用 Y" turns down Y and keeps X, "不一样的是…" names what differs, "而不是把 Y…"
turns down another thing handled another way, "tokens that never appear" negates its own
verb, and in "X 并不是 Y" the 不是 denies what follows
it, not the topic X. Each was a false ⚠ forcing Again on a clean answer of a blind round; the
plain error beside it is still marked.
"""

from __future__ import annotations

import pytest
from imported import state

from studybot.learn.marks import CONTRADICTED


@pytest.mark.parametrize(
    "question, point, right, wrong",
    [
        # no longer: what V2 did is presumed
        (
            183,
            5,
            "V3 的路由不再使用 V2 里的 softmax，换成 sigmoid 再归一化。",
            "V2 的门控并非 softmax。",
        ),
        (
            16,
            2,
            "训练时负采样不再对全部词表做 softmax，代价不再是 O(V)。",
            "完整 softmax 并不需要对整个词表归一化。",
        ),
        # advice against an excess agrees that the excess harms
        (
            22,
            4,
            "每个头的维度 d_head 不应过小，头数也就不能无限加。",
            "d_head 太小并不会限制每个头的表达力。",
        ),
        # an advice pair: the negation after 就 turns down the other way
        (
            68,
            3,
            "取值是固定几种的字段，能用 enum 就不要用自由文本。",
            "取值固定的字段也不要用 enum。",
        ),
        # a negated word made a noun by 的是 names what follows
        (
            22,
            3,
            "矩阵乘的 FLOPs 基本没变，不一样的是要多算 h 份 n×n 得分矩阵。",
            "矩阵乘的 FLOPs 随头数成倍增加。",
        ),
        # 而不是把 another thing: another way turned down, not the point's own thing
        (
            104,
            4,
            "Q-Former 只交出 32 个 query 的输出，而不是把全部 patch 特征直接送进 LLM。",
            "Q-Former 的输出并不送进 LLM。",
        ),
        # an English negation opening a relative clause negates its own verb only
        (
            18,
            6,
            "The softmax gradient steadily pushes vectors of tokens that do not occur in one "
            "direction.",
            "The softmax gradient does not push the vectors of unseen tokens in the same direction.",
        ),
        # a copula negation after the topic denies the cause given after it
        (
            76,
            1,
            "多轮之后 TTFT 上升并不是模型算得变慢了。",
            "TTFT 与历史长度无关，基本是常数。",
        ),
    ],
)
def test_a_presumed_claim_is_no_denial_and_the_error_still_is(
    grader, shipped, question, point, right, wrong
):
    assert state(grader, shipped, question, point, right) != CONTRADICTED
    assert state(grader, shipped, question, point, wrong) == CONTRADICTED


def test_no_longer_still_states_a_claim_said_with_a_negation(grader, shipped):
    # "不再需要" is how a point's "丢掉/不要了" is said: presuming the past does not unsay it,
    # and a correct "不是…而是…" beside it is then no denial
    right = (
        "前缀不是直接优化的——直接训不稳定——而是训练时通过一个 MLP 从较小的矩阵生成，"
        "训练结束 MLP 就不再需要了。"
    )
    assert state(grader, shipped, 150, 2, right) != CONTRADICTED
