"""The offline grader on the rubric: which claims of each key point the attempt states.

A key point is one to four claims (docs/bank-format.md, "The rubric"). A
claim is **stated** by one clause that asserts it: its relation (or its
value) said there, linked to its parts — the subject (which may be left
out when the question names it, or said in the clause that frames this one:
"不用缓存时，每步都要重算"), and the object when it has one. Linked means in
one clause and not merely listed: "KV 缓存、线性、n²" names three terms and
states nothing. The relation's polarity decides: negated, or its opposite
said instead, or (``ordered``) subject and object swapped, the clause
**denies** the claim; a wrong figure of the claim's value, bound to its
subject, denies it too (one the question itself states never does). A
clause that asks, an "if" part and a belief reported to refute it assert
nothing (``reading``).

A known ``wrong`` claim fires when a clause asserts it, in its words' order, close
together, un-negated, outside quotes, in a clause that states no claim of the point, and
the right alternatives of the question do not explain those words.

A point is contradicted (a claim denied and stated nowhere, or a wrong claim said), else
covered (every claim stated, two of three or four, or one of two with the other named
while nothing is contradicted), else partly (one stated), else missed — "mentioned only"
when its terms are there without a statement. Each mark keeps the clause that decided
it, cut around the words that did.

Here: the points compiled, each claim read over the attempt's clauses, and each point's
verdict. A claim compiled is ``claims``; what one clause says of it, ``statements``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from studybot.bank import Question
from studybot.bank.rubric import PointRubric
from studybot.learn import aliases, claims, lapses, measures, negations, pairs, words
from studybot.learn.aliases import Alias
from studybot.learn.claims import ABSENT, DENIED, MENTIONED, STATED, Claim, Said, wrong_value
from studybot.learn.links import one_item
from studybot.learn.marks import CONTRADICTED, COVERED, MISSED, PARTLY, clip
from studybot.learn.reading import Asked, Attempt
from studybot.learn.segmenter import Lexicon
from studybot.learn.sides import Sides, sides
from studybot.learn.statements import statements
from studybot.learn.substitutes import NO_NAMES, Names

EVIDENCE_CHARS = 48  # the clause shown as evidence, cut to about this many characters
# A point of three claims or more is covered by two of them: labellers who never saw the
# rubric call a point covered when its main facts are said, not every detail.
ENOUGH_CLAIMS = 2


@dataclass(frozen=True)
class Point:
    """One key point with its rubric, compiled."""

    text: str
    claims: tuple[Claim, ...]
    wrong: tuple[Alias, ...]
    known: tuple = ((), ())  # figures the question states, with a unit and bare: never wrong
    pairs: tuple = ()  # two named things the point tells apart (``pairs``)
    lapses: lapses.Lapses | None = None  # what its lapses are read against (``lapses``)

    @classmethod
    def of(cls, text: str, rubric: PointRubric, asked: Attempt, known=()) -> Point:
        return cls(
            text=text,
            claims=tuple(Claim.of(c, asked) for c in rubric.claims),
            wrong=tuple(Alias.of(w, formulas=True) for w in rubric.wrong),
            known=tuple(known),
        )

    def key(self) -> str:
        """What the key claims, shown beside a contradicting quote: its first claim."""
        return self.claims[0].zh if self.claims else clip(self.text, 40)


@dataclass(frozen=True)
class Verdict:
    """A point as the rubric reads an attempt: its state and the clause that decided it."""

    state: str  # COVERED, PARTLY, MISSED or CONTRADICTED
    evidence: str | None
    key: str | None = None
    mentioned: bool = False  # missed, with its terms named but nothing stated
    said: tuple[Said, ...] = ()  # per claim


def verdict(
    point: Point,
    attempt: Attempt,
    said: Sequence[Said],
    right: Sequence[Sequence[Alias]] = (),
    statements: Sequence[Said] = (),
) -> Verdict:
    """The state of ``point`` in ``attempt`` from what it does with each claim (``said``).

    ``right``: the aliases of each claim of the question, one of which can
    explain a clause holding a wrong claim's words; ``statements``: the question's claims
    stated, which keep a wrong claim of this point from firing in a clause
    stating one of this point's claims, or another with the same words.
    """
    said = tuple(said)
    wrongs = []  # (clause, spans, the key shown beside it): the first one said decides
    for alias in point.wrong:
        fired = _wrong(alias, point, attempt, right, statements)
        if fired is not None:
            wrongs.append((*fired, point.key()))
    for claim, seen in zip(point.claims, said, strict=True):
        if seen.state == DENIED:
            wrongs.append((seen.clause, seen.spans, claim.zh))
    if wrongs:
        n, spans, key = min(wrongs, key=lambda w: (w[0], min(s for s, _ in w[1])))
        return Verdict(CONTRADICTED, _shown(attempt, n, spans), key, said=said)
    stated = [s for s in said if s.state == STATED]
    if not stated:
        named = next((s for s in said if s.state == MENTIONED), None)
        if named is None:
            return Verdict(MISSED, None, said=said)
        return Verdict(MISSED, _shown(attempt, named.clause, named.spans), None, True, said)
    held = len(stated) == len(said) or len(stated) >= ENOUGH_CLAIMS or _named_all(said)
    first = stated[0]
    return Verdict(
        COVERED if held else PARTLY, _shown(attempt, first.clause, first.spans), said=said
    )


def read_claim(claim: Claim, attempt: Attempt, side=None, known=()) -> Said:
    """Whether ``attempt`` states ``claim``, denies it, only names its terms, or says nothing."""
    found = list(
        _in_order(claim, attempt) if claim.ordered else _each_clause(claim, attempt, side, known)
    )
    stated = [Said(STATED, n, spans, link) for p, n, link, spans in found if p > 0]
    denials = claims.miscounted(claim, attempt) + [  # "相邻四帧" for "相邻 两帧"
        Said(DENIED, n, spans, link)
        for p, n, link, spans in found
        if p <= 0 and not attempt.quoted(n, spans)
    ]
    figure = wrong_value(claim, attempt, stated, denials)  # a wrong figure beats words alone
    if stated and figure is None:
        return stated[0]
    if denials:
        return replace(figure or denials[0], denials=tuple(denials))
    return _mentioned(claim, attempt)


def _each_clause(claim: Claim, attempt: Attempt, side, known):
    """Each statement of ``claim`` in a clause that asserts: (polarity, clause, link, spans)."""
    for n in range(len(attempt.clauses)):
        if attempt.asserts[n]:
            for polarity, link, spans in statements(claim, attempt, n, side, known):
                yield polarity, n, link, spans


def _in_order(claim: Claim, attempt: Attempt):
    """An ordered claim, read per sentence: its relation said, and which part is named first.

    "先做 top-k 截断，然后再按温度缩放" names top-k first; "先按温度缩放，再做
    top-k 截断" names it second, and denies the claim. A negated relation
    ("不是先做 top-k") turns it round.
    """
    linked, named = claim.relation, claim.object
    if linked is None or named is None:
        return  # an ordered claim names its relation and both parts
    sentences: dict[int, list[int]] = {}
    for n, number in enumerate(attempt.sentence):
        if attempt.asserts[n]:
            sentences.setdefault(number, []).append(n)
    for clauses in sentences.values():
        relation = next(((n, p) for n in clauses for p in attempt.phrases(n, linked)), None)
        subject = _first(attempt, clauses, claim.subject)
        obj = _first(attempt, clauses, named)
        if relation is None or subject is None or obj is None:
            continue
        n, phrase = relation
        polarity = 1 if subject[:2] < obj[:2] else -1
        polarity = -polarity if phrase.negated else polarity
        spans = set(phrase.spans)
        for m, _, part in (subject, obj):
            if m == n:
                spans.update(part.spans)
        yield polarity, n, phrase.spans, tuple(sorted(spans))


def _first(attempt: Attempt, clauses: Sequence[int], alias: Alias):
    """Where ``alias`` is first named among ``clauses``: (clause, offset, phrase), or None."""
    for n in clauses:
        found = sorted(attempt.words_of(n, alias), key=lambda p: p.first)
        if found:
            return n, found[0].first, found[0]
    return None


def _mentioned(claim: Claim, attempt: Attempt) -> Said:
    """The clause that names most of the claim's terms without stating it, if one does."""
    best: tuple[int, int, tuple] | None = None  # (characters named, clause, spans)
    for n in range(len(attempt.clauses)):
        spans = tuple(
            span
            for alias in (*claim.parts, *filter(None, [claim.relation]))
            for phrase in [next(attempt.words_of(n, alias), None)]
            if phrase is not None
            for span in phrase.spans
        )
        named = sum(e - s for s, e in set(spans))
        if spans and (best is None or named > best[0]):
            best = (named, n, spans)
    return Said(MENTIONED, best[1], best[2]) if best else Said(ABSENT)


