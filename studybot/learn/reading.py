"""An attempt as the rubric reads it: its clauses, what each asserts, where an alias is said.

The attempt is cut into clauses once (``words``); a clause that only
repeats the question proves nothing and is left out. Each clause knows
whether it **asserts**: a question ("温度越高分布越尖锐吗？"), the "if" part
of a conditional ("如果温度越高越尖锐的话…") and a belief reported to be
refuted ("有人以为 X，其实…", "a common misconception is X") assert
nothing, so a wrong claim said there is no error.

An alias is **found** in a clause when one of its alternatives has all its
words there: anywhere in the clause (``words_of``), or, for a relation or
a wrong claim, in its order and close together (``phrases``). Negation is
read by ``negations.negated``; brackets and quotes are read apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from studybot.learn import conditions, contrasts, negations, words
from studybot.learn.aliases import Alias
from studybot.learn.segmenter import Lexicon
from studybot.learn.sides import NONE, Sides
from studybot.learn.words import Clause, listed

FOUND, NEGATED, ABSENT = "found", "negated", "absent"
PHRASE_GAP = 8  # characters a relation's (or a wrong claim's) words may have between them, in all
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
# A clause that opens with one of these is the "if" part of a conditional: it asserts nothing.
# A connective may come first: "而如果是有害数据，…", "but if …".
_IF = re.compile(
    r"^\s*(?:(?:而|但|但是|不过|可是|and|but)\s*)?"
    r"(?:如果|假如|假设|假使|倘若|若是|若|要是|万一|与其|想让|想要|若想|要想"
    r"|(?:if|suppose|assuming|unless)\b)"
)  # "与其一味加大 N，不如…": the way turned down is not asserted either
# ... and so is a clause that ends like one: "模板和线上不一致的话，…".
_IF_END = re.compile(r"的话\s*$")
# "只要模型还没给出文本，就继续": an if-part of its own, when its 就 comes in a later clause.
_AS_LONG_AS = re.compile(r"^\s*(?:只要|一旦)(?!.*就)")
# A belief reported in order to refute it: "有人以为 X", "a common misconception is that X".
_REPORTED = re.compile(
    r"以为|误认为|误解|误区|有人认为|有人说|很多人认为|不少人认为|常有人说|常被说成|"
    r"\b(?:people (?:often |usually |sometimes )?(?:think|believe|say|assume)|misconceptions?|"
    r"myths?|it is (?:often|commonly) (?:said|thought|believed))\b"
)
# ... until a clause that sets it right: "其实", "实际上", "but", "actually".
_SET_RIGHT = re.compile(
    r"^\s*(?:其实|实际上|事实上|恰恰相反|相反|但|但是|而|而是|然而|可是|"
    r"(?:actually|in fact|but|however|rather|instead)\b)"
)


@dataclass(frozen=True)
class Seen:
    """Where an alias was found in an attempt."""

    state: str  # FOUND, NEGATED or ABSENT
    clause: int | None  # the clause that decided it
    words: tuple[tuple[int, int], ...] = ()  # the spans of the alternative's words there
    size: int = 0  # how many words that alternative has
    alternative: tuple[str, ...] = ()  # the alternative found


@dataclass(frozen=True)
class Asked:
    """A question's own words, which an attempt restating it gets no credit for."""

    joined: str
    words: frozenset[str]

    @classmethod
    def of(cls, question: str, cutter: Lexicon | None = None) -> Asked:
        clauses = [words.clause(c, cutter=cutter) for c in words.split(question)]
        joined = "\n".join(c.joined for c in clauses)
        return cls(joined, frozenset().union(*(c.words for c in clauses)))


@dataclass(frozen=True)
class Phrase:
    """One find of an alias alternative in a clause."""

    spans: tuple[tuple[int, int], ...]  # one span per word
    size: int  # how many words the alternative has
    negated: bool

    @property
    def first(self) -> int:
        return min(s for s, _ in self.spans)

    @property
    def last(self) -> int:
        return max(e for _, e in self.spans)


