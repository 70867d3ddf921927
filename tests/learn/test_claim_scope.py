"""How far a word of an attempt reaches: figures said roughly or in a framed clause,
negations that stop at a dash or a comma in brackets, a rival named as an object,
and phrases whose words belong to two statements.

Each case is a sentence a learner would write against the shipped bank's rubric;
each rule turns one of them from a false ⚠ into a fair mark, or a missed error into ⚠.
"""

from __future__ import annotations

import pytest
from imported import state

from studybot.learn.marks import CONTRADICTED

# -- figures ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, caught",
    [
        ("有害数据大约几百条就能破坏 GPT-3.5 Turbo 的安全对齐", True),  # 10 条, said roughly
        ("如果用的是有害数据，几百条就能破坏它的安全对齐", True),  # the subject in the frame
        ("但如果换成有害数据，上千条才能破坏它的安全对齐", True),  # a connective before 如果
        ("如果用的是有害数据，十条就能破坏它的安全对齐", False),
        ("有害数据十几条就能破坏 GPT-3.5 Turbo 的安全对齐", False),  # rough, and about right
    ],
)
def test_a_rough_figure_is_a_range_and_a_frame_lends_its_subject(grader, shipped, text, caught):
    said = state(grader, shipped, 164, 2, text)  # point 2: 10 条有害样本就能破坏对齐
    assert (said == CONTRADICTED) is caught


@pytest.mark.parametrize(
    "text, caught",
    [
        ("相邻块的重叠一般设成 50% 左右。", True),  # 50% is not the question's 49% failure rate
        ("相邻块的重叠一般设成块长的一半左右。", True),
        ("相邻块的重叠一般设成 15% 左右。", False),
    ],
)
def test_a_figure_of_the_question_is_one_as_written(grader, shipped, text, caught):
    said = state(grader, shipped, 91, 1, text)  # point 1: overlap 10%–20%
    assert (said == CONTRADICTED) is caught


@pytest.mark.parametrize(
    "text, caught",
    [
        ("1000 万条一天平均下来大约每秒 1200 条，单卡也能扛住。", True),  # 每秒 is the subject
        ("1000 万条一天平均下来大约每秒 116 条，单卡也能扛住。", False),
    ],
)
def test_a_figure_is_read_by_the_subject_name_nearest_it(grader, shipped, text, caught):
    said = state(grader, shipped, 46, 3, text)  # point 3: about 116 a second
    assert (said == CONTRADICTED) is caught


def test_a_year_is_no_figure_left_without_its_unit(grader, shipped):
    text = "Using umap-learn as of 2025: n_components around 5-10 for clustering."
    assert state(grader, shipped, 50, 3, text) != CONTRADICTED  # point 3: scales to millions


def test_a_figure_belongs_to_the_word_before_it(grader, shipped):
    # Q192 point 2's opposite is "s = 32"; here 32 is β's value.
    text = "YaRN 高频不动、低频插值、中间平滑过渡，V3 的配置是 s = 40、β = 32、α = 1。"
    assert state(grader, shipped, 192, 2, text) != CONTRADICTED


@pytest.mark.parametrize(
    "question, point, text, caught",
    [
        (85, 1, "20 步全部成功的概率是 0.95^20，大约 64%", True),  # a figure and little else
        (85, 1, "20 步全部成功的概率是 0.95^20，大约 36%", False),
        (110, 2, "Qwen2-VL 是每 2 秒采 1 帧，也就是 0.5 fps", True),  # 也就是 says it again
        (110, 2, "Qwen2-VL 每秒采 2 帧，也就是 2 fps", False),
    ],
)
def test_a_clause_that_says_a_figure_again_goes_on_about_the_subject(
    grader, shipped, question, point, text, caught
):
    assert (state(grader, shipped, question, point, text) == CONTRADICTED) is caught


@pytest.mark.parametrize(
    "text, caught",
    [
        ("Anthropic 的缓存读取打一折", False),  # 0.1 倍, said as a discount
        ("Anthropic 的缓存读取是基础价的十分之一", False),
        ("Anthropic 的缓存读取打三折", True),
        ("Anthropic 的缓存读取是基础价的三分之一", True),
    ],
)
def test_a_share_said_in_words_is_a_figure_of_times(grader, shipped, text, caught):
    # Q72 point 5: Anthropic's cache reads cost about 0.1× the base input price.
    assert (state(grader, shipped, 72, 5, text) == CONTRADICTED) is caught


