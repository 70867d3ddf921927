"""Key terms of a text, as the term estimate compares them (banks without a rubric).

A text is put in the grader's one spelling first (``spelling.normalise``:
half-width, lower case, the term variants merged, so that "KV缓存" meets "KV
cache" and "词元" meets "token"). The terms are then latin words and numbers
(single letters too: K, V, Q, n and d are the symbols interview answers are
made of, English words with their endings folded) and the CJK character
bigrams inside jieba's words, so that no bigram spans two words (否则模型
gives 否则 and 模型, never 则模), without function characters.
"""

from __future__ import annotations

import re
from collections import Counter

from studybot.learn import spelling, words
from studybot.learn.segmenter import segmenter

# Underscores split words: q_t is the symbol q at step t.
_LATIN = re.compile(r"[a-z][a-z0-9+\-]*|\d+(?:\.\d+)?")
_CJK_RUN = re.compile(f"[{words.CJK}]+")
# Function characters: a bigram holding one says nothing about the topic.
_CJK_FILLER = set("的了是在和与及或等也都就而被把这那个一种们为以其之有要会能可对中上下越更很当")
_LATIN_FILLER = {
    "a", "an", "the", "of", "to", "in", "is", "are", "and", "or", "for", "on", "as",
    "it", "be", "by", "with", "that", "this", "at", "from",
}  # fmt: skip


def normalise(text: str) -> str:
    """``text`` in one spelling: half-width, lower case, term variants merged."""
    return spelling.normalise(text)


def terms(text: str) -> Counter[str]:
    """Key terms of ``text``: latin words, numbers and symbols, and CJK bigrams within words."""
    text = normalise(text)
    out: Counter[str] = Counter()
    for word in _LATIN.findall(text):
        if word not in _LATIN_FILLER:
            out[spelling.fold(word)] += 1
    cutter = segmenter()
    for run in _CJK_RUN.findall(text):
        for word in _words(cutter.cut(run)):
            for i in range(len(word) - 1):
                pair = word[i : i + 2]
                if not (set(pair) & _CJK_FILLER):
                    out[pair] += 1
    return out


def _words(cut: list[str]) -> list[str]:
    """jieba's words, characters it left alone side by side taken as one word it does not
    know (重算 as 重 + 算); a word it knows never joins the next."""
    out: list[str] = []
    lone = ""
    for word in cut:
        if len(word) == 1:
            lone += word
            continue
        if lone:
            out.append(lone)
            lone = ""
        out.append(word)
    return out + ([lone] if lone else [])
