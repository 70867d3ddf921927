"""The grader's term variants: the ways one technical term is written, and its one spelling.

Applied in one pass to lower-cased NFKC text (the first variant of the
table that matches at a place wins), to the attempt and to the
rubric's aliases alike, so that "KV cache", "键值缓存" and "KV缓存" meet, and
an English answer meets a Chinese alias through the common terms of the
field. The one spelling is mostly the Chinese word the bank uses; a Latin
variant must be a whole word ("attention" inside "flashattention" stays).

Only variants that mean the same thing in an interview answer belong here.
Never write one that leaves a lone negation behind: 无监督 and 无标注 are
spelled whole, never as 无 + 监督. A paraphrase that needs more than this
is the live grader's job.
"""

from __future__ import annotations

import re

# (pattern, the one spelling). Order matters: longer phrases first.
_TABLE: tuple[tuple[str, str], ...] = (
    # negations said several ways: an alias's 不能 meets an attempt's 无法
    (r"没法|无法|没办法|不可以|不能够", "不能"),
    (r"无须|不需要|不必|不用", "无需"),
    (r"并非|并不是", "不是"),
    (r"从未|从来不|从来没有", "从不"),
    # "stands for" said several ways: <|eot_id|> 代表/意味着/表示 the end of a turn
    (r"代表|意味着|标志着", "表示"),
    # where a thing is put in a prompt: 放在/写在/摆在/放到 开头
    (r"写在|摆在|放到|搁在", "放在"),
    # names that hold a common word: Prompt Tuning is not a prompt
    (r"prompt[\s-]*tuning", "prompttuning"),
    (r"prefix[\s-]*tuning", "prefixtuning"),
    (r"p[\s-]*tuning", "ptuning"),
    # caches
    (r"(?:kv|键值|key[\s-]*value)\s*(?:缓存|cach(?:e|es|ed|ing))", "kv缓存"),
    (r"(?:前缀|提示词?)\s*缓存|(?:prefix|prompt)[\s-]*cach(?:e|es|ed|ing)", "前缀缓存"),
    (r"cach(?:e|es|ed|ing)", "缓存"),
    (r"k\s*/\s*v", "kv"),
    # tokens and text
    (r"词元|tokens?", "token"),
    (r"分词器|tokenizers?", "分词器"),
    (r"vocabular(?:y|ies)|vocabs?|词汇表", "词表"),
    # attention
    (r"self[\s-]*attention", "自注意力"),
    (r"attention|attend(?:s|ed|ing)?", "注意力"),
    (r"multi[\s-]*head(?:ed)?", "多头"),
    (r"(?:number|count) of (?:kv |attention )?heads|head count|num[_\s]heads", "头数"),
    (r"(?:number|count) of layers|num[_\s]layers", "层数"),
    (r"score matri(?:x|ces)|attention matri(?:x|ces)|分数矩阵|打分矩阵", "得分矩阵"),
    (r"positional?\s*(?:encodings?|embeddings?)|位置嵌入", "位置编码"),
    (r"causal(?:ly)?", "因果"),
    (r"bidirectional(?:ly)?|bi-directional", "双向"),
    (r"mask(?:s|ed|ing)?", "掩码"),
    # growth
    (r"quadratic(?:ally)?|二次方", "平方"),
    (r"linear(?:ly)?", "线性"),
    (r"proportional(?:ly)?(?: to)?|成比例", "成正比"),
    # "不小于 k" is ≥ k, no negation of 小于 ("至少不小于 k" would read as one).
    (r"不\s*(?:小于|低于|少于)", "≥"),
    (r"不\s*(?:大于|高于|多于|超过)", "≤"),
    (r"增加|增大|grows?|growing|growth|increas(?:e|es|ed|ing)", "增长"),
    (
        r"减少|减小|下降|降下来|降下去|调低|下调|压低"
        r"|reduc(?:e|es|ed|ing)|decreas(?:e|es|ed|ing)|(?:go(?:es|ing)?|went|gone) down",
        "降低",
    ),
    (r"调高|上调|升高|抬高", "提高"),
    # training
    (r"self[\s-]*supervis(?:ed|ion)|自监督", "自监督"),
    (r"unsupervised|无监督", "无监督"),
    (r"unlabell?ed|无标签|未标注|无标注", "无标注"),
    (r"pre[\s-]*train(?:ing|ed|s)?", "预训练"),
    (r"fine[\s-]*tun(?:e|es|ing|ed)", "微调"),
    (r"train(?:ing|ed|s)?", "训练"),
    (r"reinforcement learning", "强化学习"),
    (r"reward models?|奖励模型", "奖励模型"),
    (r"reference models?|参考模型", "参考模型"),
    (r"value (?:models?|networks?)|critic|价值网络|价值模型", "价值模型"),
    (r"learning rates?", "学习率"),
    (r"batch[\s-]*sizes?|批量大小|批大小", "批大小"),
    (r"gradients?", "梯度"),
    (r"loss(?:es)?", "损失"),
    (r"variances?", "方差"),
    (r"labels?|labell?ed|labell?ing", "标签"),
    (r"annotat(?:e|ed|ion|ions|ors?)", "标注"),
    (r"few[\s-]*shot", "少样本"),
    (r"zero[\s-]*shot", "零样本"),
    (r"in[\s-]*context learning|icl", "上下文学习"),
    (r"power[\s-]*laws?", "幂律"),
    (r"scaling[\s-]*laws?|规模定律|缩放定律", "缩放定律"),
    (r"parameters?|params?|参数量", "参数"),
    # serving
    (r"预填充", "prefill"),
    (r"decoders?|解码器", "解码器"),
    (r"decod(?:e|es|ed|ing)|解码(?!器)", "decode"),
    (r"time[\s-]*to[\s-]*first[\s-]*token|首\s*token\s*延迟", "ttft"),
    (r"vram|gpu\s*memory|hbm|显存", "显存"),
    (r"bandwidth", "带宽"),
    (r"latenc(?:y|ies)", "延迟"),
    (r"throughput", "吞吐"),
    (r"compute[\s-]*bound|(?:计算|算力)(?:受限|瓶颈)", "计算密集"),
    (
        r"memory[\s-]*(?:bandwidth[\s-]*)?bound|bandwidth[\s-]*bound|(?:访存|(?:内存)?带宽)(?:受限|瓶颈)",
        "访存密集",
    ),
    (r"quantiz(?:e|ed|es|ing|ation)|quantis(?:e|ed|es|ing|ation)", "量化"),
    (r"temperatures?", "温度"),
    # representations and retrieval
    (r"embeddings?|嵌入向量", "嵌入"),
    (r"vectors?", "向量"),
    (r"encoders?", "编码器"),
    (r"retriev(?:al|e|es|ed|ing)", "检索"),
    (r"negative (?:samples?|examples?)|negatives|负例", "负样本"),
    (r"positive (?:samples?|examples?|pairs?)|positives|正例", "正样本"),
    (r"similarit(?:y|ies)", "相似度"),
    (r"semantic(?:s|ally)?", "语义"),
    (r"synonyms?", "同义"),
    (r"keywords?", "关键词"),
    (r"inverted index(?:es)?", "倒排索引"),
    (r"prompts?|提示词", "提示"),
    (r"instructions?", "指令"),
    (r"summar(?:y|ies)", "摘要"),
    # models
    (r"experts?", "专家"),
    (r"rout(?:e|es|ed|ing|er|ers)", "路由"),
    (r"gat(?:e|es|ing)", "门控"),
    (r"redundant|redundancy", "冗余"),
    (r"prun(?:e|es|ed|ing)|剪掉", "剪枝"),
    (r"images?|图片", "图像"),
    (r"resolutions?", "分辨率"),
    (r"context[\s-]*(?:windows?|lengths?)|上下文窗口|上下文长度", "上下文"),
    (r"contexts?", "上下文"),
)

