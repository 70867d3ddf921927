"""A count in a relation's own words, said with another count: "相邻两帧" said as "相邻四帧".

A claim's relation may write a count among its words: "深度 为 2", "相邻 两帧",
"temporal depth 2". The same words with another count in the count's place
deny the claim in a clause that asserts and names the claim's subject beside
them (a subject only the question names is not enough): "Qwen2-VL 用时间维深度为
4 的 3D 卷积" against "深度 为 2". The count is what those words measure; another
number in the clause ("64 帧", "576 个 token") is not read.

Only counts a reader takes as one: digits standing alone (not "3D", "h2o"),
Chinese numerals but 一 alone and ordinals (一点, 第一), English number words
from two. An alternative is read only with a word of content before its count
or past the two words after it that may say what is counted: "3 个 字节",
"128 维", "超过 2 个" alone would find any bytes, dimensions or counts in the
clause. A count is right when the claim writes it anywhere (its relation's
other alternatives, its sentences: "1 fps | 2 fps"); an end of a range
("2~3 维") is not read. It is not said when any clause of the attempt writes a
right count in those words, when a negation stands just before it ("不是相邻
四帧"), or when the clause quotes or supposes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from studybot.learn import numbers, words

_DIGITS = r"\d+(?:\.\d+)?"
_HANZI = "两二三四五六七八九十百千"
_ENGLISH = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
_ENGLISH.update({"nine": 9, "ten": 10, "twelve": 12, "sixteen": 16, "twenty": 20})
_NUMBER = re.compile(rf"^(?:{_DIGITS}|[{_HANZI}][{_HANZI}零]*|{'|'.join(_ENGLISH)})$")
_LEADING = re.compile(rf"^({_DIGITS}|[{_HANZI}][{_HANZI}零]*)([{words.CJK}]+)$")  # 两帧, 4层
_ANY = rf"({_DIGITS}|[{_HANZI}零一][{_HANZI}零一]*|{'|'.join(_ENGLISH)})"
# Words that say nothing of what is counted: a hedge, a bound, "every".
_PLAIN = words.listed(
    "约 大约 左右 只有 只 仅 最大 最多 至少 每 为 是 超过 以上 以下 不到 多于 少于 大于 小于 全是 全部 "
    "about only max least most per every over than more less above below under around all"
)
_UNIT_SLOTS = 2  # the words after a count that may say what it counts ("3 个 字节"): no context
_RANGE = re.compile(r"[~～\-–—到至或/]")  # "2~3 维", "2 到 3 个": a range, read by ``numbers``
_FORMULA = re.compile(r"[×*/+=·<>≥≤^()]")
_GAP = ".{0,2}?"  # the words of an alternative may stand this many characters apart
_NEGATED_BEFORE = 3  # a negation ending this near before the count turns it down


@dataclass(frozen=True)
class Count:
    """A relation's alternative that writes a count, as a pattern over a clause's words, and
    every count the claim writes (its relation's alternatives, its sentences): none is wrong."""

    pattern: re.Pattern[str]
    right: frozenset[float]


def of_relation(relation: str | None, *texts: str) -> tuple[Count, ...]:
    """The alternatives of ``relation`` (a rubric's text, "a | b") that write one count, with
    the counts ``relation`` and ``texts`` (the claim's sentences) write."""
    alternatives = [a.split() for a in (relation or "").split("|") if not _FORMULA.search(a)]
    right = frozenset(
        v
        for text in (relation or "", *texts)
        for found in re.finditer(_ANY, text.lower())
        if _alone(text.lower(), *found.span(1))
        and found.group(1) != "一"  # not 3D, 一组
        and (v := _value(found.group(1))) is not None
    )
    return tuple(
        Count(pattern, right) for raw in alternatives if (pattern := _compiled(raw)) is not None
    )


def _compiled(raw: list[str]) -> re.Pattern[str] | None:
    pieces: list[str] = []
    counts = 0
    at: int | None = None  # where the count stands
    context = False
    for n, word in enumerate(raw):
        lead = _LEADING.match(word)
        if _NUMBER.match(word.lower()) or lead:
            counts, at = counts + 1, n
            pieces.append(_ANY)
            if lead:
                pieces.append(re.escape(lead.group(2)))
            continue
        spelled = words.alternative(word)
        if not spelled:
            continue
        unit = at is not None and n - at <= _UNIT_SLOTS
        context = context or not unit and any(_content(w) for w in spelled)
        pieces.append(re.escape("".join(spelled)))
    if counts != 1 or not context:
        return None  # no count, two (a range: ``numbers`` reads it), or nothing beside it
    return re.compile(_GAP.join(pieces))


def _content(word: str) -> bool:
    """Whether ``word`` says what is counted: not a hedge or a bound, two characters or more
    (three letters in English)."""
    plain = word in _PLAIN or word in words.NEGATIONS
    return not plain and len(word) >= (3 if word.isascii() else 2)


def said(counts: tuple[Count, ...], clause: words.Clause) -> Iterator[tuple[int, int, bool]]:
    """Each count of ``counts`` written in ``clause``: its span in the clause's words and whether
    it is a right one (a count the claim writes). A count inside a longer word is not one."""
    for count in counts:
        for found in count.pattern.finditer(clause.joined):
            start, end = found.span(1)
            latin = clause.joined[start].isascii()
            inner = any(p in clause.starts for p in range(start + 1, end))
            if latin and (start not in clause.starts or end not in clause.ends or inner):
                continue  # "3d", "qwen2", "network", "2~3" (joined "23"): not one count
            if found.start() not in clause.starts or found.end() not in clause.ends:
                continue  # "pitfall two" holds no "all two"
            if _ranged(clause.joined, start, end) or _no_count(clause, start, end):
                continue
            value = _value(found.group(1))
            yield found.start(), found.end(), value is None or value in count.right


def _no_count(clause: words.Clause, start: int, end: int) -> bool:
    """Whether what reads as a count is none: 一 alone (一点, 一起), an ordinal (第一), or
    digits written into a name ("h2o", "qwen2" as the clause writes them)."""
    said = clause.joined[start:end]
    before = clause.joined[start - 1] if start else ""
    if said == "一" or before == "第":
        return True
    if not said[0].isdigit() or not clause.at:
        return False
    first, last = clause.at[start], clause.at[end - 1]
    text = clause.text
    left = text[first - 1] if first else ""
    right = text[last + 1] if last + 1 < len(text) else ""
    return any(c.isascii() and c.isalpha() for c in (left, right))


def turned_down(clause: words.Clause, start: int) -> bool:
    """Whether a negation ends just before ``start`` ("不是相邻四帧", "not four")."""
    return any(start - _NEGATED_BEFORE <= end <= start for _, end in clause.negations)


def _alone(joined: str, start: int, end: int) -> bool:
    before = joined[start - 1] if start else ""
    after = joined[end] if end < len(joined) else ""
    if joined[start].isascii() and joined[start].isalpha():
        return not (before.isalpha() and before.isascii()) and not (
            after.isascii() and after.isalpha()
        )
    glued = before.isascii() and before.isalnum() or after.isascii() and after.isalnum()
    return not glued and before != "."  # "3D", "qwen2", "2.5" are no count of their own


def _value(text: str) -> float | None:
    if text in _ENGLISH:
        return float(_ENGLISH[text])
    return float(text) if text[0].isdigit() else numbers.chinese(text)


def _ranged(joined: str, start: int, end: int) -> bool:
    """Whether the count at ``start``–``end`` is an end of a range ("2~3", "两到三")."""
    return bool(
        _RANGE.match(joined[start - 1 : start] if start else "") or _RANGE.match(joined[end:])
    )
