"""Figures in an attempt, read in the unit family of a figure the rubric states.

A rubric number (``bank.format.Number``) names a value and a unit; the
attempt's figures of the same family are read in that family's base unit:

- bytes: B, KB/KiB, MB/MiB, GB/GiB, TB/TiB, 字节 (KB read both as 1000 and 1024);
- times: 倍, ×, x (``4 倍``, ``4×``, ``×4``);
- percent: %;
- counts: 亿, 万, 千, 百万, billion (B), million (M), thousand (K);
- tokens: ``576 token``, ``576 个 token``;
- durations: 秒, 分钟, 小时, 天, s, min, h (``5 分钟`` is 300 s, ``26 个小时`` 93600 s);
- any other unit (维, d²) literally after the figure, and no unit: any figure.

Chinese numerals (四倍, 两倍, 十六倍) are read before a unit.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from studybot.bank.rubric import Number
from studybot.learn.spelling import normalise

_BYTES = {
    "b": (1,),
    "byte": (1,),
    "bytes": (1,),
    "字节": (1,),
    "kb": (1e3, 2**10),
    "kib": (2**10,),
    "mb": (1e6, 2**20),
    "mib": (2**20,),
    "gb": (1e9, 2**30),
    "gib": (2**30,),
    "tb": (1e12, 2**40),
    "tib": (2**40,),
}
_COUNTS = {
    "万亿": 1e12,
    "亿": 1e8,
    "万": 1e4,
    "千": 1e3,
    "百万": 1e6,
    "千万": 1e7,
    "billion": 1e9,
    "bn": 1e9,
    "b": 1e9,
    "million": 1e6,
    "m": 1e6,
    "thousand": 1e3,
    "k": 1e3,
    "trillion": 1e12,
    # a number counted with a classifier is a count too: "新增约 5000 个" against 2 万
    "个": 1.0,
    "条": 1.0,
}
# A time, in seconds: "10 分钟" against "every 10 seconds" is a wrong figure, not another unit.
_SECONDS = {"秒": 1.0, "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0}
_SECONDS |= {"分钟": 60.0, "min": 60.0, "mins": 60.0, "minute": 60.0, "minutes": 60.0}
_SECONDS |= {"小时": 3600.0, "h": 3600.0, "hour": 3600.0, "hours": 3600.0, "hr": 3600.0}
_SECONDS |= {"天": 86400.0, "day": 86400.0, "days": 86400.0}
_SCALES = {"count": _COUNTS, "time": _SECONDS}  # a unit's size in its family's base unit
_CLASSIFIERS = {"个", "条"}
_TIMES = {"倍", "×", "x", "times"}
_PERCENT = {"%", "percent"}
_TOKEN = {"token"}

# A power of ten said as one: "9.2×10^9", "10^6" (``width`` writes 10⁹ so).
_POWER = r"\d+(?:\.\d+)?\s*[×x*]\s*10\^-?\d+|10\^-?\d+"
_FIGURE = (
    r"(?<![a-z0-9_.\-@])(" + _POWER + r"|\d+(?:\.\d+)?e[-+]?\d+(?![a-z])|\d+(?:,\d{3})*(?:\.\d+)?"
    r"|[几数上]?[零一二两三四五六七八九十百千]+几?)"
)
_AFTER = r"(?![a-z0-9])"
# A figure with no unit after it (no letter, sign or Chinese word; no more digits): "最长 512".
# Digits only: a lone 一 is far more often "one of" (之一) than a figure. A unit after it
# makes it no bare figure ("256 个 token", "3 epochs", "8B"); "2e-5 左右", "2e-5 for" stay bare.
_UNIT_AFTER = (
    r"[a-z%×]|\s*(?:[%×]|倍|个|维|层|头|字节|秒|分钟|小时|天|条|次|步|张|块|位|元|美元|万|亿|千|百|年|月|日|周"
    r"|(?:tokens?|epochs?|layers?|heads?|steps?|seconds?|secs?|bits?|bytes?|kib|mib|gib|[kmgt]b"
    r"|[bmkx]|times|percent|dims?)\b)"
)
_BARE = re.compile(
    r"(?<![a-z0-9_.\-@])(" + _POWER + r"|\d+(?:\.\d+)?e[-+]?\d+(?![a-z])|\d+(?:,\d{3})*(?:\.\d+)?)"
    r"(?!\.\d|\d|,\d|\s*\^|" + _UNIT_AFTER + ")"
)
_SHORT = re.compile(r"(?<![a-z0-9_.\-@])(\d+(?:\.\d+)?)\s?(k|m)(?![a-z0-9])")
_PATTERNS = {
    "bytes": re.compile(
        # A bare "B" is left out: "8B" is a model's size far more often than 8 bytes.
        _FIGURE + r"\s*(kib|mib|gib|tib|kb|mb|gb|tb|bytes?|字节)" + _AFTER
    ),
    "times": re.compile(_FIGURE + r"\s*(倍|×|x|times)" + _AFTER + r"|(×)\s*" + _FIGURE),
    "percent": re.compile(_FIGURE + r"\s*(%|percent)"),
    "count": re.compile(
        _FIGURE
        + r"\s*(万亿|百万|千万|亿|万|千|个|条|trillion|billion|bn|million|thousand|b|m|k)"
        + _AFTER
    ),
    "time": re.compile(
        _FIGURE
        + r"\s*(?:个\s*)?(秒|分钟|小时|天|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|s|h)"
        + _AFTER
    ),
    "token": re.compile(_FIGURE + r"\s*(?:个)?\s*(?:[\u4e00-\u9fff]{1,4}\s*|[a-z]+\s+)?(token)"),
    "bare": _BARE,
}
_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7}
_DIGITS |= {"八": 8, "九": 9}
_PLACES = {"十": 10, "百": 100, "千": 1000}


@functools.cache
def _unit(unit: str | None) -> str:
    return normalise(unit).strip() if unit else ""


def family(number: Number) -> str:
    unit = _unit(number.unit)
    if not unit:
        return "bare"
    if unit in _BYTES:
        return "bytes"
    if unit in _TIMES:
        return "times"
    if unit in _PERCENT:
        return "percent"
    if unit in _COUNTS:
        return "count"
    if unit in _TOKEN:
        return "token"
    if unit in _SECONDS:
        return "time"
    return "literal"


def figures(text: str, number: Number, normalised: bool = False) -> list[tuple[float, ...]]:
    """Each figure of ``text`` in ``number``'s family, as its possible values in base units.

    ``normalised``: ``text`` is in the grader's spelling already (``spelling.normalise``).
    """
    return [values for _, values in located(text, number, normalised)]


def bare_figures(text: str) -> list[float]:
    """The figures of ``text`` said with no unit, as written."""
    return [
        v for m in _BARE.finditer(normalise(text)) for v in [_value(m.group(1))] if v is not None
    ]


def located(
    text: str, number: Number, normalised: bool = False, bare: bool = False
) -> list[tuple[int, tuple[float, ...]]]:
    """``figures``, each with where it starts in ``text``.

    ``bare``: a figure with no unit at all counts too ("ModernBERT 最长 512"
    for a claim in tokens): where people leave the unit out. Such a find is
    a ``Bare`` tuple, which keeps the figure as written.
    """
    kind = family(number)
    text = text if normalised else normalise(text)
    out: list[tuple[int, tuple[float, ...]]] = []
    if kind == "literal":
        unit = re.escape(_unit(number.unit))
        pattern = re.compile(_FIGURE + rf"\s*({unit})")
        out = [(m.start(), r) for m in pattern.finditer(text) for r in [_readings(m.group(1))] if r]
    else:
        for match in _PATTERNS[kind].finditer(text):
            groups = [g for g in match.groups() if g is not None]
            if kind == "times" and groups[0] == "×":
                groups = groups[::-1]
            read = _readings(groups[0])
            if not read:
                continue
            unit = groups[1].lower() if len(groups) > 1 else ""
            if unit in _CLASSIFIERS and groups[0] in _DIGITS:
                continue  # "三个标准", "两条路": a few things counted in words, no figure
            factors = _BYTES[unit] if kind == "bytes" else (_SCALES.get(kind, {}).get(unit, 1),)
            out.append((match.start(), read.scaled(factors)))
    if kind == "bare":  # a figure with no unit is also said shortened: "32k" for 32000
        out += [
            (m.start(), r.scaled((_COUNTS[m.group(2).lower()],)))
            for m in _SHORT.finditer(text)
            for r in [_readings(m.group(1))]
            if r
        ]
        out.sort()
    if kind in ("times", "percent"):
        scale = 100.0 if kind == "percent" else 1.0
        out += [(start, _Exact((value * scale,))) for start, value in fractions(text)]
        out.sort()
    if bare and kind != "bare":
        taken = {start for start, _ in out}
        for match in _BARE.finditer(text):
            value = _value(match.group(1))
            if _YEAR.fullmatch(match.group(1)):
                continue  # "as of 2025": a year, not a figure left without its unit
            if value is not None and match.start() not in taken:
                # In the claim's unit ("最长 512" tokens), or, for a count, the count itself
                # ("5e9 token" against 50 亿).
                values = (value * _base(number),) + ((value,) if kind == "count" else ())
                out.append((match.start(), Bare(values, value)))
        out.sort()
    return out


# A share said in words, read as times (or percent): "一半" 0.5, "打一折" 0.1, "2.5 折" 0.25, "三成" 0.3,
# "三分之一" 1/3, "half", "a tenth".
_FRACTION = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?|[一二两三四五六七八九])\s*(?:折(?![扣中叠线腾算])"
    r"|成(?=左右|上下|的|[，。、；,.;:)）\s]|$))"  # 四成左右: 40%
    r"|([一二两三四五六七八九十百千]+|\d+)\s*分之\s*([一二两三四五六七八九十]+|\d+)"
    r"|(一半|半价|对折|\bhalf\b)|\b(?:a|one)\s+(tenth|third|quarter)\b"
)
_SHARES = {"tenth": 0.1, "third": 1 / 3, "quarter": 0.25}


def fractions(text: str) -> list[tuple[int, float]]:
    """The shares ``text`` says in words, each with where it starts (``_FRACTION``)."""
    out = []
    for m in _FRACTION.finditer(text):
        discount, whole, part, half, share = m.groups()
        if discount:
            tenths = _DIGITS[discount] if discount in _DIGITS else float(discount)
            value = tenths / 10 if tenths < 10 else None
        elif whole:
            low, high = _value(part) or _DIGITS.get(part), _value(whole)
            value = low / high if low and high else None
        else:
            value = 0.5 if half else _SHARES[share]
        if value is not None:
            out.append((m.start(), value))
    return out


_YEAR = re.compile(r"19[5-9]\d|20[0-3]\d")  # 1950–2039: 2048 is a size, 2025 a year

# Units read off a claim's own sentence when the rubric gives it no value: "在单张 48 GB 显卡上"
# states 48 GB of memory as surely as a value would. No bare figure: "Llama 3.1", "第 2 层".
_STATED_KINDS = ("bytes", "times", "percent", "count", "time")
_STATED_LITERAL = re.compile(
    _FIGURE + r"\s*(维|层|头|步|bit|比特|epochs?|steps?|layers?|heads?)" + _AFTER
)

_OPERAND = re.compile(r"\s*[\d(]")
_OPERAND_BEFORE = re.compile(r"[\d)]\s*$")


def stated(text: str) -> tuple[Number, ...]:
    """The figures ``text`` states with a unit, each as a rubric number of its family."""
    text = normalise(text)
    out: list[Number] = []
    for kind in _STATED_KINDS:
        for match in _PATTERNS[kind].finditer(text):
            groups = [g for g in match.groups() if g is not None]
            if kind == "times" and groups[0] == "×":
                groups = groups[::-1]
            value = _value(groups[0])
            product = kind == "times" and (
                _OPERAND.match(text, match.end()) or _OPERAND_BEFORE.search(text, 0, match.start())
            )  # "16 × 15104" multiplies: no figure of times
            classifier = groups[1] in _CLASSIFIERS  # "1.5 个汉字" is no count to check others by
            if value is not None and not product and not classifier:
                out.append(Number(value, groups[1]))
    for match in _STATED_LITERAL.finditer(text):
        value = _value(match.group(1))
        if value is not None:
            out.append(Number(value, match.group(2)))
    return tuple(dict.fromkeys(out))


class Bare(tuple):
    """A figure said without a unit: its readings in base units, and the figure as written."""

    written: float

    def __new__(cls, values: tuple[float, ...], written: float) -> Bare:
        made = super().__new__(cls, values)
        made.written = written
        return made


def _base(number: Number) -> float:
    """What a bare figure means in ``number``'s base units: its own unit, as the claim says it."""
    return expected(replace(number, value=1.0))[0]


