"""``studybot plan``: the projection of segmented versus one long chat."""

from __future__ import annotations

import json
import sys

import pytest

from studybot import bank
from studybot.channel import config
from studybot.costs import tokens
from studybot.study import projection as projections
from studybot.study import prompt
from studybot.study.conversation import Conversation

STRATEGY_KEYS = {
    "requests",
    "prompt_tokens",
    "uncached_prompt_tokens",
    "completion_tokens",
    "peak_context_tokens",
    "peak_kv_bytes",
    "prefill_decode_ratio",
    "cost",
}
COST_KEYS = {"currency", "input", "cached_input", "output", "total"}


def plan_json(invoke, *args):
    result = invoke("plan", *args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_plan_json_has_the_documented_keys(invoke):
    data = plan_json(invoke, "--from", "1", "--to", "20")
    assert {
        "range",
        "window",
        "strategies",
        "floor_uncached_prompt_tokens",
        "break_point",
    } <= set(data)
    assert data["range"] == {"from": 1, "to": 20} and data["window"] == 32768
    assert set(data["strategies"]) == {"segmented", "single"}
    for strategy in data["strategies"].values():
        assert set(strategy) >= STRATEGY_KEYS
        requests = strategy["requests"]
        assert strategy["prompt_tokens"] == sum(r["prompt_tokens"] for r in requests)
        assert strategy["peak_context_tokens"] == max(r["context_tokens"] for r in requests)
        assert strategy["prefill_decode_ratio"] == pytest.approx(
            strategy["uncached_prompt_tokens"] / strategy["completion_tokens"], abs=1e-4
        )
    assert set(data["break_point"]) == {"single", "single_8k"}
    assert data["cache_rule"] == "openai" and data["prefix_trap"] is None
    assert data["floor_definition"].startswith("what one long session must prefill")
    assert all(s["cost"] is None for s in data["strategies"].values())  # no prices


def test_segmented_is_exactly_what_run_sends(invoke):
    assert invoke("run", "--from", "1", "--to", "12").exit_code == 0
    shown = json.loads(invoke("show", "1", "--json").stdout)
    planned = plan_json(invoke, "--from", "1", "--to", "12", "--cache-rule", "exact")
    planned = planned["strategies"]["segmented"]
    answers = [r for r in planned["requests"] if r["kind"] == "answer"]
    assert [r["question"] for r in answers] == [t["question_id"] for t in shown["turns"]]
    assert [r["prompt_tokens"] for r in answers] == [t["prompt_tokens"] for t in shown["turns"]]
    assert [r["completion_tokens"] for r in answers] == [
        t["completion_tokens"] for t in shown["turns"]
    ]
    assert [r["segment"] - 1 for r in answers] == [t["segment"] for t in shown["turns"]]
    recorded = json.loads(invoke("cache", "1", "--json").stdout)["requests"]
    assert [r["prompt_tokens"] for r in planned["requests"]] == [r["tokens"] for r in recorded]
    assert [r["prompt_tokens"] - r["uncached_prompt_tokens"] for r in planned["requests"]] == [
        r["hit"] for r in recorded
    ]
    # one rule everywhere: plan, the offline provider's cached tokens, cache SESSION
    ruled = plan_json(invoke, "--from", "1", "--to", "12", "--cache-rule", "openai")
    ruled_hits = [
        r["prompt_tokens"] - r["uncached_prompt_tokens"]
        for r in ruled["strategies"]["segmented"]["requests"]
    ]
    provider = json.loads(
        invoke("cache", "1", "--mode", "provider", "--cache-rule", "openai", "--json").stdout
    )
    assert ruled_hits == [r["hit"] for r in provider["requests"]]
    is_answer = [r["kind"] == "answer" for r in ruled["strategies"]["segmented"]["requests"]]
    answer_hits = [hit for hit, answer in zip(ruled_hits, is_answer, strict=True) if answer]
    assert [t["cached_tokens"] for t in shown["turns"]] == answer_hits
    assert provider["cache_rule"] == "openai" and shown["cache_rule"] == "openai"


def test_break_point_is_the_first_question_past_the_window(invoke):
    data = plan_json(invoke, "--from", "1", "--to", "40", "--window", "12k")
    assert data["window"] == 12288
    single = data["strategies"]["single"]["requests"]
    at = data["break_point"]["single"]
    contexts = {r["question"]: r["context_tokens"] for r in single}
    assert contexts[at] > 12288 and contexts[at - 1] <= 12288
    eight = data["break_point"]["single_8k"]
    assert contexts[eight] > 8192 and contexts[eight - 1] <= 8192 and eight < at
    assert data["strategies"]["segmented"]["peak_context_tokens"] < 8192
    short = plan_json(invoke, "--from", "1", "--to", "3")
    assert short["break_point"] == {"single": None, "single_8k": None}


def test_floor_is_the_prefix_once_plus_every_question_and_every_answer_sent_back():
    from studybot.bank.key import answer_text

    loaded = bank.load()
    projection = projections.project(loaded, 5, 6, config.load())
    q5, q6 = loaded.get(5), loaded.get(6)
    expected = (
        len(tokens.message_ids("system", prompt.system_prefix(loaded)))
        + len(tokens.message_ids("user", prompt.question_text(q5)))
        + len(tokens.message_ids("assistant", answer_text(q5)))
        + len(tokens.message_ids("user", prompt.question_text(q6)))
        + len(tokens.reply_primer())
    )  # the final answer (Q6's) is never sent back
    assert projection.floor == expected
    # two questions, one segment: two answer requests; the last summary waits to be read
    assert [r.kind for r in projection.segmented.requests] == ["answer", "answer"]
    first = projection.segmented.requests[0]
    assert first.uncached_prompt_tokens == first.prompt_tokens
    # one long chat under a perfect cache prefills exactly the floor
    exact = projections.project(loaded, 1, 30, config.load(), rule="exact")
    assert exact.single.uncached_prompt_tokens == exact.floor
    ruled = projections.project(loaded, 1, 30, config.load(), rule="openai")
    assert ruled.single.uncached_prompt_tokens >= ruled.floor


def test_single_from_lengths_equals_the_requests_built_token_by_token():
    from studybot.bank.key import answer_text

    loaded = bank.load()
    questions = loaded.select(20, 45)
    projection = projections.project(loaded, 20, 45, config.load(), rule="openai")
    prefix = prompt.system_prefix(loaded)
    history = []
    for question, request in zip(questions, projection.single.requests, strict=True):
        messages = Conversation(prefix, None, history).ask(question)
        assert request.prompt_tokens == len(tokens.request_ids(messages))
        history.append((question, answer_text(question)))


def test_answer_tokens_set_every_answer_length(invoke):
    data = plan_json(invoke, "--from", "20", "--to", "39", "--answer-tokens", "600")
    for strategy in data["strategies"].values():
        answers = [r for r in strategy["requests"] if r["kind"] == "answer"]
        assert {r["completion_tokens"] for r in answers} == {600}
    assert data["answer_tokens"] == 600


def test_the_short_prefix_falls_into_the_trap_the_designed_one_clears(invoke):
    loaded = bank.load()
    short = len(tokens.message_ids("system", prompt.system_prefix(loaded, "short")))
    assert short < 1024
    args = ("plan", "--from", "1", "--to", "20", "--cache-rule", "provider")
    result = invoke(*args, "--prefix", "short")
    assert result.exit_code == 0, result.stderr
    assert "cache rule openai" in result.stdout and "short prefix" in result.stdout
    assert "Prefix trap" in result.stdout
    assert f"at least 1,024 tokens (it is {short:,})" in result.stdout
    data = plan_json(invoke, *args[1:], "--prefix", "short")
    trap = data["prefix_trap"]
    assert trap["requests"] > 0 and trap["tokens"] > 0 and trap["system_tokens"] == short
    assert data["prefixes"]["short"]["system_tokens"] == short
    designed = plan_json(invoke, *args[1:])
    assert designed["prefix_trap"] is None and "Prefix trap" not in invoke(*args).stdout
    system = designed["prefixes"]["designed"]["system_tokens"]
    hits = [
        r["prompt_tokens"] - r["uncached_prompt_tokens"]
        for r in designed["strategies"]["segmented"]["requests"]
    ]
    assert system >= 1024 and min(hits[1:]) >= system


def test_the_table_and_chart_show_both_strategies(invoke):
    result = invoke("plan", "--from", "1", "--to", "30")
    assert result.exit_code == 0, result.stderr
    for text in ("segmented", "single", "prompt tokens", "Floor", "Break point", "Token growth"):
        assert text in result.stdout
    assert "cache rule openai" in result.stdout
    assert "Q30" in result.stdout and "█" in result.stdout


def test_bad_window_is_a_usage_error(invoke):
    result = invoke("plan", "--from", "1", "--to", "5", "--window", "lots")
    assert result.exit_code == 2 and "not a token count" in result.stderr


def test_plot_without_matplotlib_names_the_install_command(invoke, tmp_path, monkeypatch):
    # None in sys.modules makes `import matplotlib` fail, as on a machine without it
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = invoke("plan", "--from", "1", "--to", "5", "--plot", str(tmp_path / "a.png"))
    assert result.exit_code == 2
    assert "pip install 'studybot[plot]'" in result.stderr
    assert not (tmp_path / "a.png").exists()


def test_plot_writes_a_png(invoke, tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "growth.png"
    result = invoke("plan", "--from", "1", "--to", "20", "--plot", str(target))
    assert result.exit_code == 0, result.stderr
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_q1_to_200_meets_the_issue_targets(invoke):
    data = plan_json(invoke, "--from", "1", "--to", "200", "--cache-rule", "openai")
    segmented, single = data["strategies"]["segmented"], data["strategies"]["single"]
    floor = data["floor_uncached_prompt_tokens"]
    assert single["prompt_tokens"] >= 12 * segmented["prompt_tokens"]
    assert segmented["uncached_prompt_tokens"] <= 1.2 * floor
    assert single["uncached_prompt_tokens"] >= floor
    assert segmented["peak_context_tokens"] <= 6000
    system = data["prefixes"]["designed"]["system_tokens"]
    hits = [r["prompt_tokens"] - r["uncached_prompt_tokens"] for r in segmented["requests"]]
    assert hits[0] == 0 and min(hits[1:]) >= system  # every later request hits the prefix


def test_plan_with_a_key_projects_live_answer_lengths_without_sending_anything(invoke, monkeypatch):
    import json

    monkeypatch.setenv("TAOTOKEN_API_KEY", "sk-test-not-sent-anywhere")
    live = json.loads(invoke("plan", "--from", "1", "--to", "8", "--model", "m", "--json").stdout)
    offline = json.loads(invoke("plan", "--from", "1", "--to", "8", "--offline", "--json").stdout)
    assert live["strategies"]["single"]["completion_tokens"] == 8 * 600
    assert offline["strategies"]["single"]["completion_tokens"] != 8 * 600


class _Recording:
    """The offline provider, noting every request the run loop sends."""

    def __init__(self, provider):
        self._provider = provider
        self.sent: list[tuple[str, list]] = []

    def __getattr__(self, name):
        return getattr(self._provider, name)

    def answer(self, messages, **kwargs):
        self.sent.append(("answer", messages))
        return self._provider.answer(messages, **kwargs)

    def summarise(self, messages, **kwargs):
        self.sent.append(("summary", messages))
        return self._provider.summarise(messages, **kwargs)


def test_the_loop_the_plan_and_the_recorded_replay_send_the_same_bytes():
    from studybot.channel import providers
    from studybot.storage.store import Store
    from studybot.study import session
    from studybot.study.recorded import session_requests

    settings = config.load({"offline": True})
    loaded = bank.load()
    provider, _ = providers.choose(settings, loaded)
    recording = _Recording(provider)
    study = session.Study(loaded, recording, settings)
    store = Store.open()
    record = session.start(study, store, loaded.select(1, 30))
    session.run(study, store, record, session.Listener())

    def wire(messages) -> bytes:
        return json.dumps(messages, ensure_ascii=False).encode()

    live = [(kind, wire(m)) for kind, m in recording.sent]
    replayed = [(r.kind, wire(r.messages)) for r in session_requests(store.view(record.id))]
    planned = [
        (r.kind, wire(r.messages)) for r in projections.planned_requests(loaded, 1, 30, settings)
    ]
    kinds = [kind for kind, _ in planned]
    assert (
        kinds.count("answer") == 30 and kinds.count("summary") == len(store.segments(record.id)) - 1
    )
    assert live == replayed == planned
    # what plan prices is these very requests: the same token counts, request for request
    projected = projections.project(loaded, 1, 30, settings).segmented.requests
    assert [r.prompt_tokens for r in projected] == [
        len(tokens.request_ids(json.loads(body))) for _, body in planned
    ]
