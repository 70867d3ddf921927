"""Correct sentences whose negation belongs to a smaller part of the sentence than the point's
words (``presumed``): each was a false ⚠ on a clean answer of a blind round, and the same rubric
still marks the plain error beside it.
"""

from __future__ import annotations

import pytest
from imported import state

from studybot.learn.marks import CONTRADICTED


@pytest.mark.parametrize(
    "question, point, right, wrong",
    [
        # a negation inside a modifier closed by 的 negates the modifier's verb, not the noun
        (
            83,
            1,
            "在这种分工下，子任务各自需要一段不被旁人干扰的长上下文。",
            "子任务不需要各自隔离的长上下文。",
        ),
        # an English relative clause without "that" negates its own verb only
        (
            156,
            1,
            "Fine-tuning is a poor way to add knowledge the base model never picked up in "
            "pre-training.",
            "Knowledge does not come from pre-training.",
        ),
    ],
)
def test_a_negation_in_a_smaller_part_is_no_denial_and_the_error_still_is(
    grader, shipped, question, point, right, wrong
):
    assert state(grader, shipped, question, point, right) != CONTRADICTED
    assert state(grader, shipped, question, point, wrong) == CONTRADICTED