def expected(number: Number) -> tuple[float, ...]:
    """The rubric's value in base units (several where the unit is ambiguous: KB)."""
    kind = family(number)
    unit = _unit(number.unit)
    if kind == "bytes":
        return tuple(number.value * f for f in _BYTES[unit])
    return (number.value * _SCALES.get(kind, {}).get(unit, 1),)


def matches(found: tuple[float, ...], number: Number) -> bool:
    """Whether a figure's values and the rubric's agree within its tolerance."""
    if isinstance(found, Vague):
        low, high = found
        return any(
            low * (1 - number.tolerance) <= b <= high * (1 + number.tolerance)
            for b in expected(number)
        )
    return any(
        abs(a - b) <= number.tolerance * abs(b) + 1e-9 for a in found for b in expected(number)
    )


class Vague(tuple):
    """A figure said roughly ("几百", "十几", "上千"): the lowest and highest it can mean."""

    def scaled(self, factors: tuple[float, ...]) -> Vague:
        return Vague((self[0] * min(factors), self[1] * max(factors)))


class _Exact(tuple):
    def scaled(self, factors: tuple[float, ...]) -> _Exact:
        return _Exact(v * f for v in self for f in factors)


_VAGUE = re.compile(
    r"^(?:([几数上])([十百千])|([一二三四五六七八九])?十几|([一二三四五六七八九])?([百千])几)$"
)
_VAGUE_PLACES = {"十": 10, "百": 100, "千": 1000}


