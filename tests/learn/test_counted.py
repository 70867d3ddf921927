"""A count in the point's own words said with another count: the point is contradicted.

Q110's second point has Qwen2-VL merge neighbouring frames in twos ("相邻两帧", "时间维深度
为 2", "temporal depth 2"). An answer that says those words with another count has
one confident error, shown with the clause that says it. The right count, a wrong
count turned down, a count the point writes elsewhere, and other numbers in the
same sentence (frames, tokens) leave the point as it was.
"""

from __future__ import annotations

import pytest

from studybot.learn.marks import CONTRADICTED

BUDGET = (
    "每帧 576 个 token 的话，64 帧就有 36864 个 token，所以要对每帧池化或者在时间上合并相邻帧；"
)


def _point(grader, shipped, text):
    return grader.grade(shipped.get(110), text).points[1]


@pytest.mark.parametrize(
    "text, evidence",
    [
        (BUDGET + "Qwen2-VL 用 3D 卷积把相邻三帧合成一组。", "相邻三帧"),
        (BUDGET + "Qwen2-VL 的 3D 卷积时间维深度为 4，按 2 fps 采样。", "深度为 4"),
        (
            "At 576 tokens a frame, 64 frames are 36864 tokens, so frames are pooled or merged "
            "in time: Qwen2-VL uses a 3D convolution with a temporal depth of 8.",
            "temporal depth of 8",
        ),
    ],
)
def test_another_count_in_the_points_words_contradicts_it(grader, shipped, text, evidence):
    seen = _point(grader, shipped, text)
    assert seen.state == CONTRADICTED
    assert evidence in seen.evidence


@pytest.mark.parametrize(
    "text",
    [
        BUDGET + "Qwen2-VL 用时间维深度为 2 的 3D 卷积把相邻两帧合成一组。",  # the right count
        BUDGET + "Qwen2-VL 不是把相邻四帧合成一组，而是相邻两帧。",  # the wrong one turned down
        BUDGET + "Qwen2-VL 以 2 fps 采样，用 3D 卷积合并相邻两帧，64 帧剩 32 组。",  # other numbers
    ],
)
def test_the_right_count_or_other_numbers_are_no_error(grader, shipped, text):
    assert _point(grader, shipped, text).state != CONTRADICTED
