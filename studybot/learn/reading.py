"""An attempt as the rubric reads it: its clauses, and where each alias is said.

The attempt is cut into clauses once (``words``); a clause that only
repeats the question proves nothing and is left out. An alias is then
**found** in a clause when one of its alternatives has all its words there
and no negation bears on them, **negated** when it is said only under a
negation (or with the opposite relation: "KV 缓存和头数没有关系" against
"KV 缓存 头数 成正比"), **elsewhere** when it is said only about a rival
side of the question's comparison, and **absent** otherwise. A find that
right alternatives of the question explain is no contradiction
(``explained``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from studybot.learn import words
from studybot.learn.aliases import Alias
from studybot.learn.sides import NONE, Sides
from studybot.learn.words import Clause, listed

FOUND, NEGATED, ELSEWHERE, ABSENT = "found", "negated", "elsewhere", "absent"
# Words that say two things are related, or are not: a claim of one said with the other is reversed.
RELATIONS = (
    ("depends", frozenset(words.alternative("成正比 正比 相关 有关 取决于 依赖 随 随着 决定于"))),
    (
        "independent",
        frozenset(words.alternative("无关 没有关系 没关系 不相关 不依赖 independent unrelated")),
    ),
)
WRONG_GAP = 8  # characters a wrong alternative's words may have between them, in all
# ... and a right one that explains a clause, in any order: "freeze the top layers and
# train the bottom" holds "freeze" and "bottom" too far apart to say "freeze the bottom".
EXPLAIN_GAP = 12
RESTATED_CHARS = 6  # a clause this long that the question holds word for word restates it
RESTATED_WORDS = 3  # ... as does one of this many words, all the question's
# Words that say nothing: a clause of these and the question's words restates the question.
_FILLER = listed(
    "的 了 是 在 和 与 及 或 等 也 都 就 被 把 这 那 个 一 种 们 为 以 其 之 有 要 会 能 可 对 "
    "吗 呢 吧 啊 么 什么 为什么 怎么 如何 哪里 哪些 因为 所以 而 但 就是 a an the of to in is "
    "are and or for on as it be by with that this at from what why how ? ( ) - / , : ;"
)


@dataclass(frozen=True)
class Seen:
    """Where an alias was found in an attempt."""

    state: str  # FOUND, NEGATED, ELSEWHERE (said of a rival side) or ABSENT
    clause: int | None  # the clause that decided it
    words: tuple[tuple[int, int], ...] = ()  # the spans of the alternative's words there
    size: int = 0  # how many words that alternative has
    alternative: tuple[str, ...] = ()  # the alternative found
    holding: tuple[int, ...] = ()  # every clause holding one of its alternatives


@dataclass(frozen=True)
class Asked:
    """A question's own words, which an attempt restating it gets no credit for."""

    joined: str
    words: frozenset[str]

    @classmethod
    def of(cls, question: str) -> Asked:
        clauses = [words.clause(c) for c in words.split(question)]
        joined = "\n".join(c.joined for c in clauses)
        return cls(joined, frozenset().union(*(c.words for c in clauses)))


