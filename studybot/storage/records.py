"""The rows studybot keeps, as the values the store reads and writes.

Frozen dataclasses, one per table (``cards`` and ``reviews`` included), and
``SessionView``: everything stored about one session, read in one go, which
``show``, ``export``, ``cache`` and the cost report all render from.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from studybot.types import NONE_DISCARDED, Discarded, Usage

OFFLINE = "offline"  # the provider name of sessions the bank's answer key answered
# A key point's states as stored (learn.marks.STATES names them); a newer studybot may add more.
POINT_STATES = ("covered", "partly", "missed", "contradicted")


# A session's status, the same words in `sessions`, `show`, reports and --json: every
# question done; none yet; "stopped at Q22" (the first not done); all done, ratings to give.
FINISHED, NOT_STARTED, STOPPED_AT, NOT_RATED = (
    "finished",
    "not started",
    "stopped at",
    "not rated yet",
)


@dataclass(frozen=True)
class SessionRecord:
    id: int
    bank: str
    bank_title: str
    first_question: int
    last_question: int
    total: int
    provider: str
    model: str
    base_url: str
    wire_api: str
    settings: dict[str, Any]
    prefix: str
    created: str
    answered: int
    summaries_pending: int
    mode: str = "read"  # "read", "quiz" or "review"
    # what was chosen: {"kind": "range", "from", "to"} | {"kind": "chapter", "chapters"} |
    # "tag" ("tags") | "ids" ("ids") | "weak" ("count") | "review" ("limit")
    selection: dict[str, Any] = field(default_factory=dict)
    unrated: int = 0  # graded attempts not rated yet (the session stopped at "Rate recall")
    interviewing: int = 0  # interview questions asked whose answer or probes are not all in
    # questions done: answered (and rated, if graded); an interview's: answer and probes in
    done: int = 0
    stopped_at: int | None = None  # the first question not done, in the session's order

    @property
    def live(self) -> bool:
        """A real model answered (at least the latest part of) this session."""
        return self.provider != OFFLINE

    @property
    def complete(self) -> bool:
        """Every question answered, every summary a later segment needs written, every grade rated."""
        return (
            self.answered >= self.total
            and self.summaries_pending == 0
            and self.unrated == 0
            and self.interviewing == 0
        )

    @property
    def status(self) -> str:
        """Where the session stands, in the words every report uses (FINISHED and the rest)."""
        if self.complete:
            return FINISHED
        if self.done == 0:
            return NOT_STARTED
        if self.stopped_at is not None:
            return f"{STOPPED_AT} Q{self.stopped_at}"
        return NOT_RATED if self.unrated else "stopped at a summary"


@dataclass(frozen=True)
class SegmentRecord:
    index: int
    question_ids: tuple[int, ...]
    summary_in: str | None
    summary_out: str | None
    summary_usage: Usage | None = None  # what writing summary_out cost
    summary_discarded: Discarded = NONE_DISCARDED  # summary requests sent and thrown away

    @property
    def first_id(self) -> int:
        return self.question_ids[0]

    @property
    def last_id(self) -> int:
        return self.question_ids[-1]


@dataclass(frozen=True)
class Turn:
    session_id: int
    segment: int
    question_id: int
    question: str
    answer: str
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int
    context_tokens: int  # n = prompt + completion
    local_prompt_tokens: int
    local_completion_tokens: int
    usage_source: str  # "provider" or "local"
    latency_ms: float
    finish_reason: str | None = None
    answer_flag: str | None = None  # "truncated" (cut by the token limit) or "empty"
    usage_suspect: int = 0  # 1: reported usage disagreed with the local count (local sizes n)
    kv_bytes: int | None = None
    prefix_sha256: str | None = None
    created: str = ""
    discarded: Discarded = NONE_DISCARDED  # requests sent for this answer and thrown away

    @property
    def flag_text(self) -> str | None:
        """Why the saved answer is not whole, in words for reports and exports."""
        return ANSWER_FLAGS.get(self.answer_flag or "")


ANSWER_FLAGS = {
    "truncated": "cut by the token limit (max_output_tokens), even after one retry with more room",
    "empty": "the model returned an empty answer, twice",
}


@dataclass(frozen=True)
class PointMark:
    """One key point of a graded attempt: its state and the attempt's words that decided it."""

    point: str
    state: str  # "covered", "partly", "missed" or "contradicted"
    evidence: str | None = None  # a quote of the attempt (live) or the words matched (offline)

    @property
    def covered(self) -> bool:
        return self.state == "covered"


