"""The sides a question compares, so that a property given to the wrong side is caught.

"prefill 和 decode 有什么区别？" compares two sides; its key points open with
the side they are about ("prefill（预填充）一次并行处理…", "decode 每步…").
An attempt that says "decode 属于计算密集" holds the words of prefill's
point, but about decode: the property given to the other side of the
comparison contradicts the point.

The sides are read from the question and its key points alone: a key
point's side is the longest opening of the point that the question names,
and two such openings are sides of one comparison when the question lists
them together ("A 和 B", "A、B 和 C", "「A」和「B」", "A vs B", "A or B");
a name in brackets right after a side is another name for it ("稠密检索（向量
检索）"). An attempt's clause is about the side it names, or, naming none,
about the side the clauses before it were about.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from studybot.learn import spelling, words
from studybot.learn.words import Clause

HEAD = re.compile(r"[：:（(，,。；;]")  # a key point's opening ends at the first of these
HEAD_CHARS = 20  # ... or after this many characters
_JOINT = re.compile(
    r"^\s*[」』”\"']?\s*(?:[（(][^）)]{1,24}[）)])?\s*[」』”\"']?\s*"
    r"(?:、|,|和|与|及|以及|跟|还是|或|或者|vs\.?|versus|and|or)\s*[「『“\"']?\s*$"
)
_ALIAS = re.compile(r"^\s*[」』”\"']?\s*[（(]([^）)]{1,24})[）)]")


@dataclass(frozen=True)
class Sides:
    """The compared sides of a question: each side's names, and each key point's side."""

    names: dict[str, tuple[str, ...]]  # side -> its names as a clause's ``joined`` holds them
    of_point: tuple[str | None, ...]  # per key point, the side it is about (None: no side)

    def named(self, clause: Clause) -> list[str]:
        """The sides ``clause`` names, in the order it names them."""
        at: list[tuple[int, str]] = []
        for side, names in self.names.items():
            spans = [s for name in names for s, _ in words.find(clause, name)]
            if spans:
                at.append((min(spans), side))
        return [side for _, side in sorted(at)]


NONE = Sides({}, ())


def sides(question: str, points: Sequence[str]) -> Sides:
    """The sides ``question`` compares, read from its text and its key points' openings."""
    asked = spelling.normalise(question)
    heads = [_head(asked, spelling.normalise(point)) for point in points]
    found = sorted({h for h in heads if h}, key=lambda h: asked.find(h))
    listed = _listed(asked, found)
    if len(listed) < 2:
        return NONE
    names = {side: _names(asked, side) for side in listed}
    return Sides(names, tuple(h if h in listed else None for h in heads))


def _head(asked: str, point: str) -> str | None:
    """The longest opening of ``point`` (before its first colon or bracket) that ``asked`` names."""
    opening = HEAD.split(point.strip(), maxsplit=1)[0][:HEAD_CHARS].strip()
    for end in range(len(opening), 1, -1):
        head = opening[:end].strip()
        latin_cut = end < len(opening) and opening[end - 1].isalnum() and opening[end].isascii()
        if len(head) >= 2 and not latin_cut and head in asked:
            return head
    return None


def _listed(asked: str, found: Sequence[str]) -> list[str]:
    """The openings the question lists together, as one comparison."""
    out: list[str] = []
    for first, second in zip(found, found[1:], strict=False):
        start = asked.find(first) + len(first)
        between = asked[start : asked.find(second, start)] if second in asked[start:] else None
        if between is not None and _JOINT.match(between):
            out.extend(side for side in (first, second) if side not in out)
    return out


def _names(asked: str, side: str) -> tuple[str, ...]:
    """A side's names: itself, and a name in brackets right after it in the question."""
    out = [side]
    after = asked[asked.find(side) + len(side) :]
    alias = _ALIAS.match(after)
    if alias:
        out.append(alias.group(1).strip())
    forms = (words.alternative(name) for name in out)
    return tuple(w for form in forms for w in ["".join(form)] if w)
