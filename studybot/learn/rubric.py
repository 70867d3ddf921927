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

A known ``wrong`` claim fires when a clause asserts it, in its words'
order, close together, un-negated, outside quotes, in a clause that states
no claim of the point, and the right alternatives of the question do not
explain those words.

A point is contradicted (a claim denied and stated nowhere, or a wrong
claim said), else covered (every claim stated, or two of three or four),
else partly (one stated), else missed — "mentioned only" when its
terms are there without a statement. Each mark keeps the clause that
decided it, cut around the words that did.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace

from studybot.bank import Question
from studybot.bank.rubric import Claim as ClaimRubric
from studybot.bank.rubric import Number, PointRubric
from studybot.learn import antonyms, negations, words
from studybot.learn import numbers as figures
from studybot.learn.aliases import Alias
from studybot.learn.marks import CONTRADICTED, COVERED, MISSED, PARTLY, clip
from studybot.learn.reading import FOUND, Asked, Attempt, Phrase
from studybot.learn.segmenter import Lexicon
from studybot.learn.sides import Sides, sides

EVIDENCE_CHARS = 48  # the clause shown as evidence, cut to about this many characters
# A point of three claims or more is covered by two of them: labellers who never saw the
# rubric call a point covered when its main facts are said, not every detail.
ENOUGH_CLAIMS = 2
STATED, DENIED, MENTIONED, ABSENT = "stated", "denied", "mentioned", "absent"


@dataclass(frozen=True)
class Claim:
    """One claim of a key point, compiled."""

    subject: Alias
    relation: Alias | None
    object: Alias | None
    value: Number | None
    opposite: Alias | None
    ordered: bool
    implied: bool  # the question names the subject: an answer may leave it out
    object_implied: bool  # ... the object: an answer that says the subject may leave it out
    zh: str
    en: str
    rivals: tuple[Alias, ...] = ()  # the subjects of the question's other claims
    # The relation's alternatives that open with a negation, without it ("不 改变" -> 改变):
    # said negated any other way ("并不会改变") they state the claim, said plainly they deny it.
    core: Alias | None = None
    # The relation with a word swapped for its opposite ("从 顶层 开始" -> 从 底层 开始), and
    # the subject so ("大模型" -> 小模型): said instead, they deny the claim (``antonyms``).
    turned: Alias | None = None
    rival: Alias | None = None

    @classmethod
    def of(cls, rubric: ClaimRubric, asked: Attempt) -> Claim:
        subject = Alias.of(rubric.subject)
        relation = Alias.of(rubric.relation) if rubric.relation else None
        return cls(
            subject=subject,
            relation=relation,
            core=_core(relation),
            turned=_turned(relation, antonyms.SAID),
            rival=_turned(subject, antonyms.ABOUT),
            object=Alias.of(rubric.object) if rubric.object else None,
            value=rubric.value,
            opposite=Alias.of(rubric.opposite) if rubric.opposite else None,
            ordered=rubric.ordered,
            implied=asked.look(subject).state == FOUND,
            object_implied=bool(rubric.object)
            and asked.look(Alias.of(rubric.object)).state == FOUND,
            zh=rubric.zh,
            en=rubric.en,
        )

    @property
    def parts(self) -> tuple[Alias, ...]:
        return (self.subject,) + ((self.object,) if self.object else ())

    @property
    def aliases(self) -> tuple[Alias, ...]:
        """Every right alias of the claim (its parts and its relation)."""
        return self.parts + ((self.relation,) if self.relation else ())


def _turned(alias: Alias | None, table) -> Alias | None:
    """``alias`` with a word turned to its opposite, where none of its own alternatives is that."""
    if alias is None:
        return None
    own = set(alias.alternatives)
    turned = tuple(
        dict.fromkeys(
            t for a in alias.alternatives for t in antonyms.swapped(a, table) if t not in own
        )
    )
    return Alias(alias.text, turned) if turned else None