def settle(said: Sequence[Said], statements: Sequence[Said], claims: Sequence[Claim], attempt):
    """``said`` with every denial that a statement of another claim explains taken back.

    "有了缓存，每步投影开销为常数" states that the cached cost is constant; it
    does not deny that the uncached cost grows with n², whose opposite is
    "常数": a correct contrast never contradicts.
    """
    out = []
    for seen, claim in zip(said, claims, strict=True):
        if seen.state != DENIED:
            out.append(seen)
            continue
        kept = [d for d in seen.denials if not claim.explained(d, statements, attempt)]
        out.append(replace(kept[0], denials=tuple(kept)) if kept else _mentioned(claim, attempt))
    return out


def _wrong(alias: Alias, point: Point, attempt: Attempt, right, statements):
    """The clause and words of a wrong claim asserted in ``attempt``, if one is."""
    for n in range(len(attempt.clauses)):
        if not attempt.asserts[n]:
            continue
        for phrase in attempt.phrases(n, alias):
            if phrase.negated or attempt.quoted(n, phrase.spans):
                continue
            if negations.only_denied(attempt.clauses[n], phrase.spans):
                continue  # "不只在输入层" denies the wrong "只在输入层"
            after = max(e for _, e in phrase.spans)
            if _REJECTED.match(attempt.clauses[n].joined, after):
                continue  # "直接在像素上扩散太贵": said to be turned down, not done
            if _NOT_DONE.match(attempt.clauses[n].joined, after):
                continue  # "EOS 不参与 loss 的话…" supposed; "把 softmax 换成 sigmoid" swapped out
            if any(
                s.clause == n and claims.overlap_spans(phrase.spans, s.spans) for s in statements
            ):
                continue
            if not one_item(attempt.clauses[n], phrase.spans):
                continue
            if any(attempt.explained(n, phrase.spans, phrase.size, one) for one in right):
                continue
            about = any(
                next(attempt.words_of(n, part), None) for c in point.claims for part in c.parts
            )
            if phrase.size > 1 or about:  # one word alone says little out of context
                return n, phrase.spans
    return None


