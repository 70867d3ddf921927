"""``plan --mode interview``: an interview's requests, projected before anything is sent.

The segments, the prefix and the summaries are the run's (``session.cut``,
``Conversation``); each question sends its main request (the interviewer
puts the question: offline the bank's wording, live a reply of
``ASKED_TOKENS``), then its side requests as a live run sends them: the
grading of the answer, then ``followups`` probes, each a side request
(``PROBE_TOKENS`` long) followed by the grading of its answer. The
learner's answers are stand-ins of ``ATTEMPT_TOKENS``; every point is
taken as missed, so every probe is asked.

An offline interview probes from the rubric and grades locally, sending no
side request; its plan counts them all the same, priced as a live run
would send them, since a plan is read for what going live costs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import partial

from studybot.bank import Bank, Question
from studybot.bank.key import summary_text
from studybot.channel.config import Settings
from studybot.costs.cache.rules import resolve
from studybot.costs.prices import Cost, Price
from studybot.costs.strategy import Sent, Strategy
from studybot.costs.whatif import measure
from studybot.learn import grading, live_grade
from studybot.learn import probes as probing
from studybot.study import prompt
from studybot.study.conversation import Asked, requests
from studybot.study.interview import DEFAULT_FOLLOWUPS
from studybot.study.session import answer_lengths, cut

ASKED_TOKENS = 60  # a live interviewer's one or two sentences putting the question
ATTEMPT_TOKENS = 150  # a learner's spoken-length answer, typed
PROBE_TOKENS = 40  # a live probe: one or two sentences
STAND_IN = " x"  # one token each: a text of exactly N tokens


@dataclass(frozen=True)
class InterviewPlan:
    """The projected requests of an interview, measured under one cache rule."""

    first: int
    last: int
    segments: int
    followups: int
    live: bool
    strategy: Strategy
    price: Price | None

    def by_kind(self) -> dict[str, tuple[int, int, int, int]]:
        """kind -> (requests, prompt tokens, cached prompt tokens, completion tokens)."""
        out: dict[str, tuple[int, int, int, int]] = {}
        for r in self.strategy.requests:
            n, p, c, o = out.get(r.kind, (0, 0, 0, 0))
            out[r.kind] = (
                n + 1,
                p + r.prompt_tokens,
                c + r.prompt_tokens - r.uncached_prompt_tokens,
                o + r.completion_tokens,
            )
        return out

    @property
    def cost(self) -> Cost | None:
        return self.strategy.cost(self.price)


def project(
    bank: Bank,
    first: int,
    last: int,
    settings: Settings,
    *,
    followups: int = DEFAULT_FOLLOWUPS,
    rule: str | None = None,
    price: Price | None = None,
    questions: Sequence[Question] | None = None,
) -> InterviewPlan:
    """What ``studybot interview`` sends for ``first``..``last`` (or ``questions``)."""
    questions = bank.select(first, last) if questions is None else questions
    live = settings.live
    prefix = prompt.system_prefix(bank, settings.prefix_style)
    asked = {q.id: STAND_IN * ASKED_TOKENS if live else q.question for q in questions}
    # Cut as a session of the questions is cut (session.start): the same segments as ``run``.
    parts = cut(questions, prefix, settings, answer_lengths(questions, settings, live))
    by_id = {q.id: q for q in questions}
    sent = list(_sent(prefix, [p.question_ids for p in parts], by_id, asked, followups))
    strategy = measure("interview", sent, resolve(rule, settings), settings.kv_model)
    return InterviewPlan(first, last, len(parts), followups, live, strategy, price)


def _sent(prefix, parts, by_id, asked, followups: int) -> Iterator[Sent]:
    summary: str | None = None
    side = partial(_side, attempt=STAND_IN * ATTEMPT_TOKENS, followups=followups)
    for index, ids in enumerate(parts):
        questions = [by_id[q] for q in ids]
        turns = [Asked(q, asked[q.id]) for q in questions]
        last = index == len(parts) - 1
        written = prompt.clip_summary(summary_text(questions, lines=prompt.SUMMARY_LINES))
        for item in requests(prefix, summary, turns, summarise=not last, interview=True, side=side):
            if item.kind == "summary":
                completion = written
            elif item.kind == "answer":
                completion = asked[item.question_id]
            elif item.kind == "probe":
                completion = STAND_IN * PROBE_TOKENS
            else:
                completion = _graded_reply(by_id[item.question_id])
            yield Sent(item.kind, item.question_id, index, item.messages, completion)
        summary = written


def _side(question: Question, attempt: str, followups: int) -> Sequence[tuple[str, str]]:
    """A question's side requests as a live run sends them: the answer's grading, then each
    probe and its grading."""
    points = grading.reference_points(question)
    result = grading.Grade(
        0.0, tuple(grading.PointResult(p, grading.MISSED) for p in points), "", ""
    )
    out = [("grading", live_grade.grading_request(question, attempt))]
    for n in range(1, min(followups, len(points)) + 1):
        target = probing.Target(n, points[n - 1], grading.MISSED, None)
        out.append(("probe", probing.request(question, attempt, result, target)))
        out.append(("grading", live_grade.grading_request(question, f"{attempt}\n{attempt}")))
    return out


def _graded_reply(question: Question) -> str:
    """A grading reply's length: one entry per point with a short quote, and the advice."""
    points = grading.reference_points(question)
    entries = ", ".join(
        f'{{"n": {n}, "state": "partly", "evidence": "一二三四五六七八九十"}}'
        for n in range(1, len(points) + 1)
    )
    return f'{{"points": [{entries}], "advice": "先补上遗漏的要点，再讲清楚数字。"}}'
