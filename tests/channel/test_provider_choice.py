"""``providers.choose``: which provider answers, and the one notice that says so."""

from __future__ import annotations

import pytest
from openai_server import Fault, OpenAIServer

from studybot.channel import config, providers
from studybot.channel.providers.offline import OfflineProvider
from studybot.channel.providers.openai_compat import OpenAICompatProvider
from studybot.costs import tokens
from studybot.errors import USAGE, ConfigError
from studybot.study.conversation import Conversation
from studybot.study.prompt import system_prefix

KEY = "sk-choose-test-0123456789abcdef"
NOTICE = (
    "offline: answering from the bank's answer key; set TAOTOKEN_API_KEY and pass --model ID "
    "for a live model · token, cache and KV figures are simulated"
)


def test_without_a_key_the_answer_key_answers_and_says_how_to_go_live(shipped):
    provider, notice = providers.choose(config.load(), shipped)
    assert isinstance(provider, OfflineProvider) and provider.live is False
    assert (provider.name, provider.model) == ("offline", "answer-key")
    assert notice == NOTICE


def test_the_notice_names_the_variable_the_settings_read(write_config, shipped, monkeypatch):
    write_config('env_key = "MY_MODEL_KEY"\n')
    _, notice = providers.choose(config.load(), shipped)
    assert notice == NOTICE.replace("TAOTOKEN_API_KEY", "MY_MODEL_KEY")
    monkeypatch.setenv("MY_MODEL_KEY", "")
    provider, empty = providers.choose(config.load(), shipped)
    assert provider.live is False
    assert empty == NOTICE.replace("TAOTOKEN_API_KEY", "MY_MODEL_KEY (it is set but empty)")


def test_with_a_model_set_the_notice_asks_only_for_the_key(write_config, shipped):
    """The key alone went live and failed with "no model ID is set": the notice says both,
    and only the key once a model is configured."""
    write_config('model = "deepseek-v3"\n')
    _, notice = providers.choose(config.load(), shipped)
    assert notice == NOTICE.replace(" and pass --model ID", "")


def test_offline_asked_for_names_where_it_was_asked(write_config, shipped, monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)  # a key is there, but offline wins
    provider, flagged = providers.choose(config.load({"offline": True, "model": "m"}), shipped)
    assert provider.live is False
    assert flagged == "offline: answering from the bank's answer key (--offline)"
    path = write_config("offline = true\n")
    _, configured = providers.choose(config.load(), shipped)
    assert configured == f"offline: answering from the bank's answer key ({path})"


def test_a_key_and_a_model_go_live_with_no_notice(shipped, monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    heard: list[str] = []
    settings = config.load({"base_url": "http://127.0.0.1:9/api", "model": "test-model"})
    provider, notice = providers.choose(settings, shipped, notify=heard.append)
    assert isinstance(provider, OpenAICompatProvider) and provider.live is True
    assert (provider.name, provider.model, notice) == ("openai-compat", "test-model", None)
    assert provider.notify == heard.append


def test_a_live_providers_retry_notices_reach_the_notify_given(write_config, shipped, monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    write_config("retry_backoff = 0.001\nmax_retries = 2\n")
    heard: list[str] = []
    with OpenAIServer(key=KEY) as server:
        server.script(Fault.rate_limited())
        settings = config.load({"base_url": server.base_url, "model": "test-model"})
        provider, _ = providers.choose(settings, shipped, notify=heard.append)
        question = shipped.get(1)
        messages = Conversation(system_prefix(shipped), None).ask(question)
        reply = provider.answer(messages, question=question)
        assert len(server.generations) == 2
    assert reply.text and reply.flag is None
    assert len(heard) == 1 and "429" in heard[0]


@pytest.mark.parametrize(
    ("key", "flags", "message"),
    [
        ("YOUR_API_KEY", {"model": "test-model"}, "holds a placeholder"),
        (KEY, {}, "no model ID is set"),
        (KEY, {"model": "test model"}, "contains whitespace"),
    ],
)
def test_a_known_bad_channel_is_refused_before_any_request(
    shipped, monkeypatch, key, flags, message
):
    monkeypatch.setenv("TAOTOKEN_API_KEY", key)
    with OpenAIServer(key=KEY) as server:
        settings = config.load({"base_url": server.base_url, **flags})
        with pytest.raises(ConfigError, match=message) as refused:
            providers.choose(settings, shipped)
        assert server.requests == []
    assert refused.value.exit_code == USAGE


def ask_twice(provider, shipped) -> tuple[list[int], int]:
    """The cached tokens of the same request sent twice, and its prompt tokens."""
    question = shipped.get(5)
    messages = Conversation(system_prefix(shipped), None).ask(question)
    cached = [provider.answer(messages, question=question).usage.cached_tokens for _ in range(2)]
    return cached, len(tokens.request_ids(messages))


def test_the_answer_keys_cached_tokens_follow_the_settings_cache_rule(write_config, shipped):
    default, _ = providers.choose(config.load(), shipped)
    cached, prompt = ask_twice(default, shipped)
    assert cached == [0, prompt // 128 * 128]  # openai: the repeat, in whole 128-token steps
    write_config('cache_rule = "none"\n')
    uncached, _ = providers.choose(config.load(), shipped)
    assert ask_twice(uncached, shipped)[0] == [0, 0]
    write_config('cache_rule = "exact"\n')
    exact, _ = providers.choose(config.load(), shipped)
    assert ask_twice(exact, shipped)[0] == [0, prompt]  # every token of the repeat
