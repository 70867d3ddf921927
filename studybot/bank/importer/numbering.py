"""Numbering imported questions: keep the source's numbers, or 1..N with the source's as labels."""

from __future__ import annotations

import re
from collections import Counter

from studybot.bank.importer.draft import HAN_COMMON, Draft

# "1. 1 介绍一下 RM模型？", "4. 1.2 为什么…？": after a card's own number, the number it had
# in the source it was merged from; "2 种方法…", "3 layers of …", "1.5 倍…" are the question's
_MEASURE = "个种类次层倍步条位项点年天月日周时分秒亿万千百元张台块组轮道章节份句行名人"
_STALE = re.compile(
    rf"^\d{{1,2}}(?:\.\d{{1,2}})?\s+(?![{_MEASURE}])"
    rf"(?=[{HAN_COMMON}A-Z]|[a-z][\w-]*\s*[{HAN_COMMON}])"
)


def without_stale(text: str) -> str:
    """A question after its card number without a second, stale number before its words."""
    stale = _STALE.match(text)
    return text[stale.end() :] if stale else text


def number(drafts: list[Draft]) -> list[str]:
    """Give every draft its id; notes on the source's numbering when it could not be kept.

    The source's numbers are kept when they are whole, unique and contiguous;
    otherwise questions are numbered 1..N in file order and keep their own
    number as a label for display.
    """
    labels = [d.label for d in drafts]
    numbers = [int(x) if x is not None and x.isdigit() else None for x in labels]
    first = numbers[0] if numbers else None
    if first is not None and numbers == list(range(first, first + len(numbers))):
        for draft, number in zip(drafts, numbers, strict=True):
            draft.id, draft.label = number, None
        return []
    for number, draft in enumerate(drafts, start=1):
        draft.id = number
    if all(x is None for x in labels):
        return []
    return notes(drafts)


def notes(drafts: list[Draft]) -> list[str]:
    notes = []
    seen = Counter(d.label for d in drafts if d.label)
    repeats = [label for label, count in seen.items() if count > 1]
    if repeats:
        notes.append(f"numbers used more than once: {_few(repeats)}")
    restarts, skips = [], []
    previous: int | None = None
    for draft in drafts:
        # "4.1" counts as 4 here, so 3, 4.1, 4.2, 5 neither skips nor restarts
        major = (draft.label or "").split(".")[0]
        if not major.isdigit():
            continue
        number = int(major)
        if previous is not None and number < previous and number <= 1:
            restarts.append(draft.where)
        elif previous is not None and number > previous + 1:
            skips.append(f"{previous}→{number}")
        previous = number
    if restarts:
        notes.append(f"numbering restarts at 1 in {len(restarts)} place(s): {_few(restarts)}")
    if skips:
        notes.append(f"numbers skip: {_few(skips)}")
    decimal = [d.label for d in drafts if d.label and not d.label.isdigit()]
    if decimal:
        notes.append(f"{len(decimal)} number(s) such as {decimal[0]} are not whole numbers")
    bare = sum(1 for d in drafts if d.label is None)
    if bare:
        notes.append(f"{bare} question(s) have no number")
    return notes


def _few(items: list[str], shown: int = 5) -> str:
    return ", ".join(items[:shown]) + (f" … ({len(items)} in all)" if len(items) > shown else "")
