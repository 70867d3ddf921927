"""Correct sentences a scope misread turned into a ⚠ on a clean answer: each case reads a
negation's words as a learner means them, on a real question, and the plain error beside it
is still caught.
"""

from __future__ import annotations

import pytest
from imported import state

from studybot.learn.marks import CONTRADICTED, COVERED, PARTLY


@pytest.mark.parametrize(
    "text",
    [
        "这种反思行为不完全是凭空冒出来的，基座里早有苗头。",
        "基座本来就会反思，所以顿悟不完全凭空。",
    ],
)
def test_not_entirely_is_not_plus_entirely(grader, shipped, text):
    # 不完全 cuts as 不 + 完全 (not entirely), not 不完 (can't finish) + 全
    assert state(grader, shipped, 193, 5, text) in (COVERED, PARTLY)


def test_entirely_from_scratch_is_still_the_error(grader, shipped):
    assert state(grader, shipped, 193, 5, "顿悟完全是 RL 凭空造出来的。") == CONTRADICTED


@pytest.mark.parametrize(
    "text",
    [
        "partial_fit 需要各组件都能增量更新：降维用 IncrementalPCA 而不是 UMAP，聚类用"
        " MiniBatchKMeans 而不是 HDBSCAN，向量化用 OnlineCountVectorizer 而不是 CountVectorizer。",
        "For streaming updates, swap UMAP for IncrementalPCA, HDBSCAN for MiniBatchKMeans,"
        " and use OnlineCountVectorizer rather than CountVectorizer.",
    ],
)
def test_turning_down_what_the_point_replaces_states_the_replacement(grader, shipped, text):
    # the point says X 代替 Y: "X 而不是 Y", "X rather than Y" say it, they deny nothing
    assert state(grader, shipped, 58, 2, text) == COVERED
    kept = "partial_fit 时降维仍然用 UMAP，不换成 IncrementalPCA。"
    assert state(grader, shipped, 58, 2, kept) not in (COVERED, PARTLY)


@pytest.mark.parametrize(
    "text",
    [
        "Fit one global topic model on the whole corpus, then bin the timestamps by month and"
        " recompute c-TF-IDF per bin, unlike training a separate model per month.",
        "Fit one global model over everything, then bin timestamps by month and recompute"
        " c-TF-IDF inside each bin, as opposed to a separate model per period.",
    ],
)
def test_unlike_and_as_opposed_to_turn_down_what_follows(grader, shipped, text):
    # the point's wrong claim (one model per period), set against the right way, is not said
    assert state(grader, shipped, 57, 1, text) == COVERED
    plain = "Just train a separate model per month and compare them."
    assert state(grader, shipped, 57, 1, plain) == CONTRADICTED


@pytest.mark.parametrize(
    "text",
    [
        "Base models already reflect a little, so the aha moment is closer to RL amplifying an"
        " existing habit than to a skill built from scratch.",
        "Some base models show self-reflection before RL; RL stabilizes that behavior, which is"
        " more plausible than the aha appearing from nothing.",
    ],
)
def test_what_follows_than_is_the_standard_not_a_claim(grader, shipped, text):
    assert state(grader, shipped, 193, 5, text) == COVERED
    plain = "The aha moment is a skill RL built from scratch."
    assert state(grader, shipped, 193, 5, plain) == CONTRADICTED


def test_a_figure_in_words_is_bound_to_its_comparison(grader, shipped):
    # "above zero" says no "temperature zero": a bound between a word and its figure
    right = (
        "Draw N answers to the same question at a temperature above zero, score each with a"
        " verifier such as a PRM or unit tests, and keep the best one."
    )
    assert state(grader, shipped, 169, 1, right) == COVERED
    wrong = "Draw N answers at temperature zero, score each with a verifier, and keep the best one."
    assert state(grader, shipped, 169, 1, wrong) == CONTRADICTED


