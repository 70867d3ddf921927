"""Negations that presume what a point says rather than deny it.

Each is a reading of the sentence, whatever the question: "不再用 softmax"
(no longer) says that softmax was used before; "d_head 不能太小" (advice
against an excess) agrees that too small harms; "能用 enum 就别用自由字符串"
(an advice pair) turns down the other way and keeps the first; "不一样的只是
多了…" names what differs and denies nothing; a clause opened by 而不是把
that names none of the point's subject turns down another thing handled
another way; "tokens that never appear in the same direction" negates only
the relative clause's own verb, with "that" or without it ("knowledge the model never
saw"), as does "不被别人打扰的长上下文" (a modifier ending in 的);
and in "TTFT 变长并不是模型变慢了" the 不是
denies what follows it, not the topic said before it. ``links`` asks these
when it reads a negated relation.
"""

from __future__ import annotations

import re

from studybot.learn.reading import Phrase
from studybot.learn.words import AUXILIARIES

_NO_LONGER = frozenset({"不再", "nolonger"})


def no_longer(clause, phrase: Phrase) -> bool:
    """Whether the negation nearest before ``phrase`` is "no longer" (不再): what is no longer
    done was done before, so a claim about the earlier state is not denied."""
    before = [(s, e) for s, e in clause.negations if e <= phrase.first]
    if not before:
        return False
    start, end = before[-1]
    return clause.joined[start:end] in _NO_LONGER


# "不能太小", "不宜过大", "别太长", "shouldn't be too small": a warning against the excess.
_AGAINST = re.compile(r"(?:不能|不宜|不要|不应|不应该|不该|不可|别|shouldnotbe|shouldn'tbe)$")
_EXCESS = re.compile(r"(?:太|过于|过|too)")


def against_excess(clause, phrase: Phrase) -> bool:
    """Whether ``phrase`` names an excess (太小, 过大, too small) and a warning against it
    stands just before it: the sentence agrees that the excess harms."""
    if not _EXCESS.match(clause.joined, phrase.first):
        return False
    return bool(_AGAINST.search(clause.joined[: phrase.first]))


# "能用 enum 就别用自由字符串", "可以缓存就不要重算": do the first; the negation is the second's.
_ADVICE_NOT = re.compile(r"就(?:别|不要|不用|不必|无需|没必要)")
_CAN = re.compile(r"能|可以|尽量")


def advice_pair(clause, phrase: Phrase) -> bool:
    """Whether ``phrase`` sits in "能 X 就别 Y": the negation after 就 turns down the other
    way, and the clause keeps what comes before it."""
    for found in _ADVICE_NOT.finditer(clause.joined):
        if _CAN.search(clause.joined, 0, found.start()) and phrase.last > found.start():
            return True
    return False


# "不一样的只是…", "不同的是…", "没变的是…": the negated word names what the clause goes on to say.
_NAMING = re.compile(r"的(?:只|仅仅|仅|就|也)?是")
_WORD_NEGATIONS = frozenset({"不", "没", "没有", "未", "无"})  # 并非 before 的是 is a copula's


def nominal(clause, phrase: Phrase) -> bool:
    """Whether ``phrase`` with the negation just before it is made a noun by 的…是 ("不一样的只是
    多了 h 份得分矩阵"): it names what follows, and is no predicate of anything."""
    negation = any(
        e == phrase.first and clause.joined[s:e] in _WORD_NEGATIONS for s, e in clause.negations
    )
    return negation and bool(_NAMING.match(clause.joined, phrase.last))


# "…，而不是把几百个 patch 原样送进 LLM": another thing, handled another way, turned down.
_TURNED_DOWN = re.compile(r"(?:而不是|而非)(?:直接)?把")


def turned_down(clause, subject: Phrase | None) -> bool:
    """Whether the clause opens with 而不是把 and names none of the claim's subject: it turns
    down handling another thing another way, and says nothing of the point's own thing."""
    return subject is None and bool(_TURNED_DOWN.match(clause.joined))


_RELATIVE = frozenset({"that", "which", "who"})
_VERB_NOT = frozenset({"not", "never"})
_NOT_A_NOUN = frozenset({"so", "such", "now", "given", "and", "or", "but", "is", "are", "was"})
_DO = frozenset({"do", "does", "did", "will", "would", "can", "could", "may", "might"})


_DETERMINERS = frozenset({"the", "a", "an", "its", "their", "this", "that", "our", "your"})
_PREPOSED = frozenset(
    {"of", "in", "to", "for", "with", "by", "on", "at", "from", "if", "when", "because", "since"}
)
_NOT_A_HEAD = _NOT_A_NOUN | _DETERMINERS | _RELATIVE | _DO | _PREPOSED