class Attempt:
    """An attempt cut into clauses once, its alias lookups remembered."""

    def __init__(self, text: str, question: str | Asked, compared: Sides = NONE) -> None:
        self.asked = question if isinstance(question, Asked) else Asked.of(question)
        read = [(n, words.clause(c)) for n, c in words.sentences(text)]
        kept = [(n, c) for n, c in read if not self._restates(c)]
        self.clauses = [c for _, c in kept]
        self._holding: dict[str, frozenset[int]] = {}  # word -> the clauses whose text holds it
        self._seen: dict[tuple[int, str], list[tuple[int, int]]] = {}
        # Per clause, the sides it names and the side it is about (carried within a sentence).
        self.named = [set(compared.named(c)) for c in self.clauses]
        self.topic: list[str | None] = []
        for i, (sentence, _) in enumerate(kept):
            carried = self.topic[-1] if i and kept[i - 1][0] == sentence else None
            named = compared.named(self.clauses[i])
            self.topic.append(named[0] if named else carried)

    def about(self, n: int, side: str | None) -> bool:
        """Whether clause ``n`` can be about ``side``: it names it, or no rival is its topic."""
        if side is None:
            return True
        topic = self.topic[n]
        return side in self.named[n] or topic is None or topic == side

    def _restates(self, clause: Clause) -> bool:
        """A clause copied from the question (or only its words, reordered) proves nothing."""
        if len(clause.joined) >= RESTATED_CHARS and clause.joined in self.asked.joined:
            return True
        own = clause.words - _FILLER
        return len(own) >= RESTATED_WORDS and own <= self.asked.words or not own

    def look(self, alias: Alias, side: str | None = None, ordered: bool = False) -> Seen:
        """Whether ``alias`` is said (un-negated), said only negated, or not said.

        With ``side``, a find in a clause about a rival side is ELSEWHERE, kept
        only when nothing better is found.
        """
        best: dict[str, Seen] = {}
        holding: list[int] = []
        having = [(a, self._having(a)) for a in alias.alternatives]
        for n in sorted(set().union(*(where for _, where in having))):
            for alternative, where in having:
                if n not in where:
                    continue
                match = self._match(n, alternative, ordered)
                if match is None:
                    continue
                spans, against = match
                if not holding or holding[-1] != n:
                    holding.append(n)
                state = NEGATED if against else FOUND if self.about(n, side) else ELSEWHERE
                best.setdefault(state, Seen(state, n, spans, len(alternative), alternative))
                if state == FOUND:
                    break
        if FOUND not in best:
            reversed_ = self._reversed(alias)
            if reversed_ is not None:
                best.setdefault(NEGATED, reversed_)
        chosen = next((best[s] for s in (FOUND, NEGATED, ELSEWHERE) if s in best), None)
        chosen = chosen or Seen(ABSENT, None)
        return replace(chosen, holding=tuple(holding))

    def _reversed(self, alias: Alias) -> Seen | None:
        """An alternative that claims a relation, said with the opposite relation.

        "KV 缓存 头数 成正比" meets "KV 缓存和头数没有关系": every other word is
        there, and the clause says the two are unrelated; "头数 无关" meets
        "参数量会随头数增加".
        """
        for alternative in alias.alternatives:
            claimed = {kind for word in alternative for kind, said in RELATIONS if word in said}
            if len(claimed) != 1:
                continue
            others = tuple(w for w in alternative if not any(w in said for _, said in RELATIONS))
            if not others:
                continue
            (kind,) = claimed
            for n in sorted(self._having(others)):
                match = self._match(n, others)
                if match is None or match[1]:
                    continue
                opposite = self._relations(n) - {kind}
                if opposite and kind not in self._relations(n):
                    return Seen(NEGATED, n, match[0], len(alternative), alternative)
        return None

    def _relations(self, n: int) -> set[str]:
        """Which relations clause ``n`` states (a dependence, or none)."""
        clause = self.clauses[n]
        return {kind for kind, said in RELATIONS if any(self._find(n, clause, w) for w in said)}

    def explained(self, seen: Seen, aliases: Sequence[Alias]) -> bool:
        """Whether right alternatives, together as specific, say those words of that clause.

        "除以 √d_k 把方差拉回 1" holds the words of the wrong "方差 √d_k", but
        it says "方差 拉回 1", which a point of the question claims; "1 shared
        expert and 256 routed experts" holds "shared experts routed", and
        says "1 shared" and "256 routed".
        """
        n = seen.clause
        said: list[tuple[int, int]] = []  # spans of the right alternatives said there
        size = 0
        for alias in aliases:
            for alternative in alias.alternatives:
                if n not in self._having(alternative):
                    continue
                match = self._match(n, alternative)
                if match is None or match[1] or not self._close(n, alternative):
                    continue
                if _overlap(match[0], seen.words):
                    # One alternative explains the clause alone when it says every wrong
                    # word: "top layers trained" does not explain the "freeze" of
                    # "freeze the top layers and train the bottom".
                    covers = all(_overlap(match[0], (span,)) for span in seen.words)
                    if len(alternative) >= seen.size and covers:
                        return True
                    said.extend(match[0])
                    size += len(alternative)
        wrong = [self._find(n, self.clauses[n], word) for word in seen.alternative]
        return size >= seen.size and all(_overlap(spans, said) for spans in wrong)

    def _close(self, n: int, alternative: tuple[str, ...]) -> bool:
        """Whether one find of each word of ``alternative`` lies within EXPLAIN_GAP of the others."""
        clause = self.clauses[n]
        finds = [self._find(n, clause, word) for word in alternative]
        allowed = sum(len(w) for w in alternative) + EXPLAIN_GAP
        for start, _ in (span for found in finds for span in found):
            # the window from ``start``: each word's first find at or after it
            ends = [min((e for s, e in found if s >= start), default=None) for found in finds]
            if None not in ends and max(ends) - start <= allowed:
                return True
        return False

    def _having(self, alternative: tuple[str, ...]) -> frozenset[int]:
        """The clauses whose text holds every word of ``alternative`` (a cheap first sieve)."""
        out: frozenset[int] | None = None
        for word in alternative:
            if word not in self._holding:
                self._holding[word] = frozenset(
                    n for n, c in enumerate(self.clauses) if word in c.joined
                )
            out = self._holding[word] if out is None else out & self._holding[word]
            if not out:
                return frozenset()
        return out or frozenset()

    def _match(
        self, n: int, alternative: tuple[str, ...], ordered: bool = False
    ) -> tuple[tuple, bool] | None:
        """The spans of ``alternative``'s words in clause ``n`` and whether it is negated there.

        ``ordered``: the words must come in the alternative's order, close together
        (at most ``WRONG_GAP`` other characters among them).
        """
        clause = self.clauses[n]
        per_word: list[list[tuple[int, int]]] = []
        after = -1
        for word in alternative:
            found = self._find(n, clause, word)
            if ordered:
                found = [span for span in found if span[0] > after][:1]
                after = found[0][0] if found else after
            if not found:
                return None
            per_word.append(found)
        flat = tuple(span for found in per_word for span in found)
        if ordered:
            reach = max(e for _, e in flat) - min(s for s, _ in flat)
            if reach > sum(len(w) for w in alternative) + WRONG_GAP:
                return None
        return flat, words.negated(clause, per_word)

    def _find(self, n: int, clause: Clause, word: str) -> list[tuple[int, int]]:
        key = (n, word)
        if key not in self._seen:
            self._seen[key] = words.find(clause, word)
        return self._seen[key]


def _overlap(one: Sequence[tuple[int, int]], other: Sequence[tuple[int, int]]) -> bool:
    return any(a < d and c < b for a, b in one for c, d in other)
