"""The offline grader reads claims, not words: on a small bank written for these tests.

Each test is what a learner types and what a careful interviewer would
mark: a list of the topic's terms earns nothing, a statement earns its
point, a negation counts where it governs the relation ("不是 X 而是 Y"), a
question, a condition, a quote or a belief reported to be refuted asserts
nothing, a wrong figure of the claim's quantity contradicts it and another
figure does not, a correct contrast never contradicts.
"""

from __future__ import annotations

import pytest

from studybot import bank
from studybot.learn import grading, review
from studybot.learn.marks import CONTRADICTED, COVERED, MISSED, PARTLY

BANK = """title = "claims"
language = "zh-CN"

[[chapters]]
number = 1
title = "一"
file = "01.toml"
first = 1
last = 3
"""

CHAPTER = """chapter = 1

[[questions]]
id = 1
question = "为什么 KV 缓存只保存 K 和 V，而不保存 Q？"
key_points = [
  "K、V 会被之后每一步反复读取，一经算出就不再变化。",
  "历史 token 的 Q 只在当前步用一次，之后不会再被读取。",
  "KV 缓存随序列长度线性增长：每 token 约 128 KiB（Llama-3.1-8B，BF16）。",
]

[[questions.rubric]]
[[questions.rubric.claims]]
subject = "K V | K 和 V | keys values | keys and values"
relation = "反复 读取 | 每 一步 都 要 用 | 每 步 都 用 | 复用 | reused | read again"
zh = "K、V 会被之后每一步反复读取"
en = "keys and values are reused at every later step"
[[questions.rubric.claims]]
subject = "K V | K 和 V | keys values | keys and values"
relation = "不再 变化 | 不会 变 | 不 变 | never change | do not change"
opposite = "会 变化 | 每 步 都 变 | change every step"
zh = "K、V 一经算出就不再变化"
en = "keys and values never change once computed"

[[questions.rubric]]
wrong = ["q 也 缓存 | 缓存 q | cache queries"]
[[questions.rubric.claims]]
subject = "历史 q | q | queries | query"
relation = "只 用 一次 | 不会 再 用 | 不会 再 被 读取 | 不 需要 缓存 | 没必要 缓存 | never reused | used once"
opposite = "需要 缓存 | 也 要 缓存 | must be cached"
zh = "历史 token 的 Q 只用一次，之后不会再被读取"
en = "the queries of past tokens are used once and never reused"

[[questions.rubric]]
[[questions.rubric.claims]]
subject = "KV 缓存 | 显存 | 缓存 | memory"
relation = "线性 | 成正比 | linear | proportional"
object = "长度 | 序列 长度 | n | length | tokens"
opposite = "平方 | n^2 | quadratic"
zh = "KV 缓存随序列长度线性增长"
en = "the KV cache grows linearly with the sequence length"
[[questions.rubric.claims]]
subject = "每 token | 每个 token | per token"
value = { value = 128, unit = "KiB" }
zh = "每 token 约 128 KiB"
en = "about 128 KiB per token"

[[questions]]
id = 2
question = "采样时的温度（temperature）起什么作用？它和 top-k 的先后顺序有关系吗？"
key_points = [
  "温度越高分布越平坦，越低越尖锐。",
  "常见实现先做 top-k 截断，再按温度缩放。",
  "温度改变不了 top-k 保留哪些 token：它不改变 logits 的排序。",
]

[[questions.rubric]]
[[questions.rubric.claims]]
subject = "温度 越高 | 高温 | 温度 升高 | 温度 调高 | higher temperature"
relation = "平坦 | 均匀 | 随机 | flatter | more uniform"
opposite = "尖锐 | 集中 | sharper | peaked"
zh = "温度越高分布越平坦"
en = "a higher temperature makes the distribution flatter"
[[questions.rubric.claims]]
subject = "温度 越低 | 低温 | 温度 降低 | lower temperature"
relation = "尖锐 | 集中 | sharper | peaked"
opposite = "平坦 | 均匀 | flatter"
zh = "温度越低分布越尖锐"
en = "a lower temperature makes the distribution sharper"

[[questions.rubric]]
[[questions.rubric.claims]]
subject = "top-k | 截断"
relation = "先 | 之前 | 再 | 然后 | before | then"
object = "温度 | 缩放 | temperature"
ordered = true
zh = "先做 top-k 截断，再按温度缩放"
en = "top-k truncation comes first, then the temperature scaling"

[[questions.rubric]]
[[questions.rubric.claims]]
subject = "温度 | temperature"
relation = "不 改变 | 改变 不了 | 不会 改变 | 不 影响 | does not change | doesn't change"
object = "排序 | 保留 哪些 | 哪些 token | order | ranking | which tokens"
opposite = "改变 | 打乱 | changes"
zh = "温度改变不了 logits 的排序"
en = "temperature does not change the order of the logits"

[[questions]]
id = 3
question = "prefill 和 decode 有什么区别？"
key_points = [
  "prefill 一次并行处理整段提示，属于计算密集。",
  "decode 每步只处理一个新 token，属于访存密集。",
  "prefill 决定首 token 延迟（TTFT），decode 决定每个输出 token 的间隔（TPOT）。",
]

[[questions.rubric]]
[[questions.rubric.claims]]
subject = "prefill | 预填充"
relation = "计算 密集 | compute-bound | 算力 瓶颈"
opposite = "访存 密集 | memory-bound | 带宽 瓶颈"
zh = "prefill 属于计算密集"
en = "prefill is compute-bound"

[[questions.rubric]]
[[questions.rubric.claims]]
subject = "decode | 解码"
relation = "访存 密集 | memory-bound | 带宽 瓶颈"
opposite = "计算 密集 | compute-bound | 算力 瓶颈"
zh = "decode 属于访存密集"
en = "decode is memory-bound"

[[questions.rubric]]
[[questions.rubric.claims]]
subject = "prefill | 预填充"
relation = "决定 | 影响 | 对应 | sets | determines"
object = "ttft | 首 token 延迟"
zh = "prefill 决定 TTFT"
en = "prefill sets the TTFT"
[[questions.rubric.claims]]
subject = "decode | 解码"
relation = "决定 | 影响 | 对应 | sets | determines"
object = "tpot | 输出 间隔"
zh = "decode 决定 TPOT"
en = "decode sets the TPOT"
"""


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    folder = tmp_path_factory.mktemp("claims")
    (folder / "bank.toml").write_text(BANK, encoding="utf-8")
    (folder / "01.toml").write_text(CHAPTER, encoding="utf-8")
    return bank.load(str(folder))


