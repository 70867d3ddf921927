"""Figures of the point's own text: a key point that measures something (12.5 Hz, 4%, 几百
token, 26 分钟) is contradicted by another figure of that measure said of the same thing, in the
units people write it in: "四成" is 40%, "二三十个 token" is no "几百 token", "26 个小时" is
hours. Right figures, rough ones that hold the point's, and other things' figures stay right.
"""

from __future__ import annotations

import pytest
from imported import state

from studybot.learn.marks import CONTRADICTED


@pytest.mark.parametrize(
    "question, point, right, wrong",
    [
        # a share in tenths: 四成 is 40%, not the 4% of chain-of-thought
        (
            65,
            5,
            "24 点游戏里 GPT-4 的思维链只成功了约 4%，换成思维树有七成多。",
            "24 点游戏里 GPT-4 的思维链也有将近三成的成功率，思维树更高。",
        ),
        # a rate in Hz of the thing the point measures
        (
            112,
            5,
            "Moshi 的 Mimi 编解码器跑在 12.5 Hz，所以能全双工对话。",
            "Moshi 的 Mimi 编解码器跑在 50 Hz，所以能全双工对话。",
        ),
        # a latency in ms
        (
            112,
            5,
            "Moshi 的理论延迟约 160 ms，因为它是全双工的。",
            "Moshi 的理论延迟约 900 ms，因为它是全双工的。",
        ),
        # a rough count of tokens: 几百 holds 三四百, not 十来个
        (
            80,
            1,
            "每个工具的 schema 大概要占三四百个 token，工具一多开销就上来了。",
            "每个工具的 schema 也就占 15 个 token，工具再多开销也不大。",
        ),
        # hours said with 个: "26 个小时" is 26 hours, not the point's 26 minutes
        (
            173,
            2,
            "训练在 16 张 H100 上只需要 26 分钟左右。",
            "训练在 16 张 H100 上要花掉 26 个小时左右。",
        ),
    ],
)
def test_another_figure_of_what_the_point_measures_is_an_error(
    grader, shipped, question, point, right, wrong
):
    assert state(grader, shipped, question, point, right) != CONTRADICTED
    assert state(grader, shipped, question, point, wrong) == CONTRADICTED


@pytest.mark.parametrize(
    "question, point, text",
    [
        # the other term's figure beside it
        (65, 5, "思维树在 24 点游戏上能到约 74%，而 GPT-4 的思维链只有约 4%。"),
        # the same time in other units, converted right
        (173, 2, "训练在 16 张 H100 上大约 0.43 小时就完成了。"),
        # a rough figure that holds the point's
        (80, 1, "每个工具的 schema 常常有好几百 token，上百个工具就是好几万。"),
        # 成 as a verb is no share
        (65, 5, "GPT-4 用思维链的成功率约 4%，变成思维树后提升明显。"),
    ],
)
def test_right_figures_stay_right(grader, shipped, question, point, text):
    assert state(grader, shipped, question, point, text) != CONTRADICTED
