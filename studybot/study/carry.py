"""The last summary of a run, written when something reads it.

A run skips its last segment's summary: no segment follows to carry it,
and live it would be a paid request nothing reads. A later run of the same
bank and kind of selection that continues at the next question (``run
--from 9`` after ``--from 1 --to 8``) carries it into its first segment,
and ``export`` can ask for it; either writes it then, once, and it is kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from studybot.storage.store import SessionRecord, Store
from studybot.study.conversation import Conversation, history
from studybot.study.listening import Listener
from studybot.study.loop import summarise
from studybot.study.opening import Study
from studybot.study.selection import SPANS


@dataclass(frozen=True)
class Carried:
    """A finished session's last summary, carried into the run that continues it."""

    session_id: int
    summary: str


def continued_summary(
    study: Study,
    store: Store,
    chosen: Mapping[str, Any],
    first: int,
    listener: Listener | None = None,
) -> Carried | None:
    """The last summary of the newest finished session that this selection continues.

    Only a span continues a span of its kind: a range the range that ended at
    ``first - 1``, chapters the chapters that did (``selection.SPANS``). That
    session skipped its last summary (nothing read it then); it is written
    now, once, and kept. None when no such session ends right before.
    """
    kind = chosen.get("kind")
    if kind not in SPANS:
        return None
    previous = next(
        (
            r
            for r in store.sessions()
            if r.bank == study.key
            and r.selection.get("kind") == kind
            and r.last_question == first - 1
            and r.answered >= r.total
        ),
        None,
    )
    if previous is None:
        return None
    summary = last_summary(study, store, previous, listener or Listener())
    return Carried(previous.id, summary) if summary else None


def last_summary(
    study: Study, store: Store, session: SessionRecord, listener: Listener
) -> str | None:
    """The session's last segment summary, written now if it was never needed before."""
    segments = store.segments(session.id)
    if not segments:
        return None
    segment = segments[-1]
    if segment.summary_out is not None:
        return segment.summary_out
    answers = {turn.question_id: turn for turn in store.turns(session.id)}
    if not all(q in answers for q in segment.question_ids):
        return None
    turns = [answers[q] for q in segment.question_ids]
    conversation = Conversation(session.prefix, segment.summary_in, history(study.bank, turns))
    return summarise(study, store, session, segment, conversation, listener)