@dataclass(frozen=True)
class GradeRecord:
    """A graded quiz attempt as stored: the confirmed marks, and the grader's estimate beside them.

    ``points``/``score`` are what the learner confirmed (or the estimate as it
    was, when they changed nothing); ``estimate``/``estimate_score`` keep
    what the grader said, so a toggle never loses the machine's judgement.
    """

    session_id: int
    question_id: int
    attempt: str
    score: float | None
    points: tuple[PointMark, ...]
    advice: str
    source: str  # "live", "offline" or "offline-fallback"
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    requests: int = 0
    created: str = ""
    estimate: tuple[PointMark, ...] = ()  # the grader's marks; () = the same as ``points``
    estimate_score: float | None = None
    discarded: Discarded = NONE_DISCARDED  # beside ``requests``: sent and thrown away

    @property
    def changed(self) -> bool:
        """The learner changed at least one of the grader's marks."""
        return bool(self.estimate) and self.estimate != self.points


@dataclass(frozen=True)
class FollowUp:
    session_id: int
    question_id: int
    question: str
    answer: str
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int
    latency_ms: float
    created: str = ""
    discarded: Discarded = NONE_DISCARDED  # requests sent for this answer and thrown away


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class ReviewEntry:
    """One row of the review log: a rating, the grade behind it, the card after it."""

    question_id: int
    rating: int  # 1 Again, 2 Hard, 3 Good, 4 Easy
    grade: float | None  # 0-1; None when the attempt was not graded
    attempt: str | None
    reviewed_at: str  # ISO-8601 UTC
    session_id: int | None
    bank: str = ""
    card: str = ""  # the FSRS card after this rating, as JSON


@dataclass(frozen=True)
class CardRow:
    """A question's FSRS card as stored: the card as JSON and what is asked of it often."""

    bank: str
    question_id: int
    card: str  # fsrs.Card.to_dict() as JSON
    due: str  # ISO-8601 UTC
    state: str  # "learning", "review" or "relearning"
    last_rating: int
    reviews: int


@dataclass(frozen=True)
class ReviewStats:
    """What the log says of one question of a bank: its mean grade and last review."""

    mean_grade: float | None
    last_reviewed: str


@dataclass(frozen=True)
class InterviewAnswer:
    """The learner's answer to an interview question, and how long it took."""

    session_id: int
    question_id: int
    chapter: int
    chapter_title: str
    attempt: str
    seconds: float | None  # from the question shown to the answer sent (None: not readable)
    finished: int = 0  # 1: its probes are all asked and answered
    created: str = ""


@dataclass(frozen=True)
class ProbeRecord:
    """One interviewer's follow-up (追问) aimed at a key point, and how it was answered."""

    session_id: int
    question_id: int
    n: int  # 1, 2, ... in the order asked
    point: int  # the key point it aims at, 1-based
    state_before: str
    question: str
    source: str  # "rubric" (made from the rubric) or "model" (a side request)
    answer: str | None = None  # None until answered
    seconds: float | None = None
    state_after: str | None = None
    prompt_tokens: int = 0  # the probe's side request (0: made from the rubric)
    completion_tokens: int = 0
    cached_tokens: int = 0
    grade_prompt_tokens: int = 0  # the grading side request of its answer (live)
    grade_completion_tokens: int = 0
    grade_cached_tokens: int = 0
    latency_ms: float = 0.0
    created: str = ""
    discarded: Discarded = NONE_DISCARDED  # probe requests sent and thrown away
    grade_discarded: Discarded = NONE_DISCARDED  # the same, of its answer's grading


