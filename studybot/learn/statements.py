"""Where one clause states a claim or denies it: its relation (or its value) linked to its parts.

The relation found in a clause, with the claim's subject and object near it
(``_parts``: the subject may be left out when the question names it, or
when the clause before says it); negated, or its opposite said instead, it
denies the claim (not a kind turned down: ``alternatives``); a figure of its value,
right or wrong, bound to its subject (``_figures``); a list of terms links nothing.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import replace

from studybot.learn import alternatives, links, negations, numbers
from studybot.learn.aliases import Alias
from studybot.learn.claims import Claim, overlap_spans
from studybot.learn.reading import Attempt, Phrase


def statements(claim: Claim, attempt: Attempt, n: int, side, known) -> list[tuple]:
    """Each statement of ``claim`` in clause ``n``: +1 states it or -1 denies it, with the
    relation's words and all the words that say it.

    A clause that both states and denies the claim denies it. An opposite in
    brackets or quotes that hold none of the claim's parts is an aside
    ("KV 缓存是线性的（注意力才是平方）") and denies nothing.
    """
    clause = attempt.clauses[n]
    found: list[tuple[int, Phrase, tuple[Phrase, ...]]] = []
    cores: list = []  # the links said by a negated relation's core ("批内 负样本" of "不 利用 批内")
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
            # "不是原始网页，而是指令-回答对": 而是 goes on with the subject before it.
            stating = phrase.spans if sign > 0 and _INSTEAD.match(clause.normal) else ()
            parts = _parts(claim, attempt, n, side, phrase.first, phrase.spans, stating)
            if parts is None:
                continue
            explicit = tuple(p for p in parts if p is not None)
            if sign < 0 and links.aside(clause, phrase, explicit):
                continue
            if sign < 0 and negations.not_only(clause, phrase.first):
                continue  # "不只在输入层": the opposite's words, said as not the whole truth
            if sign < 0 and (links.replaced(clause, phrase) or links.described(clause, phrase)):
                continue  # "代替梯度更新", "不用…那种依赖前几步最大值的做法": not done
            # A part's negation is its own ("without a cache"); one before the subject reaches it
            taken = [span for part in explicit for span in part.spans]
            elsewhere = links.negating_parts(
                clause, (f for a in claim.parts for f in attempt.words_of(n, a))
            )
            negated = negations.negated(
                clause, [[s] for s in phrase.spans], ignore=taken + elsewhere, through=taken
            )
            if negated and sign > 0 and alternatives.turned_down(attempt, n, phrase, taken):
                continue  # "f_t 不是文档频率，而是…": a kind turned down
            if alias in (claim.core, claim.turned) and not negated:
                # A negated relation's leftover is stated by any negation before it ("提供不了学习
                # 信号") or a zero ("零额外延迟"); an opposite so is no claim ("不能在划分之前做").
                reach = len(clause.joined) if alias is claim.core else TURNED_REACH
                negated = any(
                    e <= phrase.first <= e + reach
                    and not overlap_spans(((s, e),), taken)
                    and not negations.SCOPE_MARK.search(clause.joined, e, phrase.first)
                    for s, e in clause.negations
                ) or clause.joined[: phrase.first].endswith(("零", "zero"))
            located.append((replace(phrase, negated=negated), parts))
        for phrase, parts in _scoped_with(located):
            if phrase.negated and sign < 0 and alias is not claim.core:
                continue  # "并非常数" does not say it grows with n²: a negated opposite says nothing
            if phrase.negated and links.not_denied(clause, phrase, parts[0], alias is claim.core):
                continue  # "…——没有外部信号时", "以前不是…": a condition, the past, an attribute
            if (
                phrase.negated
                and _POSSIBLE.search(claim.zh)
                and negations.hedged(clause, phrase.first)
            ):
                continue  # "β 不一定固定" leaves open what "β 可以固定，也可以自适应" allows
            if alias is claim.turned and (
                _holds(attempt, n, claim.relation) or _CORRELATIVE.search(clause.normal)
            ):
                continue  # "越大越好…越小越差", "the more steps the lower the success": not a reversal
            bare = alias is claim.core and not phrase.negated and phrase.size < 2
            if bare and claim.object is None:
                continue  # "缓存里存的不是 Q": one bare word (缓存) is no claim that Q is cached
            if alias is claim.turned and any(links.standard(clause, p) for p in explicit):
                continue  # "UMAP 比 t-SNE 更快": t-SNE is what UMAP is compared with
            said = -sign if phrase.negated else sign
            named = list(attempt.words_of(n, claim.subject)) if parts[0] is not None else []
            if links.outdone(clause, phrase, parts[0], named):
                if sign < 0:
                    continue  # "B 比 A 更慢" is no denial of "A 更快"
                said = -said  # "B 比 A 更好" denies "A 更好"
            if sign < 0 and named and links.short_of(clause, phrase, parts[0], named):
                said = -said  # "用得不如 LoRA 多": the subject is what the other falls short of
            if alias is claim.core:
                cores.append(phrase.spans)
            found.append((said, phrase, parts))
    if claim.value is not None:
        for sign, phrase in _figures(claim, attempt, n, known, claim.relation is not None):
            parts = _parts(claim, attempt, n, side, phrase.first, phrase.spans, phrase.spans)
            if parts is not None:
                found.append((sign, phrase, parts))
    own = [v for f in claim.figures for v in _said(attempt, n, f) if numbers.matches(v, f)]
    for number in () if own else claim.figures:  # its own figure said: another is no value
        # A figure read off the claim's sentence is bound to its unit: a bare one is not it.
        for sign, phrase in _figures(replace(claim, value=number), attempt, n, known, True, False):
            parts = _parts(claim, attempt, n, side, phrase.first, phrase.spans, phrase.spans)
            if parts is not None:
                found.append((sign, phrase, parts))
    found += _rival_statements(claim, attempt, n, side, known)

    out = []
    said_negated: list = []  # the links of relations said negated (not of opposites said)
    for polarity, link, (subject, obj) in found:
        explicit = tuple(p for p in (subject, obj) if p is not None)
        if not explicit and not (_framed(attempt, n) or _continues(claim, attempt, n)):
            continue  # a relation alone states nothing: "线性", "自己的 softmax" are terms
        if not links.linked(clause, link.spans, [p.spans for p in explicit]):
            continue  # "KV 缓存、线性增长": listed, not linked
        if polarity < 0 and subject is not None and links.across(clause, subject, link):
            continue  # "并不需要把激活都存着——普通训练全存": the denial is not about 普通训练
        if (
            polarity < 0
            and subject
            and links.pronoun(clause, subject)
            and (link.spans in cores or links.named_last(attempt, n, claim.rivals, claim.subject))
        ):
            continue  # "它本质就是…InfoNCE" may be another loss; "RoPE 则不同。它…" is RoPE
        if (
            polarity < 0
            and subject is None
            and not (_framed(attempt, n) or _continues(claim, attempt, n))
        ):
            continue  # a denial names what it denies, or goes on about it: the question's
            # naming it is not enough ("它的长度不是固定的" may be about another memory)
        spans = tuple(sorted(set(link.spans).union(*(p.spans for p in explicit))))
        out.append((polarity, link.spans, spans))
        if polarity < 0 and link.negated:
            said_negated.append(link.spans)
    if any(p < 0 for p, _, _ in out):
        if any(p > 0 for p, _, _ in out) and _RESPECTIVELY.search(clause.normal):
            # "prefill 和 decode 分别是计算受限和访存受限": each side has its own.
            return [o for o in out if o[0] > 0]
        stated = [
            o for o in out if o[0] > 0 and all(links.apart(clause, o[1], d) for d in said_negated)
        ]
        if stated and len(said_negated) == sum(1 for o in out if o[0] < 0):
            # The relation denied in one place and said in another, in brackets that hold
            # both: "(并非从零初始化，通常拿奖励模型来初始化)" corrects itself.
            return stated
        if stated and all(
            links.beyond(clause, o[2], d[1]) for o in stated for d in out if d[0] < 0
        ):
            # "不能只看通用基准：标几百条就够", "12 层减半、隐藏维度不变": another statement's.
            return stated
        # The opposite said un-negated outweighs the relation in one clause: "随长度平方增长"
        # holds 随…增长 and 平方, and says the growth is quadratic.
        return [o for o in out if o[0] < 0]
    return out


# A claim of what can be, or of either of two: "不一定" (not necessarily) denies none of it.
_POSSIBLE = re.compile(r"可以|可能|也可|或者|或是|是否|\bcan\b|\bmay\b|\beither\b|whether")
_RESPECTIVELY = re.compile(r"分别|各自|respectively")
_INSTEAD = re.compile(r"\s*(?:而是|而|rather|but rather|instead)\b|\s*(?:而是|而)")
# A figure that numbers a list item ("1. …", "(3) …", "2、…") is no figure of the claim.
_MARKER = re.compile(r"^\s*[(（]?#\s*(?:\.(?!\d)|[、)）:]|$)")
# 越…越… and "the more …, the lower …" tie two things together: no word of it is reversed alone.
_CORRELATIVE = re.compile(
    r"越.{1,12}越|\bthe (?:more|less|fewer|larger|smaller|higher|lower|longer|shorter|bigger)\b"
    r".{1,40}\bthe (?:more|less|fewer|larger|smaller|higher|lower|longer|shorter|bigger)\b"
)


def _holds(attempt: Attempt, n: int, alias: Alias | None) -> bool:
    return alias is not None and next(attempt.phrases(n, alias), None) is not None


def _rival_statements(claim: Claim, attempt: Attempt, n: int, side, known) -> list:
    """The claim's relation said of its rival subject ("小模型更坚持先验"): a denial of it.

    Not where the clause names the claim's own subject too ("大模型和小模型都…"), nor
    where the rival comes after the relation, as its object.
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
    if named is None or links.standard(attempt.clauses[n], named):
        return []
    out = []
    for polarity, link, _ in statements(rival, attempt, n, side, known):
        # A subject comes before what is said of it: "外推出大模型的 loss" is no statement
        # about large models, whose loss is the object extrapolated.
        if polarity > 0 and named.first < min(s for s, _ in link):
            phrase = Phrase(link, len(link), False)
            out.append((-1, phrase, (next(attempt.words_of(n, claim.rival), None), None)))
    return out