# What a clause says of a way of doing it when it turns it down: too costly, not workable.
_REJECTED = re.compile(
    r".{0,4}?(?:太|过于|非常)(?:贵|慢|大|高|耗|难|昂贵)|.{0,4}?(?:不可行|不现实|不划算|代价(?:太|很)?(?:大|高))"
    r"|.{0,8}?(?:(?:is|are|be)(?:too|prohibitively)(?:expensive|slow|costly)|impractical)"
)


_NOT_DONE = re.compile(
    r".{0,3}?的话|.{0,2}?(?:换成|替换成|替换为|改成|改为|换为|换掉|replacedwith|replacedby)"
)


def _swaps(found: Verdict, point: Point, attempt: Attempt) -> Verdict:
    """``found``, or a contradiction where the attempt swaps two things the point tells apart."""
    if found.state == CONTRADICTED:
        return found
    for pair in point.pairs:
        n = pairs.swapped(pair, attempt)
        if n is not None:
            shown = attempt.clauses[n].shown((), EVIDENCE_CHARS)
            return replace(found, state=CONTRADICTED, evidence=shown, key=clip(point.text, 40))
    return found


def _credited(found: Verdict, point: Point, attempt: Attempt) -> Verdict:
    """``found``, or a contradiction where the attempt makes a lapse (``lapses``)."""
    if found.state == CONTRADICTED or point.lapses is None:
        return found
    said = [s.clause for s in found.said if s.clause is not None and s.state in (STATED, MENTIONED)]
    lapse = lapses.first(point.lapses, point.text, point.claims, attempt, said)
    if lapse is None:
        return found
    return replace(found, state=CONTRADICTED, evidence=_shown(attempt, lapse[0], ()), key=lapse[1])


