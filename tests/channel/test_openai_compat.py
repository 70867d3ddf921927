"""The live provider against a real local OpenAI-compatible server, through the real client."""

from __future__ import annotations

import pytest
from openai_server import Fault, OpenAIServer

from studybot.bank import Question
from studybot.channel import config
from studybot.channel.providers.openai_compat import OpenAICompatProvider
from studybot.errors import ContextOverflow, ProviderError

KEY = "sk-live-test-0123456789abcdef"
MODEL = "test-model"
QUESTION = Question(id=23, chapter=3, question="为什么 KV 缓存只保存 K 和 V？")
LONG_SYSTEM = "你是面试辅导老师。" * 200  # long enough for the server's prefix cache to hit


def messages(question: str = "第 23 题：为什么 KV 缓存只保存 K 和 V？") -> list[dict[str, str]]:
    return [{"role": "system", "content": LONG_SYSTEM}, {"role": "user", "content": question}]


# The server of the `server` fixture (tests/conftest.py).
SERVER = {"key": KEY, "models": [MODEL], "key_env": True}


def provider(
    server: OpenAIServer, delays: list[float] | None = None, jitter: float = 0.0, **flags
) -> OpenAICompatProvider:
    values = {
        "base_url": server.base_url,
        "model": MODEL,
        "retry_backoff": 0.001,
        "stream_idle_timeout": 0.3,
        **flags,
    }
    sink = delays.append if delays is not None else (lambda seconds: None)
    return OpenAICompatProvider(
        config.load(values), sleep=sink, notify=lambda line: None, jitter=lambda: jitter
    )


@pytest.mark.parametrize("wire_api", ["chat", "responses"])
@pytest.mark.parametrize("stream", [True, False])
def test_answers_arrive_whole_on_both_wire_apis(server, wire_api, stream):
    chunks: list[str] = []
    reply = provider(server, wire_api=wire_api, stream=stream).answer(
        messages(), question=QUESTION, on_text=chunks.append
    )
    assert reply.text.startswith("结论：这是对「第 23 题")
    assert "".join(chunks) == reply.text
    assert reply.finish_reason == "stop"
    sent = server.generations[-1]
    assert sent.path == ("/api/chat/completions" if wire_api == "chat" else "/api/responses")
    assert sent.messages == messages()
    assert sent.body["model"] == MODEL
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    if stream:
        assert len(chunks) > 1  # it really streamed
    if stream and wire_api == "chat":
        assert sent.body["stream_options"] == {"include_usage": True}


@pytest.mark.parametrize("wire_api", ["chat", "responses"])
def test_usage_is_the_providers_own_numbers(server, wire_api):
    chat = provider(server, wire_api=wire_api)
    chat.answer(messages(), question=QUESTION)
    second = chat.answer(messages("第 23 题：再问一次"), question=QUESTION)
    reported = server.usage_sent[-1]
    key = "input_tokens" if wire_api == "responses" else "prompt_tokens"
    details = "input_tokens_details" if wire_api == "responses" else "prompt_tokens_details"
    assert second.usage.prompt_tokens == reported[key]
    assert second.usage.cached_tokens == reported[details]["cached_tokens"] >= 1024
    assert second.usage.completion_tokens == len(second.text)


