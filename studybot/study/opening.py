"""The one way into a study session: settings, bank, provider, the notice to show, then start.

``open_study`` is what ``run``, ``review``, ``resume`` and ``export`` call
before anything is asked: it reads the settings in their layers, loads the
bank (a path is stored resolved, so a session resumes from any folder),
picks the provider and says, once, which one answers. ``begin`` and
``begin_review`` then choose the questions and create the session;
``reopen`` does the same for a session that continues.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from studybot import bank as banks
from studybot.bank import Bank, Question
from studybot.channel import config, engine, providers
from studybot.channel.config import Settings
from studybot.channel.providers.base import Provider
from studybot.errors import BadInput

if TYPE_CHECKING:  # the store and the loop load when a session begins, not for `grade`
    from studybot.storage.store import SessionRecord, Store
    from studybot.study import carry


@dataclass(frozen=True)
class Study:
    """What a run needs besides the store: the bank, the provider, the settings."""

    bank: Bank
    provider: Provider
    settings: Settings
    key: str = ""  # how sessions name the bank (a saved name, a resolved path); "": its name

    def __post_init__(self) -> None:
        if not self.key:
            object.__setattr__(self, "key", self.bank.name)


@dataclass(frozen=True)
class Options:
    """What a command asks for, as parsed from its flags."""

    bank: str | None = None  # --bank: a saved bank's name, a folder or a file; None: shipped
    flags: Mapping[str, Any] = field(default_factory=dict)  # channel and segment flags
    session: SessionRecord | None = None  # a session to continue: its bank and its channel
    waiting_for_live: bool = False  # that session has questions only a live model can answer


def open_study(options: Options) -> tuple[Study, str | None]:
    """The study these options describe, and a notice to show once (or None)."""
    record = options.session
    if record is not None:
        from studybot.study import resuming

        settings = resuming.settings_for(record, dict(options.flags), options.waiting_for_live)
        key = record.bank
        bank = banks.load(resuming.bank_ref(record))
    else:
        settings = config.load(config.flag_settings(dict(options.flags)))
        ref = bank_key(options.bank)  # a path is stored resolved: resume from anywhere
        bank = banks.load(ref)
        storable(ref)
        key = ref or bank.name
    # The engine is asked first: the provider takes what it said (its cache rule,
    # and whether it decodes by grammar). Its later notices go to the provider's.
    settings, counting = engine.attach(settings, lambda line: provider.notify(line))
    provider, notice = providers.choose(settings, bank)
    notice = "\n".join(line for line in (notice, counting) if line) or None
    return Study(bank=bank, provider=provider, settings=settings, key=key), notice


def storable(ref: str | None) -> None:
    """BadInput for a bank path with bytes that are not UTF-8: sessions, ratings and reviews
    name their bank by it, and the database holds text only."""
    if ref is None or not _UNDECODED.search(ref):
        return
    from studybot.bank.text import named

    raise BadInput(
        f"the bank's path {named(ref)} holds bytes that are not UTF-8 (shown as �); "
        "studybot records each session's bank by its path, and cannot record that one",
        hint="import it under a name: studybot bank import FILE --name mine, then --bank mine "
        "(or rename the file)",
    )


_UNDECODED = re.compile("[\udc80-\udcff]")  # how Python keeps a path's undecodable bytes


@dataclass(frozen=True)
class Choice:
    """Which questions a run studies: exactly one of these (``study.selection``)."""

    first: int | None = None
    last: int | None = None
    chapters: tuple[int, ...] = ()
    tags: tuple[str, ...] = ()
    ids: tuple[int, ...] = ()
    weak: int | None = None

    def flags(self) -> dict[str, Any]:
        """The choice as ``selection.choose`` and ``selection.kept`` both read it."""
        return asdict(self)


@dataclass(frozen=True)
class Begun:
    """A new session, the store it lives in, and the finished session it continues, if any."""

    store: Store
    record: SessionRecord
    carried: carry.Carried | None


def bank_key(ref: str | None) -> str | None:
    """A --bank that names a path is stored resolved, so resume works from any folder."""
    if ref and Path(ref).expanduser().exists():
        return str(Path(ref).expanduser().resolve())
    return ref


def attended(mode: str, answerer: bool) -> None:
    """BadInput unless someone is there to answer a quiz or review (``answerer``: stdin is a terminal).

    Attempts piped in would be graded and rated as if a person had written
    them; read mode needs no one.
    """
    if mode == "read" or answerer:
        return
    raise BadInput(
        f"{'an' if mode[0] in 'aeiou' else 'a'} {mode} needs you at a terminal: "
        "standard input is not one, so nothing was started",
        hint="run it in a terminal; read mode works anywhere (studybot run --from 1 --to 8)",
    )


def chosen_questions(
    bank: Bank, choice: Choice, key: str
) -> tuple[tuple[Question, ...], Store | None]:
    """The questions ``choice`` names in ``bank`` (sessions name it ``key``), and the store
    read for --weak (None for any other choice: nothing else needs the database)."""
    from studybot.storage.store import Store
    from studybot.study import selection

    # Only --weak reads the review log; a home that has none has nothing rated yet.
    weak_from = Store.open() if choice.weak is not None and Store.exists() else None
    questions = selection.choose(bank, weak_from, bank_key=key, **choice.flags())
    return questions, weak_from


def begin(
    study: Study,
    choice: Choice,
    *,
    quiz: bool,
    fresh: bool,
    answerer: bool = True,
    mode: str | None = None,
    extra: Mapping[str, Any] | None = None,
) -> Begun:
    """A new session of the chosen questions; the database is opened once they are known.

    A run that starts right after a finished session of the same bank and
    the same kind of selection (``--from 9`` after ``--from 1 --to 8``,
    ``--chapter 4`` after ``--chapter 3``) starts from its last summary,
    unless ``fresh``; ids, tags, the weakest and reviews never continue one.
    ``mode`` overrides read/quiz (``"interview"``), ``extra`` its settings.
    A choice that names nothing studyable writes nothing, and so does a quiz
    with no one to answer it (``answerer`` False).
    """
    from studybot.storage.store import Store
    from studybot.study import carry, selection, session

    questions, weak_from = chosen_questions(study.bank, choice, study.key)
    chosen = selection.kept(questions, **choice.flags())
    mode = mode or ("quiz" if quiz else "read")
    attended(mode, answerer)
    store = weak_from or Store.open()
    carried = None if fresh else carry.continued_summary(study, store, chosen, questions[0].id)
    record = session.start(
        study,
        store,
        questions,
        mode=mode,
        carried=carried.summary if carried else None,
        selection=chosen,
        extra=extra,
    )
    return Begun(store, record, carried)


def begin_review(
    study: Study, store: Store, limit: int | None, answerer: bool = True
) -> SessionRecord | None:
    """A review session of what is due (most overdue first) and new, within today's limits.

    None when nothing is left to serve today (``learn.review.serve``).
    """
    from studybot.learn import review
    from studybot.study import selection, session

    questions = review.serve(store, study.bank, study.key, study.settings, limit=limit)
    if not questions:
        return None
    attended("review", answerer)
    chosen = selection.review_kept(questions, limit)
    return session.start(study, store, questions, mode="review", selection=chosen)


@dataclass(frozen=True)
class Reopened:
    """A session about to continue: the study, and what changed since it started."""

    study: Study
    record: SessionRecord
    notice: str | None
    edited: list[int]  # questions whose bank entry changed since the session started
    removed: list[int]  # questions no longer in the bank


def reopen(
    store: Store, session_id: int | str | None, flags: Mapping[str, Any], answerer: bool = True
) -> Reopened:
    """The session to resume (the newest unfinished one without an id), ready to continue.

    The session keeps its bank, segments and mode; flags override its channel,
    and the channel it continues with is recorded on it. A quiz or review
    with no one to answer it (``answerer`` False) is left as it was.
    """
    from studybot.study import resuming

    record = resuming.pick(store, session_id)
    attended(record.mode, answerer)
    waiting = not record.live and bool(resuming.unanswered_offline(store, record))
    study, notice = open_study(Options(flags=flags, session=record, waiting_for_live=waiting))
    edited, removed = resuming.changed_questions(record, study.bank)
    # A question that left the bank before it was asked cannot be asked: it leaves the plan.
    unasked = set(resuming.unanswered(store, record)) & set(removed)
    if unasked:
        store.drop_unasked(record.id, unasked)
    record = resuming.record_channel(
        store, store.session(record.id), study.provider, study.settings
    )
    return Reopened(study, record, notice, edited, removed)
