"""Two things a key point writes side by side, so that each given the other's figure or words is caught.

"前向约 2ND、反向约 4ND", "「头 128 + 尾 382」", "高频维度几乎不变、最低频维度
接近按 s 插值", "把 JSON Schema 编译成有限状态机，把上下文无关文法编译成下推
自动机": one sentence of the point holds two items next to each other (cut at
clauses, list breaks, "+" and brackets) written in one frame: the words they
share (约, 维度, 把…编译成) or, sharing none, a figure each. An item's thing is
its own words before the frame (前向, 头, 高频, JSON Schema), its property its
own words after it (2ND, 128, 几乎不变, 有限状态机); an item sharing nothing
opens with its thing.

An attempt gives a property to the thing named last before it in its sentence
("其中前向大概占 4ND、反向大概 2ND": 4ND to 前向); an attempt that gives each
thing the other's property, un-negated, and not its own beside it, has swapped
them and contradicts the point. One thing given the other's property alone is
a comparison, not a swap. ``pairs`` reads the same error where the two things
are Latin names a clause tells apart.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from studybot.learn import negations, words

_CUTS = words.listed("+ 、 ; ； : ：")
_CJK_CHAR = re.compile(f"[{words.CJK}]")
_FIGURE = re.compile(r"[\d.]*\d[\d.]*")
_TELLING = re.compile(f"[a-z0-9{words.CJK}]")
_SHORT = 4  # an item that shares no frame with its neighbour is a thing and its figure: short
_CONTRAST = re.compile(r"却|而|但|不过|反而|可是|然而|whereas|but|while")
_LISTED = re.compile(r"和|与|及|或|、|and|or")  # two things named as one list
_LISTED_CHARS = 8
_WIDE = 8  # ... and one that does is a side, not a sentence of its own
# Words that open an item without naming its thing.
_OPENERS = words.listed("把 将 而 其中 则 更 最 的 或 和 与 及 是 对 在 ( ) 「 」 “ ” \" '")


@dataclass(frozen=True)
class Swap:
    """Two things written side by side: each one's words, and each one's property."""

    things: tuple[frozenset[str], frozenset[str]]
    owns: tuple[frozenset[str], frozenset[str]]


def of_point(point) -> tuple[Swap, ...]:
    """The things ``point`` (a key point read like an attempt) writes side by side."""
    found = []
    items = [(n, _words(point.clauses[n], item)) for n, item in _items(point)]
    seen = Counter(w for _, item in items for w in item)
    for (n, one), (m, other) in zip(items, items[1:], strict=False):
        swap = _pair(one, other, seen) if point.sentence[n] == point.sentence[m] else None
        if swap:
            found.append(swap)
    return tuple(found)


def swapped(swap: Swap, attempt) -> int | None:
    """The first clause of ``attempt`` giving one thing the other's property, when both are so given."""
    given: list[tuple[int, int, int]] = []  # (thing, item, clause): the other's property given
    right: set[tuple[int, int]] = set()  # (thing, item): its own property given
    about: tuple[int, int] | None = None  # the thing named last, and its clause
    for k, (n, item) in enumerate(_items(attempt)):
        clause = attempt.clauses[n]
        named = _named(swap, clause, item)
        # A clause naming no thing is about the thing the clause just before it named last.
        follows = about is not None and about[1] == n - 1
        alone = not _named(swap, clause, (0, len(clause.joined)))
        # ... in one sentence, unless it opens on a contrast ("却在少量标注上就很准").
        carried = follows and alone and attempt.sentence[n - 1] == attempt.sentence[n]
        inherited = about[0] if about and carried and not _CONTRAST.match(clause.joined) else None
        for side, own in enumerate(swap.owns):
            for word in own:
                for span in _found(clause, word, item):
                    if not attempt.asserts[n] or negations.negated(clause, [[span]]):
                        continue
                    for thing in _bound(clause, named, span, inherited):
                        if thing == side:
                            right.add((thing, k))
                        else:
                            given.append((thing, k, n))
        if named:
            about = named[-1][2], n
    wrong: dict[int, int] = {}
    for thing, k, n in given:
        if (thing, k) not in right:
            wrong.setdefault(thing, n)
    return min(wrong.values()) if len(wrong) == 2 else None


def _named(swap: Swap, clause, item: tuple[int, int]) -> list[tuple[int, int, int]]:
    """Where ``item`` names each thing: (start, end, thing), in order."""
    return sorted(
        (s, e, side)
        for side, thing in enumerate(swap.things)
        for word in thing
        for s, e in _found(clause, word, item)
    )


