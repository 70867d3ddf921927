"""Failure classes a twenty-second batch of real public question files showed (issue 34), part U.

Each file here is written for the test, in the shape those files had: personal notes whose cards
are topic headings at one level (``#### LayerNorm``), none of which asks, each with a long
answer (prose, code) and a few asking lines inside two of the answers (a bold
``**思考：LayerNorm与BatchNorm在训练和推理时的区别**``, a bold sentence that asks); the last card
empty.
"""

from __future__ import annotations

from imported import previewed, questions, read

_NOTES = """\
### 归一化与激活

#### LayerNorm(层归一化)

LayerNorm 对每个样本的特征维做归一化，不依赖 batch 大小。

```python
def layer_norm(x, eps=1e-5):
    mean = x.mean(-1, keepdim=True)
    var = x.var(-1, keepdim=True)
    return (x - mean) / (var + eps) ** 0.5
```

训练和推理时计算方式相同，适合序列模型。

#### BatchNorm(批归一化)

BatchNorm 在 batch 维上统计均值和方差，推理时使用滑动平均。

**思考：LayerNorm与BatchNorm在训练和推理时的区别**

训练时 BatchNorm 用当前 batch 的统计量，推理时用滑动平均；LayerNorm 两者一致。

小 batch 时 BatchNorm 的估计噪声很大。

#### GELU(高斯误差线性单元)

GELU 用输入乘以标准正态分布的累积分布函数。

```python
import math
def gelu(x):
    return 0.5 * x * (1 + math.erf(x / math.sqrt(2)))
```

它在零附近比 ReLU 更平滑。

#### SwiGLU(门控线性单元)

现在的大模型几乎都用它。

**为什么大模型的前馈层多用 SwiGLU 而不是 ReLU？门控让每个维度按输入决定通过多少信息。**

SwiGLU 把两路线性变换相乘，其中一路经过 Swish。

参数量相同时效果更好，代价是多一个矩阵。

#### RMSNorm
"""

_TOPICS = [
    "LayerNorm(层归一化)",
    "BatchNorm(批归一化)",
    "GELU(高斯误差线性单元)",
    "SwiGLU(门控线性单元)",
    "RMSNorm",
]


def test_topic_heading_cards_stay_the_questions_beside_asking_lines_in_their_answers(tmp_path):
    report = read(tmp_path, _NOTES, "notes.md")
    assert questions(report) == _TOPICS
    answers = [q.reference or "" for q in report.bank.questions]
    assert "思考：LayerNorm与BatchNorm在训练和推理时的区别" in answers[1]
    assert "滑动平均；LayerNorm 两者一致" in answers[1]
    assert "为什么大模型的前馈层多用 SwiGLU" in answers[3]
    assert all(answers[:4]) and not answers[4]


def test_the_preview_lists_the_asking_lines_as_kept_in_an_answer(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _NOTES, "notes.md")
    assert "5 question(s)" in shown
    assert "Found in: 5 headings" in shown
    kept = shown.split("Asking lines kept in an answer, not as questions (2):", 1)[1]
    assert "思考：LayerNorm与BatchNorm在训练和推理时的区别" in kept
    assert "为什么大模型的前馈层多用 SwiGLU" in kept
    assert "--questions bold" not in shown  # no option that would take them instead


_LISTS = """\
### 归一化

#### LayerNorm

- LayerNorm 和 BatchNorm 的区别是什么？
- 为什么 Transformer 用 LayerNorm？

#### BatchNorm

- BatchNorm 推理时怎么计算？
- 小 batch 时为什么效果差？

#### GELU

- GELU 的公式是什么？

#### SwiGLU

- SwiGLU 为什么效果更好？
"""


def test_topic_headings_over_lists_of_questions_stay_sections(tmp_path):
    report = read(tmp_path, _LISTS, "topics.md")
    assert questions(report) == [
        "LayerNorm 和 BatchNorm 的区别是什么？",
        "为什么 Transformer 用 LayerNorm？",
        "BatchNorm 推理时怎么计算？",
        "小 batch 时为什么效果差？",
        "GELU 的公式是什么？",
        "SwiGLU 为什么效果更好？",
    ]


