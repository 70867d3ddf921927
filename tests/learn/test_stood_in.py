"""A point's example said of another name the bank writes, with no word of origin.

Q27's third point gives sandwich normalisation to Gemma 2, Q156's third the 52K
Self-Instruct data to Alpaca. An answer that says the point's words of another
model the bank writes elsewhere (not in these questions), in a clause that opens on
that name and never naming the point's own, has one confident error: the point is
⚠ with that clause as evidence and the point's clause as the key. The right name, a
contrast naming both, and the other name said not to do it are no error.
"""

from __future__ import annotations

import pytest

from studybot.learn.marks import CONTRADICTED

NORMS = (
    "Pre-LN 堆深以后，残差流的范数随深度越变越大，深层子层的贡献被稀释，有些层近乎冗余。"
    "于是有了 DeepNorm 这种缩放残差的办法；"
)
SOURCES = "数据可以人工编写；也可以走 Self-Instruct 的路子，让模型从少量种子任务自举出指令，"


def _point(grader, shipped, question, point, text):
    return grader.grade(shipped.get(question), text).points[point - 1]


@pytest.mark.parametrize(
    "question, point, text, evidence, key",
    [
        (
            27,
            3,
            NORMS + "另外 Llama 那种子层前后各加一次归一化的三明治结构也是折中办法。",
            "Llama 那种子层前后各加一次归一化的三明治结构也是折中办法",
            "Gemma 2",
        ),
        (
            156,
            3,
            SOURCES + "Vicuna 的 52K 条数据正是这样得来的。",
            "Vicuna 的 52K 条数据正是这样得来的",
            "Alpaca",
        ),
    ],
)
def test_another_name_in_the_points_example_contradicts_it(
    grader, shipped, question, point, text, evidence, key
):
    seen = _point(grader, shipped, question, point, text)
    assert seen.state == CONTRADICTED
    assert evidence in seen.evidence
    assert key in seen.key  # the point's own clause, its name in it, is shown beside it


@pytest.mark.parametrize(
    "question, point, text",
    [
        (27, 3, NORMS + "另外 Gemma 2 那种子层前后各加一次归一化的三明治结构也是折中办法。"),
        (27, 3, NORMS + "Llama 只在子层前做归一化，Gemma 2 则在子层前后都做，算是折中。"),
        (27, 3, NORMS + "Llama 并没有在子层前后都做归一化这种折中。"),
        (156, 3, SOURCES + "Alpaca 的 52K 条数据正是这样得来的。"),
        (156, 3, SOURCES + "Alpaca 的 52K 条数据正是这样得来的，Vicuna 则用了 ShareGPT 上的对话。"),
        (156, 3, SOURCES + "Vicuna 的数据并不是这样来的，它用的是 ShareGPT 对话。"),
    ],
)
def test_the_right_name_a_contrast_or_a_denied_one_is_no_error(
    grader, shipped, question, point, text
):
    assert _point(grader, shipped, question, point, text).state != CONTRADICTED
