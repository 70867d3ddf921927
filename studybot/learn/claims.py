"""A claim of the rubric, compiled, and what an attempt does with it.

A claim compiled (``Claim``) holds its aliases and the words that deny it:
the relation's negated alternatives without the negation (``core``), the
relation and the subject with a word turned to its opposite (``antonyms``).
What an attempt does with it (``Said``) is one of four states: it states
it, denies it, only names its terms, or says nothing of it (``rubric``).
"""

from __future__ import annotations

from dataclasses import dataclass

from studybot.bank.rubric import Claim as ClaimRubric
from studybot.bank.rubric import Number
from studybot.learn import antonyms, counted, measures, negations, words
from studybot.learn.aliases import Alias
from studybot.learn.reading import FOUND, Attempt

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
    # With no value, the figures its sentence states with a unit ("单张 48 GB 显卡"): another
    # figure of that family bound to its subject denies it too.
    figures: tuple[Number, ...] = ()
    counts: tuple[counted.Count, ...] = ()  # the relation's alternatives that write a count

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
            opposite=_correlative(Alias.of(rubric.opposite)) if rubric.opposite else None,
            ordered=rubric.ordered,
            implied=asked.look(subject).state == FOUND,
            object_implied=bool(
                rubric.object and asked.look(Alias.of(rubric.object)).state == FOUND
            ),
            zh=rubric.zh,
            en=rubric.en,
            figures=() if rubric.value is not None else measures.stated(rubric.zh),
            counts=counted.of_relation(rubric.relation, rubric.zh, rubric.en),
        )

    @property
    def parts(self) -> tuple[Alias, ...]:
        return (self.subject,) + ((self.object,) if self.object else ())

    def explained(self, denial: Said, statements, attempt: Attempt) -> bool:
        """Whether another claim's statement in the denial's clause holds its relation's words,
        and its rival subject where the denial names one un-negated: "在简单题上树搜索更省算力"
        states that tree search saves compute, yet still denies that the gain is on hard problems."""
        rival = self._rival_in(attempt, denial)
        clause = denial.clause or 0
        if rival and negations.negated(attempt.clauses[clause], [rival]):
            rival = ()  # "并不是简单题上更省，而是难题上": the rival turned down
        if rival and any(not p.negated for p in attempt.words_of(clause, self.subject)):
            rival = ()  # the clause says it of the claim's own subject too
        return any(
            s.clause == denial.clause
            and overlap_spans(denial.link, s.spans)
            and (not rival or overlap_spans(rival, s.spans))
            for s in statements
        )

    def _rival_in(self, attempt: Attempt, said: Said) -> tuple[tuple[int, int], ...]:
        """The words of the claim's rival subject among those that decided ``said``."""
        if self.rival is None or said.clause is None:
            return ()
        named = (s for p in attempt.words_of(said.clause, self.rival) for s in p.spans)
        return tuple(s for s in named if s in said.spans)

    @property
    def aliases(self) -> tuple[Alias, ...]:
        """Every right alias of the claim (its parts and its relation)."""
        return self.parts + ((self.relation,) if self.relation else ())


def _correlative(alias: Alias) -> Alias:
    """An opposite with each comparative 更X said as 越X too: "越大反而过优化得越快" says 更快."""
    more = tuple(
        tuple("越" + w[1:] if w.startswith("更") and len(w) > 1 else w for w in a)
        for a in alias.alternatives
    )
    added = tuple(a for a in more if a not in alias.alternatives)
    return Alias(alias.text, alias.alternatives + added) if added else alias


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
    cores = (
        tuple(
            alternative[1:]
            for alternative in relation.alternatives
            if len(alternative) > 1
            and alternative[0] in words.NEGATIONS
            and alternative[1] not in words.NOT_NEGATED_BY  # "not just the best" is not "just …"
        )
        + tuple(
            (_BOUNDED[alternative[0]], *alternative[1:])
            for alternative in relation.alternatives
            if len(alternative) > 1 and alternative[0] in _BOUNDED
        )
    )
    return Alias(relation.text, cores) if cores else None


# "不小于 k" is spelled "≥ k" (``variants``): its core, said plainly, is "小于 k".
_BOUNDED = {"≥": "小于", "≤": "大于"}


@dataclass(frozen=True)
class Said:
    """What an attempt does with one claim: states it, denies it, only names its terms, or not."""

    state: str  # STATED, DENIED, MENTIONED or ABSENT
    clause: int | None = None
    spans: tuple[tuple[int, int], ...] = ()  # the words that decided, in that clause
    link: tuple[tuple[int, int], ...] = ()  # ... of them, the relation's (or the figure's)
    denials: tuple[Said, ...] = ()  # a claim stated nowhere: every clause that denies it
    counted: bool = False  # denied by another count in the relation's words (``counted``)


def overlap_spans(one, other) -> bool:
    """Whether any span of ``one`` shares a character with any of ``other``."""
    return any(a < d and c < b for a, b in one for c, d in other)


def wrong_value(claim: Claim, attempt: Attempt, stated: list[Said], denials: list[Said]):
    """The denial that gives a claim with a value a wrong figure, where every statement of it
    is words alone ("放更大的批" for "吞吐高 2–4 倍" beside "吞吐是它的 20 到 40 倍"): a wrong
    figure of the claim's quantity outweighs words that only say it goes up; None otherwise."""
    miscount = next((d for d in denials if d.counted), None)  # "相邻四帧": beats any statement
    if miscount is not None or claim.value is None or not stated:
        return miscount

    def figured(said: Said) -> bool:
        text = attempt.clauses[said.clause].joined if said.clause is not None else ""
        return any(ch.isdigit() for start, end in said.link for ch in text[start:end])

    if any(figured(s) for s in stated):
        return None
    return next((d for d in denials if figured(d)), None)


def miscounted(claim: Claim, attempt: Attempt) -> list[Said]:
    """The clauses that say the claim's relation with another count than its own ("相邻四帧"
    for "相邻 两帧") and name its subject beside them; none where a clause says a right count
    in those words (``counted``)."""
    if not claim.counts:
        return []
    out: list[Said] = []
    for n, clause in enumerate(attempt.clauses):
        found = list(counted.said(claim.counts, clause))
        if any(right for _, _, right in found):
            return []
        for start, end, _ in found:
            spans = ((start, end),)
            if (
                attempt.asserts[n]
                and not counted.turned_down(clause, start)
                and not attempt.quoted(n, spans)
                and _named_beside(claim.subject, attempt, n, (start, end))
            ):
                out.append(Said(DENIED, n, spans, spans, counted=True))
    return out


def _named_beside(alias: Alias, attempt: Attempt, n: int, span: tuple[int, int]) -> bool:
    """Whether clause ``n`` names ``alias`` with words outside ``span`` (the count's words)."""
    start, end = span
    return any(
        all(e <= start or end <= s for s, e in phrase.spans)
        for phrase in attempt.words_of(n, alias)
    )
