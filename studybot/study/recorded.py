"""A past session, rebuilt: the requests it sent, and what they cost.

The store keeps what went into every request: the system prefix (by hash,
per turn), each segment's carried summary, every question and answer and
every follow-up. ``session_requests`` assembles them again, in the order
they were sent, with the same ``Conversation`` that sent them; the cost
report replays them under the session's cache rule where the provider
reported no cached tokens.
"""

from __future__ import annotations

from studybot.channel import config, files
from studybot.costs import prices, tokens
from studybot.costs.cache.lint import Finding, lint
from studybot.costs.cache.recorded import RecordedRequest, report
from studybot.costs.cache.rules import CacheRule, resolve
from studybot.costs.kv.estimate import kv_bytes
from studybot.costs.kv.shapes import find
from studybot.costs.kv.turns import SessionKV, kv_model
from studybot.storage.store import SessionView, Turn
from studybot.study.conversation import Asked, asked_question, requests
from studybot.study.prompt import question_text


def session_requests(view: SessionView) -> list[RecordedRequest]:
    """Every request the session sent, in order: answers, follow-ups, summary requests."""
    record = view.record
    out: list[RecordedRequest] = []
    for segment in view.segments:
        asked: list[Asked] = []
        kept: dict[int, Turn] = {}  # the turns of this segment, by question
        for question_id in segment.question_ids:
            turn = view.turn(question_id)
            if turn is None:
                break
            kept[question_id] = turn
            # The question as it was asked, with no bank: the bank may have changed since.
            question = asked_question(None, turn.question_id, turn.question)
            texts = tuple(f.question for f in view.followups_of(question_id))
            prefix = view.prefixes.get(turn.prefix_sha256 or "", record.prefix)
            asked.append(Asked(question, turn.answer, texts, prefix))
        pending = {q: view.followups_of(q) for q in segment.question_ids}
        summarised = segment.summary_out is not None
        interview = (
            record.mode == "interview"
        )  # its main requests ask the model to put each question
        for sent in requests(
            record.prefix, segment.summary_in, asked, summarise=summarised, interview=interview
        ):
            asked_id = sent.question_id  # None only for the summary request
            cached: int | None
            output: str | None
            if sent.kind == "answer" and asked_id is not None:
                turn = kept[asked_id]
                cached, output = turn.cached_tokens, turn.answer
            elif sent.kind == "follow-up" and asked_id is not None:
                followup = pending[asked_id].pop(0)
                cached, output = followup.cached_tokens, followup.answer
            else:
                usage = segment.summary_usage
                cached, output = (usage.cached_tokens if usage else None), segment.summary_out
            out.append(
                RecordedRequest(
                    sent.kind,
                    sent.question_id,
                    segment.index,
                    sent.prefix,
                    sent.messages,
                    cached,
                    output,
                )
            )
    return out


def prefix_findings(view: SessionView) -> list[Finding]:
    """Lint of the prefixes the session sent so far plus the one it sends next."""
    prefixes = [request.prefix for request in session_requests(view)]
    return lint([*prefixes, view.record.prefix])


def cache_rule(view: SessionView, name: str | None = None) -> CacheRule:
    """The cache rule a session's reports use: ``name``, else its settings' rule for its model."""
    return resolve(name, config.recorded_settings(view.record))


def cached_tokens(view: SessionView, rule: CacheRule) -> dict[int, int]:
    """Cached tokens per answered question: as reported, else as ``rule`` simulates them.

    The offline provider's figures are already the rule's simulation; a
    live provider that reported usage always wins.
    """
    live = view.record.live
    simulate = {t.question_id for t in view.turns if live and t.usage_source != "provider"}
    out = {t.question_id: t.cached_tokens for t in view.turns}
    if simulate:
        for replayed in report(session_requests(view), rule.simulator()):
            question = replayed.request.question_id
            if replayed.request.kind == "answer" and question in simulate:
                out[question] = replayed.hit
    return out


def money(view: SessionView, tables: dict | None = None) -> prices.SessionMoney:
    """What ``show``, the run's table and ``sessions`` report about a session's money.

    ``tables`` are the config's price tables, when the caller has read them already.
    """
    rule = cache_rule(view)
    cached = cached_tokens(view, rule)
    tables = files.price_tables() if tables is None else tables
    price = prices.for_model(view.record.model, tables)
    grader = grader_model(view)
    side = prices.for_model(grader, tables) if grader else price
    cost = prices.session_cost(view, price, cached, side)
    return prices.SessionMoney(rule, cached, price, cost)


def grader_model(view: SessionView) -> str | None:
    """The model a session's grades and probes went to, when not the answering one."""
    grader = view.record.settings.get("grader")
    return str(grader.get("model") or "") or None if isinstance(grader, dict) else None


def sides(view: SessionView, tables: dict | None = None) -> tuple[prices.Side, prices.Side]:
    """What each side of the session took and cost: the answering model, the grader."""
    rule = cache_rule(view)
    tables = files.price_tables() if tables is None else tables
    grader = grader_model(view)
    return prices.sides(
        view,
        cached_tokens(view, rule),
        prices.for_model(view.record.model, tables),
        grader,
        prices.for_model(grader, tables) if grader else None,
    )


def session_kv(view: SessionView) -> SessionKV | None:
    """Peak KV of a session's turns and summary requests against one long session.

    A summary request carries its segment's whole history, so it is often
    the peak. The long session's n is counted locally from lengths (prefix,
    every question and answer as sent, the last answer to come), as no
    provider ever saw that request.
    """
    turns = view.turns
    summaries = [s.summary_usage for s in view.segments]
    prefix = view.record.prefix
    model = kv_model(view.record.settings)
    shape = find(model)
    if shape is None or not turns:
        return None
    peak = max(
        [turn.context_tokens for turn in turns]
        + [s.prompt_tokens + s.completion_tokens for s in summaries if s is not None]
    )
    long_tokens = len(tokens.message_ids("system", prefix)) + len(tokens.reply_primer())
    for turn in turns:
        asked = asked_question(None, turn.question_id, turn.question)
        long_tokens += len(tokens.message_ids("user", question_text(asked)))
    for turn in turns[:-1]:
        long_tokens += len(tokens.message_ids("assistant", turn.answer))
    long_tokens += turns[-1].local_completion_tokens
    return SessionKV(
        model=model,
        peak_tokens=peak,
        peak_bytes=kv_bytes(shape, peak),
        long_tokens=long_tokens,
        long_bytes=kv_bytes(shape, long_tokens),
    )
