"""Turns: words that set a thing against another ("instead of", "而不是", "unlike", "than").

A turn negates what follows it, but not when the alias's own words hold it: "instead
of UMAP" is the claim "IncrementalPCA 代替 UMAP", and so is "IncrementalPCA 而不是 UMAP",
which turns down the very word the claim says is replaced. What follows "than" is the
standard a comparison measures against: nothing is said of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from studybot.learn.words import Clause, listed

# A way turned down just before the words, and the words that say a thing is replaced.
_TURNED_DOWN = re.compile(r"(?:而不是|而非|ratherthan|insteadof)$")
_REPLACING = listed("代替 替代 替换 换掉 取代 replac instead")
_FILLER = listed("of")  # "instead of X" holds the replaced X after "of"
THAN_REACH = 4  # words between "than" and the words it makes the standard


def holds_turn(clause: Clause, spans: Iterable[tuple[int, int]]) -> bool:
    """Whether ``spans`` hold a whole negation of ``clause`` or its opening turn."""
    turns = [*clause.negations, *([(0, clause.opening)] if clause.opening > 0 else [])]
    held = {i for s, e in spans for i in range(s, e)}
    return any(set(range(ts, te)) <= held for ts, te in turns)


def replacement(
    clause: Clause, alternatives: Sequence[tuple[str, ...]], spans: Sequence[tuple[int, int]]
) -> tuple[tuple[int, int], ...] | None:
    """The turn's words with ``spans`` when the turn just before them turns down what the
    alias says is replaced ("X 而不是 Y" of "X 代替 Y"), else None."""
    turn = _TURNED_DOWN.search(clause.joined, 0, spans[0][0])
    if turn is None:
        return None
    words = tuple(clause.joined[s:e] for s, e in spans)
    replaced = (a[1:] for a in alternatives if a and a[0] in _REPLACING)
    if not any(tuple(w for w in r if w not in _FILLER) == words for r in replaced):
        return None
    return tuple(t for t in clause.tokens if turn.start() <= t[0] < turn.end())


def after_than(clause: Clause, first: int) -> bool:
    """Whether the words at ``first`` are the standard of a comparison: a few words after
    "than", never a figure ("more like amplifying it than something made from scratch")."""
    if clause.joined[first : first + 1].isdigit():
        return False  # "more than 50%" is a bound, said of the subject
    before = [clause.joined[s:e] for s, e in clause.tokens if e <= first][-THAN_REACH - 1 :]
    return "than" in before
