"""Questions of a bank by chapter, tag or id, and search.

Whatever the kind, the questions come back once each and in the bank's
order (ascending id), so the segment cut keeps each chapter's questions
together. Each unknown chapter, tag or id is bad input that names it and
says what exists. Which one selection a run makes is ``study.selection``'s.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Callable, Iterable

from studybot.bank import Bank, Question
from studybot.errors import BadInput


def by_chapter(bank: Bank, numbers: Iterable[int]) -> tuple[Question, ...]:
    wanted = set(numbers)
    known = {c.number for c in bank.chapters}
    unknown = sorted(wanted - known)
    if unknown:
        raise BadInput(
            f"no chapter {', '.join(map(str, unknown))} in bank {bank.name!r}",
            hint=f"its chapters are {min(known)}–{max(known)}; see `studybot bank list`",
        )
    return tuple(q for q in bank.questions if q.chapter in wanted)


def by_tag(bank: Bank, tags: Iterable[str]) -> tuple[Question, ...]:
    wanted = {t.strip().casefold() for t in tags}
    known = sorted({t for q in bank.questions for t in q.tags})
    unknown = sorted(wanted - {t.casefold() for t in known})
    if unknown:
        close = sorted({m for t in unknown for m in difflib.get_close_matches(t, known, n=3)})
        if not known:
            hint = "this bank has no tags; choose by --chapter or --ids instead"
        elif close:
            hint = f"did you mean {', '.join(close)}? (all {len(known)} tags: {', '.join(known)})"
        else:
            hint = f"its {len(known)} tags: {', '.join(known)}"
        raise BadInput(f"no question has the tag {', '.join(unknown)}", hint=hint)
    return tuple(q for q in bank.questions if wanted & {t.casefold() for t in q.tags})


def by_ids(bank: Bank, ids: Iterable[int]) -> tuple[Question, ...]:
    wanted = set(ids)
    known = {q.id for q in bank.questions}
    unknown = sorted(wanted - known)
    if unknown:
        raise BadInput(
            f"no question {', '.join(map(str, unknown))} in bank {bank.name!r}",
            hint=f"its questions are {bank.first}–{bank.last}",
        )
    return tuple(q for q in bank.questions if q.id in wanted)


def parse_numbers(text: str, flag: str) -> tuple[int, ...]:
    """ "5,23,34-36" -> (5, 23, 34, 35, 36); BadInput naming ``flag`` otherwise."""
    out: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        low, dash, high = part.partition("-")
        try:
            if dash:
                start, end = int(low), int(high)
                if start > end:
                    raise ValueError
                out.extend(range(start, end + 1))
            else:
                out.append(int(part))
        except ValueError:
            raise BadInput(
                f"{flag} {text!r}: {part!r} is not a number or a range",
                hint=f"write numbers separated by commas, e.g. {flag} 5,23,34-36",
            ) from None
    return tuple(out)


def search(
    bank: Bank, words: Iterable[str], spell: Callable[[str], str] | None = None
) -> tuple[Question, ...]:
    """Questions whose text, key points or tags hold every word (case- and width-blind).

    Words are substrings, so Chinese needs no spaces: "旋转位置" finds the RoPE question.
    ``spell``: a normaliser applied to both sides (the grader's, so that "KV cache"
    finds "KV 缓存"); spaces are ignored after it.
    """
    fold = _folded if spell is None else (lambda text: "".join(spell(_folded(text)).split()))
    wanted = [fold(w) for w in words if w.strip()]
    if not any(wanted):
        raise BadInput("nothing to search for", hint="e.g. studybot bank search KV 缓存")

    def text(q: Question) -> str:
        return fold("\n".join((q.question, *q.key_points, *q.tags)))

    return tuple(q for q in bank.questions if all(w in text(q) for w in wanted))


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()
