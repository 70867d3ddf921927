"""A question said again in other words.

- A heading that asks in several parts and whose sub-headings ask those parts again
  (``## 7. 反思机制是什么？为什么要用反思？`` over ``### 什么是反思机制？`` and
  ``### 为什么要用反思？``) is the question, its sub-sections its answer: no part of the file
  whose sub-headings are its questions (``parted``).
- A list of plain questions followed by answered headings that restate them, the same
  question in near the same words (``LLM 基础：大模型是怎么训练出来的？`` then
  ``## 1. 大模型是怎么训练出来的？``, ``介绍一下 autogen`` then ``## 什么是 AutoGen？``): the
  answered heading is the question, the list line it restates no second, unanswered one; it
  is listed as restated (``restated``): where a third of the list or more is restated, so a
  contents list restated here and there stays whole, and a question asked again in the very
  same words elsewhere stays ``assemble``'s (imported once, where first asked).
"""

from __future__ import annotations

import re

from studybot.bank.format import normalise
from studybot.bank.importer.blocks import Block, plain
from studybot.bank.importer.draft import Draft, Skipped
from studybot.bank.importer.markers import asks, clean, marker, numbered
from studybot.bank.importer.sections import opens_on_question

_UNIT = re.compile(r"[a-z0-9]+|[\u3400-\u9fff]+")  # a Latin word, or a run of Chinese text
# what any question says, and requests ("介绍一下"): no part of what it is about
_ZH_FILLER = frozenset("的是什么怎如何为吗呢啥哪些有了你我们过得要用介绍一下请说讲谈")
_EN_FILLER = frozenset((
    "a", "an", "the", "is", "are", "was", "what", "why", "how", "which", "when", "where",
    "who", "do", "does", "did", "can", "could", "would", "should", "you", "your", "of", "in",
    "on", "to", "for", "and", "or", "with", "explain", "describe", "tell", "me", "about",
))  # fmt: skip
CHARS_LEAST = 0.7  # the share of the words and characters two wordings hold in common
PAIRS_LEAST = 0.7  # and of their pairs of characters: "模糊支持向量机", "排序支持向量机" differ
RESTATED = "a question of a list, restated by an answered question below it (imported there)"


def _units(text: str) -> tuple[set[str], set[str]]:
    """The words and characters of what ``text`` asks about, and its pairs of characters, a
    short label before a colon (``LLM 基础：``) left out."""
    head, colon, rest = text.replace(":", "：").partition("：")
    if colon and rest.strip() and len(head) <= 12 and not asks(head):
        text = rest
    chars: set[str] = set()
    pairs: set[str] = set()
    for unit in _UNIT.findall(text.lower()):
        if unit.isascii():
            if unit not in _EN_FILLER:
                chars.add(unit)
                pairs.add(unit)
            continue
        kept = "".join(c for c in unit if c not in _ZH_FILLER)
        chars.update(kept)
        pairs.update(kept[i : i + 2] for i in range(len(kept) - 1))
        if len(kept) == 1:
            pairs.add(kept)
    return chars, pairs


def _dice(one: set[str], other: set[str]) -> float:
    return 2 * len(one & other) / (len(one) + len(other)) if one and other else 0.0


def _same(one: Draft, other: Draft) -> bool:
    return normalise(one.question) == normalise(other.question)


def _close(one: tuple[set[str], set[str]], other: tuple[set[str], set[str]]) -> float:
    """How near two wordings are (0 to 1), or 0 where they are no restatement."""
    pairs = _dice(one[1], other[1])
    chars = _dice(one[0], other[0])
    return chars if chars >= CHARS_LEAST and pairs >= PAIRS_LEAST else 0.0


def _part_of(part: str, whole: str) -> bool:
    """Whether the question ``part`` asks again about what ``whole`` asks: most of its
    words are the whole's (``LiteLLM 是什么？`` under ``用过 LiteLLM 吗？它做什么？``)."""
    own = _units(part)[0]
    return bool(own) and 2 * len(own & _units(whole)[0]) >= len(own)


def parted(rest: str, inner: list[Block]) -> bool:
    """Whether a heading asking ``rest`` over ``inner`` names a part of the file: its section
    opens on a question heading, unless the heading asks and each sub-heading that asks, with
    no number or mark of its own, asks one of its parts again."""
    if not opens_on_question(inner):
        return False
    if not asks(rest):
        return True
    for block in inner:
        if block.kind != "heading":
            continue
        label, text = numbered(clean(plain(block.raw)))
        if marker(block.raw, heading=True) or label is not None and asks(text):
            return True
        if asks(text) and not _part_of(text, rest):
            return True
    return False


def restated(drafts: list[Draft], left: list[Skipped]) -> list[Draft]:
    """``drafts`` less the unanswered questions of a list that answered ones after it restate,
    each listed in ``left``: where a third of the list, two or more, is restated (a contents
    list restated here and there is left whole); every answered question takes at most one."""
    units = [_units(d.question) for d in drafts]
    bare = [not (d.reference or d.key_points) for d in drafts]
    answered = [at for at, b in enumerate(bare) if not b]
    taken: set[int] = set()
    dropped: set[int] = set()
    at = 0
    while at < len(drafts):
        end = at
        while end < len(drafts) and bare[end]:
            end += 1
        found: dict[int, int] = {}
        for one in range(at, end):
            near = [
                (_close(units[one], units[j]), j)
                for j in answered
                if j > end and j not in taken and j not in found.values()
            ]
            score, nearest = max(near, key=lambda n: (n[0], -n[1]), default=(0.0, -1))
            if score:
                found[one] = nearest
        if len(found) >= max(2, (end - at) / 3):  # the same words: asked again, not restated
            same = {one for one, by in found.items() if _same(drafts[one], drafts[by])}
            dropped.update(set(found) - same)
            taken.update(by for one, by in found.items() if one not in same)
        at = end + 1
    for one in sorted(dropped):
        left.append(Skipped(drafts[one].where, drafts[one].question[:80], RESTATED, counts=False))
    return [d for at, d in enumerate(drafts) if at not in dropped]