# A Latin edge of a variant must be a word's edge; a CJK edge may sit anywhere. Where a
# variant begins, ``_BEGIN`` below holds that; where it ends, ``_END``.
_END = r"(?:(?<=[a-z0-9])(?![a-z0-9])|(?<![a-z0-9]))"
SPELLINGS = tuple(word for _, word in _TABLE)
# An alias may space a Chinese term ("上下文 窗口"): spaces between its characters are allowed.
_SPACED = re.compile(r"(?<=[\u3400-\u9fff])(?=[\u3400-\u9fff])")
_ANY_SPACE = r"\s*"
# Where a variant can begin: a Latin word's first letter, or a CJK character of the
# table. Every other place is passed over at once, which makes the one pass fast.
_CJK_OF_TABLE = "".join(sorted({c for p, _ in _TABLE for c in p if "\u3400" <= c <= "\u9fff"}))
_BEGIN = rf"(?:(?<![a-z0-9])(?=[a-z0-9])|(?=[{_CJK_OF_TABLE}]))"
# One pass over the text: at each place, the first variant of the table that matches and
# ends at an edge (one edge test after the alternatives: a failed one backtracks into the
# next alternative, as a test inside each would, at a third of the compile and match time).
VARIANTS = re.compile(
    _BEGIN
    + "(?:"
    + "|".join(
        f"(?P<v{i}>{_SPACED.sub(lambda _: _ANY_SPACE, pattern)})"
        for i, (pattern, _) in enumerate(_TABLE)
    )
    + ")"
    + _END
)


def spelled(text: str) -> str:
    """``text`` (lower-cased NFKC) with each variant in its one spelling."""
    return VARIANTS.sub(_one, text)


def spelled_mapped(text: str, where: list[int]) -> tuple[str, list[int]]:
    """``spelled``, with ``where`` (each character's place in the text as written) carried along."""
    return substitute(VARIANTS, _one, text, where)


def substitute(
    pattern: re.Pattern[str], replacement, text: str, where: list[int]
) -> tuple[str, list[int]]:
    """``pattern.sub(replacement, text)``, each new character mapped to where its match began."""
    out: list[str] = []
    places: list[int] = []
    last = 0
    for match in pattern.finditer(text):
        out.append(text[last : match.start()])
        places.extend(where[last : match.start()])
        new = replacement if isinstance(replacement, str) else replacement(match)
        out.append(new)
        places.extend(
            [where[match.start()] if match.start() < len(where) else where[-1]] * len(new)
        )
        last = match.end()
    out.append(text[last:])
    places.extend(where[last:])
    return "".join(out), places


def _one(match: re.Match[str]) -> str:
    name = match.lastgroup
    assert name is not None  # every alternative of the pattern is a named group
    return f" {SPELLINGS[int(name[1:])]} "