def _core(relation: Alias | None) -> Alias | None:
    """The alternatives of ``relation`` that open with a negation, each without it."""
    if relation is None:
        return None
    cores = tuple(
        alternative[1:]
        for alternative in relation.alternatives
        if len(alternative) > 1
        and alternative[0] in words.NEGATIONS
        and alternative[1] not in words.NOT_NEGATED_BY  # "not just the best" is not "just …"
    )
    return Alias(relation.text, cores) if cores else None


@dataclass(frozen=True)
class Said:
    """What an attempt does with one claim: states it, denies it, only names its terms, or not."""

    state: str  # STATED, DENIED, MENTIONED or ABSENT
    clause: int | None = None
    spans: tuple[tuple[int, int], ...] = ()  # the words that decided, in that clause
    link: tuple[tuple[int, int], ...] = ()  # ... of them, the relation's (or the figure's)
    denials: tuple[Said, ...] = ()  # a claim stated nowhere: every clause that denies it


@dataclass(frozen=True)
class Point:
    """One key point with its rubric, compiled."""

    text: str
    claims: tuple[Claim, ...]
    wrong: tuple[Alias, ...]
    known: tuple = ((), ())  # figures the question states, with a unit and bare: never wrong

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
    right: Sequence[Alias] = (),
    statements: Sequence[Said] = (),
) -> Verdict:
    """The state of ``point`` in ``attempt`` from what it does with each claim (``said``).

    ``right``: every right alias of the question, which can explain a clause
    holding a wrong claim's words; ``statements``: the question's claims
    stated, which keep a wrong claim of this point from firing in a clause
    stating one of this point's claims, or another with the same words.
    """
    said = tuple(said)
    wrongs = []  # (clause, spans, the key shown beside it): the first one said decides
    for alias in point.wrong:
        fired = _wrong(alias, point, attempt, right, said, statements)
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
    held = len(stated) == len(said) or len(stated) >= ENOUGH_CLAIMS
    first = stated[0]
    return Verdict(
        COVERED if held else PARTLY, _shown(attempt, first.clause, first.spans), said=said
    )


def read_claim(claim: Claim, attempt: Attempt, side=None, known=()) -> Said:
    """Whether ``attempt`` states ``claim``, denies it, only names its terms, or says nothing."""
    denials: list[Said] = []
    found = (
        _in_order(claim, attempt) if claim.ordered else _each_clause(claim, attempt, side, known)
    )
    for polarity, n, link, spans in found:
        if polarity > 0:
            return Said(STATED, n, spans, link)
        if not attempt.quoted(n, spans):
            denials.append(Said(DENIED, n, spans, link))
    if denials:
        first = denials[0]
        return replace(first, denials=tuple(denials))
    return _mentioned(claim, attempt)


def _each_clause(claim: Claim, attempt: Attempt, side, known):
    """Each statement of ``claim`` in a clause that asserts: (polarity, clause, link, spans)."""
    for n in range(len(attempt.clauses)):
        if attempt.asserts[n]:
            for polarity, link, spans in _statements(claim, attempt, n, side, known):
                yield polarity, n, link, spans


def _in_order(claim: Claim, attempt: Attempt):
    """An ordered claim, read per sentence: its relation said, and which part is named first.

    "先做 top-k 截断，然后再按温度缩放" names top-k first; "先按温度缩放，再做
    top-k 截断" names it second, and denies the claim. A negated relation
    ("不是先做 top-k") turns it round.
    """
    sentences: dict[int, list[int]] = {}
    for n, number in enumerate(attempt.sentence):
        if attempt.asserts[n]:
            sentences.setdefault(number, []).append(n)
    for clauses in sentences.values():
        relation = next(((n, p) for n in clauses for p in attempt.phrases(n, claim.relation)), None)
        subject = _first(attempt, clauses, claim.subject)
        obj = _first(attempt, clauses, claim.object)
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
        kept = [d for d in seen.denials if not _explained(d, statements)]
        out.append(replace(kept[0], denials=tuple(kept)) if kept else _mentioned(claim, attempt))
    return out


def _explained(denial: Said, statements: Sequence[Said]) -> bool:
    return any(
        s.clause == denial.clause and _overlap_spans(denial.link, s.spans) for s in statements
    )


