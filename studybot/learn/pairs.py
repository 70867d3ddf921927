"""Two named things a key point tells apart, so that their properties said the other way round are caught.

"gVisor 这类用户态内核的容器，或 Firecracker 微虚拟机" names two things and what
belongs to each: the words after a name, up to the next name in its clause,
are that name's (用户态, 内核, 容器 for gVisor; 虚拟机 for Firecracker). An
attempt that gives each thing the other's words ("Firecracker 是 Google 的
用户态内核……gVisor 是 AWS 的微虚拟机") has swapped them, and contradicts the
point. One thing given the other's word alone is not enough: "比 gVisor 的
容器更强" compares them. Both ways round, un-negated, each in a clause that
names only that thing, is a swap.

The names are Latin words of two characters or more that start with a letter
(model, tool and method names); a point naming two or more in one clause, each
with words of its own, holds a pair.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from studybot.learn import negations, words

_NAME = re.compile(r"[a-z][a-z0-9.+\-_]+")
# Latin words too common in the field to tell two things apart.
_COMMON = words.listed(
    "kv token tokens api gpu cpu llm llms model models the and or of for with to in on a an is "
    "are by as at be it its this that from via per vs"
)
_FILLER = (
    words.AUXILIARIES | words.NEGATIONS | words.listed("的 了 和 与 及 或 等 是 在 这类 一种 这种")
)


@dataclass(frozen=True)
class Pair:
    """Two names, and the words a key point gives each of them alone."""

    names: tuple[str, str]
    own: tuple[frozenset[str], frozenset[str]]


def pairs_of(point) -> tuple[Pair, ...]:
    """The pairs a key point's sentences tell apart (``point`` is read like an attempt)."""
    found: list[Pair] = []
    owned: dict[str, set[str]] = {}
    for n, clause in enumerate(point.clauses):
        if n and point.sentence[n - 1] != point.sentence[n]:
            found += _split(owned)
            owned = {}
        places = _names(clause)
        for i, (name, _, end) in enumerate(places):
            stop = places[i + 1][1] if i + 1 < len(places) else len(clause.joined)
            owned.setdefault(name, set()).update(_content(clause, end, stop))
    return tuple(found + _split(owned))


def _split(owned: dict[str, set[str]]) -> list[Pair]:
    """Each two names of one sentence with words of their own."""
    out = []
    names = list(owned)
    for i, one in enumerate(names):
        for other in names[i + 1 :]:
            mine, theirs = owned[one] - owned[other], owned[other] - owned[one]
            if mine and theirs:
                out.append(Pair((one, other), (frozenset(mine), frozenset(theirs))))
    return out


def swapped(pair: Pair, attempt) -> int | None:
    """The first clause of ``attempt`` giving one name the other's words, when both are so given."""
    given: dict[int, int] = {}  # which name (0 or 1) got the other's words -> its first clause
    for n, clause in enumerate(attempt.clauses):
        if not attempt.asserts[n]:
            continue
        places = [(w, end) for w, _, end in _names(clause) if w in pair.names]
        if len({w for w, _ in places}) != 1:
            continue  # a clause naming both compares them; one naming neither may be about either
        side, start, stop = pair.names.index(places[0][0]), places[0][1], len(clause.joined)
        theirs, mine = pair.own[1 - side], pair.own[side]
        if _says(clause, theirs, start, stop) and not _says(clause, mine, start, stop):
            given.setdefault(side, n)
    return min(given.values()) if len(given) == 2 else None


def _names(clause) -> list[tuple[str, int, int]]:
    """The names a clause holds, with where each stands in ``joined``, in order.

    A name is written with a capital (gVisor, Firecracker, T5, MaskGIT): lower-case
    Latin words are the field's vocabulary (budget, decode), not things told apart.
    """
    out = []
    for start, end in clause.tokens:
        word = clause.joined[start:end]
        if _NAME.fullmatch(word) and word not in _COMMON and _capital(clause, start, end):
            out.append((word, start, end))
    return out


def _capital(clause, start: int, end: int) -> bool:
    if not clause.at:
        return False
    written = clause.text[clause.at[start] : clause.at[min(end, len(clause.at) - 1)] + 1]
    return any(c.isupper() for c in written)


def _content(clause, start: int, stop: int) -> set[str]:
    """The words of a clause between two offsets that can tell a thing apart."""
    out = set()
    for s, e in clause.tokens:
        word = clause.joined[s:e]
        if s >= start and e <= stop and word not in _FILLER and word not in _COMMON:
            telling = any(c.isalpha() for c in word)  # "2.5" tells nothing apart
            if len(word) >= 2 and telling and not _NAME.fullmatch(word):
                out.add(word)
    return out


def _says(clause, owned: frozenset[str], start: int, stop: int) -> bool:
    """Whether the clause says one of ``owned``'s words between two offsets, un-negated."""
    for word in owned:
        for span in words.find(clause, word):
            if start <= span[0] and span[1] <= stop and not negations.negated(clause, [[span]]):
                return True
    return False
