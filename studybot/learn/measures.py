"""Figures of a point's own text: what a claim's sentence measures, beyond ``numbers``' families.

A claim with no value is checked against the figures its own sentence states
with a unit (``stated``): another figure of that unit, bound to the claim's
subject, denies it (``statements``). Besides the unit families ``numbers``
reads, a key point measures:

- a rate in Hz or kHz ("12.5 Hz 的 Mimi 编解码器"), a latency in ms ("约 320 ms");
- a count of tokens, exact or rough ("schema 常占几百 token"): a rough figure
  is stated as the middle of what it can mean, with that range as its tolerance,
  so "二三十个 token" is another figure and "五六百 token" is the same one.

``known`` gives the figures the question states, in every unit a claim's
sentence states: a figure of the question is never a wrong one.
"""

from __future__ import annotations

import re
from dataclasses import replace

from studybot.bank import Question
from studybot.bank.rubric import Number
from studybot.learn import numbers
from studybot.learn.spelling import normalise

_UNITS = ("hz", "khz", "ms", "token")  # read off a key point beyond ``numbers.stated``
_PRODUCT = re.compile(r"[\d)]\s*[×x*]\s*$")
_AS_WRITTEN = 0.02  # how near a figure must be to one the question states to be that one


def stated(text: str) -> tuple[Number, ...]:
    """The figures ``text`` states with a unit, each as a rubric number of its family."""
    out = list(numbers.stated(text))
    normal = normalise(text)
    for unit in _UNITS:
        for at, read in numbers.located(normal, Number(1.0, unit), normalised=True):
            if _PRODUCT.search(normal, 0, at):
                continue  # "相邻 2×2 个 token": a factor, not a count
            if isinstance(read, numbers.Vague):  # 几百: 200–900, stated as 550 ± 350
                low, high = read
                middle = (low + high) / 2
                out.append(Number(middle, unit, tolerance=(high - low) / 2 / middle))
            elif read:
                out.append(Number(read[0], unit))
    return tuple(dict.fromkeys(out))


def known(question: Question) -> tuple[tuple[Number, ...], tuple[float, ...]]:
    """The figures the question states (its text, key points and claims): with a unit of a
    claim's family, and bare. A figure of the question is never a wrong one: correct
    answers quote them all; a bare one is matched only by a bare one ("80 层" is no KiB).
    """
    texts = (question.question, *question.key_points)
    with_unit: list[Number] = []
    bare: set[float] = set()
    for rubric in question.rubric:
        for claim in rubric.claims:
            said = (claim.value,) if claim.value else stated(claim.zh)
            for number in said:
                unit = numbers.expected(replace(number, value=1.0))[0]
                for text in (*texts, claim.zh, claim.en):
                    for found in numbers.figures(text, number):
                        value = found[0] / unit  # as written, not within the claim's tolerance
                        tolerance = min(number.tolerance, _AS_WRITTEN)
                        with_unit.append(replace(number, value=value, tolerance=tolerance))
                    bare.update(numbers.bare_figures(text))
                if number.unit in _UNITS:  # "1024 个 token 减到 256": 256 tokens too
                    with_unit += [
                        Number(v, number.unit, _AS_WRITTEN)
                        for text in (claim.zh, claim.en)
                        for v in numbers.bare_figures(text)
                    ]
    return tuple(with_unit), tuple(sorted(bare))
