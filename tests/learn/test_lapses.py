"""Errors no alias holds: a finding credited to another work, a ratio upside down,
a default given another value, and the other side said.

Each case is a sentence a learner would write against the shipped bank's rubric.
Q2 point 4 credits Wang 等（2022）; Q131 point 5, ULMFiT; Q37 point 2 accepts a
draft token with probability min(1, p(x)/q(x)).
"""

from __future__ import annotations

import pytest

from studybot.learn.marks import CONTRADICTED


def point(grader, shipped, question: int, n: int, text: str):
    return grader.grade(shipped.get(question), text).points[n - 1]


def test_the_evidence_of_a_wrong_credit_is_the_clause_that_names_it(grader, shipped):
    text = "工程上简单。T5 论文里比较过几种架构，发现只做自监督预训练时仅解码器零样本泛化最好。"
    marked = point(grader, shipped, 2, 4, text)
    assert marked.state == CONTRADICTED
    assert "T5 论文" in marked.evidence


@pytest.mark.parametrize(
    "text, caught",
    [
        ("验证时草稿 token x 以 min(1, q(x)/p(x)) 的概率被接受。", True),
        ("草稿 token x 被接受的概率是 min(1, q(x) / p(x))。", True),
        ("验证时草稿 token x 以 min(1, p(x)/q(x)) 的概率被接受。", False),
        # Both ways round in one answer: the right one is there, the other may be a contrast.
        ("草稿 token x 以 min(1, p(x)/q(x)) 的概率被接受，不是 q(x)/p(x)。", False),
    ],
)
def test_a_ratio_written_upside_down(grader, shipped, text, caught):
    marked = point(grader, shipped, 37, 2, text)
    assert (marked.state == CONTRADICTED) is caught, marked


@pytest.mark.parametrize(
    "question, n, text, caught",
    [
        # Another work of the question's own, written as the source of the point's finding.
        (
            2,
            4,
            "Raffel 等人在 T5 论文里比较过，发现只做自监督预训练时仅解码器零样本泛化最好。",
            True,
        ),
        (2, 4, "T5 论文里比较过几种架构：只做自监督预训练时，仅解码器的零样本泛化最好。", True),
        (131, 5, "逐步解冻是 BERT 原论文提出的：从顶层开始，每个 epoch 多解冻一层。", True),
        # The right work, or no work named as the source.
        (2, 4, "Wang 等 2022 年比较过，发现只做自监督预训练时仅解码器零样本泛化最好。", False),
        (
            2,
            4,
            "有实验比较过 T5 式编码器-解码器和仅解码器：只做自监督预训练时后者零样本最好。",
            False,
        ),
        (131, 5, "ULMFiT 提出了逐步解冻：从顶层开始，每个 epoch 多解冻一层。", False),
        # Said not to be the source: a correct contrast.
        (131, 5, "逐步解冻并不是 BERT 原论文提出的：从顶层开始，每个 epoch 多解冻一层。", False),
        (2, 4, "这个结论并非来自 T5 论文：只做自监督预训练时，仅解码器零样本泛化最好。", False),
        # A second source the question does not name may well be right: never read as wrong.
        (2, 4, "Hoyle 等 2021 也发现，只做自监督预训练时仅解码器的零样本泛化最好。", False),
        # A part of the model after 由 is no source.
        (2, 4, "零样本泛化最好的是仅解码器：输出由 Transformer 逐个预测。", False),
        # Left and right, earlier and later, are opposites (Q17 point 4: only the left is seen).
        (17, 4, "解码器是因果注意力，每个位置只能看到自己右边的内容。", True),
        (17, 4, "所以越靠后的 token 掌握的信息越少。", True),
        (17, 4, "解码器是因果注意力，每个位置只能看到左边的内容，越靠前的 token 越缺后文。", False),
        # "比 LoRA 还多" says what "比 LoRA 更多" says (Q150 point 5: prompt tuning is used less).
        (150, 5, "这类方法不占上下文，所以现在大模型上用得比 LoRA 还多。", True),
        # Q72 point 6: Anthropic's cache lives 5 minutes by default (1 hour is the option).
        (72, 6, "存活时间上，Anthropic 默认就是 1 小时，想省写入费可以改成 5 分钟。", True),
        (72, 6, "Anthropic 默认 5 分钟，也可以花钱选 1 小时。", False),
        (72, 6, "Anthropic 用 cache_control 标断点，默认就是 1 小时，每次命中刷新。", True),
        # Q52 point 3: cluster_selection_method defaults to eom (leaf is the option).
        (52, 3, "hdbscan 的 cluster_selection_method 默认是 leaf，容易切出细碎的小簇。", True),
        (52, 3, "cluster_selection_method 默认是 eom，改成 leaf 会切得更细。", False),
        # Another setting's default is no value of this one.
        (50, 4, "For clustering set n_components to about 5-10; min_dist defaults to 0.1.", False),
    ],
)
def test_a_wrong_credit_the_other_side_a_comparison_with_hai_and_a_wrong_default(
    grader, shipped, question, n, text, caught
):
    marked = point(grader, shipped, question, n, text)
    assert (marked.state == CONTRADICTED) is caught, marked
