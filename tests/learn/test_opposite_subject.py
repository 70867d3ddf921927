"""A claim's subject said as its opposite ("第一个 token" for "最后一个 token", "简单题" for
"难题") with the claim's relation contradicts the point, with that clause as the evidence,
also where another claim of the point states the same relation in that clause. The right
word, the rival negated ("并不是简单题上…，而是难题上") and a correct contrast are no error.
"""

from __future__ import annotations

import pytest

from studybot.learn import antonyms, grading
from studybot.learn.marks import CONTRADICTED


@pytest.fixture(scope="module")
def mark_of(shipped):
    """The mark a learner sees for one point of a shipped question: (state, evidence)."""
    offline = grading.offline(shipped)

    def mark(question: int, point: int, text: str) -> tuple[str, str]:
        shown = offline.grade(shipped.get(question), text).points[point - 1]
        return shown.state, shown.evidence or ""

    return mark


HEAD = "奖励模型从 SFT 模型初始化，语言模型头换成一个输出标量的线性头，"


def test_a_phrase_pair_of_different_lengths_is_an_opposite():
    assert antonyms.ABOUT[("最后", "一个")] == ("第一个",)
    assert antonyms.ABOUT[("第一个",)] == ("最后", "一个")


def test_the_first_token_said_for_the_last_is_a_contradiction(mark_of):
    state, evidence = mark_of(
        158, 1, HEAD + "用整段输入第一个 token 处的隐藏状态当作这段回答的分数。"
    )
    assert state == CONTRADICTED
    assert "第一个 token" in evidence


@pytest.mark.parametrize(
    "text",
    [
        HEAD + "用整段输入最后一个 token 处的隐藏状态当作这段回答的分数。",
        HEAD + "分数不取第一个 token 的隐藏状态，而取最后一个 token 的隐藏状态。",
        HEAD + "用最后一个 token 的隐藏状态作为分数，因为第一个 token 只看得到开头。",
    ],
)
def test_the_last_token_said_right_or_the_first_turned_down_is_no_error(mark_of, text):
    assert mark_of(158, 1, text)[0] != CONTRADICTED


SNELL = "Snell 等人的实验里，"


def test_easy_problems_said_for_hard_ones_beside_the_same_relation_is_a_contradiction(mark_of):
    state, evidence = mark_of(
        172,
        4,
        SNELL + "遇到简单题时树搜索更省算力；难题加上高预算时，束搜索会过度迎合 PRM，"
        "反而不如 best-of-N。",
    )
    assert state == CONTRADICTED
    assert "简单题" in evidence


@pytest.mark.parametrize(
    "text",
    [
        SNELL + "遇到难题时树搜索更省算力；简单题加上高预算时，束搜索会过度迎合 PRM，"
        "反而不如 best-of-N。",
        SNELL
        + "并不是简单题上树搜索更省算力，而是难题上；简单题加上高预算时，束搜索会过度迎合 PRM，"
        "反而不如 best-of-N。",
        SNELL + "难题上树搜索更省算力，简单题上 best-of-N 更省算力。",
    ],
)
def test_hard_problems_said_right_or_easy_ones_turned_down_is_no_error(mark_of, text):
    assert mark_of(172, 4, text)[0] != CONTRADICTED