class Attempt:
    """An attempt cut into clauses once, its word lookups remembered."""

    def __init__(
        self,
        text: str,
        question: str | Asked,
        compared: Sides = NONE,
        cutter: words.Lexicon | None = None,
    ) -> None:
        self.asked = question if isinstance(question, Asked) else Asked.of(question, cutter)
        read = [(p.sentence, words.clause(p.text, p.asks, cutter)) for p in words.sentences(text)]
        kept = [(n, c) for n, c in read if not self._restates(c)]
        self.clauses = [c for _, c in kept]
        self.sentence = [n for n, _ in kept]
        self._seen: dict[tuple[int, str], list[tuple[int, int]]] = {}
        self.asserts = _asserting(self.clauses, self.sentence)
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

    def framing(self, n: int) -> bool:
        """Whether clause ``n`` frames the next one: "如果不用缓存，…", "without a cache, …"."""
        clause = self.clauses[n]
        return bool(_IF.match(clause.normal) or _FRAME_END.search(clause.normal)) or bool(
            _FRAME_OPEN.match(clause.normal) or _AS_LONG_AS.match(clause.normal)
        )

    def _restates(self, clause: Clause) -> bool:
        """A clause copied from the question (or only its words, reordered) proves nothing."""
        if len(clause.joined) >= RESTATED_CHARS and clause.joined in self.asked.joined:
            return True
        own = clause.words - _FILLER
        return len(own) >= RESTATED_WORDS and own <= self.asked.words or not own

    # -- finding words ------------------------------------------------------------------

    def words_of(
        self, n: int, alias: Alias, near: int | None = None, avoid: Sequence = ()
    ) -> Iterator[Phrase]:
        """Each alternative of ``alias`` whose words are all in clause ``n``, in any order.

        Each word's find is the one nearest ``near`` (by default, the
        alternative's first word), outside the spans ``avoid`` when it can be
        (a subject's "kv" is not the kv of the relation's "kv_heads").
        """
        clause = self.clauses[n]
        for alternative in alias.alternatives:
            found = [self._find(n, word) for word in alternative]
            if not all(found):
                continue
            found = [[s for s in f if not _overlap((s,), avoid)] or f for f in found]
            anchor = found[0][0][0] if near is None else near
            spans = tuple(min(f, key=_distance_from(anchor)) for f in found)
            yield Phrase(spans, len(alternative), negations.negated(clause, [[s] for s in spans]))

    def phrases(self, n: int, alias: Alias) -> Iterator[Phrase]:
        """Each alternative of ``alias`` said in clause ``n`` in its order, close together.

        One found negated inside a longer one found un-negated is read as the longer: the
        alias's own words hold what seemed to negate it ("instead of UMAP", not "UMAP").
        A word the alias says is replaced, turned down ("OnlineCountVectorizer instead of
        CountVectorizer", "用 X 而不是 Y" for "X 代替 Y"), states the replacement.
        """
        clause = self.clauses[n]
        found = list(self._phrases(n, alias))
        for phrase in found:
            if phrase.negated and any(
                not longer.negated
                and set(phrase.spans) < set(longer.spans)
                and contrasts.holds_turn(clause, set(longer.spans) - set(phrase.spans))
                for longer in found
            ):
                continue
            turn = contrasts.replacement(clause, alias.alternatives, phrase.spans)
            if phrase.negated and turn:  # read with the turn as its own words, as "instead of X"
                phrase = Phrase(turn + phrase.spans, phrase.size, False)
            yield phrase

    def _phrases(self, n: int, alias: Alias) -> Iterator[Phrase]:
        clause = self.clauses[n]
        for alternative in alias.alternatives:
            finds = [self._find(n, word) for word in alternative]
            if not all(finds):
                continue
            allowed = sum(len(w) for w in alternative) + PHRASE_GAP
            chains = []
            for start, end in finds[0]:
                spans = [(start, end)]
                for found in finds[1:]:
                    after = [s for s in found if s[0] >= spans[-1][1]]
                    if not after:
                        break
                    spans.append(after[0])
                close = len(spans) == len(alternative) and spans[-1][1] - start <= allowed
                if close and _one_phrase(clause, alternative, spans):
                    chains.append(tuple(spans))
            if chains:  # the tightest: "no loss and no gradient" says "no gradient" at its end
                chosen = min(chains, key=lambda c: (c[-1][1] - c[0][0], -c[0][0]))
                yield Phrase(
                    chosen, len(alternative), negations.negated(clause, [[s] for s in chosen])
                )

    def look(self, alias: Alias, ordered: bool = False) -> Seen:
        """Whether ``alias`` is said (un-negated) somewhere, said only negated, or not said."""
        negated: Seen | None = None
        for n in range(len(self.clauses)):
            finds = self.phrases(n, alias) if ordered else self.words_of(n, alias)
            for phrase in finds:
                alternative = self._alternative(alias, phrase)
                seen = Seen(FOUND, n, phrase.spans, phrase.size, alternative)
                if not phrase.negated:
                    return seen
                negated = negated or replace(seen, state=NEGATED)
        return negated or Seen(ABSENT, None)

    def _alternative(self, alias: Alias, phrase: Phrase) -> tuple[str, ...]:
        for alternative in alias.alternatives:
            if len(alternative) == phrase.size:
                return alternative
        return ()

    def quoted(self, n: int, spans: Sequence[tuple[int, int]]) -> bool:
        """Whether all of ``spans`` are said apart from what clause ``n`` asserts: inside
        quotes (「…」, “…”, "…"), or under a supposition (``conditions``: "b 若初始化为 0，…")."""
        clause = self.clauses[n]
        goes_on = n + 1 < len(self.clauses) and self.sentence[n + 1] == self.sentence[n]
        held = conditions.supposed(clause, goes_on)
        if held and all(any(a <= s and e <= b for a, b in held) for s, e in spans):
            return True
        for start, _ in spans:
            group = clause.group(start)
            if group < 0 or clause.joined[group] != "「":
                return False
        return True

    def explained(self, n: int, spans: Sequence[tuple[int, int]], size: int, aliases) -> bool:
        """Whether right alternatives, together as specific, say the words at ``spans`` of clause ``n``.

        "除以 √d_k 把方差拉回 1" holds the words of the wrong "方差 √d_k", but
        it says "方差 拉回 1", which a claim of the question makes.
        """
        said: list[tuple[int, int]] = []
        total = 0
        for alias in aliases:
            # In any order, and in order, whose finds are tight: "给 bi-encoder" is said by
            # "cross-encoder 给 bi-encoder 造数据" at its second encoder, not its first.
            for phrase in (*self.words_of(n, alias), *self.phrases(n, alias)):
                if phrase.negated or not self._close(phrase.spans):
                    continue
                if _overlap(phrase.spans, spans):
                    # whole words: "use_reentrant" is no part of the wrong "use_reentrant=true"
                    covers = all(any(a <= s and e <= b for a, b in phrase.spans) for s, e in spans)
                    if phrase.size >= size and covers:
                        return True
                    said.extend(phrase.spans)
                    total += phrase.size
        held = {i for a, b in said for i in range(a, b)}
        return total >= size and all(set(range(s, e)) <= held for s, e in spans)

    def _close(self, spans: Sequence[tuple[int, int]]) -> bool:
        reach = max(e for _, e in spans) - min(s for s, _ in spans)
        return reach <= sum(e - s for s, e in spans) + EXPLAIN_GAP

    def _find(self, n: int, word: str) -> list[tuple[int, int]]:
        key = (n, word)
        if key not in self._seen:
            clause = self.clauses[n]
            self._seen[key] = words.find(clause, word) if word in clause.joined else []
        return self._seen[key]


