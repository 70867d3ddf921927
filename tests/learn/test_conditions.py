"""Correct sentences whose negation belongs to a condition, a past, a thing turned down or a
double negation: none of them denies the point ("不一致就不接受", "以前不是…", "而不是计算受限的
prefill", "也不能和线上不一样"). Each was a false ⚠ on a correct answer of a blind round; the
same rubric still marks the plain error beside it.
"""

from __future__ import annotations

import pytest
from imported import state

from studybot.learn.marks import CONTRADICTED


@pytest.mark.parametrize(
    "question, point, right, wrong",
    [
        # 从没 is one negation, like 从未
        (
            143,
            3,
            "模型推理时看到的是训练中从没见过的 token 序列。",
            "模型推理时看到的仍是训练中见过的 token 序列。",
        ),
        # not X, then harm: X is needed
        (
            116,
            6,
            "两类任务的损失权重和数据配比不平衡就会互相拖累。",
            "两类任务的损失权重和数据配比不需要平衡。",
        ),
        # a negation across a short 和 phrase chains with the next one
        (
            165,
            2,
            "评测时的对话模板和解码参数也不能和线上不一样。",
            "评测时的对话模板可以和线上不一样。",
        ),
        # an attribute of the thing turned down is not denied
        (
            180,
            6,
            "所以它划算的是访存受限的解码，而不是计算受限的 prefill。",
            "prefill 阶段也不是计算受限的。",
        ),
        # the past
        (
            1,
            1,
            "跟传统 NLP 的区别在于用法：以前不是一个模型管所有任务。",
            "大模型也不是一个模型管所有任务。",
        ),
        # "而不是 X" reaches no further than the predicate after X
        (
            127,
            5,
            "用连续分数而不是 0/1 硬标签的好处是鲁棒：生成的 query 质量不高时也不怕。",
            "GPL 用的是 0/1 硬标签，而不是连续分数。",
        ),
        (
            127,
            5,
            "Using the cross-encoder's continuous scores instead of hard 0/1 labels makes GPL "
            "tolerant of low-quality generated queries.",
            "GPL trains on hard 0/1 labels rather than continuous scores.",
        ),
    ],
)
def test_a_correct_negation_is_no_denial_and_the_error_still_is(
    grader, shipped, question, point, right, wrong
):
    assert state(grader, shipped, question, point, right) != CONTRADICTED
    assert state(grader, shipped, question, point, wrong) == CONTRADICTED


@pytest.mark.parametrize(
    "question, point, text",
    [
        (79, 3, "只要模型还没给出普通文本回答，就继续这个循环。"),  # 只要…，就…: an if-part
        (187, 4, "和标准推测解码相同：贪心时草稿与主模型结果不一致就不接受。"),  # 不…就不… = …才…
        (136, 4, "边界或类型有一点不一样都不算对。"),  # 不…都不… = …才…
        (
            29,
            1,
            "当然也不是一点位置信号都没有：仅解码器的因果掩码会隐式带来一些。",
        ),  # not even none
        (
            48,
            1,
            "MTEB 的聚类榜只能参考，并不能代替在自己数据上抽样检查。",
        ),  # not replaced: still done
    ],
)
def test_a_double_negation_or_an_if_part_denies_nothing(grader, shipped, question, point, text):
    assert state(grader, shipped, question, point, text) != CONTRADICTED


@pytest.mark.parametrize(
    "text, caught",
    [
        ("每组的 K/V 投影不做平均，而是只保留组里第一个头的投影。", True),  # 不做 is a negation
        ("每组的 K/V 投影取平均作为初始化。", False),
    ],
)
def test_not_doing_it_denies_it(grader, shipped, text, caught):
    assert (state(grader, shipped, 24, 5, text) == CONTRADICTED) is caught


@pytest.mark.parametrize(
    "text, caught",
    [
        (
            "So the merged model has the original architecture and zero added inference latency.",
            False,
        ),
        ("合并后推理是零额外延迟。", False),
        ("After merging, LoRA adds extra inference latency.", True),
    ],
)
def test_zero_added_is_none_added(grader, shipped, text, caught):
    assert (state(grader, shipped, 149, 4, text) == CONTRADICTED) is caught  # no added latency


@pytest.mark.parametrize(
    "text, caught",
    [
        ("显存够也不等于能用：不调整 RoPE、不做长文本继续训练，过了 8K 效果照样会崩。", False),
        ("不需要调整 RoPE，直接用就行。", True),
    ],
)
def test_without_it_harm_follows_is_an_if_part(grader, shipped, text, caught):
    assert (state(grader, shipped, 34, 5, text) == CONTRADICTED) is caught  # RoPE must be adjusted


@pytest.mark.parametrize(
    "text, caught",
    [
        ("加了 RoPE 以后 W_UK 再也吸收不进一个固定的查询投影。", False),  # 不进 negates 吸收
        ("加了 RoPE 以后 W_UK 仍然可以吸收进查询投影。", True),
    ],
)
def test_a_verb_negated_after_it_is_negated(grader, shipped, text, caught):
    assert (state(grader, shipped, 181, 1, text) == CONTRADICTED) is caught
