"""Rows read as a newer studybot may have written them: each value checked for the type used here.

A database from a newer version is read, never written (``migrations``);
its rows may hold what this version never wrote: a grade's marks as an
object, a point state it does not know, seconds as text, a table moved.
The readers of ``show`` and ``export`` keep what they can read and say,
in a few words each, what they left out (``SessionView.unread``): a report
of what is readable, never a TypeError half way through it.
"""

from __future__ import annotations

import json
import math
import sqlite3
from typing import Any, overload

from studybot.storage.records import POINT_STATES, PointMark
from studybot.types import NONE_DISCARDED, Discarded


class Unreadable(ValueError):
    """A row (or a value of one) this studybot cannot read; the message says why, briefly."""


def note(unread: list[str] | None, text: str) -> None:
    """Record what was left out, when the caller collects it."""
    if unread is not None and text not in unread:
        unread.append(text)


def missing_table(exc: sqlite3.OperationalError) -> bool:
    """SQLite saying a table or a column this studybot reads is not there (moved, renamed)."""
    text = str(exc)
    return text.startswith("no such table") or text.startswith("no such column")


@overload
def whole(value: Any, default: int) -> int: ...
@overload
def whole(value: Any, default: None = None) -> int | None: ...
def whole(value: Any, default: int | None = None) -> int | None:
    """An integer, or ``default`` when the value is none (a bool or a float is not one)."""
    if value is None:
        return default
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise Unreadable(f"{_shown(value)} is not a whole number")


def number(value: Any) -> float | None:
    """A finite number (a figure written as text, "12.5", read as one); None for none."""
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        found = float(value)
    elif isinstance(value, str):
        try:
            found = float(value)
        except ValueError:
            raise Unreadable(f"{_shown(value)} is not a number") from None
    else:
        raise Unreadable(f"{_shown(value)} is not a number")
    if not math.isfinite(found):
        raise Unreadable(f"{_shown(value)} is not a number")
    return found


@overload
def text(value: Any, default: str) -> str: ...
@overload
def text(value: Any, default: None = None) -> str | None: ...
def text(value: Any, default: str | None = None) -> str | None:
    if value is None:
        return default
    if isinstance(value, str):
        return value
    raise Unreadable(f"{_shown(value)} is not text")


def state(value: Any) -> str:
    """A key point's state this studybot knows."""
    if value in POINT_STATES:
        return value
    raise Unreadable(f"a point state {_shown(value)} this studybot does not know")


def marks(stored: Any) -> tuple[PointMark, ...]:
    """A grade's marks as stored: a JSON list of {"point", "state", "evidence"}; rows from
    before states were kept say only covered or not."""
    if not stored:
        return ()
    try:
        items = json.loads(stored) if isinstance(stored, str) else None
    except ValueError:
        items = None
    if not isinstance(items, list):
        raise Unreadable("its marks are not a list")
    out = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("point"), str):
            raise Unreadable("a mark without its point")
        said = item.get("state") or ("covered" if item.get("covered") else "missed")
        evidence = item.get("evidence")
        out.append(
            PointMark(item["point"], state(said), evidence if isinstance(evidence, str) else None)
        )
    return tuple(out)


DISCARDED_KEYS = ("requests", "prompt_tokens", "completion_tokens", "cached_tokens", "estimated")


def discarded(stored: Any) -> Discarded:
    """Requests thrown away, as stored: JSON of ``DISCARDED_KEYS``; none when null."""
    if stored is None:
        return NONE_DISCARDED
    try:
        items = json.loads(stored) if isinstance(stored, str) else None
    except ValueError:
        items = None
    if not isinstance(items, dict):
        raise Unreadable("its thrown-away requests are not a record of them")
    return Discarded(**{key: whole(items.get(key), 0) for key in DISCARDED_KEYS})


def stored_discarded(value: Discarded) -> str | None:
    """``value`` as a column holds it: null when nothing was thrown away."""
    if not value.requests:
        return None
    return json.dumps({key: getattr(value, key) for key in DISCARDED_KEYS})


def _shown(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 24 else shown[:24] + "…"
