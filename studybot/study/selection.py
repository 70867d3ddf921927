"""Choosing what a session studies: exactly one of a range, chapters, tags, ids, the weakest.

The bank answers the first four (``bank.selection``); the weakest seen
questions come from the review log (``learn.review``), read only for --weak.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from studybot.bank import SHIPPED, Bank, Question
from studybot.bank.selection import by_chapter, by_ids, by_tag
from studybot.errors import BadInput
from studybot.storage.store import SessionRecord, Store

# The kinds of selection and their flags, in the order an error names them.
KINDS = {
    "range": "--from/--to",
    "chapter": "--chapter",
    "tag": "--tag",
    "ids": "--ids",
    "weak": "--weak",
}
FLAGS = ", ".join(list(KINDS.values())[:-1]) + " or " + list(KINDS.values())[-1]


def choose(
    bank: Bank,
    store: Store | None,
    *,
    first: int | None = None,
    last: int | None = None,
    chapters: Iterable[int] = (),
    tags: Iterable[str] = (),
    ids: Iterable[int] = (),
    weak: int | None = None,
    bank_key: str = SHIPPED,
) -> tuple[Question, ...]:
    """The questions one selection names; BadInput unless exactly one is given.

    ``first``/``last``: a range (either end alone runs to the bank's edge).
    ``chapters``: whole chapters. ``tags``: questions with any of the tags.
    ``ids``: those questions. ``weak``: the N seen questions of ``bank_key``
    with the lowest mean grade (``store`` is read only for this one).
    """
    chapters, tags, ids = tuple(chapters), tuple(tags), tuple(ids)
    kind = kind_of(first, last, chapters, tags, ids, weak)
    if kind == "chapter":
        return by_chapter(bank, chapters)
    if kind == "tag":
        return by_tag(bank, tags)
    if kind == "ids":
        return by_ids(bank, ids)
    if kind == "weak":
        return weakest(bank, store, weak or 0, bank_key)
    return bank.select(bank.first if first is None else first, bank.last if last is None else last)


def kind_of(
    first: int | None,
    last: int | None,
    chapters: Sequence[int],
    tags: Sequence[str],
    ids: Sequence[int],
    weak: int | None,
) -> str:
    """Which one kind the flags choose; BadInput for none or several (``choose`` and ``kept``)."""
    present = {
        "range": first is not None or last is not None,
        "chapter": bool(chapters),
        "tag": bool(tags),
        "ids": bool(ids),
        "weak": weak is not None,
    }
    given = [kind for kind in KINDS if present[kind]]
    if not given:
        raise BadInput(
            "nothing chosen to study",
            hint=f"give one of {FLAGS}, e.g. --from 1 --to 8 or --chapter 3",
        )
    if len(given) > 1:
        raise BadInput(
            f"{' and '.join(KINDS[kind] for kind in given)} cannot be combined",
            hint=f"choose one of {FLAGS}",
        )
    return given[0]


def weakest(bank: Bank, store: Store | None, count: int, bank_key: str) -> tuple[Question, ...]:
    """The ``count`` seen questions with the lowest mean grade (fewer if fewer were seen)."""
    if count < 1:
        raise BadInput(f"--weak {count} must be at least 1", hint="e.g. --weak 8")
    from studybot.learn import review  # fsrs, only for --weak

    stats = review.question_stats(store, bank_key) if store is not None else {}
    chosen = review.by_weakness(stats, bank.questions)[:count]
    if not chosen:
        raise BadInput(
            f"no question of bank {bank_key!r} has been rated yet, so none is weak",
            hint="study and rate some first: studybot run --from 1 --to 8 --quiz",
        )
    return tuple(sorted(chosen, key=lambda q: q.id))


# -- what a session chose, as it keeps it ---------------------------------------

# The kinds a later run may continue (its summary carried on): spans of the bank in order.
SPANS = ("range", "chapter")


def kept(
    questions: tuple[Question, ...],
    *,
    first: int | None = None,
    last: int | None = None,
    chapters: Iterable[int] = (),
    tags: Iterable[str] = (),
    ids: Iterable[int] = (),
    weak: int | None = None,
) -> dict[str, Any]:
    """The selection as the session keeps it: its kind and what was given (``choose``'s flags)."""
    chapters, tags, ids = tuple(chapters), tuple(tags), tuple(ids)
    kind = kind_of(first, last, chapters, tags, ids, weak)
    if kind == "chapter":
        return {"kind": "chapter", "chapters": sorted(set(chapters))}
    if kind == "tag":
        return {"kind": "tag", "tags": list(tags)}
    if kind == "ids":
        return {"kind": "ids", "ids": [q.id for q in questions]}
    if kind == "weak":
        return {"kind": "weak", "count": weak}
    return {"kind": "range", "from": questions[0].id, "to": questions[-1].id}


def review_kept(questions: Sequence[Question], limit: int | None) -> dict[str, Any]:
    """A review session's selection: the due questions it serves, under its limit."""
    return {"kind": "review", "count": len(questions), "limit": limit}


def label(record: SessionRecord) -> str:
    """A session's selection in a few characters: "1–8", "ch 3–4", "tag kv-cache", "weak 10"."""
    chosen = record.selection
    kind = chosen.get("kind")
    if kind == "chapter":
        return "ch " + spans(chosen["chapters"])
    if kind == "tag":
        return "tag " + ",".join(chosen["tags"])
    if kind == "ids":
        return "ids " + spans(chosen["ids"])
    if kind == "weak":
        return f"weak {chosen['count']}"
    if kind == "review":
        return f"{chosen.get('count', record.total)} due"
    first, last = record.first_question, record.last_question
    return str(first) if first == last else f"{first}–{last}"


def runs(numbers: Iterable[int]) -> list[tuple[int, int]]:
    """Consecutive numbers as (first, last), in the order given: 3,4,5,9 -> (3, 5), (9, 9)."""
    out: list[list[int]] = []
    for n in numbers:
        if out and n == out[-1][1] + 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return [(first, last) for first, last in out]


def spans(numbers: Iterable[int]) -> str:
    """Numbers with their runs joined: 3,4,5,9 -> "3–5,9"."""
    return ",".join(str(a) if a == b else f"{a}–{b}" for a, b in runs(sorted(set(numbers))))


def id_ranges(ids) -> str:
    """Question ids as ranges: "Q1–Q8", "Q5", or a review's "Q2, Q6–Q8, Q23"."""
    return ", ".join(f"Q{a}" if a == b else f"Q{a}–Q{b}" for a, b in runs(ids))
