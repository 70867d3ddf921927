"""Cache rule presets on hand-made request sequences with known hits."""

from __future__ import annotations

import random

import pytest

from studybot.channel import config
from studybot.cli.common import CACHE_RULES
from studybot.costs.cache import rules
from studybot.errors import BadInput


def rule(name: str, **flags) -> rules.CacheRule:
    return rules.resolve(name, config.load(flags))


def serve(cache, *requests):
    """Each request is (prompt ids, output ids)."""
    return [cache.request(ids, output) for ids, output in requests]


def run_of(n: int, start: int = 0) -> list[int]:
    return list(range(start, start + n))


def test_openai_caches_nothing_under_1024_and_hits_in_128_token_steps():
    cache = rule("openai").simulator()
    system = run_of(1100)
    first = system + run_of(50, 10_000)
    second = first + run_of(300, 20_000)  # extends the first: shares 1,150 tokens
    third = system + run_of(40, 30_000)  # a new segment: shares the 1,100-token system part
    assert serve(cache, (first, []), (second, []), (third, [])) == [0, 1024, 1024]
    short = run_of(900, 50_000)
    assert serve(cache, (short, []), (short, [])) == [0, 0]  # never kept, never served


def test_deepseek_hits_only_whole_units_at_input_and_output_ends():
    cache = rule("deepseek").simulator()
    a, b, c, d = run_of(100), run_of(50, 1000), run_of(30, 2000), run_of(20, 3000)
    answer = run_of(40, 4000)
    assert cache.request(a + b, answer) == 0
    # the next turn extends input + output: the output-end unit matches in full
    assert cache.request(a + b + answer + c, run_of(10, 5000)) == 190
    # leaves a+b inside b: a alone was never a unit, so nothing hits...
    assert cache.request(a + d) == 0
    # ...but that common prefix a is now detected and kept as a unit of its own
    assert cache.request(a + c) == 100
    assert cache.request(a + b + c) == 150  # the input-end unit a+b of the first request


def test_gemini_minimum_follows_the_model_and_config_overrides_it():
    assert rule("gemini", model="gemini-2.5-flash").min_tokens == 1024
    assert rule("gemini", model="gemini-2.5-flash-lite").min_tokens == 2048
    assert rule("gemini", model="gemini-3-pro-preview").min_tokens == 4096
    assert rule("gemini", model="gemini-2.5-flash", cache_min_tokens=2048).min_tokens == 2048
    cache = rule("gemini", model="gemini-2.5-flash").simulator()
    shared = run_of(1100)
    assert serve(cache, (shared + [1], []), (shared + [2], [])) == [0, 1100]  # every token
    small = run_of(1000, 90_000)
    assert serve(cache, (small + [1], []), (small + [2], [])) == [0, 0]


def test_exact_hits_every_shared_token_and_none_hits_nothing():
    exact, none = rule("exact").simulator(), rule("none").simulator()
    trace = [([1, 2, 3, 4], []), ([1, 2, 3, 9], []), ([1, 2, 3, 4, 5], [])]
    assert serve(exact, *trace) == [0, 3, 4]
    assert serve(none, *trace) == [0, 0, 0]


def test_custom_takes_min_tokens_and_step_from_config(write_config):
    write_config('cache_rule = "custom"\ncache_min_tokens = 8\ncache_step_tokens = 4\n')
    custom = rules.resolve(None, config.load())
    assert (custom.name, custom.min_tokens, custom.step) == ("custom", 8, 4)
    cache = custom.simulator()
    assert serve(cache, (run_of(11), []), (run_of(11) + [99], [])) == [0, 8]


def test_the_default_comes_from_the_model_id_or_base_url():
    assert rules.default_name("deepseek-chat") == "deepseek"
    assert rules.default_name("deepseek/deepseek-v3") == "deepseek"
    assert rules.default_name("gemini-2.5-pro") == "gemini"
    assert rules.default_name("gpt-4o-mini") == "openai"
    assert rules.default_name("", "https://api.deepseek.com/v1") == "deepseek"
    assert rule(None, model="deepseek-chat").name == "deepseek"
    assert rule("openai", model="deepseek-chat").name == "openai"  # --cache-rule overrides


