"""Errors said against the point's own text: another figure, or a direction said of the rival.

Three readings, each of a clause aligned with a claim (it names the claim's
subject, or goes on from the clause that does), neither needing a wrong
alias written for the question:

- **A share said otherwise.** A claim whose words give a share in words
  ("FFN 约占非嵌入参数的三分之二") is denied by a clause naming its subject
  whose first share after it is another one ("FFN 只占三分之一"), when the
  clause says none of the claim's shares. A share said of something else
  later in the clause ("FFN 占三分之二，注意力占三分之一" in one clause) is
  not the subject's.
- **A figure in apposition.** A clause that opens with a figure
  ("……一组可学习的查询向量，一共 64 个、每个 768 维") says it of what the clause
  before it in its sentence ends on: when that is the claim's subject and the
  figure, in the claim's unit, is not its value nor one the question states,
  the claim is denied.
- **A "越…越" said of the rival.** "β 越大，KL 惩罚越弱，策略就越能偏离参考模型"
  binds the last clause's 越 to the first's: when the first names the rival
  of a claim's subject (β 越大 for β 越小, ``antonyms``) and the last says the
  claim's relation with no subject of its own, the claim is denied — unless
  the sentence turns round between them ("反之", "而", "但").

Negated, quoted or asking clauses assert nothing and are skipped.
"""

from __future__ import annotations

import re

from studybot.learn import negations, numbers
from studybot.learn.claims import Claim
from studybot.learn.reading import Attempt

HEAD_CHARS = 2  # words before a figure or an opposite that still open its clause ("一共", "也")
_PREFIXES = frozenset({"非", "无"})  # negations that make a word: 非嵌入, 无条件
_BOUND_BEFORE = re.compile(
    r"(?:不止|超过|多于|大于|高于|至少|不到|少于|小于|低于|至多|不足|不超过"
    r"|多出|多了|高出|少了|增加了?|减少了?|提高了?|降低了?|省了?|涨了?|降了?|省下)$"
)
_TURN = re.compile(r"^(?:反之|相反|反过来|否则|而(?!且)|但|不过|然而|otherwise|but|whereas)")
_FRAME = re.compile(r"(?:的)?(?:时候|时)")
_COMPARED = re.compile(r"(?:比|相比|than|vs)\S{0,3}$")
_BOUND_AFTER = re.compile(r".{0,2}?(?:以上|以下|之上|之下|还多|还少|多一点|不到)")
TAIL_CHARS = 2  # words after the subject that still end the clause before ("的", "们")


def shares_of(claim_zh: str, value) -> tuple[float, ...]:
    """The shares a claim's words give in words (none for a claim with a value)."""
    if value is not None:
        return ()
    return tuple(share for _, share in numbers.fractions(claim_zh))


def denied(claim: Claim, shares, known, attempt: Attempt, others=()) -> int | None:
    """The first clause that says another share or figure than ``claim``'s of its subject, or
    its relation of its rival (``others``: the subjects of the point's other claims)."""
    for n, clause in enumerate(attempt.clauses):
        if not attempt.asserts[n] or clause.asks:
            continue
        if shares and _other_share(claim, shares, attempt, n):
            return n
        if claim.value is not None and _apposed(claim, known, attempt, n):
            return n
        if _rival_before(claim, attempt, n, others) or _under_frame(claim, attempt, n, others):
            return n
    return None


def _under_frame(claim: Claim, attempt: Attempt, n: int, others) -> bool:
    """Whether clause ``n`` says the claim's opposite under a "…时" frame that names its subject
    earlier in the sentence ("w > 1 时…，生成更贴合提示，…，多样性也会随之提高" against
    "w > 1 时多样性下降"): the opposite opens its clause, and no clause from the frame on names
    a subject or frame of its own."""
    if claim.opposite is None:
        return False
    opposite = [p for p in attempt.phrases(n, claim.opposite) if not p.negated]
    if not any(p.first <= HEAD_CHARS for p in opposite):
        return False  # words of its own before it: "学到的表示更均匀" is about the representations
    for k in range(n, -1, -1):
        if attempt.sentence[k] != attempt.sentence[n] or _TURN.search(attempt.clauses[k].joined):
            return False
        said = attempt.clauses[k].joined
        for p in attempt.words_of(k, claim.subject):
            if k < n and _FRAME.match(said, p.last):
                return True
        if any(_names(attempt, k, a) for a in (claim.subject, claim.rival, *others) if a):
            return False
        if k < n and _FRAME.search(said):
            return False  # a frame of its own: what follows is said under it
    return False


