"""Errors said against the key point's own text, with no wrong alias written for them: a share
said otherwise of the point's subject, a figure in apposition to the subject named just before,
a comparison said the other way ("还要大"), a "越…越" said of the subject's rival, an opposite
said under a "…时" frame naming the subject.
Each wrong sentence is marked contradicted; the correct one beside it is not.
"""

from __future__ import annotations

import pytest

from studybot.learn import grading
from studybot.learn.marks import CONTRADICTED


@pytest.fixture(scope="module")
def state_of(shipped):
    """The state a learner sees for one point of a shipped question, given an answer."""
    offline = grading.offline(shipped)

    def state(question: int, point: int, text: str) -> str:
        return offline.grade(shipped.get(question), text).points[point - 1].state

    return state


@pytest.mark.parametrize(
    "question, point, right, wrong",
    [
        # a share in words: the point says FFN holds two thirds
        (
            26,
            6,
            "在一个稠密的 Transformer 里，FFN 占了非嵌入参数里的三分之二左右，剩下归注意力。",
            "在一个稠密的 Transformer 里，FFN 其实只拿到非嵌入参数的三分之一左右，剩下归注意力。",
        ),
        # a share said of something else later is not the subject's; "只" restricts, denies nothing
        (
            26,
            6,
            "数一下参数就知道，FFN 大约能拿到非嵌入参数的三分之二，注意力拿三分之一。",
            "数一下参数就知道，FFN 大约只拿到非嵌入参数的一半，注意力拿另一半。",
        ),
        # a figure opening its clause is said of what the clause before ends on
        (
            104,
            2,
            "BLIP-2 在中间放了一组可学习的查询向量，总共 32 个、每个都是 768 维的向量。",
            "BLIP-2 在中间放了一组可学习的查询向量，总共 16 个、每个都是 768 维的向量。",
        ),
        # "比 X 还要大" is "比 X 更大", the opposite of the point's 小于
        (
            190,
            3,
            "DualPipe 的气泡其实比 1F1B 的气泡还要小。",
            "DualPipe 的气泡其实比 1F1B 的气泡还要大。",
        ),
        # "越…越" across a sentence: the direction is said of the rival named in its first clause
        (
            161,
            5,
            "把 β 调得越小，KL 这一项就越松，策略也就越能偏离参考模型。",
            "把 β 调得越大，KL 这一项就越松，策略也就越能偏离参考模型。",
        ),
        # a "…时" frame scopes its sentence: the opposite said in a later clause is said under it
        (
            115,
            3,
            "CFG 里 w > 1 的时候，图像跟提示贴得更紧，此外由于样本偏离了无条件分布，多样性也随之降低。",
            "CFG 里 w > 1 的时候，图像跟提示贴得更紧，此外由于样本偏离了无条件分布，多样性也随之增加。",
        ),
    ],
)
def test_a_figure_or_direction_against_the_points_text_is_a_contradiction(
    state_of, question, point, right, wrong
):
    assert state_of(question, point, wrong) == CONTRADICTED
    assert state_of(question, point, right) != CONTRADICTED


@pytest.mark.parametrize(
    "question, point, text",
    [
        # bounded, not given: more than a third is true of two thirds
        (26, 6, "FFN 在稠密模型中占的参数远不止三分之一，是大头。"),
        # denied: the wrong share is turned down
        (26, 6, "稠密模型里 FFN 可不是只占三分之一的参数，它是大头。"),
        # the figure opening the clause counts something else named in it
        (104, 2, "Q-Former 里有一组可学习的查询向量，每个查询 768 维。"),
        # a "越…越" turned round by 反之, or said of another claim's subject (the space, not softmax)
        (161, 5, "β 越大策略越贴近参考模型，反之就越能偏离它。"),
        (119, 4, "τ 越小，损失越盯着最难的负例，表示空间也越均匀。"),
        # a frame of its own ("…的时候") ends the first one's reach
        (
            115,
            3,
            "CFG 里 w > 1 的时候，图像跟提示贴得更紧；把 w 调回 1 以下的时候，多样性就增加了。",
        ),
    ],
)
def test_a_bounded_denied_or_other_figure_is_no_contradiction(state_of, question, point, text):
    assert state_of(question, point, text) != CONTRADICTED