def test_divided_is_the_opposite_of_multiplied(grader, shipped):
    # Q139 point 5: following Hinton, the soft-target term is multiplied by T².
    assert state(grader, shipped, 139, 5, "所以把这一项除以 T²") == CONTRADICTED
    assert state(grader, shipped, 139, 5, "所以把这一项乘以 T²") != CONTRADICTED


@pytest.mark.parametrize(
    "question, point, text, caught",
    [
        (140, 4, "2024 年底出的 ModernBERT 更进一步，原生就能吃 32k token", True),  # 32k, not 8192
        (140, 4, "ModernBERT 更进一步，原生支持 8k 长度", False),
        (30, 5, "长上下文模型一般把 base 调大，Llama 3 就直接把 base 提到了 1000000", True),
        (147, 6, "或者在 gradient_checkpointing_kwargs 里设 use_reentrant=True", True),
    ],
)
def test_a_short_figure_a_carried_subject_and_a_code_word_are_read(
    grader, shipped, question, point, text, caught
):
    assert (state(grader, shipped, question, point, text) == CONTRADICTED) is caught


# -- negations -------------------------------------------------------------------------------


def test_a_negation_stops_at_a_dash(grader, shipped):
    text = "YaRN 的做法并非一刀切——高频分量保持不变，低频才按倍数插值，中间平滑过渡。"
    assert state(grader, shipped, 192, 2, text) != CONTRADICTED


def test_a_negation_that_opens_a_phrase_governs_the_word_after_it(grader, shipped):
    # "没有 参考模型" is an opposite of "KTO 仍需参考模型"; 没有 here governs 扔掉.
    assert state(grader, shipped, 163, 4, "KTO 并没有扔掉参考模型。") != CONTRADICTED
    assert state(grader, shipped, 163, 4, "KTO 没有参考模型。") == CONTRADICTED


def test_a_correction_inside_brackets_states_the_claim(grader, shipped):
    text = (
        "PPO 要四个模型：策略、参考、奖励和价值模型（critic，不是随机初始化，"
        "一般用奖励模型初始化，也参与训练）。"
    )
    assert state(grader, shipped, 159, 1, text) != CONTRADICTED


# -- who the claim is about -------------------------------------------------------------------


def test_a_rival_named_after_the_relation_is_its_object(grader, shipped):
    # Q4 point 1: small runs predict the large model's loss; "大模型" is what is extrapolated.
    text = "拟合出幂律曲线之后，就能外推出大模型大概能到多少 loss。"
    assert state(grader, shipped, 4, 1, text) != CONTRADICTED


def test_not_necessarily_leaves_open_what_can_be(grader, shipped):
    # Q159 point 3: β can be fixed, or adaptive.
    assert state(grader, shipped, 159, 3, "KL 系数 β 也未必固定，可以随训练调整。") != CONTRADICTED


def test_a_negation_closed_by_throw_it_away_says_it_must_be_so(grader, shipped):
    # Q175 point 2: the final answers are verified.
    text = "采样出来的轨迹里，答案没验证过的一律丢掉（拒绝采样）。"
    assert state(grader, shipped, 175, 2, text) != CONTRADICTED
    assert state(grader, shipped, 175, 2, "答案不需要验证。") == CONTRADICTED


@pytest.mark.parametrize(
    "question, point, text",
    [
        (44, 6, "换了训练分布，不重新校准的话就不能把输出直接当概率。"),  # without it, not: needed
        (18, 2, "输入端和输出端想要的几何结构并没有什么不一样。"),  # 没有 … 不同 cancel
        (115, 3, "CFG 每一步都要跑有条件和无条件两次前向。"),  # 无条件 is a word
        (151, 2, "两个矩阵的初始化并不对称：A 用随机高斯，B 置零。"),  # 对 in 对称 is no coverb
        (115, 2, "直接在像素空间上扩散太贵，所以先用 VAE 压到潜空间。"),  # a way turned down
    ],
)
def test_correct_sentences_that_hold_a_negation_or_a_wrong_word_are_no_contradiction(
    grader, shipped, question, point, text
):
    assert state(grader, shipped, question, point, text) != CONTRADICTED


