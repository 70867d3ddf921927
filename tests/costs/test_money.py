"""Money: prices from config or flags, costs in plan, show, sessions and the run's table."""

from __future__ import annotations

import json

import pytest

from studybot.channel import config, files
from studybot.costs import prices

COST_KEYS = {"currency", "input", "cached_input", "output", "total"}
OFFLINE_PRICES = """
[prices."answer-key"]
input = 2.0
cached_input = 0.5
output = 8.0
currency = "CNY"
"""


def test_a_cost_is_uncached_input_plus_cached_input_plus_output_per_million():
    price = prices.Price("m", input=2.0, cached_input=0.5, output=8.0, currency="CNY")
    cost = price.cost(prompt_tokens=3_000_000, cached_tokens=1_000_000, completion_tokens=500_000)
    assert (cost.input, cost.cached_input, cost.output) == (4.0, 0.5, 4.0)
    assert cost.total == 8.5 and set(cost.to_json()) == COST_KEYS
    assert cost.to_json()["currency"] == "CNY"


def test_prices_come_from_config_per_model_and_flags_override_them(write_config):
    write_config(
        'segment_max = 8\n[prices."deepseek-chat"]\ninput = 2\noutput = 8\ncurrency = "CNY"\n'
    )
    price = prices.for_model("deepseek-chat", files.price_tables())
    assert price == prices.Price("deepseek-chat", 2.0, 2.0, 8.0, "CNY")  # cached = input
    assert (
        prices.for_model("deepseek-chat", files.price_tables(), {"cached_input": 0.5}).cached_input
        == 0.5
    )
    assert prices.for_model("other-model", files.price_tables()) is None
    assert (
        prices.for_model("other-model", files.price_tables(), {"input": 1, "output": 2}).currency
        == "USD"
    )
    config.load()  # the [prices] tables are not unknown settings


def test_a_bad_price_names_the_model(write_config):
    from studybot.errors import ConfigError

    write_config('[prices."m"]\ninput = "cheap"\noutput = 1\n')
    with pytest.raises(ConfigError, match="prices for m"):
        prices.for_model("m", files.price_tables())
    write_config('[prices."m"]\ninput = 1\noutput = 1\ndiscount = 3\n')
    with pytest.raises(ConfigError, match="unknown key 'discount'"):
        prices.for_model("m", files.price_tables())


def test_plan_compares_the_strategies_in_money(invoke):
    args = ("plan", "--from", "1", "--to", "40", "--price-input", "2", "--price-cached", "0.2")
    args += ("--price-output", "8", "--currency", "CNY")
    data = json.loads(invoke(*args, "--json").stdout)
    costs = {name: s["cost"] for name, s in data["strategies"].items()}
    for name, cost in costs.items():
        assert set(cost) == COST_KEYS and cost["currency"] == "CNY"
        strategy = data["strategies"][name]
        cached = strategy["prompt_tokens"] - strategy["uncached_prompt_tokens"]
        assert cost["input"] == pytest.approx(strategy["uncached_prompt_tokens"] * 2 / 1e6)
        assert cost["cached_input"] == pytest.approx(cached * 0.2 / 1e6)
        assert cost["output"] == pytest.approx(strategy["completion_tokens"] * 8 / 1e6)
    assert costs["single"]["total"] > costs["segmented"]["total"]
    assert data["prefixes"]["cheaper"] in {"designed", "short"}
    text = invoke(*args)
    assert text.exit_code == 0, text.stderr
    assert "cost" in text.stdout and "CNY" in text.stdout
    assert "Prefix: designed" in text.stdout and "is cheaper" in text.stdout
    assert "Hint:" not in text.stderr


def test_without_prices_plan_shows_tokens_and_a_one_line_hint(invoke):
    result = invoke("plan", "--from", "1", "--to", "10")
    assert result.exit_code == 0
    assert [line for line in result.stderr.splitlines() if line.startswith("Hint:")] == [
        result.stderr.strip()
    ]
    assert 'prices."MODEL_ID"' in result.stderr


def test_show_sessions_and_the_run_table_carry_costs(write_config, invoke):
    write_config(OFFLINE_PRICES)
    run = invoke("run", "--from", "1", "--to", "14")
    assert run.exit_code == 0, run.stderr
    assert "cost " in run.stdout and "CNY" in run.stdout  # the run's final table
    shown = json.loads(invoke("show", "1", "--json").stdout)
    assert shown["cache_rule"] == "openai"
    turns = shown["turns"]
    for turn in turns:
        cost = turn["cost"]
        assert set(cost) == COST_KEYS
        uncached = turn["prompt_tokens"] - turn["cached_tokens"]
        assert cost["input"] == pytest.approx(uncached * 2 / 1e6)
        assert cost["cached_input"] == pytest.approx(turn["cached_tokens"] * 0.5 / 1e6)
    segments = shown["segments"]
    # a segment's cost is its answers plus its summary request
    first = segments[0]
    summary = first["summary_usage"]
    expected = (
        sum(t["cost"]["total"] for t in turns if t["segment"] == 0)
        + (
            (summary["prompt_tokens"] - summary["cached_tokens"]) * 2
            + summary["cached_tokens"] * 0.5
            + summary["completion_tokens"] * 8
        )
        / 1e6
    )
    assert first["cost"]["total"] == pytest.approx(expected)
    assert shown["cost"]["total"] == pytest.approx(sum(s["cost"]["total"] for s in segments))
    listed = json.loads(invoke("sessions", "--json").stdout)
    assert listed[0]["cost"] == shown["cost"]
    table = invoke("sessions")
    assert "cost" in table.stdout and "CNY" in table.stdout
    text = invoke("show", "1").stdout
    assert "summaries included" in text and "seg 2" in text


def test_show_without_prices_has_null_costs_and_a_hint(invoke):
    invoke("run", "--from", "1", "--to", "6")
    shown = json.loads(invoke("show", "1", "--json").stdout)
    assert shown["cost"] is None and all(t["cost"] is None for t in shown["turns"])
    hint = invoke("show", "1").stdout
    assert "offline answers cost nothing" in hint
    assert "studybot plan --from 1 --to 6 --price-input" in hint