def _overlap_spans(one, other) -> bool:
    return any(a < d and c < b for a, b in one for c, d in other)


def _statements(claim: Claim, attempt: Attempt, n: int, side, known) -> list[tuple]:
    """Each statement of ``claim`` in clause ``n``: +1 states it or -1 denies it, with the
    relation's words and all the words that say it.

    A clause that both states and denies the claim denies it. An opposite in
    brackets or quotes that hold none of the claim's parts is an aside
    ("KV 缓存是线性的（注意力才是平方）") and denies nothing.
    """
    clause = attempt.clauses[n]
    found: list[tuple[int, Phrase, tuple[Phrase, ...]]] = []
    for sign, alias in (
        (1, claim.relation),
        (-1, claim.opposite),
        (-1, claim.core),
        (-1, claim.turned),
    ):
        if alias is None:
            continue
        located = []
        for phrase in attempt.phrases(n, alias):
            parts = _parts(claim, attempt, n, side, phrase.first, phrase.spans)
            if parts is None:
                continue
            explicit = tuple(p for p in parts if p is not None)
            if sign < 0 and _aside(clause, phrase, explicit):
                continue
            # A negation inside a part is the part's own: "without a cache" negates no relation;
            # one just before the subject reaches across it: "没有微批次重叠".
            taken = [span for part in explicit for span in part.spans]
            negated = negations.negated(
                clause, [[s] for s in phrase.spans], ignore=taken, through=taken
            )
            if alias is claim.core and not negated:
                # What a negated relation leaves is stated by any negation before it in the
                # clause ("提供不了学习信号", "不把上一轮的思考内容放回上下文"), and by a zero
                # ("零额外延迟", "zero extra latency").
                negated = any(
                    e <= phrase.first and not _overlap_spans(((s, e),), taken)
                    for s, e in clause.negations
                ) or clause.joined[: phrase.first].endswith(("零", "zero"))
            located.append((replace(phrase, negated=negated), parts))
        for phrase, parts in _scoped_with(located):
            if phrase.negated and sign < 0 and alias is not claim.core:
                continue  # "并非常数" does not say it grows with n²: a negated opposite says nothing
            if alias is claim.turned and (
                _holds(attempt, n, claim.relation) or _CORRELATIVE.search(clause.normal)
            ):
                continue  # "越大越好…越小越差", "the more steps the lower the success": not a reversal
            if alias is claim.turned and any(_standard(clause, p) for p in explicit):
                continue  # "UMAP 比 t-SNE 更快": t-SNE is what UMAP is compared with
            bare = alias is claim.core and not phrase.negated and phrase.size < 2
            if bare and claim.object is None:
                continue  # "缓存里存的不是 Q": one bare word (缓存) is no claim that Q is cached
            found.append((-sign if phrase.negated else sign, phrase, parts))
    if claim.value is not None:
        for sign, phrase in _figures(claim, attempt, n, known, claim.relation is not None):
            parts = _parts(claim, attempt, n, side, phrase.first, phrase.spans)
            if parts is not None:
                found.append((sign, phrase, parts))
    found += _rival_statements(claim, attempt, n, side, known)
    out = []
    for polarity, link, (subject, obj) in found:
        explicit = [p for p in (subject, obj) if p is not None]
        if not explicit and not (_framed(attempt, n) or _continues(claim, attempt, n)):
            continue  # a relation alone states nothing: "线性", "自己的 softmax" are terms
        if not _linked(clause, link.spans, [p.spans for p in explicit]):
            continue  # "KV 缓存、线性增长": listed, not linked
        if (
            polarity < 0
            and subject is None
            and not (_framed(attempt, n) or _continues(claim, attempt, n))
        ):
            continue  # a denial names what it denies, or goes on about it: the question's
            # naming it is not enough ("它的长度不是固定的" may be about another memory)
        spans = tuple(sorted(set(link.spans).union(*(p.spans for p in explicit))))
        out.append((polarity, link.spans, spans))
    if any(p < 0 for p, _, _ in out):
        if any(p > 0 for p, _, _ in out) and _RESPECTIVELY.search(clause.normal):
            # "prefill 和 decode 分别是计算受限和访存受限": each side has its own.
            return [o for o in out if o[0] > 0]
        # The opposite said un-negated outweighs the relation in one clause: "随长度平方增长"
        # holds 随…增长 and 平方, and says the growth is quadratic.
        return [o for o in out if o[0] < 0]
    return out