def test_old_names_stay_aliases_and_unknown_names_are_bad_input():
    assert rule("provider").name == "openai" and rule("simple").name == "exact"
    with pytest.raises(BadInput):
        rules.canonical("lru")
    assert sorted(CACHE_RULES) == sorted(rules.CHOICES)  # the CLI's literal list


def test_a_bad_cache_rule_in_config_names_the_setting(write_config):
    write_config('cache_rule = "fastest"\n')
    from studybot.errors import ConfigError

    with pytest.raises(ConfigError, match="cache_rule 'fastest'"):
        config.load()


@pytest.mark.parametrize("name", ["openai", "deepseek", "gemini", "exact", "llamacpp", "none"])
def test_chain_hit_from_lengths_equals_the_simulated_hit(name):
    """plan's one-long-chat projection (lengths only) against the token-level cache."""
    chosen = rule(name, model="gemini-2.5-flash" if name == "gemini" else None)
    cache = chosen.simulator()
    generator = random.Random(7)
    ids: list[int] = list(range(1300 if name != "none" else 10))
    previous_prompt = previous_output = 0
    for turn in range(40):
        question = [generator.randrange(50_000) for _ in range(generator.randrange(5, 60))]
        ids = ids + question
        output = [generator.randrange(50_000) for _ in range(generator.randrange(20, 200))]
        simulated = cache.request(ids, output)
        assert chosen.chain_hit(previous_prompt, previous_output, len(ids)) == simulated, turn
        previous_prompt, previous_output = len(ids), len(output)
        ids = ids + output


def test_llamacpp_reuses_the_slot_prompt_and_answer_but_evaluates_the_last_token():
    cache = rule("llamacpp").simulator()
    system, q1, a1, q2, a2 = (
        run_of(40),
        run_of(5, 100),
        run_of(7, 200),
        run_of(3, 300),
        run_of(4, 400),
    )
    first = system + q1
    second = first + a1 + q2  # the next turn re-sends the first prompt and its answer
    assert cache.request(first, a1) == 0
    assert cache.request(second, a2) == 52  # 45 prompt + 7 answer tokens held by the slot
    assert cache.request(second, a2) == 54  # the same prompt again: all but its last token
    assert cache.request(system) == 39  # a prompt inside the held tokens: still one evaluated


def test_llamacpp_one_slot_a_side_request_replaces_the_main_thread():
    """A grade between two main requests: with one slot, the grade's tokens evict the main ones."""
    cache = rule("llamacpp").simulator()
    system, q1, a1, grade, verdict, q2 = (
        run_of(40),
        run_of(5, 100),
        run_of(7, 200),
        run_of(9, 300),
        run_of(3, 400),
        run_of(6, 500),
    )
    main = system + q1
    assert cache.request(main, a1) == 0
    assert cache.request(main + grade, verdict) == 45  # the side request extends the main prompt
    # the slot now holds main + grade + verdict: the next main request shares only `main`
    assert cache.request(main + a1 + q2) == 45


def test_llamacpp_slots_keep_threads_apart_and_pick_the_longest_match():
    two = rules.resolve("llamacpp", config.load({"cache_slots": 2})).simulator()
    system, q1, a1, grade, verdict, q2 = (
        run_of(40),
        run_of(5, 100),
        run_of(7, 200),
        run_of(9, 300),
        run_of(3, 400),
        run_of(6, 500),
    )
    main = system + q1
    assert two.request(main, a1) == 0
    other = run_of(30, 9000)  # shares nothing: goes to the least recently used (empty) slot
    assert two.request(other) == 0
    # the grade shares 45 tokens with slot 0 and none with slot 1: slot 0 serves it
    assert two.request(main + grade, verdict) == 45
    assert two.request(other + run_of(4, 9500)) == 30  # slot 1 still holds `other`
    assert two.request(main + a1 + q2) == 45  # slot 0 holds the grade now


def test_llamacpp_is_chosen_in_config_with_its_slots(write_config):
    write_config('cache_rule = "llamacpp"\ncache_slots = 4\n')
    chosen = rules.resolve(None, config.load())
    assert (chosen.name, chosen.slots) == ("llamacpp", 4)
    assert chosen.describe().startswith("llamacpp (4 slots:")