def _opened(before: list[str]) -> bool:
    """Whether the words before a negation end on a relative word after a noun ("tokens that")."""
    return len(before) >= 2 and before[-1] in _RELATIVE and before[-2] not in _NOT_A_HEAD


def _contact(before: list[str]) -> bool:
    """Whether the words before a negation end on a noun, then a subject of one or two words
    opened by a determiner: a relative clause without "that" ("knowledge the model never saw")."""
    for size in (2, 3):
        if len(before) > size and before[-size] in _DETERMINERS:
            rest = set(before[-size + 1 :])
            return before[-size - 1] not in _NOT_A_HEAD and not _DETERMINERS & rest
    return False


def relative(clause, phrase: Phrase) -> bool:
    """Whether the negation before ``phrase`` opens an English relative clause ("tokens that never
    appear"): it describes the noun before it and negates its own verb, not what follows the verb
    ("… that never appear in the same direction" says nothing against "same direction")."""
    tokens = [(s, e) for s, e in clause.tokens if e <= phrase.first]
    for i, (start, end) in enumerate(tokens[:-1]):
        if (start, end) not in clause.negations or clause.joined[start:end] not in _VERB_NOT:
            continue
        before = [clause.joined[slice(*t)] for t in tokens[:i]]
        while before and before[-1] in _DO:
            before.pop()  # "that do not appear"
        if not (_opened(before) or _contact(before)):
            continue  # "so that no entity is cut" is no relative clause
        rest = [t for t in tokens[i + 1 :] if clause.joined[slice(*t)] not in AUXILIARIES]
        later = [t for t in clause.negations if end <= t[0] < phrase.first]
        return len(rest) >= 1 and rest[0][1] <= phrase.first and not later
    return False


# Verb negations that can open a modifier; 不是/没有 before "X 的 Y" deny the whole Y.
_MODIFIER_NOT = frozenset({"不", "未", "从不", "从未", "从没", "永不", "不会", "无法", "不能"})


_OBJECT_FIRST = re.compile(r"(?:把|将|对|向)")


def modifier(clause, phrase: Phrase) -> bool:
    """Whether the nearest negation before the end of ``phrase`` sits in a modifier closed by
    的 whose noun ``phrase`` holds ("一块不被别人打扰的长上下文", "报告不给图的基线"): it negates
    the modifier's verb and describes the noun, which the sentence still says is there."""
    before = [(s, e) for s, e in clause.negations if e < phrase.last]
    if not before:
        return False
    start, end = before[-1]
    closing = clause.joined.find("的", end, phrase.last)
    return (
        clause.joined[start:end] in _MODIFIER_NOT
        and closing + 1 < phrase.last
        and (phrase.first == closing + 1 or phrase.first <= start)  # the modifier's verb unsaid
        and closing > end
        and not re.search(r"[是的，,。；;]", clause.joined[end:closing])
        and not _OBJECT_FIRST.match(
            clause.joined, end
        )  # "不把上一轮的内容放回": 的 is a possessive
    )


def not_denied(clause, phrase: Phrase, subject: Phrase | None) -> bool:
    """Whether a negated ``phrase`` presumes its claim instead of denying it."""
    return (
        no_longer(clause, phrase)
        or against_excess(clause, phrase)
        or advice_pair(clause, phrase)
        or nominal(clause, phrase)
        or turned_down(clause, subject)
        or relative(clause, phrase)
        or modifier(clause, phrase)
    )


# "X 并不是 Y", "X 并非 Y": a copula negation after a topic, then a subject of its own.
_COPULA = re.compile(r"(?<!而)(?:并不是|并非|不是)")


def topic_edges(clause, denied: int) -> list[int]:
    """Where a copula negation stands after words of the clause and before other words that
    open what it denies at ``denied`` ("TTFT 变长并不是模型变慢了": 模型 before 变慢): the
    clause before it is a topic said, and the negation denies a cause given for it."""
    return [
        m.start()
        for m in _COPULA.finditer(clause.joined)
        if m.start() > 0 and m.end() < denied and _subject_between(clause, m.end(), denied)
    ]


def _subject_between(clause, start: int, end: int) -> bool:
    """Whether a word other than a negation or an auxiliary stands in ``start``–``end``."""
    return any(
        start <= s
        and e <= end
        and clause.joined[s:e] not in AUXILIARIES
        and not any(a <= s and e <= b for a, b in clause.negations)
        for s, e in clause.tokens
    )
