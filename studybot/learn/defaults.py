"""A default said to be another value: "Anthropic 默认就是 1 小时" for a 5-minute default.

A claim about a default (its text says 默认 or default) names the default's
value: a figure ("默认存活 5 分钟") or a name ("cluster_selection_method 默认
eom"). A clause that says 默认/default and gives another value in its place
denies it, even when that other value is one the question states elsewhere
(the option beside the default: 1 小时, leaf), which a figure check alone
never reads as wrong:
- a figure of the claim's family (a time in any unit) right after the
  default word that does not match the claim's figure;
- a name written right after 默认 (是/为/用…) or "defaults to", when it is a
  name of another claim of the question and not one of this claim's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from studybot.bank.rubric import Number
from studybot.learn import numbers
from studybot.learn.reading import Attempt

_DEFAULT = re.compile(r"默认|缺省|\bdefault", re.IGNORECASE)
_LATIN = re.compile(r"[a-z_][\w.\-]*[\w]", re.IGNORECASE)
# The value right after the default word: "默认就是 1 小时", "defaults to 15".
_VALUE = re.compile(
    r"(?:默认|缺省)(?:值|的|就|是|为|取|存活|设为|设成|用)*\s*(\d[\d.]*\s*[^\s\d，。,;；]{0,7})"
    r"|\bdefaults?\s*(?:is|to|of|=|:)?\s*(\d[\d.]*\s*[a-z]{0,7})",
    re.IGNORECASE,
)
_NAMED = re.compile(
    r"(?:默认|缺省)(?:值|设置|配置|的)?\s*(?:就|仍|还)?\s*(?:是|为|用|取|选|设为|设成|走)?\s*[「“\"'`]?"
    r"([a-z_][\w.\-]*[\w])"
    r"|\bdefaults?\s*(?:is|to|=|:|value is)\s*[`'\"]?([a-z_][\w.\-]*[\w])",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Default:
    """What a claim says a default is: figures, names."""

    figures: tuple[Number, ...]
    names: frozenset[str]


def of_claim(zh: str, en: str, value: Number | None) -> Default | None:
    """The default a claim states, if its text is about one."""
    if not (_DEFAULT.search(zh) or _DEFAULT.search(en)):
        return None
    figures = (value,) if value else numbers.stated(zh)
    return Default(tuple(figures), _latin(zh))  # the Chinese form: names only


def names_of(texts: Sequence[str]) -> frozenset[str]:
    """The Latin names the question's claims hold: where another value comes from."""
    return frozenset().union(*(_latin(text) for text in texts))


def denied(default: Default, others: frozenset[str], attempt: Attempt) -> int | None:
    """The clause of ``attempt`` that gives the default another value, if one does.

    The clause, or the one before it in its sentence, must name what the default
    is of (one of the claim's names, when it has any), and the value must come
    right after 默认/default.
    """
    for n, clause in enumerate(attempt.clauses):
        text = clause.text
        if not _DEFAULT.search(text) or not attempt.asserts[n]:
            continue
        named = _latin(text)
        if n and attempt.sentence[n - 1] == attempt.sentence[n]:  # "Anthropic 用…，默认 1 小时"
            named |= _latin(attempt.clauses[n - 1].text)
        for m in _NAMED.finditer(text):
            name = (m.group(1) or m.group(2)).lower()
            if name in others and name not in default.names and named & default.names:
                return n
        if default.names and not named & default.names:
            continue
        for m in _VALUE.finditer(text):
            said = m.group(1) or m.group(2)
            if default.figures and all(_wrong(said, number) for number in default.figures):
                return n
    return None


def _wrong(said: str, number: Number) -> bool:
    """Whether ``said`` ("1 小时") is a figure of another value than ``number`` (5 分钟)."""
    found = numbers.figures(said, number)
    return bool(found) and not any(numbers.matches(f, number) for f in found)


def _latin(text: str) -> frozenset[str]:
    return frozenset(m.lower() for m in _LATIN.findall(text))