_RESPECTIVELY = re.compile(r"分别|各自|respectively")
# A figure that numbers a list item ("1. …", "(3) …", "2、…") is no figure of the claim.
_MARKER = re.compile(r"^\s*[(（]?#\s*(?:\.(?!\d)|[、)）:]|$)")
# 越…越… and "the more …, the lower …" tie two things together: no word of it is reversed alone.
_CORRELATIVE = re.compile(
    r"越.{1,12}越|\bthe (?:more|less|fewer|larger|smaller|higher|lower|longer|shorter|bigger)\b"
    r".{1,40}\bthe (?:more|less|fewer|larger|smaller|higher|lower|longer|shorter|bigger)\b"
)


def _standard(clause, part: Phrase) -> bool:
    """Whether ``part`` is what something is compared with: "比 B", "than B"."""
    before = clause.joined[max(0, part.first - 4) : part.first]
    return before.endswith("比") or before.endswith("than")


def _holds(attempt: Attempt, n: int, alias: Alias | None) -> bool:
    return alias is not None and next(attempt.phrases(n, alias), None) is not None


def _rival_statements(claim: Claim, attempt: Attempt, n: int, side, known) -> list:
    """The claim's relation said of its rival subject ("小模型更坚持先验"): a denial of it.

    Not where the clause names the claim's own subject too ("大模型和小模型都…").
    """
    if claim.rival is None or claim.relation is None:
        return []
    if next(attempt.words_of(n, claim.subject), None) is not None:
        return []
    rival = replace(
        claim,
        subject=claim.rival,
        rival=None,
        turned=None,
        core=None,
        opposite=None,
        value=None,
        implied=False,
        object_implied=False,
    )
    named = next(attempt.words_of(n, claim.rival), None)
    if named is None or _standard(attempt.clauses[n], named):
        return []
    out = []
    for polarity, link, _ in _statements(rival, attempt, n, side, known):
        if polarity > 0:
            phrase = Phrase(link, len(link), False)
            out.append((-1, phrase, (next(attempt.words_of(n, claim.rival), None), None)))
    return out


def _aside(clause, phrase: Phrase, parts: Sequence[Phrase]) -> bool:
    """Whether ``phrase`` sits in brackets or quotes that hold none of ``parts``."""
    group = clause.group(phrase.first)
    return group >= 0 and not any(clause.group(p.first) == group for p in parts)


def _scoped_with(located):
    """``_scoped`` over (phrase, parts) pairs, the parts kept beside each phrase."""
    scoped = _scoped([phrase for phrase, _ in located])
    return [(phrase, parts) for phrase, (_, parts) in zip(scoped, located, strict=True)]


def _scoped(found) -> list[Phrase]:
    """Phrases of one alias in a clause, a negation of one reaching those it overlaps.

    "单头并非只有一个注意力分布": 并非 negates 只有一个分布, and with it the
    shorter 一个注意力分布 inside it; but the 不 inside "帮助不大" negates
    nothing said after it ("帮助不大，只增加成本").
    """
    found = list(found)
    negated = [p for p in found if p.negated]
    if not negated:
        return found
    return [
        replace(p, negated=True) if not p.negated and any(_overlaps(p, q) for q in negated) else p
        for p in found
    ]


def _overlaps(one: Phrase, other: Phrase) -> bool:
    return one.first < other.last and other.first < one.last