_DIGIT = re.compile(r"\d")
_NUMBER_WORDS = words.listed("zero 零")  # a figure in words: "above zero" is no "zero"
_COMPARED = re.compile(
    r"[<>≤≥]|大于|小于|超过|低于|高于|不到|至少|最多|abov|below|over|under|least|most|than"
)


def _one_phrase(clause, alternative: tuple[str, ...], spans: Sequence[tuple[int, int]]) -> bool:
    """Whether words found in order make the alternative's phrase, not pieces of two.

    A figure of the alternative is bound to the word before it: "s = 32" is not said
    by "s = 40、β = 32". A negation of the alternative governs the word right after
    it: "没有 参考模型" is not said by "并没有省掉参考模型", which is the opposite.
    """
    figure = any(_DIGIT.search(word) or word in _NUMBER_WORDS for word in alternative)
    for word, (_, end), (start, _) in zip(alternative[:-1], spans[:-1], spans[1:], strict=True):
        gap = clause.joined[end:start].strip()
        if figure and (_DIGIT.search(gap) or _COMPARED.search(gap)):
            return False  # "temperature > 0" says no "temperature 0"
        if negations.SCOPE_MARK.search(gap):  # a phrase's words never stand on both sides
            return False  # "多一次前向：原来前向加反向" says no "多一次反向"
        if gap and word in words.NEGATIONS and gap not in words.AUXILIARIES:
            return False
    return True