def _bound(clause, named, span: tuple[int, int], about: int | None) -> set[int]:
    """The things a property found at ``span`` is said of.

    The thing named last before it, with a thing listed beside that one ("正则
    和上下文无关文法编译成…"); in a clause naming no thing, the thing the
    sentence was about (``about``). Nothing when a negation stands between the
    thing and the property, when the property is part of a thing's name
    (样本 in 负样本), or when two things are named before it but not listed
    together ("cross-encoder 给 bi-encoder 标注").
    """
    if any(s <= span[0] and span[1] <= e for s, e, _ in named):
        return set()
    before = [(s, e, t) for s, e, t in named if e <= span[0]]
    if not before:
        return {about} if about is not None else set()
    last = before[-1]
    if any(last[1] <= s < span[0] for s, _ in clause.negations):
        return set()
    others = [(s, e) for s, e, t in before if t != last[2]]
    if not others:
        return {last[2]}
    after = [s for s, _, t in before if t == last[2] and s >= others[-1][1]]
    if not after:
        return set()  # the two overlap ("JSON Schema" and "schema"): neither is said alone
    first = min(after)
    between = clause.joined[others[-1][1] : first]
    return {0, 1} if len(between) <= _LISTED_CHARS and _LISTED.search(between) else set()


def _found(clause, word: str, item: tuple[int, int]) -> list[tuple[int, int]]:
    return [s for s in words.find(clause, word) if item[0] <= s[0] and s[1] <= item[1]]


def _items(text) -> list[tuple[int, tuple[int, int]]]:
    """Each clause's items: its stretches between list breaks, "+" and bracket edges."""
    out = []
    for n, clause in enumerate(text.clauses):
        start = 0
        for s, e in clause.tokens:
            word = clause.joined[s:e]
            edge = s in clause.breaks or clause.group(s) != clause.group(max(start, s - 1))
            if word in _CUTS or (edge and s > start):
                if s > start:
                    out.append((n, (start, s)))
                start = e if word in _CUTS else s
        if len(clause.joined) > start:
            out.append((n, (start, len(clause.joined))))
    return [(n, item) for n, item in out if _words(text.clauses[n], item)]


def _words(clause, item: tuple[int, int]) -> list[str]:
    return [clause.joined[s:e] for s, e in clause.tokens if item[0] <= s and e <= item[1]]


def _pair(one: list[str], other: list[str], seen: Counter[str]) -> Swap | None:
    """Two items as sides of one frame, or None.

    A property is the words its item alone writes in the point (``seen``: every
    item's words counted): "共享" said of MQA and again of GQA's groups is neither's.
    """
    shared = {w for w in set(one) & set(other) - _OPENERS if len(w) > 1}
    halves = [_split(words_, shared) for words_ in (one, other)]
    if not shared and not all(any(_FIGURE.search(w) for w in own) for _, own in halves):
        return None
    said = {w for thing, own in halves for w in thing + own}
    things = [set(t) - set(halves[1 - i][0]) for i, (t, _) in enumerate(halves)]
    owns = [
        {w for w in o if seen[w] == (one, other)[i].count(w)} for i, (_, o) in enumerate(halves)
    ]
    named = things[0] | things[1]
    owns = [own - named for own in owns]
    if any(_FIGURE.fullmatch(w) for own in owns for w in own):  # a figure is what tells them apart
        owns = [{w for w in own if _FIGURE.fullmatch(w)} for own in owns]
    things = [
        {w for w in thing if not _FIGURE.fullmatch(w)} - owns[0] - owns[1] for thing in things
    ]
    if not all(things) or not all(owns) or len(said) > 2 * _WIDE:
        return None
    return Swap(
        (frozenset(things[0]), frozenset(things[1])), (frozenset(owns[0]), frozenset(owns[1]))
    )


def _split(item: list[str], shared: set[str]) -> tuple[list[str], list[str]]:
    """An item's thing (its words before the frame) and its property (its own words after)."""
    content = [w for w in item if w not in _OPENERS and _TELLING.search(w)]
    if not content or sum(not _lone(w) for w in content) > (_WIDE if shared else _SHORT):
        return [], []
    cut = next((i for i, w in enumerate(content) if w in shared or _FIGURE.fullmatch(w)), None)
    if not shared:
        cut = 1
    if not cut:
        return [], []
    # A thing is named by a word of two characters; a lone one (头, 尾) only beside its figure.
    thing = [w for w in content[:cut] if len(w) > 1 or (not shared and _lone(w))]
    own = [w for w in content[cut:] if w not in shared and not _lone(w)]
    return thing, own


def _lone(word: str) -> bool:
    """A single Chinese character: found wherever it is written, it tells nothing apart."""
    return len(word) == 1 and bool(_CJK_CHAR.match(word))
