"""A plan's projection priced by ``costs.whatif`` and ``costs.strategy``: the figures ``plan`` shows."""

from __future__ import annotations

import pytest

from studybot.bank.key import answer_text
from studybot.channel import config, files
from studybot.costs import strategy, tokens
from studybot.costs.cache.rules import resolve
from studybot.costs.prices import Price
from studybot.costs.whatif import PrefixChoice
from studybot.study import projection, prompt, session

NO_DISCOUNT = Price("m", input=1.0, cached_input=1.0, output=1.0, currency="USD")
DISCOUNT = Price("m", input=1.0, cached_input=0.1, output=1.0, currency="USD")


def exchanges(loaded, first: int, last: int, answers=None) -> list[strategy.Exchange]:
    return [
        strategy.Exchange(q.id, prompt.question_text(q), (answers or answer_text)(q))
        for q in loaded.select(first, last)
    ]


@pytest.mark.parametrize("rule", ["openai", "exact", "none", "deepseek"])
def test_the_long_chat_floor_is_the_single_strategys_last_prompt(shipped, rule):
    planned = projection.project(shipped, 3, 17, config.load(), rule=rule)
    prefix = prompt.system_prefix(shipped)
    floor = strategy.long_chat_tokens(prefix, exchanges(shipped, 3, 17))
    assert planned.single.requests[-1].prompt_tokens == floor == planned.floor
    assert [r.question for r in planned.single.requests] == list(range(3, 18))


def test_the_floor_follows_projected_answer_lengths(shipped):
    planned = projection.project(shipped, 1, 9, config.load(), answer_tokens=250)
    floor = strategy.long_chat_tokens(
        prompt.system_prefix(shipped), exchanges(shipped, 1, 9, lambda q: " x" * 250)
    )
    assert planned.floor == floor == planned.single.requests[-1].prompt_tokens
    assert {r.completion_tokens for r in planned.single.requests} == {250}


def test_the_single_strategy_grows_by_one_answer_and_one_question_per_request(shipped):
    planned = projection.project(shipped, 1, 6, config.load(), rule="exact")
    single = planned.single.requests
    steps = exchanges(shipped, 1, 6)
    for before, after, previous, asked in zip(single, single[1:], steps, steps[1:], strict=False):
        grown = len(tokens.message_ids("assistant", previous.answer)) + len(
            tokens.message_ids("user", asked.asked)
        )
        assert after.prompt_tokens == before.prompt_tokens + grown
        # one long chat under a perfect cache re-sends only what is new
        assert after.uncached_prompt_tokens == grown
    assert single[0].uncached_prompt_tokens == single[0].prompt_tokens


def test_the_segmented_strategy_is_the_planned_requests_measured(shipped):
    settings = config.load()
    planned = projection.project(shipped, 1, 20, settings)
    sent = projection.planned_requests(shipped, 1, 20, settings)
    measured = strategy.measure("segmented", sent, resolve(None, settings), settings.kv_model)
    assert planned.segmented == measured
    parts = session.cut(
        shipped.select(1, 20),
        prompt.system_prefix(shipped),
        settings,
        {q.id: tokens.count(answer_text(q)) for q in shipped.select(1, 20)},
    )
    assert planned.segments == len(parts)
    assert [s.kind for s in sent].count("summary") == len(parts) - 1


def test_the_cheaper_prefix_is_chosen_by_money_when_priced_else_by_uncached_tokens(shipped):
    planned = projection.project(shipped, 1, 20, config.load(), rule="openai")
    choice = planned.prefixes
    designed, short = choice.designed, choice.short
    # the designed prefix re-sends fewer uncached tokens, the short one fewer tokens in all
    assert designed.uncached_prompt_tokens < short.uncached_prompt_tokens
    assert designed.prompt_tokens > short.prompt_tokens
    assert choice.cheaper(None) == "designed"
    assert choice.cheaper(NO_DISCOUNT) == "short"  # every token costs the same: fewer tokens win
    assert choice.cheaper(DISCOUNT) == "designed"
    priced = projection.project(shipped, 1, 20, config.load(), rule="openai", price=NO_DISCOUNT)
    assert priced.to_json()["prefixes"]["cheaper"] == "short"
    assert planned.to_json()["prefixes"]["cheaper"] == "designed"


def one_request(prompt_tokens: int, uncached: int) -> strategy.Strategy:
    request = strategy.Request("answer", 1, 0, prompt_tokens, uncached, 100)
    return strategy.Strategy("segmented", (request,), None)


def test_a_tie_goes_to_the_designed_prefix():
    tie = PrefixChoice(one_request(2000, 500), one_request(2000, 500), 1900, 270)
    assert tie.cheaper(None) == "designed" and tie.cheaper(NO_DISCOUNT) == "designed"
    short_wins = PrefixChoice(one_request(3000, 600), one_request(1000, 500), 1900, 270)
    assert short_wins.cheaper(None) == "short" and short_wins.cheaper(DISCOUNT) == "short"
    designed_wins = PrefixChoice(one_request(3000, 400), one_request(1000, 500), 1900, 270)
    assert designed_wins.cheaper(None) == "designed"
    assert designed_wins.cheaper(NO_DISCOUNT) == "short"  # 3,000 tokens at full price cost more


def test_a_short_prefix_under_a_minimum_is_a_trap_with_its_figures(shipped):
    settings = config.load({"prefix_style": "short"})
    planned = projection.project(shipped, 1, 20, settings, rule="openai")
    trap = planned.trap
    assert trap is not None
    missed = [
        exact.prompt_tokens - exact.uncached_prompt_tokens
        for ruled, exact in zip(planned.segmented.requests, planned.exact.requests, strict=True)
        if ruled.uncached_prompt_tokens == ruled.prompt_tokens
        and exact.uncached_prompt_tokens < exact.prompt_tokens
    ]
    assert (trap.requests, trap.tokens) == (len(missed), sum(missed))
    assert trap.requests > 0 and trap.tokens > 0
    short = prompt.system_prefix(shipped, "short")
    assert trap.system_tokens == len(tokens.message_ids("system", short)) < 1024
    assert trap.min_tokens == 1024
    assert planned.to_json()["prefix_trap"] == trap.to_json()


@pytest.mark.parametrize("rule", ["exact", "none"])
def test_a_rule_without_a_minimum_has_no_trap(shipped, rule):
    settings = config.load({"prefix_style": "short"})
    assert projection.project(shipped, 1, 20, settings, rule=rule).trap is None


def test_the_designed_prefix_clears_the_openai_minimum_but_not_a_higher_one(shipped):
    assert projection.project(shipped, 1, 20, config.load(), rule="openai").trap is None
    path = files.config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("cache_min_tokens = 4096\ncache_step_tokens = 128\n", encoding="utf-8")
    higher = projection.project(shipped, 1, 20, config.load(), rule="custom")
    assert higher.rule.min_tokens == 4096
    assert higher.trap is not None and higher.trap.min_tokens == 4096
    designed = len(tokens.message_ids("system", prompt.system_prefix(shipped)))
    assert higher.trap.system_tokens == designed >= 1024


def test_the_break_point_is_the_first_question_whose_long_chat_passes_the_window(shipped):
    planned = projection.project(shipped, 1, 40, config.load(), window=6000)
    contexts = {r.question: r.context_tokens for r in planned.single.requests}
    at = planned.break_point
    assert contexts[at] > 6000 and all(contexts[q] <= 6000 for q in range(1, at))
    eight = planned.break_point_8k
    assert contexts[eight] > 8192 and all(contexts[q] <= 8192 for q in range(1, eight))
    assert planned.window == 6000 and at < eight