def _rival_before(claim: Claim, attempt: Attempt, n: int, others) -> bool:
    """Whether clause ``n`` says the claim's relation of its rival, in a "越…越" said across the
    sentence ("β 越大，KL 惩罚越弱，策略就越能偏离参考模型" against "β 越小，偏离越远"): the
    nearest clause before naming the subject or its rival names the rival with 越, clause
    ``n`` has its own 越, and nothing turns it round in between ("反之", "而", "但")."""
    if claim.rival is None or claim.relation is None:
        return False
    if any(_names(attempt, n, a) for a in (claim.subject, claim.rival, *others)):
        return False  # said of a subject of its own ("表示空间也越均匀": another claim's 空间)
    if not any(not p.negated for p in attempt.phrases(n, claim.relation)):
        return False
    for k in range(n - 1, -1, -1):
        if attempt.sentence[k] != attempt.sentence[n] or _TURN.search(
            attempt.clauses[k + 1].joined
        ):
            return False
        if _names(attempt, k, claim.subject):
            return False
        rival = list(attempt.words_of(k, claim.rival))
        if rival:
            said = attempt.clauses[k].joined
            correlative = any("越" in said[p.first : p.last] for p in rival)
            return correlative and "越" in attempt.clauses[n].joined
    return False


def _names(attempt: Attempt, n: int, alias) -> bool:
    return next(attempt.words_of(n, alias), None) is not None


def _other_share(claim: Claim, shares, attempt: Attempt, n: int) -> bool:
    clause = attempt.clauses[n]
    said = numbers.fractions(clause.joined)
    if not said or any(_same(v, shares) for _, v in said):
        return False
    for subject in attempt.words_of(n, claim.subject):
        if _COMPARED.search(clause.joined[: subject.first]):
            continue  # "比标准 FFN 多出一半": the subject is what the figure is measured against
        after = [at for at, _ in said if at >= subject.last]
        if after and not _negated(clause, subject.last, after[0]):
            return True
    return False


def _negated(clause, start: int, at: int) -> bool:
    """Whether a share at ``at`` is denied or only bounded ("不止三分之一", "超过一半"), or a
    negation stands between it and its subject ("并不是只占"; the prefix of "非嵌入" is none)."""
    if _BOUND_BEFORE.search(clause.joined[:at]) or _BOUND_AFTER.match(clause.joined, at):
        return True
    if negations.negated(clause, [[(at, at + 1)]]):
        return True
    return any(
        start <= s and e <= at and clause.joined[s:e] not in _PREFIXES for s, e in clause.negations
    )


def _apposed(claim: Claim, known, attempt: Attempt, n: int) -> bool:
    value = claim.value
    if value is None or not n or attempt.sentence[n - 1] != attempt.sentence[n]:
        return False
    if next(attempt.words_of(n, claim.subject), None) is not None:
        return False  # said of its subject in the clause: the claim's own reading decides
    before = attempt.clauses[n - 1]
    ends = [p.last for p in attempt.words_of(n - 1, claim.subject)]
    if not ends or len(before.joined) - max(ends) > TAIL_CHARS:
        return False
    clause = attempt.clauses[n]
    found = numbers.located(clause.normal, value, normalised=True)
    if not found or len(clause.normal[: found[0][0]].replace(" ", "")) > HEAD_CHARS:
        return False
    values = found[0][1]
    if numbers.matches(values, value) or _known(values, known):
        return False
    return not clause.negations


def _same(value: float, shares) -> bool:
    return any(abs(value - s) <= 0.01 for s in shares)


def _known(values, known) -> bool:
    with_unit, _ = known
    return any(numbers.matches(values, k) for k in with_unit)
