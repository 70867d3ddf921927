"""Volatile content in the system prefix: what makes every request miss the cache.

A prefix cache serves a request only up to the first token that differs
from what it has seen. A date, a clock time, a UUID, a request id or a
list whose order changes puts such a token at the very top of every
request, and everything after it is prefilled again. ``lint`` looks for
those in the prefixes a session's requests carried, and for any change
between consecutive requests.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

EXCERPT_CHARS = 24  # characters of context on each side of a finding

_PATTERNS = (
    (
        "date",
        "a date",
        re.compile(
            r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}"
            r"|\d{4}年\d{1,2}月\d{1,2}[日号]"
            r"|\d{1,2}月\d{1,2}[日号]"
            r"|星期[一二三四五六日天]|礼拜[一二三四五六日天]"
            r"|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.? \d{1,2}, \d{4}"
            r"|\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b",
        ),
    ),
    (
        "time",
        "a clock time",
        re.compile(r"(?<![\d:])\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?![\d:])|\d{1,2}[点时]\d{1,2}分"),
    ),
    (
        "uuid",
        "a UUID",
        re.compile(
            r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"
        ),
    ),
    ("timestamp", "a Unix timestamp", re.compile(r"(?<!\d)1\d{9}(?:\d{3})?(?!\d)")),
)
_WORD = re.compile(r"[A-Za-z0-9_\-+/=]{12,}")
_LIST_SEPARATORS = re.compile(r"\s*[,，、;；|:：]\s*")


@dataclass(frozen=True)
class Finding:
    kind: str  # date, time, uuid, timestamp, random-id, reordered or changed
    message: str
    example: str  # the text around the first occurrence
    requests: tuple[int, ...]  # 1-based numbers of the requests it affects

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "message": self.message,
            "example": self.example,
            "requests": list(self.requests),
        }


def lint(prefixes: Sequence[str]) -> list[Finding]:
    """Findings for the prefixes of consecutive requests (one string per request)."""
    volatile: dict[str, tuple[str, str, list[int]]] = {}
    changes: list[tuple[int, str, str]] = []
    scanned: dict[str, list[tuple[str, str, str]]] = {}
    for number, text in enumerate(prefixes, start=1):
        if text not in scanned:
            scanned[text] = _volatile(text)
        for kind, label, example in scanned[text]:
            entry = volatile.setdefault(kind, (label, example, []))
            entry[2].append(number)
        if number > 1 and text != prefixes[number - 2]:
            kind, example = _change(prefixes[number - 2], text)
            changes.append((number, kind, example))

    findings = [
        Finding(
            kind,
            f"the system prefix contains {label}: when it changes, every token after it misses "
            "the cache",
            example,
            tuple(numbers),
        )
        for kind, (label, example, numbers) in volatile.items()
    ]
    for kind in ("reordered", "changed"):
        hits = [(n, example) for n, k, example in changes if k == kind]
        if not hits:
            continue
        what = (
            "a list in the system prefix changed order"
            if kind == "reordered"
            else "the system prefix changed"
        )
        findings.append(
            Finding(
                kind,
                f"{what} between requests ({len(hits)} time{'s' * (len(hits) > 1)}): "
                "the cache splits there and the rest of each request is prefilled again",
                hits[0][1],
                tuple(n for n, _ in hits),
            )
        )
    return findings


def _volatile(text: str) -> list[tuple[str, str, str]]:
    found = []
    rest = text  # what no other pattern claimed, blanked in place to keep offsets
    for kind, label, pattern in _PATTERNS:
        match = pattern.search(text)
        if match:
            found.append((kind, label, _excerpt(text, match.start(), match.end())))
            rest = pattern.sub(lambda m: " " * len(m.group()), rest)
    for match in _WORD.finditer(rest):
        if _looks_random(match.group()):
            found.append(
                ("random-id", "a long random id", _excerpt(text, match.start(), match.end()))
            )
            break
    return found


def _looks_random(word: str) -> bool:
    """Ids mix letters and digits with many switches; words and model names do not."""
    digits = sum(c.isdigit() for c in word)
    letters = sum(c.isalpha() for c in word)
    if digits < 3 or letters < 3:
        return False
    classes = [
        "d" if c.isdigit() else "u" if c.isupper() else "l" if c.isalpha() else "" for c in word
    ]
    classes = [c for c in classes if c]
    switches = sum(a != b for a, b in zip(classes, classes[1:], strict=False))
    return switches >= max(6, len(classes) // 3)


def _change(before: str, after: str) -> tuple[str, str]:
    """How ``after`` differs from ``before``: ("reordered" | "changed", excerpt)."""
    at = next(
        (i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
        min(len(before), len(after)),
    )
    old_lines, new_lines = before.splitlines(), after.splitlines()
    if sorted(old_lines) == sorted(new_lines):
        return "reordered", _excerpt(after, at, at + 1)
    if len(old_lines) == len(new_lines):
        for old, new in zip(old_lines, new_lines, strict=True):
            if old != new:
                old_items = _LIST_SEPARATORS.split(old)
                new_items = _LIST_SEPARATORS.split(new)
                if len(old_items) > 2 and sorted(old_items) == sorted(new_items):
                    return "reordered", _excerpt(after, at, at + 1)
                break
    return "changed", _excerpt(after, at, at + 1)


def _excerpt(text: str, start: int, end: int) -> str:
    left = max(0, start - EXCERPT_CHARS)
    right = min(len(text), end + EXCERPT_CHARS)
    body = text[left:right].replace("\n", "⏎")
    return ("…" if left else "") + body + ("…" if right < len(text) else "")
