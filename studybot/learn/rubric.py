"""The offline grader on the rubric: what each key point claims, found or contradicted.

Per key point (docs/bank-format.md, "The rubric"):

- each concept, and the claim, is **found** when one of its alternatives has
  all its words in one clause of the attempt and no negation of that clause
  lies outside those words; found only under a negation, it is **negated**;
- a rubric number is found when a figure of its unit family lies within its
  tolerance; when none does, a figure of that family in a clause holding one
  of the point's concept or claim alternatives is a **wrong number**;
- a ``wrong`` alternative found un-negated, its words in its order and
  close together, contradicts the point (negated, "并不是与头数无关", it is nothing).

A point is contradicted (a wrong found, a concept or claim only negated, a
wrong number), else covered (every concept, claim and number found), else
partly (at least one found), else missed. Clauses that only repeat the
question's own words earn nothing, and an attempt made of nothing else is 0.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace

from studybot.bank import Bank, Question
from studybot.bank.format import Number, PointRubric
from studybot.learn import numbers as figures
from studybot.learn import words
from studybot.learn.marks import CONTRADICTED, COVERED, MISSED, PARTLY
from studybot.learn.sides import NONE, Sides, sides
from studybot.learn.words import Clause, listed

FOUND, NEGATED, ELSEWHERE, ABSENT = "found", "negated", "elsewhere", "absent"
EVIDENCE_CHARS = 40  # the clause shown as evidence, trimmed to about this many characters
ALL_BUT_ONE_FROM = 3  # a point with this many requirements (concepts, claim, numbers) or more
# is covered with one of them missing
# Words that say two things are related, or are not: a claim of one said with the other is reversed.
RELATIONS = (
    ("depends", frozenset(words.alternative("成正比 正比 相关 有关 取决于 依赖 随 随着 决定于"))),
    (
        "independent",
        frozenset(words.alternative("无关 没有关系 没关系 不相关 不依赖 independent unrelated")),
    ),
)
WRONG_GAP = 8  # characters a wrong alternative's words may have between them, in all
RESTATED_CHARS = 6  # a clause this long that the question holds word for word restates it
RESTATED_WORDS = 3  # ... as does one of this many words, all the question's
# Words that say nothing: a clause of these and the question's words restates the question.
_FILLER = listed(
    "的 了 是 在 和 与 及 或 等 也 都 就 被 把 这 那 个 一 种 们 为 以 其 之 有 要 会 能 可 对 "
    "吗 呢 吧 啊 么 什么 为什么 怎么 如何 哪里 哪些 因为 所以 而 但 就是 a an the of to in is "
    "are and or for on as it be by with that this at from what why how ? ( ) - / , : ;"
)


@dataclass(frozen=True)
class Alias:
    """One alias string of a rubric, its alternatives ready to look up."""

    text: str  # as written in the bank
    alternatives: tuple[tuple[str, ...], ...]  # each alternative's words (``words.alternative``)

    @classmethod
    def of(cls, text: str) -> Alias:
        out: list[tuple[str, ...]] = []
        for part in text.split("|"):
            alternative = words.alternative(part)
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


@dataclass(frozen=True)
class Point:
    """One key point with its rubric, compiled."""

    text: str
    concepts: tuple[Alias, ...]
    claim: Alias | None
    wrong: tuple[Alias, ...]
    numbers: tuple[Number, ...]
    known: tuple[Number, ...] = ()  # figures the question's key points state: never a wrong one

    @classmethod
    def of(cls, text: str, rubric: PointRubric, known: tuple[Number, ...] = ()) -> Point:
        return cls(
            text=text,
            concepts=tuple(Alias.of(c) for c in rubric.concepts),
            claim=Alias.of(rubric.claim) if rubric.claim else None,
            wrong=tuple(Alias.of(w) for w in rubric.wrong),
            numbers=rubric.numbers,
            known=known,
        )

    @property
    def needed(self) -> tuple[Alias, ...]:
        return self.concepts + ((self.claim,) if self.claim else ())

    def key(self) -> str:
        """What the key claims, shown beside a contradicting quote."""
        return (self.claim or self.concepts[0]).shown()


@dataclass(frozen=True)
class Verdict:
    """A point as the rubric reads an attempt: its state and the clause that decided it."""

    state: str  # COVERED, PARTLY, MISSED or CONTRADICTED
    evidence: str | None
    key: str | None = None


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
        self.joined = "\n".join(c.joined for c in self.clauses)  # rules out most words at once
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
        alternatives = [a for a in alias.alternatives if all(w in self.joined for w in a)]
        for n in range(len(self.clauses) if alternatives else 0):
            for alternative in alternatives:
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
            if not others or not all(w in self.joined for w in others):
                continue
            (kind,) = claimed
            for n in range(len(self.clauses)):
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
                match = self._match(n, alternative)
                if match is not None and not match[1] and _overlap(match[0], seen.words):
                    if len(alternative) >= seen.size:
                        return True
                    said.extend(match[0])
                    size += len(alternative)
        wrong = [self._find(n, self.clauses[n], word) for word in seen.alternative]
        return size >= seen.size and all(_overlap(spans, said) for spans in wrong)

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


def _overlap(one: Sequence[tuple[int, int]], other: Sequence[tuple[int, int]]) -> bool:
    return any(a < d and c < b for a, b in one for c, d in other)


def verdict(
    point: Point, attempt: Attempt, right: Sequence[Alias] = (), side: str | None = None
) -> Verdict:
    """The state of ``point`` in ``attempt``, with the clause that decided it.

    ``right``: every concept and claim alias of the question, which can
    explain a clause that holds a wrong alternative's words; ``side``: the
    compared side the point is about, whose properties said of a rival
    side contradict it.
    """
    needed = [attempt.look(alias, side) for alias in point.needed]
    topic = {n for seen in needed for n in seen.holding}  # clauses about this point
    for alias in point.wrong:
        # A wrong claim is read in its words' order, close together:
        # "缓存后每步只算新 token 的 q" is not "缓存 Q".
        seen = attempt.look(alias, ordered=True)
        if seen.state != FOUND or attempt.explained(seen, right):
            continue
        if seen.size > 1 or seen.clause in topic:  # one word alone says little out of context
            return _contradicted(point, attempt.clauses[seen.clause])
    met: list[Clause] = []  # the clause of each requirement found
    missing = 0
    others = [alias for alias in right if alias not in point.needed]  # never its own words
    for alias, seen in zip(point.needed, needed, strict=True):
        if seen.state in (NEGATED, ELSEWHERE) and not attempt.explained(seen, others):
            return _contradicted(point, attempt.clauses[seen.clause], alias.shown())
        if seen.state == FOUND:
            met.append(attempt.clauses[seen.clause])
        else:
            missing += 1
    for number in point.numbers:
        said = [
            c for c in attempt.clauses if any(figures.matches(f, number) for f in _figs(c, number))
        ]
        if said:
            met.append(said[0])
            continue
        missing += 1
        for n in sorted(topic):
            clause = attempt.clauses[n]
            if any(_wrong_figure(f, point, number) for f in _figs(clause, number)):
                return _contradicted(point, clause)
    if not met:
        return Verdict(MISSED, None)
    total = len(met) + missing
    # A point of three requirements or more holds with all but one: a full answer names
    # what the point claims, rarely every word of it.
    held = not missing or (total >= ALL_BUT_ONE_FROM and missing == 1)
    return Verdict(COVERED if held else PARTLY, _clip(met[0].text))


def _contradicted(point: Point, clause: Clause, key: str | None = None) -> Verdict:
    """The point contradicted by ``clause``; ``key``: what it claims there (its claim by default)."""
    return Verdict(CONTRADICTED, _clip(clause.text), key or point.key())


def _wrong_figure(found: tuple[float, ...], point: Point, number: Number) -> bool:
    """A figure of ``number``'s family that no key point of the question states."""
    family = figures.family(number)
    others = [k for k in point.known if figures.family(k) == family]
    return not any(figures.matches(found, k) for k in (number, *others))