def _card(number: int, asked: str, known: list[str], answer: str, follow_up: str) -> str:
    bullets = "\n".join(f"- {line}" for line in known)
    return (
        f"### {number}. {asked}\n\n- 分类：推理优化\n- 来源条数：2\n\n"
        f"### 背景知识\n\n{bullets}\n\n### 详细解答\n\n{answer}\n\n### 场景模拟\n\n{follow_up}\n\n"
    )


_TEMPLATE_CARDS = "# 推理优化题卡\n\n" + "".join(
    [
        _card(
            1,
            "什么是 KV cache？",
            ["缓存每层的键和值。", "先讲清楚概念", "再说明代价"],
            "解码时复用已算过的键值，避免重复计算前缀。",
            "面试官追问：KV cache 为什么会占满显存？ 回答：它随序列长度和 batch 线性增长。",
        ),
        _card(
            2,
            "如何估算 KV cache 的显存？",
            ["层数乘以头数乘以头维度。", "先讲清楚概念", "再说明代价"],
            "每个 token 占 2 × 层数 × 隐藏维度 × 字节数。",
            "面试官追问：GQA 能省多少？ 回答：按组数比例减少键值头。",
        ),
        _card(
            3,
            "PagedAttention 解决了什么问题？",
            ["把缓存分成固定大小的块。", "计算块表中每个序列的位置。"],
            "它消除显存碎片，让更多请求同时解码。",
            "候选人举例：一个长请求不再独占连续显存。",
        ),
    ]
)


def test_a_cards_template_sections_are_its_answer_and_their_lines_ask_nothing(tmp_path):
    report = read(tmp_path, _TEMPLATE_CARDS, "cards.md")
    assert questions(report) == [
        "什么是 KV cache？",
        "如何估算 KV cache 的显存？",
        "PagedAttention 解决了什么问题？",
    ]
    first = report.bank.questions[0].reference or ""
    assert "先讲清楚概念" in first and "解码时复用已算过的键值" in first
    assert "面试官追问：KV cache 为什么会占满显存？ 回答：它随序列长度和 batch 线性增长。" in first
    assert "计算块表中每个序列的位置。" in (report.bank.questions[2].reference or "")


def test_the_preview_of_template_cards_suggests_no_topic_headings(invoke, tmp_path):
    shown = previewed(invoke, tmp_path, _TEMPLATE_CARDS, "cards.md")
    assert "3 question(s)" in shown
    assert "Found in: 3 headings" in shown
    assert "headings:3" not in shown


_RAW_LIST = """\
# 面经整理

## 基础
梯度消失怎么解决？
BatchNorm 和 LayerNorm 的区别？
学习率怎么调？
为什么要做权重衰减？
过拟合怎么判断？

## 训练
1. 预训练
数据怎么清洗？
用了多少卡，训练了多久？
loss 不下降怎么排查？

2. 对齐
DPO 和 PPO 有什么区别？
奖励模型怎么评估？

## 推理
为什么解码要用 KV cache？
投机解码
"""


def test_a_label_line_over_bare_questions_lets_each_line_be_a_question(tmp_path):
    report = read(tmp_path, _RAW_LIST, "raw.md")
    assert questions(report) == [
        "梯度消失怎么解决？",
        "BatchNorm 和 LayerNorm 的区别？",
        "学习率怎么调？",
        "为什么要做权重衰减？",
        "过拟合怎么判断？",
        "数据怎么清洗？",
        "用了多少卡，训练了多久？",
        "loss 不下降怎么排查？",
        "DPO 和 PPO 有什么区别？",
        "奖励模型怎么评估？",
        "为什么解码要用 KV cache？",
        "投机解码",
    ]
    assert not any(q.reference for q in report.bank.questions)  # no line answers another


def test_a_short_line_after_a_question_answers_it_where_questions_have_answers(tmp_path):
    answered = "## 推理\n\n什么是 KV cache？\n\n缓存键值。\n\n为什么解码要用 KV cache？\n投机解码\n"
    report = read(tmp_path, answered, "qa.md")
    assert questions(report) == ["什么是 KV cache？", "为什么解码要用 KV cache？"]
    assert report.bank.questions[1].reference == "投机解码"