@pytest.mark.parametrize(
    "text",
    [
        "检索块逐个编号、附上来源，每个论断后标引用号；资料里没有的，明确答不知道，不准用自己的知识补上。",
        "检索块逐个编号、附上来源，每个论断后标引用号；资料没覆盖的就回答不知道，不许用自己的知识补全。",
    ],
)
def test_must_not_is_a_negation(grader, shipped, text):
    # 不许/不准 forbid what follows: the wrong "用自己的知识补全" is turned down, not said
    assert state(grader, shipped, 99, 1, text) == COVERED
    assert (
        state(grader, shipped, 99, 1, "资料里缺的部分可以让模型用自己的知识补全。") == CONTRADICTED
    )


def test_not_two_different_kinds_is_one_kind(grader, shipped):
    # 不是 + 两种 + 不一样的: a copula negation of kinds told apart by a negated word cancels it
    right = "推理时缓存历史的 K、V，每步只算新 token；训练的因果掩码和逐 token 生成并不是两种不一样的机制。"
    assert state(grader, shipped, 2, 2, right) == COVERED
    wrong = (
        "推理时缓存历史的 K、V，每步只算新 token；训练的因果掩码和逐 token 生成是两种不一样的机制。"
    )
    assert state(grader, shipped, 2, 2, wrong) == CONTRADICTED


@pytest.mark.parametrize(
    "text",
    [
        "模型越大越会顺着翻转过的标签回答，把语义先验压下去；对大模型来说示例标错确实有害，不能说标签无所谓。",
        "对大模型来说，不能说标签无所谓。",
    ],
)
def test_what_one_cannot_say_is_denied(grader, shipped, text):
    # "不能说 X": X is wrong, so the point (labels matter) is not contradicted
    assert state(grader, shipped, 62, 2, text) != CONTRADICTED
    assert state(grader, shipped, 62, 2, "对大模型来说，标签无所谓。") == CONTRADICTED


def test_not_needing_it_for_every_one_denies_the_every(grader, shipped):
    # "不需要给每个子词都打标签" denies "every subword", not labelling: the first one still is
    right = "分词后标签要和子词对齐，也不需要给每个子词都打标签：只有词首子词拿真实标签，其余子词和特殊符号记 -100。"
    assert state(grader, shipped, 136, 3, right) == COVERED
    wrong = "分词后标签要和子词对齐：首子词不打真实标签，只给最后一个子词打。"
    assert state(grader, shipped, 136, 3, wrong) == CONTRADICTED


@pytest.mark.parametrize(
    "text",
    [
        "只做自监督预训练时仅解码器零样本泛化最强；双向可见、掩码语言建模预训练的编码器-解码器，"
        "不做多任务微调是反超不了的。",
        "只做自监督预训练时仅解码器零样本泛化最强；双向可见的编码器-解码器没有多任务微调就反超不了。",
    ],
)
def test_without_it_it_cannot_says_only_with_it(grader, shipped, text):
    # "不做 X 是 Y 不了的": Y only after X, the point's "要经过多任务微调才反超"
    assert state(grader, shipped, 2, 4, text) == COVERED
    wrong = "只做自监督预训练时仅解码器零样本泛化最强；编码器-解码器做了多任务微调也反超不了。"
    assert state(grader, shipped, 2, 4, wrong) == CONTRADICTED


def test_not_enough_then_still_is_a_condition(grader, shipped):
    # 不够 is a whole predicate: "再不够还可以卸载" offloads when memory runs short
    right = (
        "用 GQA 或 MLA 从架构上减少每个 token 的 KV，部分层用滑动窗口注意力限制 KV 长度；"
        "显存再不够还可以把 KV 卸载到 CPU 内存。"
    )
    assert state(grader, shipped, 38, 6, right) == COVERED
    wrong = (
        "用 GQA 或 MLA 从架构上减少每个 token 的 KV，部分层用滑动窗口注意力限制 KV 长度；"
        "KV 不能卸载到 CPU 内存。"
    )
    assert state(grader, shipped, 38, 6, wrong) == CONTRADICTED