@dataclass(frozen=True)
class Spent:
    """The requests behind one saved reply: the ones kept, and the ones sent and thrown away."""

    kind: str  # "answer", "follow-up", "grading", "probe", "probe grading" or "summary"
    question_id: int | None  # None for a summary
    segment: int
    kept: int  # requests whose reply was read (a grade may read two)
    usage: Usage  # of the kept requests
    discarded: Discarded

    @property
    def requests(self) -> int:
        return self.kept + self.discarded.requests

    @property
    def prompt_tokens(self) -> int:
        return self.usage.prompt_tokens + self.discarded.prompt_tokens

    @property
    def completion_tokens(self) -> int:
        return self.usage.completion_tokens + self.discarded.completion_tokens

    @property
    def cached_tokens(self) -> int:
        return self.usage.cached_tokens + self.discarded.cached_tokens


@dataclass(frozen=True)
class SessionView:
    """One session as stored, read once: what every report of it renders from."""

    record: SessionRecord
    segments: tuple[SegmentRecord, ...]
    turns: tuple[Turn, ...]  # by question id
    followups: tuple[FollowUp, ...]  # in the order they were asked
    grades: dict[int, GradeRecord]  # question id -> its graded attempt
    reviews: dict[int, ReviewEntry]  # question id -> the latest rating given in the session
    prefixes: dict[str, str] = field(default_factory=dict)  # sha256 -> prefix text, of the turns
    interview: dict[int, InterviewAnswer] = field(default_factory=dict)  # question id -> answer
    probes: tuple[ProbeRecord, ...] = ()  # by question, in the order asked
    # what could not be read (a newer studybot's rows), in a few words each, and who wrote
    # the file when it is newer: "studybot 0.9.0 or newer"
    unread: tuple[str, ...] = ()
    newer: str | None = None

    def turn(self, question_id: int) -> Turn | None:
        return next((t for t in self.turns if t.question_id == question_id), None)

    def followups_of(self, question_id: int) -> list[FollowUp]:
        return [f for f in self.followups if f.question_id == question_id]

    def probes_of(self, question_id: int) -> list[ProbeRecord]:
        return [p for p in self.probes if p.question_id == question_id]

    def spent(self) -> list[Spent]:
        """Every request the session sent, grouped by the reply it was sent for, in
        reading order: answers (with their grading, probes and follow-ups), then summaries."""
        out: list[Spent] = []
        for turn in self.turns:
            q, seg = turn.question_id, turn.segment
            usage = Usage(turn.prompt_tokens, turn.completion_tokens, turn.cached_tokens)
            out.append(Spent("answer", q, seg, 1, usage, turn.discarded))
            graded = self.grades.get(q)
            if graded is not None and (graded.requests or graded.discarded.requests):
                usage = Usage(graded.prompt_tokens, graded.completion_tokens, graded.cached_tokens)
                out.append(Spent("grading", q, seg, graded.requests, usage, graded.discarded))
            for probe in self.probes_of(q):
                usage = Usage(probe.prompt_tokens, probe.completion_tokens, probe.cached_tokens)
                if probe.prompt_tokens or probe.discarded.requests:
                    out.append(
                        Spent(
                            "probe", q, seg, int(bool(probe.prompt_tokens)), usage, probe.discarded
                        )
                    )
                usage = Usage(
                    probe.grade_prompt_tokens,
                    probe.grade_completion_tokens,
                    probe.grade_cached_tokens,
                )
                if probe.grade_prompt_tokens or probe.grade_discarded.requests:
                    kept = int(bool(probe.grade_prompt_tokens))
                    out.append(Spent("probe grading", q, seg, kept, usage, probe.grade_discarded))
            for item in self.followups_of(q):
                usage = Usage(item.prompt_tokens, item.completion_tokens, item.cached_tokens)
                out.append(Spent("follow-up", q, seg, 1, usage, item.discarded))
        for segment in self.segments:
            if segment.summary_usage is not None or segment.summary_discarded.requests:
                usage = segment.summary_usage or Usage(0, 0)
                kept = int(segment.summary_usage is not None)
                out.append(
                    Spent("summary", None, segment.index, kept, usage, segment.summary_discarded)
                )
        return out
