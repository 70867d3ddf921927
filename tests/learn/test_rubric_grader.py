"""The offline grader on the rubric: what a point claims, said, said the other way, or not said.

Attempts a learner would type against the shipped bank's rubric: the
issue's wrong answer to Q22, English answers, numbers by value, negations
that are and are not ones, the clause rules, a property given to the other
side of a comparison, and the grader built once per process.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from dataclasses import replace

import pytest

from studybot.bank.rubric import Number
from studybot.learn import grading, negations, numbers, review, words
from studybot.learn.marks import CONTRADICTED, COVERED, MISSED, PARTLY


def states(result) -> list[str]:
    return [p.state for p in result.points]


# -- the issue's example -------------------------------------------------------------

ISSUE_Q22 = (
    "多头并不切分维度，每个头都在完整的 d_model 维上算注意力。参数量会随头数线性增加，"
    "计算量也是 h 倍。头数越多越好。KV 缓存和头数没有关系，只和层数有关。"
)
RIGHT_Q22 = (
    "把 d_model 切成 h 个头，每头 d_head = d_model / h，各头单独算注意力后拼接再乘 W_O。"
    "每个头有自己的 softmax，能在不同子空间关注不同模式，比如归纳头；单头只有一个分布，会被平均掉。"
    "参数量与头数无关：W_Q、W_K、W_V、W_O 还是各 d_model × d_model，共 4d²，矩阵乘的 FLOPs 基本不变。"
    "但头数并非越多越好，d_head 太小会让每个头表达力受限，主流取 64 或 128。"
    "很多头是冗余的，剪掉一部分损失很小；而 KV 缓存与 K/V 头数成正比，所以后来减少 K/V 头数。"
)


def test_the_right_words_with_the_opposite_claims_are_contradicted_and_suggest_again(
    grader, shipped
):
    result = grader.grade(shipped.get(22), ISSUE_Q22)
    contradicted = [p for p in result.points if p.state == CONTRADICTED]
    assert len(contradicted) >= 2 and result.score < 0.5
    assert review.suggest_rating(result.score, result.contradicted) == 1  # Again
    said = {p.evidence for p in contradicted}
    assert "参数量会随头数线性增加" in said and "头数越多越好" in said
    assert all(p.key for p in contradicted)  # what the key claims, shown beside the quote
    assert "contradict" in result.advice


def test_a_correct_answer_to_the_same_question_is_covered(grader, shipped):
    result = grader.grade(shipped.get(22), RIGHT_Q22)
    assert result.contradicted == 0 and result.score >= 0.8, states(result)
    assert review.suggest_rating(result.score, result.contradicted) >= 3
    assert all(p.evidence for p in result.points if p.state != MISSED)


# -- English ---------------------------------------------------------------------------

ENGLISH_Q22 = (
    "Multi-head attention splits d_model into h heads, d_head = d_model / h; each head runs attention "
    "on its slice, and the outputs are concatenated and multiplied by W_O. Every head has its own "
    "softmax, so heads attend to different patterns in different subspaces, such as induction heads; "
    "a single head has one attention distribution and those relations are averaged out. The parameter "
    "count is independent of the number of heads: W_Q, W_K, W_V and W_O stay d_model × d_model, 4d² "
    "in total, and the FLOPs are basically unchanged. More heads are not always better: when the head "
    "dim is too small each head has a rank bottleneck, so models use 64 or 128. Many heads are "
    "redundant and pruning heads costs little; the KV cache is proportional to the number of KV heads, "
    "which is why later models reduce KV heads."
)


def test_an_english_answer_earns_what_the_chinese_one_does(grader, shipped):
    zh = grader.grade(shipped.get(22), RIGHT_Q22)
    en = grader.grade(shipped.get(22), ENGLISH_Q22)
    assert en.score >= 0.8 and abs(en.score - zh.score) <= 0.15, (states(zh), states(en))
    assert en.contradicted == 0


# -- numbers ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("长度翻倍，开销约 4 倍", Number(4, "倍", 0)),
        ("长度翻倍，开销约四倍", Number(4, "倍", 0)),
        ("cost goes up 4x", Number(4, "倍", 0)),
        ("变成 ×4", Number(4, "倍", 0)),
        ("每 token 128 KiB", Number(128, "KiB")),
        ("每 token 131072 字节", Number(128, "KiB")),
        ("每 token 0.125 MiB", Number(128, "KiB")),
        ("每 token 128 KB", Number(128, "KiB")),  # KB read as 1000 or 1024 bytes
        ("单个矩阵约 5.25 亿参数", Number(5.25, "亿")),
        ("one matrix is about 525M parameters", Number(5.25, "亿")),
        ("约 0.525B 参数", Number(5.25, "亿")),
        ("准确率约 76%", Number(76, "%", 0.03)),
        ("576 个视觉 token", Number(576, "token", 0)),
        ("约 9.2×10⁹ 字节", Number(9.2, "GB")),  # a power of ten, not "9.2×109"
        ("约 9.2 × 10^9 字节", Number(9.2, "GB")),
        ("base 调到 10⁶", Number(1e6, None, 0)),
    ],
)
def test_a_figure_is_read_by_value_in_its_unit_family(text, number):
    assert any(numbers.matches(found, number) for found in numbers.figures(text, number))


def test_a_figure_of_another_family_or_value_is_not_the_point(shipped):
    kib = Number(128, "KiB")
    assert not any(numbers.matches(f, kib) for f in numbers.figures("每 token 64 KiB", kib))
    assert numbers.figures("Llama-3-8B 的 8B 参数", kib) == []  # a model's size is no byte count
    assert numbers.figures("长度 4 倍", Number(16, "%")) == []


def test_the_right_value_counts_and_a_wrong_one_in_the_points_clause_contradicts(grader, shipped):
    question = shipped.get(76)
    right = grader.grade(question, "Llama-3-8B 每 token 的 KV 是 128 KiB，32K 历史约 4 GiB。")
    wrong = grader.grade(
        question, "Llama-3-8B 每 token 的 KV 是 2 × 32 层 × 8 个 KV 头 × 128 × 2 字节 = 64 KiB。"
    )
    assert right.points[4].state in (COVERED, PARTLY)
    assert wrong.points[4].state == CONTRADICTED and "128 KiB" in wrong.points[4].key
    assert "64 KiB" in wrong.points[4].evidence  # the figure that decided, shown


def test_a_correct_answer_quoting_other_figures_is_not_contradicted(grader, shipped):
    text = "Llama 3 8B 的 V = 128256、d = 4096，单个矩阵约 5.25 亿参数，不共享合计约 10.5 亿，约占 13%；Llama 2 7B 只有约 1.3 亿。"
    result = grader.grade(shipped.get(12), text)
    assert result.points[3].state == COVERED, result.points[3]


def test_a_figure_the_points_sentence_states_is_checked_though_the_rubric_gives_no_value(
    grader, shipped
):
    question = shipped.get(155)  # point 7: "在单张 48 GB 显卡上微调了 65B 模型"
    wrong = grader.grade(question, "QLoRA 在单张 80 GB 的显卡上微调了 65B 的 Guanaco")
    right = grader.grade(
        question, "QLoRA 在单张 48 GB 显卡上微调了 65B 的 Guanaco，16-bit 全量微调要 780 GB 以上"
    )
    assert wrong.points[6].state == CONTRADICTED and "80 GB" in wrong.points[6].evidence
    assert right.points[6].state != CONTRADICTED and right.contradicted == 0


def test_not_less_than_is_at_least_and_not_only_is_no_denial(grader, shipped):
    ef = shipped.get(92)  # point 5: efSearch 需不小于 k
    assert grader.grade(ef, "efSearch 至少不小于 k").points[4].state != CONTRADICTED
    assert grader.grade(ef, "efSearch 可以小于 k").points[4].state == CONTRADICTED
    prefix = shipped.get(150)  # point 2: Prefix Tuning 在每一层加前缀
    said = "Prefix Tuning 不只在输入层加前缀，每一层的注意力都有"
    assert grader.grade(prefix, said).points[1].state in (COVERED, PARTLY)
    assert grader.grade(prefix, "Prefix Tuning 只在输入层加前缀").points[1].state == CONTRADICTED


def test_the_er_shi_clause_goes_on_with_the_subject_its_negated_clause_named(grader, shipped):
    question = shipped.get(3)  # point 2: SFT trains on instruction → answer data
    said = "SFT 用的不是原始网页，而是几万到百万级的指令-回答对。"
    assert grader.grade(question, said).points[1].state in (COVERED, PARTLY)
    assert grader.grade(question, "SFT 用的就是原始网页。").points[1].state != COVERED


def test_an_english_negation_stops_where_or_opens_a_verb_of_its_own(grader, shipped):
    question = shipped.get(132)  # point 2: the loss does not fall, or diverges
    said = "Symptoms of too high an LR: the training loss doesn't go down or blows up."
    assert grader.grade(question, said).points[1].state in (COVERED, PARTLY)
    assert grader.grade(question, "the loss never goes down").points[1].state in (COVERED, PARTLY)


def test_a_subject_after_buru_is_the_one_ahead(grader, shipped):
    question = shipped.get(150)  # point 5: LoRA-style methods are used more in practice
    said = "软提示这类方法在大模型实践里用得不如 LoRA 多。"
    assert grader.grade(question, said).points[4].state != CONTRADICTED
    assert grader.grade(question, "LoRA 用得不如软提示多。").points[4].state == CONTRADICTED


def test_a_comparison_said_with_yue_reads_as_one_said_with_geng(grader, shipped):
    question = shipped.get(160)  # point 3: larger reward models over-optimise more slowly
    wrong = grader.grade(question, "Gao 等发现奖励模型越大，过优化得越快")
    right = grader.grade(question, "Gao 等发现奖励模型越大，过优化得越慢")
    assert wrong.points[2].state == CONTRADICTED
    assert right.points[2].state != CONTRADICTED


# -- negations -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "word", ["不断", "不同", "不仅", "无论", "不如", "毫无疑问", "无监督", "无标注", "类别", "未知"]
)
def test_a_word_that_merely_contains_a_negation_is_none(word):
    assert words.clause(f"模型{word}地更新参数").negations == ()


@pytest.mark.parametrize(
    ("text", "alias", "negated"),
    [
        ("K 和 V 不会被再次读取", "K V 读取", True),
        ("权重不冻结", "权重 冻结", True),
        ("the weights are not frozen", "weights frozen", True),
        ("it does not freeze the weights", "freeze weights", True),
        ("never silently drop it or default it to some class", "default class", True),
        ("what you can't map goes into an explicit unknown bucket", "unknown", False),  # reach
        ("不缩放的话 softmax 会饱和", "softmax 饱和", False),  # 不 negates 缩放, not 饱和
        ("并不是所有头都重要", "所有 头 重要", True),
        ("不再更新的参数", "不再 更新", False),  # the alias's own 不再
        ("要注入位置(不加也能训练)信息", "注入 位置 信息", False),  # a negation in brackets
    ],
)
def test_a_negation_negates_the_words_it_bears_on(text, alias, negated):
    clause = words.clause(text)
    found = [words.find(clause, w) for w in words.alternative(alias)]
    assert all(found), found
    assert negations.negated(clause, found) is negated


def test_a_negated_wrong_alternative_is_no_contradiction_and_a_claim_with_its_own_negation_holds(
    grader, shipped
):
    # Q121's last point: 负样本也不是越难越好 — the claim carries its own 不是.
    question = shipped.get(121)
    point = next(n for n, p in enumerate(question.key_points) if "不是越难越好" in p)
    result = grader.grade(
        question, "负样本也不是越难越好，过难的负样本和假负例难以区分，要和随机负样本混着用。"
    )
    assert result.points[point].state in (COVERED, PARTLY), result.points[point]
    assert result.contradicted == 0
    negated_wrong = grader.grade(shipped.get(22), "并不是头数越多越好，每头维度太小会限制表达力。")
    assert negated_wrong.points[3].state != CONTRADICTED


# -- clauses ---------------------------------------------------------------------------


def test_clauses_keep_k_v_and_a_number_whole_and_split_where_the_rules_say():
    assert words.split("只缓存 K、V，而 Q 只用一次") == ["只缓存 K、V", "而 Q 只用一次"]
    assert words.split("Q、K、V 都要算") == ["Q、K、V 都要算"]
    assert words.split("上下文 131,072 个 token，很长") == ["上下文 131,072 个 token", "很长"]
    assert words.split("冻结底层、训练顶层") == ["冻结底层", "训练顶层"]
    assert words.split("It helps, but not always. Costs 0.75 each") == [
        "It helps",
        "but not always",
        "Costs 0.75 each",
    ]
    assert words.split("这样(比如 a, b 两种)也可以") == ["这样(比如 a, b 两种)也可以"]
    assert words.split("反而提升；从而变快") == [
        "反而提升",
        "从而变快",
    ]  # no contrast inside a word


def test_an_alias_word_is_a_word_a_run_of_words_or_a_word_inside_one_never_a_piece():
    clause = words.clause("参数量与 KV 缓存不会变", cutter=words.lexicon().extended(["参数量"]))
    assert words.find(clause, "参数")  # a lexicon word inside 参数量
    assert words.find(clause, words.alternative("KV cache")[0])  # a variant, a run of words
    assert words.find(clause, "变")  # one character, wherever it is
    assert words.find(clause, "会") == []  # ... but never inside a word of grammar (不会)
    assert words.find(words.clause("不过这样"), "不") == []  # nor in one that only looks negative


def test_restating_the_question_earns_nothing(grader, shipped):
    question = shipped.get(22)
    result = grader.grade(question, question.question + " " + question.question)
    assert result.score == 0 and "restates the question" in result.advice


# -- the sides of a comparison -----------------------------------------------------------


def test_a_property_given_to_the_other_side_contradicts_the_point(grader, shipped):
    question = shipped.get(33)  # prefill vs decode
    swapped = grader.grade(
        question,
        "prefill 是逐个 token 处理的，属于访存密集，决定 TPOT。decode 会把 token 并行算，属于计算密集，决定首 token 延迟 TTFT。",
    )
    right = grader.grade(
        question,
        "prefill 一次并行处理整段提示，属于计算密集，决定 TTFT。decode 每步只处理 1 个新 token，属于访存密集，决定 TPOT。",
    )
    assert swapped.points[0].state == CONTRADICTED and swapped.points[1].state == CONTRADICTED
    assert right.points[0].state in (COVERED, PARTLY) and right.points[1].state in (COVERED, PARTLY)
    assert right.contradicted == 0


def test_two_roles_swapped_are_caught_though_each_word_belongs_to_some_claim(grader, shipped):
    question = shipped.get(112)  # Qwen2.5-Omni: the Thinker writes text, the Talker speaks
    said = "Qwen2.5-Omni 是 Thinker-Talker 结构，其中 Talker 负责生成文本回复，Thinker 再把它转成语音。"
    right = "Qwen2.5-Omni 是 Thinker-Talker 结构，其中 Thinker 负责生成文本回复，Talker 再把它转成语音。"
    assert grader.grade(question, said).points[4].state == CONTRADICTED
    assert grader.grade(question, right).points[4].state != CONTRADICTED


# -- graders, built once -------------------------------------------------------------------


def test_the_grader_is_built_once_per_bank_and_warms_in_a_thread(shipped):
    grading._graders.pop(shipped, None)  # built by an earlier test of this process
    warming = threading.Thread(target=grading.warm, args=(shipped,))
    warming.start()
    warming.join()
    assert shipped in grading._graders  # the thread built it; offline() only finds it
    assert grading.offline(shipped) is grading.offline(shipped)
    other = replace(shipped, name="other")
    assert grading.offline(other) is not grading.offline(shipped)


def test_an_empty_attempt_is_zero_without_loading_the_segmenter(tmp_path):
    code = (
        "import sys\n"
        "from studybot import bank\n"
        "from studybot.learn import grading\n"
        "b = bank.load()\n"
        "grader = grading.OfflineGrader.__new__(grading.OfflineGrader)\n"
        "r = grading.OfflineGrader.grade(grader, b.get(22), '   ')\n"
        "print(r.score, r.advice.split(':')[0], 'jieba' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0.0", "No", "attempt", "False"]


def test_a_bank_without_a_rubric_gets_a_term_estimate_that_says_so(shipped):
    unruled = replace(shipped, questions=tuple(replace(q, rubric=()) for q in shipped.questions))
    result = grading.offline(unruled).grade(unruled.get(22), RIGHT_Q22)
    assert result.grader == grading.TERM_ESTIMATE and result.source == grading.OFFLINE
    assert result.score >= 0.6 and all(p.coverage is not None for p in result.points)
    assert grading.offline(shipped).grade(shipped.get(22), RIGHT_Q22).grader == grading.RUBRIC


# -- direction -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attempt", "state"),
    [
        ("冻结顶层、训练底层，因为顶层特征更通用。", CONTRADICTED),
        (
            "Freeze the top layers and train the bottom ones: the bottom layers are task specific.",
            CONTRADICTED,
        ),
        ("冻结底层、训练顶层：底层学到的是通用的词法句法特征。", COVERED),
        (
            "Freeze the bottom layers and train the top ones: the bottom layers learn general "
            "features.",
            COVERED,
        ),
    ],
)
def test_a_direction_said_backwards_contradicts_in_either_language(grader, shipped, attempt, state):
    """Q131 point 2 (freeze the bottom, train the top): the reverse is a wrong belief."""
    result = grader.grade(shipped.get(131), attempt)
    assert result.points[1].state == state, states(result)
    if state == CONTRADICTED:
        assert review.suggest_rating(result.score, result.contradicted) == 1
