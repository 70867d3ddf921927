"""More of the point's comparisons said the other way round: the extreme a point names
("三者中的最大值") turned into the other one, and an order written as a placement
("把 reasoning 字段放在 answer 之前", "X before Y") with its two things swapped. The right
reading, a negated or asked reversal and a third thing placed stay as they were.
"""

from __future__ import annotations

import pytest
from imported import state

from studybot.learn.marks import CONTRADICTED


@pytest.mark.parametrize(
    "text, caught",
    [
        ("HDBSCAN 里两点的互达距离，是各自核心距离和两点原始距离这三个数里的最小值。", True),
        ("HDBSCAN 里两点的互达距离，是各自核心距离和两点原始距离这三个数里的最大值。", False),
        ("两点的互达距离并不是三个距离里的最小值。", False),
        ("两点的互达距离是三个距离里的最小值吗？", False),
        ("建最小生成树时，每次挑边权里的最小值连上去。", False),  # another thing's minimum
        ("HDBSCAN links points by d_mreach(a, b) = min(core_k(a), core_k(b), d(a, b)).", True),
        ("HDBSCAN links points by d_mreach(a, b) = max(core_k(a), core_k(b), d(a, b)).", False),
        ("HDBSCAN then builds a minimum spanning tree over d_mreach.", False),  # not a value
    ],
)
def test_the_other_extreme_of_the_same_thing(grader, shipped, text, caught):
    assert (state(grader, shipped, 51, 3, text) == CONTRADICTED) is caught  # mutual reach: max


@pytest.mark.parametrize(
    "text, caught",
    [
        ("生成顺序就是字段顺序，所以 schema 里应该把 answer 放在 reasoning 之前。", True),
        ("生成顺序就是字段顺序，所以 answer 字段要排在 reasoning 字段前面。", True),
        ("生成顺序就是字段顺序，所以在 answer 字段后面才轮到 reasoning 字段。", True),
        ("Fields are generated in schema order, so place the answer field before reasoning.", True),
        ("生成顺序就是字段顺序，所以 schema 里应该把 reasoning 放在 answer 之前。", False),
        ("Fields are generated in schema order, so put reasoning before the answer field.", False),
        (
            "Fields are generated in schema order, so never put the answer field before reasoning.",
            False,
        ),
        ("生成顺序就是字段顺序，那要把 answer 放在 reasoning 之前吗？", False),
        ("要是把 answer 放在 reasoning 之前的话，结论就在推理之前定死了。", False),  # supposed
        ("生成顺序就是字段顺序，可以把 enum 字段放在 reasoning 后面。", False),  # a third field
    ],
)
def test_a_placement_with_its_two_things_swapped(grader, shipped, text, caught):
    assert (state(grader, shipped, 68, 3, text) == CONTRADICTED) is caught  # reasoning first


_R1 = "在同一个 32B 基座上直接做大规模 RL，"


@pytest.mark.parametrize(
    "text, caught",
    [
        (f"{_R1}这远超蒸馏出来的 Qwen-32B。", True),  # 这: the clause before
        ("在同一个 32B 基座上直接做大规模 RL 的结果远超蒸馏出来的 Qwen-32B。", True),
        ("蒸馏出来的 Qwen-32B 远超在同一个 32B 基座上直接做大规模 RL 的结果。", False),
        (f"{_R1}它远超蒸馏出来的 Qwen-32B 吗？", False),
        (f"{_R1}这并不远超蒸馏出来的 Qwen-32B。", False),
        (f"{_R1}这远超同样大小的对话模型。", False),  # another standard
    ],
)
def test_a_comparison_said_of_the_clause_before_or_in_other_words(grader, shipped, text, caught):
    assert (state(grader, shipped, 166, 3, text) == CONTRADICTED) is caught  # distilled wins