def _readings(text: str) -> Vague | _Exact | tuple[()]:
    """A figure's values: one for a figure, the lowest and highest for a rough one (``Vague``)."""
    value = _value(text)
    if value is not None:
        return _Exact((value,))
    match = _VAGUE.match(text)
    if match is None:
        return ()
    rough, place, tens, hundreds, big = match.groups()
    if place:  # 几百 200–900, 数十 20–90, 上千 1000–9000
        unit = _VAGUE_PLACES[place]
        return Vague((unit if rough == "上" else 2 * unit, 9 * unit))
    if big:  # 三百几 301–309 read loosely: 300–399
        unit = _VAGUE_PLACES[big]
        start = (_DIGITS[hundreds] if hundreds else 1) * unit
        return Vague((start, start + unit - 1))
    start = 10 * (_DIGITS[tens] if tens else 1)  # 十几 11–19, 二十几 21–29
    return Vague((start + 1, start + 9))


def _value(text: str) -> float | None:
    if "^" in text:
        base, _, power = text.rpartition("^")
        factor = re.split(r"\s*[×x*]\s*", base)[0] if re.search(r"[×x*]", base) else "1"
        return float(factor) * 10.0 ** int(power)
    if text[0].isdigit():
        return float(text.replace(",", ""))
    if text == "一":
        return None  # "一个 token", "之一": far more often "a" than the figure 1
    return chinese(text)


def chinese(text: str) -> float | None:
    """一 … 九千九百九十九 as a number; None for what is not one (一些 never reaches here)."""
    total, digit = 0, None
    for char in text:
        if char in _DIGITS:
            digit = _DIGITS[char]
        elif char in _PLACES:
            total += (1 if digit is None else digit) * _PLACES[char]
            digit = None
        else:
            return None
    return float(total + (digit or 0))