@pytest.fixture(scope="module")
def grade(small):
    grader = grading.offline(small)

    def graded(question: int, text: str):
        return grader.grade(small.get(question), text)

    return graded


def states(result) -> list[str]:
    return [p.state for p in result.points]


# -- a list of terms is no statement ------------------------------------------------------

SALADS = [
    (1, "K、V、Q、缓存、线性、128 KiB"),
    (1, "K V，反复读取，不再变化，平方"),
    (1, "- KV 缓存\n- 线性\n- 长度\n- 128 KiB"),
    (1, "关键词：KV 缓存 / 线性增长 / 序列长度 / 复用"),
    (2, "温度，平坦，尖锐，top-k，排序"),
    (3, "prefill、decode、计算密集、访存密集"),
]


@pytest.mark.parametrize(("question", "text"), SALADS)
def test_the_topics_terms_as_a_list_earn_nothing_and_are_mentioned_only(grade, question, text):
    result = grade(question, text)
    assert result.score == 0, states(result)
    assert review.suggest_rating(result.score, result.contradicted) == 1
    assert result.contradicted == 0
    assert any(p.mentioned for p in result.points)


def test_a_statement_of_the_same_terms_earns_its_point(grade):
    result = grade(1, "K 和 V 之后每一步都要用，算出来就不会再变。Q 只用一次，之后不会再用。")
    assert states(result)[:2] == [COVERED, COVERED]
    assert not any(p.mentioned for p in result.points)


# -- negation and contrast, with scope ---------------------------------------------------


def test_not_x_but_y_asserts_y_and_is_no_contradiction(grade):
    result = grade(1, "缓存里存的不是 Q，而是 K 和 V，因为 K、V 之后每一步都要反复读取。")
    assert result.contradicted == 0
    assert result.points[0].state in (COVERED, PARTLY)


@pytest.mark.parametrize(
    ("question", "text", "point"),
    [
        (2, "温度改变不了 top-k 保留哪些 token", 3),
        (2, "温度并不会改变 logits 的排序", 3),
        (2, "temperature doesn't change the ranking of the logits", 3),
        (3, "decode isn't compute-bound, it is memory-bound", 2),
        (1, "Q 没必要缓存，它不会再用", 2),
    ],
)
def test_a_negation_that_belongs_to_a_correct_claim_is_no_contradiction(
    grade, question, text, point
):
    result = grade(question, text)
    assert result.contradicted == 0, [(p.state, p.evidence) for p in result.points]
    assert result.points[point - 1].state == COVERED


@pytest.mark.parametrize(
    "text",
    [
        "温度越高分布越尖锐吗？",
        "有人以为温度越高分布越尖锐，其实温度越高分布越平坦。",
        "如果温度越高分布越尖锐，采样就会更保守，但事实上温度越高分布越平坦。",
        "A common misconception is that a higher temperature makes it sharper, "
        "but a higher temperature makes the distribution flatter.",
    ],
)
def test_a_question_a_condition_or_a_refuted_belief_asserts_nothing(grade, text):
    result = grade(2, text)
    assert result.contradicted == 0, [(p.state, p.evidence) for p in result.points]


