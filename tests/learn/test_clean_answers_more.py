"""Correct sentences that turn down a wrong alternative with 不是 and go on to the right one:
the negation denies the alternative, not the point ("f_t 不是文档频率，而是…"). Each pairs with
the plain error on the same point, which is still marked contradicted. A pronoun after a
sentence that names both is the one named first ("PPO 胜过 DPO。但它并不便宜" is about PPO); a
figure after 不是 is turned down, neither said nor the point's figure denied.
"""

from __future__ import annotations

import pytest
from imported import state

from studybot.learn.marks import CONTRADICTED


@pytest.mark.parametrize(
    "text, caught",
    [
        ("c-TF-IDF 里的 f_t 并不是文档频率，而是该词在全部类里的总频率。", False),
        ("f_t 不是文档频率：它数的是词在每个类里出现次数的总和。", False),
        ("c-TF-IDF 里的 f_t 并不是该词在全部类里的总频率，而是文档频率。", True),
        ("f_t 不是总频率，而是文档频率。", True),
    ],
)
def test_a_kind_turned_down_is_no_denial(grader, shipped, text, caught):
    assert (state(grader, shipped, 54, 2, text) == CONTRADICTED) is caught  # f_t: total frequency


@pytest.mark.parametrize(
    "text, caught",
    [
        ("在线采样让 PPO 在多数基准上胜过 DPO。可它并不便宜：同时要维护 4 个模型。", False),
        ("DPO 在多数基准上都输给了 PPO。可它并不便宜：同时要维护 4 个模型。", True),
        ("DPO 并不便宜：同时要维护 4 个模型。", True),
    ],
)
def test_a_pronoun_is_the_first_named_of_the_clause_before(grader, shipped, text, caught):
    assert (state(grader, shipped, 162, 1, text) == CONTRADICTED) is caught  # DPO is cheap


@pytest.mark.parametrize(
    "text, caught",
    [
        ("V3 里每个 token 激活的并不是 16 个，而是 8 个路由专家。", False),
        ("V3 里每个 token 激活的不是 16 个而是 8 个路由专家，外加 1 个共享专家。", False),
        ("V3 里每个 token 激活的不是 8 个而是 16 个路由专家。", True),
        ("V3 里每个 token 激活 16 个路由专家。", True),
    ],
)
def test_a_figure_turned_down_is_not_said(grader, shipped, text, caught):
    assert (state(grader, shipped, 183, 4, text) == CONTRADICTED) is caught  # 8 routed experts