def _parts(claim: Claim, attempt: Attempt, n: int, side, near: int, avoid=()):
    """The claim's subject and object in clause ``n`` near ``near`` (None: not there).

    The subject may be left out when the question names it and the object is
    said ("与头数无关", not about a rival side or another claim's subject), or
    when the clause that frames this one says it ("不用缓存时，每步都要重算").
    """
    obj = None
    if claim.object is not None:
        obj = _nearest(attempt.words_of(n, claim.object, near, avoid), near)
    subject = _nearest(attempt.words_of(n, claim.subject, near, avoid), near)
    if subject is not None and _between(claim, attempt, n, subject, near):
        subject = None  # "freeze the top layers and train the bottom ones": the bottom is trained
    # The object may go unsaid when the question names it and the subject is said:
    # "参数量不变" answers "增加头数会让参数量变多吗？".
    if claim.object is not None and obj is None and (subject is None or not claim.object_implied):
        return None
    if subject is not None:
        return subject, obj
    implied = obj is not None and claim.implied and attempt.about(n, side)
    if implied and not _rival(claim, attempt, n, obj):
        return None, obj
    if _framed(attempt, n) and next(attempt.words_of(n - 1, claim.subject), None) is not None:
        return None, obj
    if _continues(claim, attempt, n) and not _rival(claim, attempt, n, obj):
        return None, obj
    return None


def _between(claim: Claim, attempt: Attempt, n: int, subject: Phrase, near: int) -> bool:
    """Whether the subject's rival stands between ``subject`` and the relation at ``near``."""
    if claim.rival is None:
        return False
    low, high = sorted((subject.first, near))
    own = set(subject.spans)
    for rival in (claim.rival,):
        for phrase in attempt.words_of(n, rival):
            inside = all(low < s and e <= high for s, e in phrase.spans)
            if inside and not own & set(phrase.spans):
                return True
    return False


CARRY_CHARS = 2  # a clause passes its subject on when it says this much besides it


def _continues(claim: Claim, attempt: Attempt, n: int) -> bool:
    """Whether clause ``n`` goes on about the subject of the clause before it in its sentence.

    "K 和 V 每步都要用，算出来就不会变": the second clause's subject is the
    first's. A bare term passes nothing on ("KV 缓存，线性增长" is a list).
    """
    if not n or attempt.sentence[n - 1] != attempt.sentence[n]:
        return False
    before = next(attempt.words_of(n - 1, claim.subject), None)
    if before is None:
        return False
    said = sum(e - s for s, e in before.spans)
    return len(attempt.clauses[n - 1].joined) - said >= CARRY_CHARS


def _nearest(found, near: int) -> Phrase | None:
    """Of an alias's finds in a clause, the one nearest ``near`` (the relation)."""
    return min(found, key=lambda p: min(abs(s - near) for s, _ in p.spans), default=None)


def _framed(attempt: Attempt, n: int) -> bool:
    """Whether clause ``n`` follows one of its sentence that frames it ("不用缓存时，…")."""
    return bool(n) and attempt.sentence[n - 1] == attempt.sentence[n] and attempt.framing(n - 1)


def _rival(claim: Claim, attempt: Attempt, n: int, obj: Phrase | None) -> bool:
    """Whether clause ``n`` names another claim's subject (words not this claim's object).

    "计算量也是 h 倍" is about compute: it cannot leave out "参数量" and say the
    parameter count grows.
    """
    taken = obj.spans if obj is not None else ()
    for rival in claim.rivals:
        for phrase in attempt.words_of(n, rival):
            if not any(a < d and c < b for a, b in phrase.spans for c, d in taken):
                return True
    return False