def _shown(attempt: Attempt, n: int | None, spans) -> str | None:
    if n is None:
        return None
    return attempt.clauses[n].shown(spans, EVIDENCE_CHARS)


@dataclass(frozen=True)
class Rubric:
    """A question's rubric, compiled: its points, every right alias, the sides it compares."""

    points: tuple[Point, ...]
    right: tuple[tuple[Alias, ...], ...]  # per claim: a wrong is explained by one claim's words
    sides: Sides
    asked: Asked
    cutter: Lexicon  # the fixed words and this question's rubric words

    def read(self, attempt: str) -> Attempt:
        return Attempt(attempt, self.asked, self.sides, self.cutter)

    def grade(self, attempt: str) -> tuple[list[Verdict], Attempt]:
        read = self.read(attempt)
        of_point = self.sides.of_point or (None,) * len(self.points)
        said = [
            [read_claim(claim, read, side, point.known) for claim in point.claims]
            for point, side in zip(self.points, of_point, strict=True)
        ]
        statements = [s for group in said for s in group if s.state == STATED]
        said = [
            settle(group, statements, point.claims, read)
            for group, point in zip(said, self.points, strict=True)
        ]
        verdicts = [
            verdict(point, read, group, self.right, statements)
            for point, group in zip(self.points, said, strict=True)
        ]
        verdicts = [_swaps(v, p, read) for v, p in zip(verdicts, self.points, strict=True)]
        verdicts = [_credited(v, p, read) for v, p in zip(verdicts, self.points, strict=True)]
        if any(v.state == CONTRADICTED for v in verdicts):  # no benefit of the doubt then
            verdicts = [replace(v, state=PARTLY) if _lenient(v) else v for v in verdicts]
        return verdicts, read


def compile_rubric(question: Question, names: Names = NO_NAMES) -> Rubric:
    cutter = cutter_of(question)
    compiled = points(question, cutter, names)
    right = tuple(claim.aliases for point in compiled for claim in point.claims)
    compared = sides(question.question, question.key_points)
    return Rubric(compiled, right, compared, Asked.of(question.question, cutter), cutter)


def cutter_of(question: Question) -> Lexicon:  # the fixed words and the rubric's own
    return words.lexicon().extended(aliases.words_of(question))


def points(
    question: Question, cutter: Lexicon | None = None, names: Names = NO_NAMES
) -> tuple[Point, ...]:
    """The question's key points with their rubric, compiled (``names``: the bank's)."""
    known = measures.known(question)
    cutter = cutter or cutter_of(question)
    asked = Attempt(question.question, Asked("", frozenset()), cutter=cutter)
    compiled = [
        replace(Point.of(t, r, asked, known), pairs=pairs.pairs_of(Attempt(t, "", cutter=cutter)))
        for t, r in zip(question.key_points, question.rubric, strict=True)
    ]
    subjects = [c.subject for p in compiled for c in p.claims]
    out = []
    for point, lapse in zip(compiled, lapses.of_question(question, names), strict=True):
        claims = tuple(
            replace(
                c,
                rivals=tuple(s for s in subjects if s.text != c.subject.text),
                turned=None if _shared(c.subject, subjects) else c.turned,
            )
            for c in point.claims
        )
        out.append(replace(point, claims=claims, lapses=lapse))
    return tuple(out)


def _shared(subject: Alias, subjects: Sequence[Alias]) -> bool:
    """Whether another claim of the question is about the same thing (an alternative in common).

    "准确率 上升" (with "Wait" appended) and "准确率 饱和" (when it is cut early)
    share 准确率: the claim's turned relation ("准确率下降") may be the other's truth,
    so it is not read as a denial.
    """
    own = set(subject.alternatives)
    return any(s is not subject and own & set(s.alternatives) for s in subjects)


def _named_all(said: Sequence[Said]) -> bool:
    """One claim stated and every other one named in a clause: labellers call that covered,
    in an attempt that says nothing wrong (``Rubric.grade``)."""
    return (
        len(said) == 2
        and any(s.state == STATED for s in said)
        and all(s.state in (STATED, MENTIONED) for s in said)
    )


def _lenient(v: Verdict) -> bool:
    """A point covered only by ``_named_all``."""
    stated = sum(s.state == STATED for s in v.said)
    return v.state == COVERED and stated < min(len(v.said), ENOUGH_CLAIMS)