def test_deepseek_cache_hit_tokens_count_as_cached(monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    with OpenAIServer(key=KEY, models=[MODEL], usage="deepseek") as server:
        live = provider(server)
        live.answer(messages(), question=QUESTION)
        reply = live.answer(messages("第 24 题：另一道题"), question=QUESTION)
        assert reply.usage.cached_tokens == server.usage_sent[-1]["prompt_cache_hit_tokens"] > 0


def test_a_provider_that_reports_no_usage_gives_none(monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    with OpenAIServer(key=KEY, models=[MODEL], usage=None) as server:
        assert provider(server).answer(messages(), question=QUESTION).usage is None


@pytest.mark.parametrize("wire_api", ["chat", "responses"])
@pytest.mark.parametrize("fault", [Fault.cut(), Fault.cut(clean=False), Fault.stall(seconds=3)])
def test_a_cut_or_stalled_stream_is_retried_and_never_returned_partial(server, wire_api, fault):
    server.script(fault)
    chunks: list[str] = []
    reply = provider(server, wire_api=wire_api).answer(
        messages(), question=QUESTION, on_text=chunks.append
    )
    assert len(server.generations) == 2
    assert reply.text.startswith("结论：这是对「第 23 题") and reply.text.endswith("要点三。")
    assert "".join(chunks).endswith(reply.text)  # the partial text came first, then the whole


@pytest.mark.parametrize("wire_api", ["chat", "responses"])
def test_a_stream_cut_every_time_fails_after_bounded_retries(server, wire_api):
    server.script(*[Fault.cut()] * 3)
    with pytest.raises(ProviderError, match="cut 3 times") as caught:
        provider(server, wire_api=wire_api, max_retries=2).answer(messages(), question=QUESTION)
    assert "not saved" in caught.value.message
    assert len(server.generations) == 3


def test_retry_after_is_honoured(server):
    delays: list[float] = []
    server.script(Fault.rate_limited(retry_after="2"), Fault.server_error(503))
    reply = provider(server, delays, retry_backoff=0.25).answer(messages(), question=QUESTION)
    assert reply.finish_reason == "stop"
    assert delays == [2.0, 0.5]  # Retry-After, then backoff doubling from 0.25 s


def test_retry_after_ms_is_honoured(server):
    delays: list[float] = []
    fault = Fault.http(429, "slow down", headers={"retry-after-ms": "1500"})
    server.script(fault)
    provider(server, delays).answer(messages(), question=QUESTION)
    assert delays == [1.5]


def test_backoff_doubles_without_retry_after(server):
    delays: list[float] = []
    server.script(*[Fault.server_error(500)] * 4)
    with pytest.raises(ProviderError, match="HTTP 500") as caught:
        provider(server, delays, retry_backoff=0.25).answer(messages(), question=QUESTION)
    assert delays == [0.25, 0.5, 1.0]
    assert "still after 3 retries" in caught.value.message
    assert len(server.generations) == 4


def test_a_very_long_retry_after_fails_at_once(server):
    delays: list[float] = []
    server.script(Fault.rate_limited(retry_after="3600"))
    with pytest.raises(ProviderError, match="wait 3600 s"):
        provider(server, delays).answer(messages(), question=QUESTION)
    assert delays == [] and len(server.generations) == 1


def test_no_quota_is_not_retried(server):
    server.script(Fault.rate_limited(code="insufficient_quota"))
    with pytest.raises(ProviderError, match="no quota"):
        provider(server).answer(messages(), question=QUESTION)
    assert len(server.generations) == 1


@pytest.mark.parametrize("wire_api", ["chat", "responses"])
def test_context_overflow_is_its_own_error(server, wire_api):
    server.script(Fault.context_length())
    with pytest.raises(ContextOverflow, match="context window") as caught:
        provider(server, wire_api=wire_api).answer(messages(), question=QUESTION)
    assert "--segment-max" in caught.value.hint
    assert len(server.generations) == 1


@pytest.mark.parametrize("wire_api", ["chat", "responses"])
def test_an_error_inside_the_stream_is_read(server, wire_api):
    server.script(Fault.stream_error("context_length_exceeded", "too many tokens in the prompt"))
    with pytest.raises(ContextOverflow, match="too many tokens"):
        provider(server, wire_api=wire_api).answer(messages(), question=QUESTION)


@pytest.mark.parametrize("wire_api", ["chat", "responses"])
def test_a_passing_error_inside_the_stream_is_retried(server, wire_api):
    server.script(Fault.stream_error("server_error", "overloaded"))
    reply = provider(server, wire_api=wire_api).answer(messages(), question=QUESTION)
    assert reply.text.endswith("要点三。") and len(server.generations) == 2


def test_server_text_is_quoted_without_the_key(server):
    server.script(Fault.http(400, f"invalid parameter near {KEY}"))
    with pytest.raises(ProviderError) as caught:
        provider(server).answer(messages(), question=QUESTION)
    assert "HTTP 400" in caught.value.message
    assert KEY not in caught.value.message and "[key]" in caught.value.message


def test_models_are_listed(server):
    assert provider(server).list_models() == [MODEL]


def test_an_endpoint_without_a_model_list_says_so(monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    with OpenAIServer(key=KEY, models=[MODEL], list_models=False) as server:
        assert provider(server).list_models() is None


# -- timeouts and retry waits (#11 item 9) ---------------------------------


def test_connect_timeout_is_short_and_the_output_limit_is_sent(server):
    live = provider(server, wire_api="chat")
    assert live.client.timeout.connect == 5.0
    live.answer(messages(), question=QUESTION)
    provider(server, wire_api="responses").answer(messages(), question=QUESTION)
    chat, responses = server.generations
    assert chat.body["max_tokens"] == 2048
    assert responses.body["max_output_tokens"] == 2048


def test_a_retry_after_up_to_two_minutes_is_waited_for(server):
    delays: list[float] = []
    server.script(Fault.rate_limited(retry_after="90"))
    reply = provider(server, delays).answer(messages(), question=QUESTION)
    assert reply.finish_reason == "stop" and delays == [90.0]


def test_backoff_has_jitter(server):
    delays: list[float] = []
    server.script(Fault.server_error(500), Fault.server_error(500))
    provider(server, delays, jitter=1.0, retry_backoff=1.0).answer(messages(), question=QUESTION)
    assert delays == [0.75, 1.5]  # at most a quarter shorter than the plain doubling


def test_5xx_quotes_the_server_message(server):
    server.script(*[Fault.http(502, "upstream model pool exhausted")] * 2)
    with pytest.raises(ProviderError) as caught:
        provider(server, max_retries=1).answer(messages(), question=QUESTION)
    assert "HTTP 502" in caught.value.message
    assert "upstream model pool exhausted" in caught.value.message


# -- malformed replies (#11 item 2) ----------------------------------------

MALFORMED = [
    ("chat", True, Fault.bad_sse(), "not valid JSON"),
    ("responses", True, Fault.bad_sse(), "not valid JSON"),
    ("chat", False, Fault.truncated_json(), "not valid JSON"),
    ("responses", False, Fault.truncated_json(), "not valid JSON"),
    ("chat", True, Fault.html(), "an HTML page (text/html)"),
    ("chat", False, Fault.html(), "an HTML page"),
    ("responses", True, Fault.html(), "an HTML page (text/html)"),
    ("responses", False, Fault.html(), "an HTML page"),
]


@pytest.mark.parametrize(("wire_api", "stream", "fault", "says"), MALFORMED)
def test_a_malformed_reply_is_retried_like_a_cut(server, wire_api, stream, fault, says):
    server.script(fault)
    reply = provider(server, wire_api=wire_api, stream=stream).answer(messages(), question=QUESTION)
    assert reply.text.endswith("要点三。") and len(server.generations) == 2


@pytest.mark.parametrize(("wire_api", "stream", "fault", "says"), MALFORMED)
def test_a_malformed_reply_that_persists_names_what_came_back(
    server, wire_api, stream, fault, says
):
    server.script(*[fault] * 3)
    with pytest.raises(ProviderError) as caught:
        provider(server, wire_api=wire_api, stream=stream, max_retries=2).answer(
            messages(), question=QUESTION
        )
    assert says in caught.value.message and "3 times" in caught.value.message
    assert len(server.generations) == 3


# -- answers that are not whole (#11 item 3) --------------------------------


def cut_at(limit_key: str):
    """An answer cut by the token limit unless the request allows more than 2048 tokens."""

    def answer(body: dict) -> str:
        return "短" if body.get(limit_key, 0) <= 2048 else "完整的回答。要点一，要点二。"

    return answer


@pytest.mark.parametrize("wire_api", ["chat", "responses"])
@pytest.mark.parametrize("stream", [True, False])
def test_a_cut_answer_is_asked_once_more_with_more_room(monkeypatch, wire_api, stream):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    key = "max_tokens" if wire_api == "chat" else "max_output_tokens"
    with OpenAIServer(key=KEY, models=[MODEL], answer=cut_at(key), finish_at=2048) as server:
        reply = provider(server, wire_api=wire_api, stream=stream).answer(
            messages(), question=QUESTION
        )
        assert [r.body[key] for r in server.generations] == [2048, 4096]
    assert reply.finish_reason == "stop" and reply.text.startswith("完整的回答")


def test_an_answer_still_cut_comes_back_flagged_as_length(monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    with OpenAIServer(key=KEY, models=[MODEL], finish_at=100000) as server:
        reply = provider(server).answer(messages(), question=QUESTION)
        assert len(server.generations) == 2
    assert reply.finish_reason == "length"


def test_an_empty_answer_is_asked_once_more(monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    answers = iter(["", "第二次的回答。"])
    with OpenAIServer(key=KEY, models=[MODEL], answer=lambda body: next(answers)) as server:
        reply = provider(server).answer(messages(), question=QUESTION)
        assert len(server.generations) == 2
    assert reply.text == "第二次的回答。"


@pytest.mark.parametrize("wire_api", ["chat", "responses"])
def test_an_error_of_our_own_text_sink_is_not_blamed_on_the_server_nor_retried(server, wire_api):
    def broken_terminal(chunk: str) -> None:
        raise TypeError("the renderer broke")

    with pytest.raises(TypeError, match="the renderer broke"):
        provider(server, wire_api=wire_api).answer(
            messages(), question=QUESTION, on_text=broken_terminal
        )
    assert len(server.generations) == 1  # one request, no paid retries
