"""A past session rebuilt: the requests it sent, their money, its KV and its cache rule."""

from __future__ import annotations

import pytest
from openai_server import OpenAIServer

from studybot import bank
from studybot.channel import config, files, providers
from studybot.channel.providers.openai_compat import OpenAICompatProvider
from studybot.costs import prices, tokens
from studybot.costs.kv.estimate import kv_bytes
from studybot.costs.kv.shapes import find
from studybot.costs.strategy import Exchange, long_chat_tokens
from studybot.storage.store import Store
from studybot.study import carry, recorded, session
from studybot.study.prompt import question_text

KEY = "sk-recorded-test-0123456789abcdef"
PRICES = {"input": 2.0, "cached_input": 0.5, "output": 8.0, "currency": "CNY"}


class Wiretap:
    """A provider that notes every request and what came back, then lets the real one answer."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.name, self.model, self.live = inner.name, inner.model, inner.live
        self.notify = inner.notify
        self.sent: list[tuple] = []  # (kind, question id, messages, reply text, cached tokens)

    def warm(self, requests) -> None:
        self.inner.warm(requests)

    def _note(self, kind, question_id, messages, reply):
        cached = reply.usage.cached_tokens if reply.usage else None
        self.sent.append((kind, question_id, [dict(m) for m in messages], reply.text, cached))
        return reply

    def answer(self, messages, *, question, on_text=None):
        reply = self.inner.answer(messages, question=question, on_text=on_text)
        return self._note("answer", question.id, messages, reply)

    def follow_up(self, messages, *, question, text, on_text=None):
        reply = self.inner.follow_up(messages, question=question, text=text, on_text=on_text)
        return self._note("follow-up", question.id, messages, reply)

    def summarise(self, messages, *, questions, lines):
        reply = self.inner.summarise(messages, questions=questions, lines=lines)
        return self._note("summary", None, messages, reply)

    def grade(self, messages, *, question):
        return self.inner.grade(messages, question=question)

    def probe(self, messages, *, question):
        return self.inner.probe(messages, question=question)


class Asks(session.Listener):
    """Asks the scripted follow-ups after each answer; quits after ``quit_at``."""

    def __init__(self, follow_ups: dict[int, list[str]], quit_at: int | None = None) -> None:
        self.pending = {q: list(texts) for q, texts in follow_ups.items()}
        self.quit_at = quit_at

    def after_answer(self, question, suggestion):
        if self.pending.get(question.id):
            return session.FOLLOW_UP
        return session.QUIT if question.id == self.quit_at else session.NEXT

    def follow_up_text(self, question):
        return self.pending[question.id].pop(0)


def offline_study(settings=None) -> session.Study:
    settings = settings or config.load()
    loaded = bank.load()
    provider, _ = providers.choose(settings, loaded)
    return session.Study(loaded, Wiretap(provider), settings)


def as_sent(requests) -> list[tuple]:
    return [(r.kind, r.question_id, r.messages, r.output, r.reported_cached) for r in requests]


FOLLOW_UPS = {2: ["批大小会改变这个倍数吗？", "那 GQA 呢？"], 10: ["举个数字例子"]}


def recorded_session(first: int, last: int) -> tuple[session.Study, Store, int]:
    """A session with follow-ups in two segments, its last summary written as export would."""
    study = offline_study()
    store = Store.open()
    record = session.start(study, store, bank.load().select(first, last))
    session.run(study, store, record, Asks(FOLLOW_UPS))
    carry.last_summary(study, store, store.session(record.id), session.Listener())
    return study, store, record.id


def test_session_requests_are_what_the_loop_sent_follow_ups_and_summaries_included():
    study, store, session_id = recorded_session(1, 14)
    view = store.view(session_id)
    assert len(view.segments) == 2 and all(s.summary_out for s in view.segments)
    rebuilt = recorded.session_requests(view)
    assert as_sent(rebuilt) == study.provider.sent
    kinds = [r.kind for r in rebuilt]
    assert kinds.count("answer") == 14 and kinds.count("follow-up") == 3
    assert kinds.count("summary") == 2
    assert [r.segment for r in rebuilt if r.kind == "summary"] == [0, 1]
    segment_of = {q: s.index for s in view.segments for q in s.question_ids}
    assert all(r.segment == segment_of[r.question_id] for r in rebuilt if r.question_id)
    assert {r.prefix for r in rebuilt} == {view.record.prefix}


def test_an_interrupted_and_resumed_session_rebuilds_as_one_and_its_cache_stays_warm():
    whole_study, whole_store, whole_id = recorded_session(1, 14)
    whole = recorded.session_requests(whole_store.view(whole_id))

    first = offline_study()
    store = Store.open()
    record = session.start(first, store, bank.load().select(1, 14))
    with pytest.raises(session.Stopped):
        session.run(first, store, record, Asks(FOLLOW_UPS, quit_at=5))
    then = offline_study()  # a new process: a new provider with a cold cache
    session.run(then, store, store.session(record.id), Asks({10: FOLLOW_UPS[10]}))
    carry.last_summary(then, store, store.session(record.id), session.Listener())
    rebuilt = recorded.session_requests(store.view(record.id))
    assert as_sent(rebuilt) == first.provider.sent + then.provider.sent
    # the resumed provider was warmed with what was sent before, so it hit as if never stopped
    assert [r.reported_cached for r in rebuilt] == [r.reported_cached for r in whole]
    assert [r.messages for r in rebuilt] == [r.messages for r in whole]


def test_money_prices_every_request_the_session_sent():
    _, store, session_id = recorded_session(1, 14)
    view = store.view(session_id)
    money = recorded.money(view, {"answer-key": PRICES})
    price = prices.Price("answer-key", 2.0, 0.5, 8.0, "CNY")
    assert money.price == price and money.rule.name == "openai"
    for turn in view.turns:
        assert money.cached[turn.question_id] == turn.cached_tokens  # offline: the rule's own
        assert money.turn_cost(turn.question_id) == price.cost(
            turn.prompt_tokens, turn.cached_tokens, turn.completion_tokens
        )
    side = [(f.prompt_tokens, f.cached_tokens, f.completion_tokens) for f in view.followups]
    side += [
        (u.prompt_tokens, u.cached_tokens, u.completion_tokens)
        for u in (s.summary_usage for s in view.segments)
    ]
    expected = sum(
        price.cost(t.prompt_tokens, t.cached_tokens, t.completion_tokens).total for t in view.turns
    )
    expected += sum(price.cost(*usage).total for usage in side)
    assert money.total.currency == "CNY"
    assert money.total.total == pytest.approx(expected)
    assert sum(money.segment_cost(s.index).total for s in view.segments) == pytest.approx(expected)
    assert money.segment_cost(0).total > sum(money.turn_cost(q).total for q in range(1, 8))


def test_money_reads_the_config_prices_and_without_any_reports_no_cost():
    _, store, session_id = recorded_session(1, 6)
    view = store.view(session_id)
    bare = recorded.money(view)
    assert bare.price is None and bare.cost is None and bare.total is None
    assert bare.turn_cost(1) is None and bare.segment_cost(0) is None
    assert set(bare.cached) == set(range(1, 7))
    path = files.config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        '[prices."answer-key"]\ninput = 2.0\ncached_input = 0.5\noutput = 8.0\ncurrency = "CNY"\n',
        encoding="utf-8",
    )
    assert recorded.money(view).total == recorded.money(view, {"answer-key": PRICES}).total
    assert recorded.money(view, {}).total is None  # tables given: the config is not read


def live_session(server: OpenAIServer) -> tuple[Store, int]:
    settings = config.load({"base_url": server.base_url, "model": "test-model"})
    loaded = bank.load()
    study = session.Study(loaded, OpenAICompatProvider(settings), settings)
    store = Store.open()
    record = session.start(study, store, loaded.select(1, 12))
    session.run(study, store, record, session.Listener())
    return store, record.id


def test_a_live_session_without_reported_usage_is_priced_with_the_rules_simulation(monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    with OpenAIServer(key=KEY, usage=None) as server:
        store, session_id = live_session(server)
        sent = [r.messages for r in server.generations]
    view = store.view(session_id)
    assert all(t.usage_source == "local" and t.cached_tokens == 0 for t in view.turns)
    rule = recorded.cache_rule(view)
    assert rule.name == "openai"
    # what the openai rule serves the requests the server received, in the order it got them
    cache = rule.simulator()
    hits = [cache.request(tokens.request_ids(messages)) for messages in sent]
    summary = [m[-1]["content"].startswith("用不超过") for m in sent]
    answers = [hit for hit, closing in zip(hits, summary, strict=True) if not closing]
    expected = dict(zip(range(1, 13), answers, strict=True))
    assert recorded.cached_tokens(view, rule) == expected
    assert expected[1] == 0 and min(expected[q] for q in range(2, 13)) >= 1024
    money = recorded.money(view, {"test-model": PRICES})
    first = view.turn(2)
    assert money.turn_cost(2) == prices.Price("test-model", 2.0, 0.5, 8.0, "CNY").cost(
        first.prompt_tokens, expected[2], first.completion_tokens
    )


def test_a_live_session_with_reported_usage_keeps_what_the_provider_said(monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    with OpenAIServer(key=KEY) as server:
        store, session_id = live_session(server)
    view = store.view(session_id)
    assert all(t.usage_source == "provider" for t in view.turns)
    reported = {t.question_id: t.cached_tokens for t in view.turns}
    assert any(reported.values())
    assert recorded.cached_tokens(view, recorded.cache_rule(view, "exact")) == reported


def test_session_kv_sets_the_peak_request_against_one_long_session():
    _, store, session_id = recorded_session(1, 14)
    view = store.view(session_id)
    kv = recorded.session_kv(view)
    turns = view.turns
    summaries = [s.summary_usage for s in view.segments]
    assert kv.peak_tokens == max(
        [t.context_tokens for t in turns]
        + [u.prompt_tokens + u.completion_tokens for u in summaries]
    )
    # a summary request carries its whole segment, so it is the peak here
    assert kv.peak_tokens > max(t.context_tokens for t in turns)
    # one long session: what it prefills over these questions, plus the last answer to come
    exchanges = [
        Exchange(t.question_id, question_text(bank.load().get(t.question_id)), t.answer)
        for t in turns
    ]
    long_prompt = long_chat_tokens(view.record.prefix, exchanges)
    assert kv.long_tokens == long_prompt + turns[-1].local_completion_tokens
    assert kv.long_tokens > kv.peak_tokens
    shape = find(kv.model)
    assert kv.model == "qwen2.5-7b"
    assert (kv.peak_bytes, kv.long_bytes) == (
        kv_bytes(shape, kv.peak_tokens),
        kv_bytes(shape, kv.long_tokens),
    )
    assert kv.ratio == kv.long_bytes / kv.peak_bytes


def test_session_kv_is_none_without_turns():
    study = offline_study()
    store = Store.open()
    record = session.start(study, store, bank.load().select(1, 3))
    assert recorded.session_kv(store.view(record.id)) is None


def test_the_cache_rule_is_the_named_one_else_the_sessions_own():
    _, store, session_id = recorded_session(1, 6)
    view = store.view(session_id)
    assert recorded.cache_rule(view).name == "openai"  # the default for the answer key
    assert recorded.cache_rule(view, "exact").name == "exact"
    assert recorded.cache_rule(view, "simple").name == "exact"  # an old alias
    path = files.config_path()
    path.write_text('cache_rule = "deepseek"\n', encoding="utf-8")
    assert recorded.cache_rule(view).name == "deepseek"  # the settings name one


def test_a_live_sessions_rule_follows_its_recorded_model():
    store = Store.open()
    session_id = store.new_session(
        bank="default",
        bank_title="t",
        first_question=1,
        last_question=2,
        provider="openai-compat",
        model="deepseek-chat",
        base_url="https://api.deepseek.com",
        wire_api="chat",
        settings={},
        prefix="前缀",
        segments=[(1, 2)],
    )
    view = store.view(session_id)
    assert recorded.cache_rule(view).name == "deepseek"
    assert recorded.cache_rule(view, "none").name == "none"