def test_it_is_no_name_for_a_denial_by_a_negated_relations_core(grader, shipped):
    # Q124 point 5: CosineSimilarityLoss does not use in-batch negatives; "it" may be MNRL.
    assert state(grader, shipped, 124, 5, "它说白了就是带批内负样本的 InfoNCE。") != CONTRADICTED
    said = "CosineSimilarityLoss 也利用批内负样本。"
    assert state(grader, shipped, 124, 5, said) == CONTRADICTED


@pytest.mark.parametrize(
    "question, point, text",
    [
        (99, 3, "没有支持的句子和错误引用删掉或标记"),  # 没有 is the subject's own word
        (127, 6, "评估不能只看通用基准：在领域内标几十到几百条 query-文档对就够"),  # past a colon
        (139, 1, "DistilBERT 把 BERT-base 的 12 层减半为 6 层、隐藏维度不变"),  # another list item
        (128, 1, "bi-encoder 没有大量句对训不好"),  # without it, it trains badly: it is needed
    ],
)
def test_an_opposite_or_a_negation_that_belongs_elsewhere_denies_nothing(
    grader, shipped, question, point, text
):
    assert state(grader, shipped, question, point, text) != CONTRADICTED


@pytest.mark.parametrize(
    "text, caught",
    [
        ("v1 总分不是按任务类型平均", False),  # it is an average, of something else
        ("v1 总分不是平均", True),
    ],
)
def test_not_by_way_of_denies_the_way_not_the_doing(grader, shipped, text, caught):
    # Q129 point 4: the v1 overall score is the plain average over 56 datasets.
    assert (state(grader, shipped, 129, 4, text) == CONTRADICTED) is caught


@pytest.mark.parametrize(
    "question, point, text",
    [
        (82, 2, "等于用语言反馈代替梯度更新"),  # what is replaced is not done
        (
            82,
            5,
            "它们有效的前提是有可靠的外部反馈——没有外部信号时，自我纠错基本无效",
        ),  # a condition
    ],
)
def test_what_is_replaced_or_only_supposed_is_not_denied(grader, shipped, question, point, text):
    assert state(grader, shipped, question, point, text) != CONTRADICTED


@pytest.mark.parametrize(
    "question, point, text",
    [
        (169, 5, "验证器不可靠时，与其一味加大 N，不如用加权投票"),  # the way turned down
        (65, 6, "而且并非所有问题都能拆成可评估的中间状态"),  # not all: the "all" is denied
        (156, 2, "要看指令在任务类型、领域、难度、长度上是否不够多样"),  # whether, asked
        (65, 3, "DFS 沿最有希望的分支往下走，被判为不可能就剪枝回溯"),  # the condition's negation
        (47, 1, "多标签把 softmax 换成每个标签独立的 sigmoid"),  # what is swapped out
        (31, 3, "RoPE 则不强加这种惩罚。它直接外推并不好，但配合插值就能用满长上下文"),  # it = RoPE
        (58, 3, "簇数不会变；想让簇数随数据增长，就不能用它，要换 DBSTREAM"),  # a wish, supposed
        (173, 2, "约 5.9 万道题按质量、难度、多样性三个标准筛出 1000 道"),  # 三个: a few, no figure
        (10, 4, "流式解码还要缓存不完整的字节以免出乱码"),  # 不完整 describes the bytes
        (44, 3, "重采样也不能在划分之前做，只能在划分之后作用于训练集"),  # an opposite said negated
        (71, 3, "结构对也不等于业务上对：引用的 ID 未必真实存在"),  # 未必 against 检查…是否
        (189, 3, "缩放因子也不靠历史：不用 delayed scaling 那种依赖前几步最大值的做法"),  # a way
        (189, 1, "E4M3 范围很窄(最大 448)"),  # 大 of 最大 is no "range is large"
    ],
)
def test_a_sentence_that_only_looks_like_a_denial_of_the_point(
    grader, shipped, question, point, text
):
    assert state(grader, shipped, question, point, text) != CONTRADICTED


def test_it_said_of_the_points_own_subject_still_denies(grader, shipped):
    # Q31 point 3: ALiBi extrapolates; "it" here is ALiBi, the sentence's topic.
    text = "ALiBi 的惩罚只取决于相对距离。它直接外推并不好"
    assert state(grader, shipped, 31, 3, text) == CONTRADICTED


