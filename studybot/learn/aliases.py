"""An alias string of the rubric, compiled: its alternatives, each as words to look up.

"KV 缓存 | KV cache | 键值缓存" is three alternatives; each is put in the
grader's spelling (``words.alternative``), and one with one-character
Chinese words also gets them joined to their neighbours (a writer's "很 高"
is jieba's 很高).
"""

from __future__ import annotations

from dataclasses import dataclass

from studybot.learn import words


@dataclass(frozen=True)
class Alias:
    """One alias string of a rubric, its alternatives ready to look up."""

    text: str  # as written in the bank
    alternatives: tuple[tuple[str, ...], ...]  # each alternative's words (``words.alternative``)

    @classmethod
    def of(cls, text: str, formulas: bool = False) -> Alias:
        """``text`` compiled; ``formulas``: its symbols glue formulas (``words.alternative``)."""
        out: list[tuple[str, ...]] = []
        for part in text.split("|"):
            alternative = words.alternative(part, formulas)
            if alternative:
                out.append(alternative)
                out.extend(m for m in _merged(alternative) if m not in out)
        return cls(text, tuple(out))

    def shown(self) -> str:
        """The first alternative as a person reads it: "KV 缓存 K/V 头数 成正比" -> "KV 缓存 K/V 头数成正比"."""
        first = self.text.split("|")[0].split()
        out = first[0] if first else ""
        for word in first[1:]:
            joint = "" if _cjk(out[-1]) and _cjk(word[0]) else " "
            out += joint + word
        return out


def _merged(alternative: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The alternative with its one-character CJK words joined to their neighbours.

    A writer's "很 高" or "测试 集" is often one word to jieba (很高, 测试集),
    which a lone character never matches inside: a run of such characters
    becomes one word, and a single one is joined to the word after it and,
    as another alternative, to the word before it.
    """
    runs: list[str] = []
    for before, word in zip(("", *alternative), alternative, strict=False):
        if _lone(word) and _lone(before):
            runs[-1] += word
        else:
            runs.append(word)
    out = [tuple(runs)] if len(runs) < len(alternative) else []
    for i, word in enumerate(runs):
        if not _lone(word):
            continue
        if i + 1 < len(runs) and _cjk(runs[i + 1][0]):
            out.append((*runs[:i], word + runs[i + 1], *runs[i + 2 :]))
        if i and _cjk(runs[i - 1][-1]):
            out.append((*runs[: i - 1], runs[i - 1] + word, *runs[i + 1 :]))
    return out


def _lone(word: str) -> bool:
    return len(word) == 1 and _cjk(word)  # "" is no CJK character


def _cjk(char: str) -> bool:
    return "\u3400" <= char <= "\u9fff"