def _scoped_with(located):
    """``negations.scoped`` over (phrase, parts) pairs, the parts kept beside each phrase."""
    scoped = negations.scoped([phrase for phrase, _ in located])
    return [(phrase, parts) for phrase, (_, parts) in zip(scoped, located, strict=True)]


def _parts(claim: Claim, attempt: Attempt, n: int, side, near: int, avoid=(), own=()):
    """The claim's subject and object in clause ``n`` near ``near`` (None: not there).

    The subject may be left out when the question names it and the object is
    said ("与头数无关", not about a rival side or another claim's subject), or
    when the clause that frames this one says it ("不用缓存时，每步都要重算").
    ``own``: the words of the relation stating the claim, which name no rival subject.
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
    if implied and not _rival(claim, attempt, n, obj, own):
        return None, obj
    if _framed(attempt, n) and next(attempt.words_of(n - 1, claim.subject), None) is not None:
        return None, obj
    if _continues(claim, attempt, n) and not _rival(claim, attempt, n, obj, own):
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


TURNED_REACH = 3  # characters from a negation to an opposite it keeps from being claimed
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


def _rival(claim: Claim, attempt: Attempt, n: int, obj: Phrase | None, avoid=()) -> bool:
    """Whether clause ``n`` names another claim's subject (words not this claim's object,
    nor its relation's, ``avoid``: "而是…指令-回答对" names no 回答 of another claim).

    "计算量也是 h 倍" is about compute: it cannot leave out "参数量" and say the
    parameter count grows.
    """
    taken = (*(obj.spans if obj is not None else ()), *avoid)
    for rival in claim.rivals:
        for phrase in attempt.words_of(n, rival):
            if not any(a < d and c < b for a, b in phrase.spans for c, d in taken):
                return True
    return False


def _figures(
    claim: Claim, attempt: Attempt, n: int, known, needs_relation: bool, bare: bool = True
):
    """The claim's value in clause ``n``: the right figure (+1), or a wrong one of its family (-1).

    A wrong figure must be the one nearest the claim's subject and none of the figures the
    question states; the right figure anywhere in the clause wins; one after 不是 is neither.
    """
    clause = attempt.clauses[n]
    number = claim.value
    if number is None:
        return []  # asked only of a claim with a value
    found = [
        f
        for f in numbers.located(clause.normal, number, normalised=True, bare=bare)
        if not _MARKER.match(
            clause.normal[: f[0]] + "#" + clause.normal[f[0] :].lstrip("0123456789")
        )
        and not alternatives.figure_turned_down(clause.normal[: f[0]])  # "不是 2 个而是 8 个"
    ]
    if not found:
        return []
    joined = [_joined(clause, start) for start, _ in found]
    right = [j for j, (_, v) in zip(joined, found, strict=True) if numbers.matches(v, number)]
    if right:
        if needs_relation:
            return []  # the relation's own link carries a figure that needs it
        return [(1, Phrase(((right[0], right[0] + 1),), 1, False))]
    subject = next(attempt.words_of(n, claim.subject), None)
    # The subject may come from a clause before that frames this one ("如果是有害数据，几百条…").
    carried = _framed(attempt, n) or _holds(attempt, n, claim.relation)
    if subject is None and not (
        (carried or links.figure_again(clause, found)) and _continues(claim, attempt, n)
    ):
        return []
    # A figure said in the claim's unit is the one bound to it; bare ones only when none is;
    # never one inside the subject's own words ("每训练 1 万亿 token 约需 54 万 GPU 小时").
    named = [span for p in attempt.words_of(n, claim.subject) for span in p.spans]
    own = [i for i in range(len(found)) if any(s <= joined[i] < e for s, e in named)]
    free = [i for i in range(len(found)) if i not in own]
    said = [i for i in free if not isinstance(found[i][1], numbers.Bare)]
    if not (said or free):
        return []
    # A computation's result is what it says of the subject: "2 × 32 × 8 × 128 × 2 字节 = 64 KiB".
    result = [i for i in (said or free) if clause.joined[joined[i] - 1 : joined[i]] == "="]
    starts = [s for s, _ in named] or [0]  # nearest any name: "平均…每秒 1200 条" is 每秒's
    bound = min(result or said or free, key=lambda i: min(abs(joined[i] - s) for s in starts))
    values = found[bound][1]
    if numbers.matches(values, number) or known_figure(values, known):
        return []
    return [(-1, Phrase((_figure_span(clause, joined[bound]),), 1, False))]


_FIGURE_AND_UNIT = re.compile(r"[\d.,]*[a-z%]*")


def _figure_span(clause, start: int) -> tuple[int, int]:
    """A figure's words in ``joined`` with its Latin unit ("0.5fps"): no rival's subject there."""
    figure = _FIGURE_AND_UNIT.match(clause.joined, start)
    return start, max(start + 1, figure.end() if figure else start)


def _said(attempt: Attempt, n: int, number) -> list:
    """The figures of clause ``n`` in ``number``'s family, or with no unit ("512 长度")."""
    return [v for _, v in numbers.located(attempt.clauses[n].normal, number, True, True)]


def known_figure(values, known) -> bool:
    """Whether a figure is one the question states: in its unit, or, said bare, as written."""
    with_unit, bare = known
    if isinstance(values, numbers.Bare) and any(
        abs(values.written - k) <= 1e-9 + 0.01 * abs(k) for k in bare
    ):
        return True
    return any(numbers.matches(values, k) for k in with_unit)


def _joined(clause, start: int) -> int:
    """The offset in ``clause.joined`` of the character at ``start`` in ``clause.normal``."""
    place = clause.normal_at[start] if start < len(clause.normal_at) else len(clause.text)
    return min(bisect.bisect_left(clause.at, place), max(0, len(clause.joined) - 1))
