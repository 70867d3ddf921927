"""Key terms of a text, as the offline grader compares them.

A text is normalised first (full-width to half-width, lower case, ``n²`` and
``n^2`` as "n squared"), then the common variants of one technical term are written one
way, so that "KV缓存" meets "KV cache" and "词元" meets "token"; each
variant becomes one latin word, which counts as one technical term. The
terms are then latin words and numbers (single letters too: K, V, Q, n and
d are the symbols interview answers are made of) and CJK character bigrams
without function characters.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

# (pattern, the one spelling): written for lower-cased, NFKC-normalised text.
# Only variants that mean the same thing in this bank's answers; a paraphrase
# that needs more than this is the live grader's job.
VARIANTS: tuple[tuple[str, str], ...] = (
    (r"kv\s*(?:缓存|cache)", "kvcache"),
    (r"kv", "k v"),  # the K and V of "KV" are the symbols a point names one by one
    (r"前缀缓存|提示缓存|(?:prefix|prompt)[\s-]*cach(?:e|ing)", "prefixcache"),
    (r"词元|tokens?", "token"),
    (r"自注意力|注意力|(?:self[\s-]*)?attention|attend", "attention"),
    (r"平方|二次方|quadratic(?:ally)?", "squared"),
    (r"线性|linear(?:ly)?", "linear"),
    (r"自监督|无监督|无标注|self[\s-]*supervised|unsupervised|unlabell?ed", "selfsupervised"),
    (r"预训练|pre[\s-]*train(?:ing|ed)?", "pretrain"),
    (r"微调|fine[\s-]*tun(?:e|ing|ed)", "finetune"),
    (r"显存|vram|gpu\s*memory", "vram"),
    (r"价值网络|价值模型|critic|value\s*model", "critic"),
    (r"嵌入|embeddings?", "embedding"),
    (r"提示词?|prompts?", "prompt"),
    (r"位置编码|position(?:al)?\s*(?:encodings?|embeddings?)", "posenc"),
    (r"首\s*token\s*延迟|time\s*to\s*first\s*token|ttft", "ttft"),
    (r"温度|temperature", "temperature"),
    (r"负样本|负例|negatives?", "negative"),
    (r"正样本|正例|positives?", "positive"),
    (r"少样本|few[\s-]*shot", "fewshot"),
    (r"上下文学习|in[\s-]*context\s*learning|icl", "icl"),
    (r"幂律|power[\s-]*laws?", "powerlaw"),
    (r"参数量|参数|param(?:eter)?s?", "params"),
    (r"分数矩阵|得分矩阵|score\s*matrix", "scorematrix"),
    (r"logits?", "logits"),
)
# A latin variant must be a whole word: "attention" inside "FlashAttention" stays put.
_VARIANTS = tuple(
    (re.compile(rf"(?<![a-z0-9])(?:{pattern})(?![a-z0-9])"), word) for pattern, word in VARIANTS
)

_POWER_TWO = re.compile(r"\^\s*2(?![0-9])")  # n^2, after n² became n^2

# Underscores split words: q_t is the symbol q at step t.
_LATIN = re.compile(r"[a-z][a-z0-9+\-]*|\d+(?:\.\d+)?")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
# Function characters: a bigram holding one says nothing about the topic.
_CJK_FILLER = set("的了是在和与及或等也都就而被把这那个一种们为以其之有要会能可对中上下")
_LATIN_FILLER = {
    "a", "an", "the", "of", "to", "in", "is", "are", "and", "or", "for", "on", "as",
    "it", "be", "by", "with", "that", "this", "at", "from",
}  # fmt: skip


def normalise(text: str) -> str:
    """``text`` in one spelling: half-width, lower case, term variants merged."""
    text = unicodedata.normalize("NFKC", text.replace("²", "^2")).lower()
    text = _POWER_TWO.sub(" squared ", text)
    for pattern, word in _VARIANTS:
        text = pattern.sub(lambda m, word=word: _merged(m.group(), word), text)
    return text


def _merged(found: str, word: str) -> str:
    # A Chinese compound keeps its own characters beside the one spelling, so
    # "前缀缓存" still meets a point's "前缀" (latin variants have nothing to keep).
    kept = found if _CJK_RUN.search(found) else ""
    return f" {word} {kept} "


def terms(text: str) -> Counter[str]:
    """Key terms of ``text``: latin words, numbers and symbols, and CJK bigrams."""
    text = normalise(text)
    out: Counter[str] = Counter()
    for word in _LATIN.findall(text):
        if word not in _LATIN_FILLER:
            out[word] += 1
    for run in _CJK_RUN.findall(text):
        for i in range(len(run) - 1):
            pair = run[i : i + 2]
            if not (set(pair) & _CJK_FILLER):
                out[pair] += 1
    return out
