"""An alternative turned down: "f_t 不是文档频率，而是…" denies the document frequency, not a
frequency.

A copula negation (不是, 并不是, 并非) followed by one word that qualifies the
claim's word right after it, and then by what is meant instead (而是, or a
colon or dash after it), turns down a kind of the thing: the qualifier is
what it denies. The claim's word said whole ("不是总频率") or after a longer
stretch ("不是词 t 在所有类中的总频率") is still denied.
"""

from __future__ import annotations

import re

from studybot.learn.negations import SCOPE_MARK
from studybot.learn.reading import Attempt, Phrase
from studybot.learn.words import AUXILIARIES

_COPULAS = {"不是", "并不是", "并非"}
_INSTEAD = re.compile(r"而是|而|but rather|rather|instead")
_QUALIFIER = re.compile(r"[\u4e00-\u9fff]{2,}|[a-z]{3,}")


def turned_down(attempt: Attempt, n: int, phrase: Phrase, parts: list) -> bool:
    """Whether ``phrase`` in clause ``n`` is the head of a kind a copula negation turns down."""
    clause = attempt.clauses[n]
    if phrase.size != 1:
        return False
    first = phrase.first
    word = next(((s, e) for s, e in clause.tokens if e == first), None)
    if word is None or any(s < word[1] and e > word[0] for s, e in parts):
        return False  # the qualifier is the claim's own part
    qualifier = clause.joined[word[0] : word[1]]
    if qualifier in AUXILIARIES or not _QUALIFIER.fullmatch(qualifier):
        return False
    if not any(e == word[0] and clause.joined[s:e] in _COPULAS for s, e in clause.negations):
        return False
    rest = clause.joined[phrase.last :]
    if SCOPE_MARK.search(rest) or _INSTEAD.search(rest):
        return True  # "不是文档频率：是…", "不是文档频率而是总频率"
    following = attempt.clauses[n + 1].normal if n + 1 < len(attempt.clauses) else ""
    return bool(_INSTEAD.match(following.lstrip()))


_COPULA_BEFORE = re.compile(r"(?:不是|并非|而非|\bnot)\s*$")


def figure_turned_down(before: str) -> bool:
    """Whether a figure comes right after a copula negation: "激活的不是 2 个而是 8 个" neither
    says 2 nor denies 8."""
    return bool(_COPULA_BEFORE.search(before))