def test_a_negated_claim_or_its_opposite_contradicts_with_the_key_beside_it(grade):
    for text in (
        "温度越高分布越尖锐。",
        "温度越高，分布并不会更平坦。",
        "higher temperature makes it sharper",
    ):
        result = grade(2, text)
        assert result.points[0].state == CONTRADICTED, text
        assert result.points[0].key == "温度越高分布越平坦"
        assert review.suggest_rating(result.score, result.contradicted) == 1


def test_two_negations_cancel(grade):
    result = grade(1, "历史的 Q 并不是不需要缓存的")
    assert result.points[1].state == CONTRADICTED


def test_the_direction_said_backwards_contradicts(grade):
    right = grade(2, "先做 top-k 截断，然后再按温度缩放")
    backwards = grade(2, "先按温度缩放，再做 top-k 截断")
    assert right.points[1].state == COVERED
    assert backwards.points[1].state == CONTRADICTED


# -- wrong claims and figures, with scope ------------------------------------------------


def test_a_correct_contrast_never_contradicts_and_a_swapped_one_does(grade):
    right = grade(3, "prefill 属于计算密集，decode 属于访存密集")
    swapped = grade(3, "prefill 属于访存密集，decode 属于计算密集")
    assert states(right)[:2] == [COVERED, COVERED] and right.contradicted == 0
    assert states(swapped)[:2] == [CONTRADICTED, CONTRADICTED]


def test_a_wrong_claim_fires_only_where_it_is_asserted(grade):
    assert grade(1, "Q 也缓存起来比较好").points[1].state == CONTRADICTED
    assert grade(1, "有人以为 Q 也缓存，其实没必要缓存 Q").contradicted == 0
    assert grade(1, "「缓存 Q」是常见的误解").contradicted == 0


def test_a_wrong_figure_of_the_claims_quantity_contradicts_and_another_figure_does_not(grade):
    wrong = grade(1, "KV 缓存随长度线性增长，每 token 约 512 KiB")
    right = grade(1, "KV 缓存随长度线性增长，每 token 约 128 KiB，8K 上下文约 1 GiB")
    quadratic = grade(1, "KV 缓存随序列长度平方增长")
    assert wrong.points[2].state == CONTRADICTED and "512" in wrong.points[2].evidence
    assert right.points[2].state == COVERED and right.contradicted == 0
    assert quadratic.points[2].state == CONTRADICTED


# -- reading: invisible characters, English, evidence ---------------------------------------


@pytest.mark.parametrize("mark", ["\u200b", "\u200d", "\u2060", "\u00ad", "\ufeff", "\x00"])
def test_characters_that_show_nothing_are_read_as_nothing(grade, mark):
    text = "K 和 V 之后每一步都要反复读取，算出来就不会再变化。"
    hidden = mark.join(text)
    assert states(grade(1, hidden)) == states(grade(1, text))
    assert grade(1, hidden).points[0].state == COVERED


def test_an_english_answer_earns_what_a_chinese_one_does(grade):
    english = grade(
        1,
        "Keys and values are reused at every later step and never change once computed. "
        "Past queries are used once and never reused. The KV cache grows linearly with the "
        "sequence length, about 128 KiB per token.",
    )
    assert states(english) == [COVERED, COVERED, COVERED]


def test_the_evidence_is_the_clause_that_decided_each_point(grade):
    text = (
        "先说结论：这是为了省显存和计算。K 和 V 之后每一步都要反复读取，算出来就不会再变；"
        "而历史的 Q 只用一次，之后不会再用。"
    )
    result = grade(1, text)
    first, second = result.points[0], result.points[1]
    assert "反复读取" in first.evidence and "先说结论" not in first.evidence
    assert "只用一次" in second.evidence
    assert first.evidence != second.evidence


def test_a_long_clause_is_cut_around_the_words_that_decided(grade):
    text = (
        "我理解这里其实有好几层原因需要慢慢展开讲清楚并且结合具体的模型配置来说明的话就是"
        "KV 缓存随序列长度线性增长"
    )
    evidence = grade(1, text).points[2].evidence
    assert "线性" in evidence and evidence.startswith("…")


def test_a_point_missed_has_no_evidence_and_one_merely_named_says_so(grade):
    result = grade(1, "KV 缓存、128 KiB")
    assert result.points[1].state == MISSED and result.points[1].evidence is None
    assert not result.points[1].mentioned
    assert result.points[2].mentioned and result.points[2].state == MISSED