# A clause ending like these sets the scene for the next: "不用缓存时，…", "KV 缓存呢，…".
# ... and so does the first half of 越…越… ("温度越高，分布越平坦").
_FRAME_END = re.compile(r"(?:时|时候|的话|之后|以后|之前|呢|中|里|越\S{1,2})\s*$")
_FRAME_OPEN = re.compile(
    r"^\s*(?:有了|用了|开了|加了|没了|(?:without|with|once|after|before|when|for|in)\b)"
)


def _asserting(clauses: Sequence[Clause], sentence: Sequence[int]) -> list[bool]:
    """Per clause, whether it asserts: no question, no "if" part, no belief reported to refute."""
    out: list[bool] = []
    reported_in: int | None = None  # the sentence whose belief is being reported
    for clause, number in zip(clauses, sentence, strict=True):
        if reported_in is not None and (number != reported_in or _SET_RIGHT.match(clause.normal)):
            reported_in = None
        if _REPORTED.search(clause.normal):
            reported_in = number
        condition = (
            _IF.match(clause.normal)
            or _IF_END.search(clause.normal)
            or _AS_LONG_AS.match(clause.normal)
        )
        out.append(not clause.asks and reported_in is None and not condition)
    for n, clause in enumerate(clauses):  # "不调整 RoPE、不做…，过了 8K 照样会崩": without, harm
        m = n + 1
        while m < len(clauses) and sentence[m] == sentence[n] and _WITHOUT.match(clauses[m].normal):
            m += 1
        same = m < len(clauses) and sentence[m] == sentence[n]
        if _WITHOUT.search(clause.normal) and same and _HARM.search(clauses[m].normal):
            out[n] = False
    return out


_WITHOUT = re.compile(r"(?:^|[:：])\s*(?:不|没有?|不用|不做|不加)(?!是|仅|只|但|过|同|断|少|错)")
_HARM = re.compile(
    r"(?:会|就|照样|也|都|还是|便)\S{0,8}?(?:崩|出错|失败|变差|下降|退化|失效|不行|不准|不稳|爆|溢出|白费)"
)


def _overlap(one: Sequence[tuple[int, int]], other: Sequence[tuple[int, int]]) -> bool:
    return any(a < d and c < b for a, b in one for c, d in other)


def _distance_from(anchor: int):
    """How far a span starts from ``anchor``: the nearest of a word's places is taken."""

    def distance(span: tuple[int, int]) -> int:
        return abs(span[0] - anchor)

    return distance