def test_lowered_said_as_brought_down_is_the_opposite_of_raised(grader, shipped):
    # Q111 point 6: a segment that fails the thresholds is decoded again at a higher temperature.
    text = "看压缩比和平均 log 概率，不达标的片段就把温度降下来重新解码"
    assert state(grader, shipped, 111, 6, text) == CONTRADICTED


def test_the_opposite_said_of_the_subject_in_its_own_stretch_still_denies(grader, shipped):
    # Q139 point 1: the hidden size stays 768; here it is the hidden size that is halved.
    text = "DistilBERT 把层数从 12 减到 6、隐藏维度也减半"
    assert state(grader, shipped, 139, 1, text) == CONTRADICTED


# -- two things told apart -----------------------------------------------------------------


def test_two_named_things_given_each_others_properties_are_swapped(grader, shipped):
    # Q86 point 1: gVisor is a user-space kernel, Firecracker a microVM.
    swapped = "代码放进一次性沙箱。Firecracker 是用户态内核的容器。gVisor 是轻量的微虚拟机。"
    right = "代码放进一次性沙箱。gVisor 是用户态内核的容器。Firecracker 是轻量的微虚拟机。"
    compared = "代码放进一次性沙箱，gVisor 用用户态内核隔离。Firecracker 比 gVisor 的容器隔离更强。"
    assert state(grader, shipped, 86, 1, swapped) == CONTRADICTED
    assert state(grader, shipped, 86, 1, right) != CONTRADICTED
    assert state(grader, shipped, 86, 1, compared) != CONTRADICTED


@pytest.mark.parametrize(
    "text, caught",
    [
        ("SBERT 默认取 [CLS]，[CLS] 比 mean pooling 效果更好。", True),  # the subject outdone
        ("[CLS] 比 mean pooling 效果更好", True),
        ("mean pooling 比 [CLS] 效果更好", False),
    ],
)
def test_a_comparison_said_of_the_other_thing_denies_the_claim(grader, shipped, text, caught):
    # Q123 point 2: mean pooling (the default) does better than [CLS].
    assert (state(grader, shipped, 123, 2, text) == CONTRADICTED) is caught


def test_a_comparison_whose_subject_is_named_before_its_than_is_still_its_own(grader, shipped):
    # Q165 point 3: pairwise comparison is more stable; "成对比" is 成对比较, not "than".
    assert state(grader, shipped, 165, 3, "成对比胜率更靠谱") != CONTRADICTED
    # Q50 point 1: the rubric's own relation holds the comparison ("比 PCA 更能保留非线性").
    assert state(grader, shipped, 50, 1, "而且比 PCA 更能保留非线性的结构") != CONTRADICTED


def test_a_wrong_said_beside_a_right_claim_of_its_point_is_still_caught(grader, shipped):
    # Q121 point 5: keep negatives scoring BELOW 95% of the positive; the 95% is right here.
    text = "NV-Retriever 以正例分数为锚，只保留分数高于正例分数 95% 的候选当负样本。"
    assert state(grader, shipped, 121, 5, text) == CONTRADICTED


@pytest.mark.parametrize(
    "question, point, text",
    [
        (143, 2, "EOS 不参与 loss 的话，模型就学不会停。"),  # the if-part of a conditional
        (169, 1, "Sample N candidates independently at a temperature above 0."),  # not "at 0"
    ],
)
def test_a_wrong_in_a_supposition_or_with_a_comparison_is_not_asserted(
    grader, shipped, question, point, text
):
    assert state(grader, shipped, question, point, text) != CONTRADICTED


@pytest.mark.parametrize(
    "question, point, text",
    [
        (64, 2, "自洽性有效，是因为对的答案能从不同路径殊途同归。"),  # 从不同 is no 从不
        (130, 1, "句对不是简单拼接，而是 [CLS] A [SEP] B [SEP]，再加句段嵌入。"),  # not merely
        (140, 1, "Sun 等发现单取头或单取尾都不如头 128 + 尾 382 的组合。"),  # the subject ahead
        (13, 2, "Llama 1/2 的 32K 词表对中文很吃亏, average around 1.5."),  # a bare 1.5, no 32K
    ],
)
def test_correct_sentences_with_a_word_that_looks_like_a_denial(
    grader, shipped, question, point, text
):
    assert state(grader, shipped, question, point, text) != CONTRADICTED


