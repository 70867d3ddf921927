"""The four states of a graded key point, what each earns, and the rating a grade suggests."""

from __future__ import annotations

from collections.abc import Sequence

COVERED, PARTLY, MISSED, CONTRADICTED = "covered", "partly", "missed", "contradicted"
STATES = (COVERED, PARTLY, MISSED, CONTRADICTED)
CREDIT = {COVERED: 1.0, PARTLY: 0.5, MISSED: 0.0, CONTRADICTED: 0.0}
MARKS = {COVERED: "✓", PARTLY: "½", MISSED: "✗", CONTRADICTED: "⚠"}  # as every screen shows them


def mean_credit(states: Sequence[str]) -> float:
    """A grade's score: (covered + half the partly) / points; a contradicted point earns nothing."""
    return round(sum(CREDIT[state] for state in states) / len(states), 3)


def clip(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "…"


RATINGS = {1: "Again", 2: "Hard", 3: "Good", 4: "Easy"}
# Lower bounds of the grade (covered + half the partly, over the key points)
# that suggest Hard, Good and Easy; below the first, Again. Under 70 % is never
# a good recall; nearly everything covered is an easy one.
SUGGESTION_BOUNDS = ((0.9, 4), (0.7, 3), (0.35, 2))
# A contradicted point (a wrong belief stated) keeps the suggestion at Hard or
# below; two of them suggest Again. One ⚠ in an otherwise good answer was
# right about three times in four on answers written blind (docs/grading.md,
# "One ⚠ suggests Hard"): a learner it wrongs should not lose the card for it.
AGAIN_FROM = 2


def suggest_rating(score: float | None, contradicted: int = 0) -> int:
    """The rating a grade suggests: <0.35 Again, <0.7 Hard, <0.9 Good, else Easy.

    One ``contradicted`` point suggests Hard at most, two or more Again. No
    grade (read mode, or grading was skipped) suggests Good: the user saw the
    answer and moves on unless they say otherwise.
    """
    if contradicted >= AGAIN_FROM:
        return 1
    if score is None:
        return 2 if contradicted else 3
    for bound, rating in SUGGESTION_BOUNDS:
        if score >= bound:
            return min(rating, 2) if contradicted else rating
    return 1
