"""Correct sentences a scope misread turned into a ⚠ on a clean answer: each case reads a
negation's words as a learner means them, on a real question, and the plain error beside it
is still caught.
"""

from __future__ import annotations

import pytest

from studybot.learn import grading
from studybot.learn.marks import CONTRADICTED, COVERED, PARTLY


@pytest.fixture(scope="module")
def grader(shipped):
    return grading.offline(shipped)


def state(grader, shipped, question: int, point: int, text: str) -> str:
    return grader.grade(shipped.get(question), text).points[point - 1].state


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