def _figures(claim: Claim, attempt: Attempt, n: int, known, needs_relation: bool):
    """The claim's value in clause ``n``: the right figure (+1), or a wrong one of its family (-1).

    A wrong figure must be the one nearest the claim's subject and none of the
    figures the question states; the right figure anywhere in the clause wins.
    """
    clause = attempt.clauses[n]
    number = claim.value
    found = [
        f
        for f in figures.located(clause.normal, number, normalised=True, bare=True)
        if not _MARKER.match(
            clause.normal[: f[0]] + "#" + clause.normal[f[0] :].lstrip("0123456789")
        )
    ]
    if not found:
        return []
    joined = [_joined(clause, start) for start, _ in found]
    right = [j for j, (_, v) in zip(joined, found, strict=True) if figures.matches(v, number)]
    if right:
        if needs_relation:
            return []  # the relation's own link carries a figure that needs it
        return [(1, Phrase(((right[0], right[0] + 1),), 1, False))]
    subject = next(attempt.words_of(n, claim.subject), None)
    if subject is None:
        return []
    # A figure said in the claim's unit is the one bound to it; bare ones only when none is;
    # never one inside the subject's own words ("每训练 1 万亿 token 约需 54 万 GPU 小时").
    named = [span for p in attempt.words_of(n, claim.subject) for span in p.spans]
    own = [i for i in range(len(found)) if any(s <= joined[i] < e for s, e in named)]
    free = [i for i in range(len(found)) if i not in own]
    said = [i for i in free if not isinstance(found[i][1], figures.Bare)]
    if not (said or free):
        return []
    # A computation's result is what it says of the subject: "2 × 32 × 8 × 128 × 2 字节 = 64 KiB".
    result = [i for i in (said or free) if clause.joined[joined[i] - 1 : joined[i]] == "="]
    bound = min(result or said or free, key=lambda i: abs(joined[i] - subject.first))
    values = found[bound][1]
    if figures.matches(values, number) or _known_figure(values, known):
        return []
    return [(-1, Phrase(((joined[bound], joined[bound] + 1),), 1, False))]


def _known_figure(values, known) -> bool:
    """Whether a figure is one the question states: in its unit, or, said bare, as written."""
    with_unit, bare = known
    if isinstance(values, figures.Bare) and any(
        abs(values.written - k) <= 1e-9 + 0.01 * abs(k) for k in bare
    ):
        return True
    return any(figures.matches(values, k) for k in with_unit)


def _joined(clause, start: int) -> int:
    """The offset in ``clause.joined`` of the character at ``start`` in ``clause.normal``."""
    place = clause.normal_at[start] if start < len(clause.normal_at) else len(clause.text)
    return min(bisect.bisect_left(clause.at, place), max(0, len(clause.joined) - 1))


BARE_CHARS = 2  # a list item holding the relation and at most this much more is a bare term


def _linked(clause, link: Sequence[tuple[int, int]], parts: Sequence[Sequence]) -> bool:
    """Whether the relation's words and the parts' make one statement, not items of a list.

    A list mark (、 | · or a slash with a space beside it, outside brackets)
    cuts a clause into items. The relation standing alone as an item, with
    its parts in other items, is a term listed: "KV 缓存、线性增长"; a list
    inside a statement is not: "在医疗、法律等领域效果下降", "E5、BGE 这些模型都是
    两阶段训练".
    """
    edges = _items(clause)
    if not edges:
        return True
    item = bisect.bisect_right(edges, min(s for s, _ in link))
    outside = [
        span for spans in parts for span in spans if bisect.bisect_right(edges, span[0]) != item
    ]
    if not outside:
        return True
    start = edges[item - 1] if item else 0
    end = edges[item] if item < len(edges) else len(clause.joined)
    covered = {i for s, e in (*link, *clause.negations) for i in range(s, e) if start <= i < end}
    return (end - start) - len(covered) > BARE_CHARS