def _figs(clause: Clause, number: Number) -> list[tuple[float, ...]]:
    return figures.figures(clause.normal, number, normalised=True)


@dataclass(frozen=True)
class Rubric:
    """A question's rubric, compiled: its points, every right alias, the sides it compares."""

    points: tuple[Point, ...]
    right: tuple[Alias, ...]
    sides: Sides
    asked: Asked

    def grade(self, attempt: str) -> tuple[list[Verdict], Attempt]:
        read = Attempt(attempt, self.asked, self.sides)
        return [
            verdict(point, read, self.right, side)
            for point, side in zip(
                self.points, self.sides.of_point or _nones(self.points), strict=True
            )
        ], read


def compile_rubric(question: Question) -> Rubric:
    compiled = points(question)
    right = tuple(alias for point in compiled for alias in point.needed)
    compared = sides(question.question, question.key_points)
    return Rubric(compiled, right, compared, Asked.of(question.question))


def _nones(items: Sequence) -> tuple[None, ...]:
    return (None,) * len(items)


def points(question: Question) -> tuple[Point, ...]:
    """The question's key points with their rubric, compiled."""
    known = _known(question)
    return tuple(
        Point.of(t, r, known) for t, r in zip(question.key_points, question.rubric, strict=True)
    )


def _known(question: Question) -> tuple[Number, ...]:
    """Every figure the question states (its text, key points and rubric), per rubric unit family.

    A figure of the question is never a wrong one: correct answers quote them all.
    """
    texts = (question.question, *question.key_points)
    out: list[Number] = []
    for rubric in question.rubric:
        for number in rubric.numbers:
            out.append(number)
            unit = figures.expected(replace(number, value=1.0))[0]
            for text in texts:
                for found in figures.figures(text, number):
                    out.append(replace(number, value=found[0] / unit))
                for found in figures.figures(text, Number(1.0)):  # the bare figures too
                    out.append(replace(number, value=found[0] / unit))
    return tuple(out)


def alias_words(bank: Bank) -> set[str]:
    """Every word of every alias of the bank's rubric, as written (NFKC, lower case)."""
    out: set[str] = set()
    for question in bank.questions:
        for rubric in question.rubric:
            for alias in (*rubric.concepts, *filter(None, [rubric.claim]), *rubric.wrong):
                out.update(unicodedata.normalize("NFKC", alias).lower().replace("|", " ").split())
    return out


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= EVIDENCE_CHARS else text[:EVIDENCE_CHARS] + "…"


def _cjk(char: str) -> bool:
    return "\u3400" <= char <= "\u9fff"
