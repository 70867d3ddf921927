"""What a run would send, built before anything is sent: ``studybot plan``'s requests.

The segmented run is cut (``cut``) and asked (``Conversation``) exactly as
``studybot run`` would, with the offline answer key's answers and summaries
(or stand-in answers of a live length), a summary request closing every
segment but the last (which nothing reads until a later run continues
from it). ``studybot.costs.whatif`` prices it against one long chat.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from studybot.bank import Bank, Question
from studybot.bank.key import has_answer, summary_text
from studybot.channel.config import Settings
from studybot.costs import tokens
from studybot.costs.cache.rules import resolve
from studybot.costs.prices import Price
from studybot.costs.strategy import Exchange, Sent
from studybot.costs.whatif import Design, Projection, compare
from studybot.study import prompt
from studybot.study.conversation import Asked, requests
from studybot.study.session import cut, projected_answers, projected_length


def project(
    bank: Bank,
    first: int,
    last: int,
    settings: Settings,
    *,
    answer_tokens: int | None = None,
    rule: str | None = None,
    window: int | None = None,
    price: Price | None = None,
    questions: Sequence[Question] | None = None,
) -> Projection:
    """Every request of both strategies for questions ``first``..``last`` (or ``questions``,
    a selection as ``run`` makes it: chapters, tags, ids)."""
    questions = bank.select(first, last) if questions is None else questions
    answer_tokens = projected_length(settings, settings.live, answer_tokens)
    answers, lengths = _inputs(questions, answer_tokens, settings)
    designs = {
        style: _design(bank, style, questions, settings, lengths, answers)
        for style in prompt.PREFIX_STYLES
    }
    exchanges = [Exchange(q.id, prompt.question_text(q), answers[q.id]) for q in questions]
    offline_gaps = sum(1 for q in questions if not has_answer(q))
    return compare(
        first=first,
        last=last,
        window=window or settings.context_window,
        rule=resolve(rule, settings),
        exact=resolve("exact", settings),
        style=settings.prefix_style,
        designs=designs,
        exchanges=exchanges,
        kv_model=settings.kv_model,
        answer_tokens=answer_tokens,
        live_answers=offline_gaps if answer_tokens is None else 0,
        live_tokens=settings.answer_tokens,
        price=price,
    )


def planned_requests(bank: Bank, first: int, last: int, settings: Settings) -> list[Sent]:
    """The segmented run's requests for ``first``..``last``, as ``project`` prices them."""
    questions = bank.select(first, last)
    answers, lengths = _inputs(questions, None, settings)
    return list(_design(bank, settings.prefix_style, questions, settings, lengths, answers).sent)


def _inputs(
    questions: Sequence[Question], answer_tokens: int | None, settings: Settings
) -> tuple[dict[int, str], Mapping[int, int] | int]:
    """Each question's projected answer text, and the answer lengths that cut segments."""
    answers = projected_answers(questions, settings, settings.live, answer_tokens)
    length = projected_length(settings, settings.live, answer_tokens)
    if length is not None:
        return answers, length
    return answers, {q: tokens.count(text) for q, text in answers.items()}


def _design(
    bank: Bank,
    style: str,
    questions: Sequence[Question],
    settings: Settings,
    lengths: Mapping[int, int] | int,
    answers: Mapping[int, str],
) -> Design:
    prefix = prompt.system_prefix(bank, style)
    parts = cut(questions, prefix, settings, lengths)
    by_id = {q.id: q for q in questions}
    sent = list(_segmented(prefix, [p.question_ids for p in parts], by_id, answers))
    return Design(prefix, len(parts), sent)


def _segmented(
    prefix: str,
    parts: Sequence[Sequence[int]],
    by_id: Mapping[int, Question],
    answers: Mapping[int, str],
) -> Iterator[Sent]:
    summary: str | None = None
    for index, ids in enumerate(parts):
        asked = [by_id[q] for q in ids]
        turns = [Asked(q, answers[q.id]) for q in asked]
        last = index == len(parts) - 1
        written = prompt.clip_summary(summary_text(asked, lines=prompt.SUMMARY_LINES))
        for item in requests(prefix, summary, turns, summarise=not last):
            completion = written if item.question_id is None else answers[item.question_id]
            yield Sent(item.kind, item.question_id, index, item.messages, completion)
        summary = written
