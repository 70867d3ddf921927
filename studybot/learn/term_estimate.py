"""The term estimate: how a bank without a rubric (an import) is graded offline.

Each key point is reduced to its key terms (``terms``), each term weighted by
how rare it is across the bank's key points; a point's coverage is the share
of the weight it needs that the attempt holds, shown per point, and the
point is covered from ``COVERED_AT``, partly (counting half) from
``PARTLY_AT``. It sees words, not claims: it cannot tell a contradiction, and
the grade says it is an estimate.
"""

from __future__ import annotations

import math
from collections import Counter

from studybot.bank import Bank, Question
from studybot.learn.marks import COVERED, MISSED, PARTLY
from studybot.learn.terms import terms

ENOUGH = 18.0  # term weight that says a point (2-3 rare terms); long points need no more
COVERED_AT = 0.7  # share of a point's needed weight the attempt holds to cover it
PARTLY_AT = 0.25  # ... to cover it partly, which counts half
SPLIT = 0.5  # a term in k of the question's points weighs 1/sqrt(k) in each
LATIN_WEIGHT = 2.0  # technical words, symbols and numbers say more than a CJK bigram
QUESTION_WEIGHT = 0.25  # a term of the question itself: restating it proves little


class TermEstimate:
    """Term weights from how often a term appears across the bank's key points.

    Per point: the attempt's share of the term weight the point needs, at
    most ``ENOUGH`` (an answer naming a point's rare terms covers it, however
    long the point is written). Terms of the question itself count
    ``QUESTION_WEIGHT``, and an attempt that adds nothing to them earns nothing.
    """

    def __init__(self, bank: Bank, points_of) -> None:
        # One document per key point: a term in every point of one question is still rare.
        documents = [set(terms(p)) for q in bank.questions for p in points_of(q)]
        self.size = max(1, len(documents))
        self.frequency: Counter[str] = Counter(t for doc in documents for t in doc)

    def weight(self, term: str) -> float:
        rarity = math.log(1 + self.size / (1 + self.frequency[term]))
        return rarity * (LATIN_WEIGHT if term.isascii() else 1.0)

    def coverage(
        self,
        point: str,
        attempt_terms: Counter[str],
        asked: frozenset[str] = frozenset(),
        shared: Counter[str] | None = None,
    ) -> float:
        """Share of the weight ``point`` needs that the attempt holds (0-1).

        ``asked``: the question's terms; ``shared``: in how many of the
        question's points each term is, its weight split between them (a
        name every point repeats tells none of them apart).
        """
        weights = {
            t: self.weight(t)
            * (QUESTION_WEIGHT if t in asked else 1.0)
            / max(1, shared[t] if shared is not None and t in shared else 1) ** SPLIT
            for t in terms(point)
        }
        need = min(sum(weights.values()), ENOUGH)
        if need == 0:
            return 0.0
        return min(1.0, sum(w for t, w in weights.items() if t in attempt_terms) / need)

    def marks(
        self, question: Question, points: tuple[str, ...], attempt: str
    ) -> list[tuple[str, float]] | None:
        """Each point's state and coverage; None when the attempt adds nothing to the question."""
        held, asked = terms(attempt), frozenset(terms(question.question))
        if not set(held) - asked:
            return None
        shared = Counter(t for p in points for t in set(terms(p)))
        out = []
        for point in points:
            share = round(self.coverage(point, held, asked, shared), 3)
            state = COVERED if share >= COVERED_AT else PARTLY if share >= PARTLY_AT else MISSED
            out.append((state, share))
        return out
