"""An alias string of the rubric, compiled: its alternatives, each as words to look up.

"KV 缓存 | KV cache | 键值缓存" is three alternatives; each is put in the
grader's spelling (``words.alternative``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from studybot.bank import Question
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
            if alternative and alternative not in out:
                out.append(alternative)
        return cls(text, tuple(out))

    def shown(self) -> str:
        """The first alternative as a person reads it: "KV 缓存 K/V 头数 成正比" -> "KV 缓存 K/V 头数成正比"."""
        first = self.text.split("|")[0].split()
        out = first[0] if first else ""
        for word in first[1:]:
            joint = "" if _cjk(out[-1]) and _cjk(word[0]) else " "
            out += joint + word
        return out


def _cjk(char: str) -> bool:
    return "\u3400" <= char <= "\u9fff"


def words_of(question: Question) -> set[str]:
    """Every word of every alias of the question's rubric, as written (NFKC, lower case)."""
    out: set[str] = set()
    for rubric in question.rubric:
        aliases: list[str | None] = [*rubric.wrong]
        for claim in rubric.claims:
            aliases += [claim.subject, claim.relation, claim.object, claim.opposite]
        for alias in filter(None, aliases):
            out.update(unicodedata.normalize("NFKC", alias).lower().replace("|", " ").split())
    return out
