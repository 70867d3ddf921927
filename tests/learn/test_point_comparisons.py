"""A comparison or a factor the key point writes, said the other way round by the attempt.

The point's text holds the comparative ("ColBERT 式后期交互（更快）", "调好的 PPO 全部
优于 DPO", "代理奖励模型越大，过优化得越慢", "把输入嵌入乘以 √d"); an attempt that names
the same thing and says the opposite, or swaps the two sides, contradicts the point, while
the right comparison, a contrast of two things, a negated or asked reversal, and the
reversal said of the rival stay as they were.
"""

from __future__ import annotations

import pytest
from imported import state

from studybot.learn.marks import CONTRADICTED

_GAO = "随着 KL 距离增大，代理奖励单调上升，金标准奖励先升后降；"  # the point's other claims
_PPO = "PPO samples on-policy and explores new answers; "


@pytest.mark.parametrize(
    "text, caught",
    [
        ("另一种选择是 ColBERT 的后期交互，它比 cross-encoder 更慢。", True),
        ("ColBERT 的后期交互比 cross-encoder 更快，RankGPT 列表式重排更准但更慢。", False),
        ("ColBERT 后期交互会比交叉编码器更慢吗？", False),
        ("LLM 列表式重排比 ColBERT 更慢。", False),
    ],
)
def test_the_opposite_comparative_of_the_same_thing(grader, shipped, text, caught):
    assert (state(grader, shipped, 90, 5, text) == CONTRADICTED) is caught  # ColBERT: faster


@pytest.mark.parametrize(
    "text, caught",
    [
        ("在分布偏移的测试集上，它比有监督的 ResNet 更脆弱。", True),
        ("在分布偏移的数据集上，它比有监督模型更稳健。", False),
        ("在分布偏移的数据集上，它并不比有监督模型更脆弱。", False),
    ],
)
def test_the_opposite_comparative_after_a_standard(grader, shipped, text, caught):
    assert (state(grader, shipped, 102, 3, text) == CONTRADICTED) is caught  # CLIP: more robust


@pytest.mark.parametrize(
    "text, caught",
    [
        (f"{_GAO}代理 RM 的规模越大，被过优化得越快。", True),
        (f"{_GAO}代理 RM 的规模越大，被过优化得越慢。", False),
        (f"{_GAO}代理 RM 的规模越小，被过优化得越快。", False),  # the rival: the point itself
    ],
)
def test_the_rising_clause_said_the_other_way(grader, shipped, text, caught):
    assert (state(grader, shipped, 160, 3, text) == CONTRADICTED) is caught  # larger RM: slower


@pytest.mark.parametrize(
    "text, caught",
    [
        ("Xu 等 2024 年比较后发现 DPO 全面优于 PPO。", True),
        ("Xu 等 2024 年的结论是调好的 PPO 在这些基准上都优于 DPO。", False),
        ("Xu 等 2024 年的结论是 DPO 不如调好的 PPO。", False),
        (f"{_PPO}yet Xu et al. (2024) found DPO outperforms PPO on dialogue and code.", True),
        (f"{_PPO}and Xu et al. (2024) found a tuned PPO outperforms DPO on dialogue.", False),
    ],
)
def test_the_two_sides_swapped(grader, shipped, text, caught):
    assert (state(grader, shipped, 162, 2, text) == CONTRADICTED) is caught  # PPO beats DPO


@pytest.mark.parametrize(
    "text, caught",
    [
        ("R1-Distill-Qwen-7B 在 AIME 2024 拿到约 55.5%，但仍落后于 QwQ-32B-Preview。", True),
        ("R1-Distill-Qwen-7B 在 AIME 2024 拿到约 55.5%，已经超过 QwQ-32B-Preview。", False),
        (
            "R1-Distill-Qwen-7B scores about 55.5% on AIME 2024, which lags behind QwQ-32B-Preview.",
            True,
        ),
    ],
)
def test_behind_for_ahead_of(grader, shipped, text, caught):
    assert (state(grader, shipped, 199, 2, text) == CONTRADICTED) is caught


@pytest.mark.parametrize(
    "text, caught",
    [
        ("Gemma 会把输入嵌入除以 √d 再送进网络。", True),
        ("Gemma 会把输入嵌入乘以 √d，T5 在输出投影前把隐藏状态乘以 d^-0.5。", False),
    ],
)
def test_divides_for_multiplies(grader, shipped, text, caught):
    assert (state(grader, shipped, 18, 5, text) == CONTRADICTED) is caught


_TRICKS = "回译、同义词替换和 LLM 改写都能扩充小数据集。"  # Q138's other ways, before its pitfall


@pytest.mark.parametrize(
    "text, caught",
    [
        (f"{_TRICKS}流程上先对整份数据做增强，然后切出训练集、验证集和测试集。", True),
        (f"{_TRICKS}流程上先切出训练集、验证集和测试集，然后只对训练集做增强。", False),
        (f"{_TRICKS}流程上不是先对整份数据做增强再切出训练集、验证集和测试集。", False),
    ],
)
def test_the_order_said_the_other_way(grader, shipped, text, caught):
    assert (state(grader, shipped, 138, 5, text) == CONTRADICTED) is caught  # split, then augment


@pytest.mark.parametrize(
    "text, caught",
    [
        (
            "窗口要装下系统提示、记忆、检索内容、输入和输出；应先让记忆占满，其余再给系统提示和输出。",
            True,
        ),
        (
            "窗口要装下系统提示、记忆、检索内容、输入和输出；应先给系统提示和输出留够，其余再给记忆。",
            False,
        ),
    ],
)
def test_what_is_left_said_first(grader, shipped, text, caught):
    assert (
        state(grader, shipped, 75, 5, text) == CONTRADICTED
    ) is caught  # reserve the output first


def test_the_key_beside_a_reversed_comparison_is_the_points_words_that_say_it(grader, shipped):
    text = "可选的还有 ColBERT 这种后期交互，它比交叉编码器更慢但更准，也可以用 LLM 做列表式重排。"
    point = grader.grade(shipped.get(90), text).points[4]
    assert point.state == "contradicted"
    assert "ColBERT 式后期交互(更快)" in point.key
