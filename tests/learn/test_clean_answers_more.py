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
    "question, point, text, caught",
    [
        # a kind turned down (文档频率), then the right one: f_t is the total frequency
        (54, 2, "c-TF-IDF 里的 f_t 并不是文档频率，而是该词在全部类里的总频率。", False),
        (54, 2, "f_t 不是文档频率：它数的是词在每个类里出现次数的总和。", False),
        (54, 2, "c-TF-IDF 里的 f_t 并不是该词在全部类里的总频率，而是文档频率。", True),
        (54, 2, "f_t 不是总频率，而是文档频率。", True),
        # 它 is the one named first in the sentence before: DPO is cheap
        (162, 1, "在线采样让 PPO 在多数基准上胜过 DPO。可它并不便宜：同时要维护 4 个模型。", False),
        (162, 1, "DPO 在多数基准上都输给了 PPO。可它并不便宜：同时要维护 4 个模型。", True),
        (162, 1, "DPO 并不便宜：同时要维护 4 个模型。", True),
        # a figure after 不是 is turned down: 8 routed experts
        (183, 4, "V3 里每个 token 激活的并不是 16 个，而是 8 个路由专家。", False),
        (183, 4, "V3 里每个 token 激活的不是 16 个而是 8 个路由专家，外加 1 个共享专家。", False),
        (183, 4, "V3 里每个 token 激活的不是 8 个而是 16 个路由专家。", True),
        (183, 4, "V3 里每个 token 激活 16 个路由专家。", True),
    ],
)
def test_a_negation_of_something_else_is_no_denial(grader, shipped, question, point, text, caught):
    assert (state(grader, shipped, question, point, text) == CONTRADICTED) is caught