@pytest.mark.parametrize(
    "question, point, text, caught",
    [
        (13, 6, "Chinese-LLaMA 在原词表上新增了约 5000 个中文 token。", True),  # 个 counts, 2 万
        (13, 6, "Chinese-LLaMA 在原词表上新增了约 2 万个中文 token。", False),
        (14, 4, "停止符也要分清：Llama 3 里 <|eot_id|> 代表整篇文档结束。", True),  # 代表 = 表示
        (59, 4, "我会把具体问题写在最开头，再贴长文档。", True),  # 写在 = 放在
    ],
)
def test_a_count_with_a_classifier_and_a_verb_said_another_way(
    grader, shipped, question, point, text, caught
):
    assert (state(grader, shipped, question, point, text) == CONTRADICTED) is caught


@pytest.mark.parametrize(
    "question, point, text",
    [
        (71, 1, "JSON 解析失败时也不是无限重试，修复不了才重试一两次。"),  # not endlessly
        (54, 5, "中文不分词是不行的：默认规则会把一整串汉字当成一个词。"),  # up to the colon
        (196, 4, "没有能自动核对的标准答案的题是用不了这种奖励的。"),  # 用不了: required
        (
            147,
            2,
            "重算只多一次前向：原来前向加反向约 3 个单位，现在约 4 个。",
        ),  # no phrase over ':'
        (147, 1, "用了检查点就不必把每层激活都存着——普通训练是全存的。"),  # a dash turns away
    ],
)
def test_marks_and_limits_that_keep_a_negation_off_the_claim(
    grader, shipped, question, point, text
):
    assert state(grader, shipped, question, point, text) != CONTRADICTED


@pytest.mark.parametrize(
    "question, point, text, caught",
    [
        # Q200 point 4: the redundant experts are rebalanced about every 10 minutes.
        (200, 4, "冗余专家的布局大约每 10 秒根据最新统计重排一次。", True),
        (200, 4, "冗余专家的布局大约每 10 分钟根据线上负载统计重排一次。", False),
        (200, 4, "冗余专家的布局大约每 600 秒根据线上负载统计重排一次。", False),  # the same time
        # Q72 point 6: a default of 5 minutes said in seconds is the same default.
        (72, 6, "Anthropic 的缓存默认存活 300 秒，每次命中都会刷新。", False),
    ],
)
def test_a_duration_is_read_in_any_unit(grader, shipped, question, point, text, caught):
    assert (state(grader, shipped, question, point, text) == CONTRADICTED) is caught


def test_one_of_two_claims_stated_and_the_other_named_is_covered_unless_something_is_wrong(
    grader, shipped
):
    # Q41 point 1: encode label descriptions and the text with one model; take the most similar.
    said = "零样本分类就是把每个类别写成一句描述，描述和待分类文本用同一个 embedding 模型编码，然后看相似度。"
    assert state(grader, shipped, 41, 1, said) == "covered"
    wrong = said + "另一条路线是 NLI 模型，每个标签不需要单独一次前向，所以比嵌入法更快。"
    graded = grader.grade(shipped.get(41), wrong).points
    assert graded[4].state == CONTRADICTED and graded[0].state == "partly"
    alone = "描述和待分类文本用同一个 embedding 模型编码。"  # the other claim not named
    assert state(grader, shipped, 41, 1, alone) == "partly"


def test_a_wrong_figure_of_the_claims_quantity_beats_a_statement_in_words_alone(grader, shipped):
    # the claim "吞吐高 2–4 倍" lists 更大 among its words: "批开得更大" states it in words, and
    # the figure said for the same quantity decides
    wrong = "显存省下来以后批可以开得更大，所以吞吐大约是 Orca 的 15 倍。"
    right = "显存省下来以后批可以开得更大，所以吞吐大约是 Orca 的 3 倍。"
    assert state(grader, shipped, 35, 3, wrong) == CONTRADICTED
    assert state(grader, shipped, 35, 3, right) != CONTRADICTED
    # words alone, no figure: still stated
    assert state(grader, shipped, 35, 3, "显存省下来以后批可以开得更大。") != CONTRADICTED
