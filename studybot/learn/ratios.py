"""A ratio written upside down: "min(1, q(x)/p(x))" for the claim's "min(1, p(x)/q(x))".

A claim whose words hold a ratio of two symbols (``p(x)/q(x)``, ``π_θ/π_ref``)
is denied by a clause that writes the same two symbols the other way round,
about the claim's subject, when the attempt never writes them the right way
round: the acceptance rule, an importance ratio or a scale inverted is the
error a candidate makes, and one the claim's words alone cannot catch (every
word of the claim is there).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from studybot.learn.aliases import Alias
from studybot.learn.reading import Attempt

# A symbol: letters (Latin or Greek, with _ and ^), maybe applied to one argument: p(x), π_ref.
_SYMBOL = r"[a-zα-ω][a-zα-ω_^]*(?:\([a-z]\))?"
_RATIO = re.compile(rf"(?<![\w)])({_SYMBOL})/({_SYMBOL})(?![\w(])")


def of_claim(aliases: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The ratios the claim's words (its aliases as written) hold, each as (numerator, denominator)."""
    found: list[tuple[str, str]] = []
    for alias in aliases:
        for part in alias.split("|"):
            for m in _RATIO.finditer(_flat(part)):
                if m.group(1) != m.group(2) and m.groups() not in found:
                    found.append((m.group(1), m.group(2)))
    return tuple(found)


def inverted(ratios: Sequence[tuple[str, str]], attempt: Attempt, about: Alias) -> int | None:
    """The clause that writes one of ``ratios`` upside down, about ``about``, if one does."""
    if not ratios:
        return None
    each = [{m.groups() for m in _RATIO.finditer(_flat(c.text))} for c in attempt.clauses]
    written = set().union(*each)
    for top, bottom in ratios:
        if (top, bottom) in written or (bottom, top) not in written:
            continue
        for n, held in enumerate(each):
            if (bottom, top) in held and (
                next(attempt.words_of(n, about), None) or _near(attempt, n, about)
            ):
                return n
    return None


def _near(attempt: Attempt, n: int, about: Alias) -> bool:
    """Whether the clause before ``n``, in its sentence, names ``about``."""
    return (
        n > 0
        and attempt.sentence[n - 1] == attempt.sentence[n]
        and bool(next(attempt.words_of(n - 1, about), None))
    )


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text.lower())
