"""Words with an opposite, so a claim said the other way round is caught without a rubric entry.

A claim's relation "从 顶层 开始" has an opposite the grader can write for
itself: "从 底层 开始". A claim about the large models ("大模型 更 坚持 先验")
has a rival subject: the same relation said of the small ones denies it.
Only pairs whose swap reverses what a sentence claims belong here, in the
grader's one spelling (``words.alternative``: 增加 is 增长, 减少 is 降低,
English folded). One character alone (大, 快) is not: "UMAP 比 t-SNE 快", "显存占用小很多"
swap too easily into a false contradiction.
"""

from __future__ import annotations

from studybot.learn import words

# Said of a subject: what a relation's word turns into (``swapped``).
_SAID = """
增长 降低 | 上升 降低 | 变大 变小 | 变多 变少 | 变长 变短 | 变快 变慢 | 提高 降低 | 加快 减慢
更大 更小 | 更高 更低 | 更多 更少 | 更长 更短 | 更快 更慢 | 更强 更弱 | 更好 更差 | 更准 更差
越大 越小 | 越高 越低 | 越多 越少 | 越长 越短 | 越快 越慢 | 越强 越弱 | 越好 越差
大于 小于 | 高于 低于 | 多于 少于 | 优于 劣于 | 之前 之后 | 以前 以后 | 前面 后面
左侧 右侧 | 左边 右边 | 靠前 靠后 | 前文 后文 | 上界 下界 | left right
顶层 底层 | 上层 下层 | 高层 低层 | 深层 浅层 | 靠近 输出 靠近 输入
线性 平方 | 平坦 尖锐 | 稀疏 稠密 | 集中 分散 | 较大 较小 | 较高 较低 | 拉高 拉低
大部分 小部分 | 绝大部分 一小部分 | 计算密集 访存密集 | 乘以 除以 | 乘上 除以 | 放大 缩小
larger smaller | higher lower | more less | more fewer | longer shorter | faster slower
stronger weaker | better worse | top bottom | upper lower | before after | earlier later
sparse dense | linear quadratic | flatter sharper | increas decreas | rise fall | bigger smaller
multiply divide | multiplied divided
"""
# What a claim is about: its rival ("小模型" for a claim about "大模型", ``rival``). Named
# methods (Pre-LN and Post-LN, DPO and PPO) are not: their answers say true things of both.
_ABOUT = """
大模型 小模型 | 大块 小块 | 长文本 短文本 | 高温 低温 | 简单题 难题 | 顶层 底层 | 浅层 深层
越大 越小 | 越高 越低 | 越多 越少 | 越长 越短 | 更大 更小 | 靠前 靠后 | 左侧 右侧 | 左边 右边
large models small models | larger models smaller models | easy problems hard problems
top layers bottom layers | upper layers lower layers | top bottom
最后 一个 / 第一个 | 最后 的 / 第一个 | 最末 / 第一个 | 较难 较易 | 较 难 / 较易 | 难 的 题 / 简单 题
"""


def _table(pairs: str) -> dict[tuple[str, ...], tuple[str, ...]]:
    out: dict[tuple[str, ...], tuple[str, ...]] = {}
    for line in pairs.strip().splitlines():
        for pair in line.split("|"):
            # "靠近 输出 靠近 输入" is a pair of two-word phrases; "最后 一个 / 第一个" a pair
            # of phrases of different lengths; the others are two words.
            if "/" in pair:
                one, other = (_spelled(tuple(half.split())) for half in pair.split("/"))
            else:
                found = pair.split()
                half = len(found) // 2
                one, other = _spelled(tuple(found[:half])), _spelled(tuple(found[half:]))
            if one and other:
                out.setdefault(one, other)
                out.setdefault(other, one)
    return out


def _spelled(phrase: tuple[str, ...]) -> tuple[str, ...]:
    return words.alternative(" ".join(phrase))


SAID = _table(_SAID)
ABOUT = _table(_ABOUT)


def swapped(alternative: tuple[str, ...], table=SAID) -> list[tuple[str, ...]]:
    """``alternative`` with one word (or two-word phrase) of it replaced by its opposite."""
    out: list[tuple[str, ...]] = []
    for size in (2, 1):
        for i in range(len(alternative) - size + 1):
            piece = alternative[i : i + size]
            if piece in table:
                made = alternative[:i] + table[piece] + alternative[i + size :]
                if made not in out:
                    out.append(made)
    return out