def _one_item(clause, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether ``spans`` all lie in one item of the clause's lists."""
    edges = _items(clause)
    return len({bisect.bisect_right(edges, s) for s, _ in spans}) <= 1


def _items(clause) -> list[int]:
    """Where the clause's list items begin (offsets in ``joined``), list marks in brackets aside."""
    return sorted(b for b in clause.breaks if b >= len(clause.joined) or clause.group(b) < 0)


def _wrong(alias: Alias, point: Point, attempt: Attempt, right, said, statements):
    """The clause and words of a wrong claim asserted in ``attempt``, if one is."""
    own = {s.clause for s in said if s.state == STATED}
    for n in range(len(attempt.clauses)):
        if not attempt.asserts[n] or n in own:
            continue
        for phrase in attempt.phrases(n, alias):
            if phrase.negated or attempt.quoted(n, phrase.spans):
                continue
            if any(s.clause == n and _overlap_spans(phrase.spans, s.spans) for s in statements):
                continue
            if not _one_item(attempt.clauses[n], phrase.spans):
                continue
            if attempt.explained(n, phrase.spans, phrase.size, right):
                continue
            about = any(
                next(attempt.words_of(n, part), None) for c in point.claims for part in c.parts
            )
            if phrase.size > 1 or about:  # one word alone says little out of context
                return n, phrase.spans
    return None


def _shown(attempt: Attempt, n: int | None, spans) -> str | None:
    if n is None:
        return None
    return attempt.clauses[n].shown(spans, EVIDENCE_CHARS)


@dataclass(frozen=True)
class Rubric:
    """A question's rubric, compiled: its points, every right alias, the sides it compares."""

    points: tuple[Point, ...]
    right: tuple[Alias, ...]
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
        return [
            verdict(point, read, group, self.right, statements)
            for point, group in zip(self.points, said, strict=True)
        ], read


def compile_rubric(question: Question) -> Rubric:
    cutter = words.lexicon().extended(alias_words(question))
    compiled = points(question, cutter)
    right = tuple(alias for point in compiled for claim in point.claims for alias in claim.aliases)
    compared = sides(question.question, question.key_points)
    return Rubric(compiled, right, compared, Asked.of(question.question, cutter), cutter)


def points(question: Question, cutter: Lexicon | None = None) -> tuple[Point, ...]:
    """The question's key points with their rubric, compiled."""
    known = _known(question)
    cutter = cutter or words.lexicon().extended(alias_words(question))
    asked = Attempt(question.question, Asked("", frozenset()), cutter=cutter)
    compiled = [
        Point.of(t, r, asked, known)
        for t, r in zip(question.key_points, question.rubric, strict=True)
    ]
    subjects = [c.subject for p in compiled for c in p.claims]
    return tuple(
        replace(
            point,
            claims=tuple(
                replace(
                    c,
                    rivals=tuple(s for s in subjects if s.text != c.subject.text),
                    turned=None if _shared(c.subject, subjects) else c.turned,
                )
                for c in point.claims
            ),
        )
        for point in compiled
    )


def _shared(subject: Alias, subjects: Sequence[Alias]) -> bool:
    """Whether another claim of the question is about the same thing (an alternative in common).

    "准确率 上升" (with "Wait" appended) and "准确率 饱和" (when it is cut early)
    share 准确率: the claim's turned relation ("准确率下降") may be the other's truth,
    so it is not read as a denial.
    """
    own = set(subject.alternatives)
    return any(s is not subject and own & set(s.alternatives) for s in subjects)


def _known(question: Question) -> tuple[tuple[Number, ...], tuple[float, ...]]:
    """The figures the question states (its text, key points and claims): with a unit of a
    claim's family, and bare. A figure of the question is never a wrong one: correct
    answers quote them all; a bare one is matched only by a bare one ("80 层" is no KiB).
    """
    texts = (question.question, *question.key_points)
    with_unit: list[Number] = []
    bare: set[float] = set()
    for rubric in question.rubric:
        for claim in rubric.claims:
            if claim.value is None:
                continue
            number = claim.value
            unit = figures.expected(replace(number, value=1.0))[0]
            for text in (*texts, claim.zh, claim.en):
                for found in figures.figures(text, number):
                    with_unit.append(replace(number, value=found[0] / unit))
                bare.update(figures.bare_figures(text))
    return tuple(with_unit), tuple(sorted(bare))


def alias_words(question: Question) -> set[str]:
    """Every word of every alias of the question's rubric, as written (NFKC, lower case)."""
    out: set[str] = set()
    for rubric in question.rubric:
        aliases = [*rubric.wrong]
        for claim in rubric.claims:
            aliases += [claim.subject, claim.relation, claim.object, claim.opposite]
        for alias in filter(None, aliases):
            out.update(unicodedata.normalize("NFKC", alias).lower().replace("|", " ").split())
    return out
