"""--local: a model server on this machine, found on its port, used with no key."""

from __future__ import annotations

import json
import socket

import pytest
from engine_server import EngineServer

from studybot.storage.store import Store

MODEL = "tiny-qwen2.gguf"


def free_port() -> int:
    """A port nothing listens on (bound, then closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def engine(monkeypatch):
    """A llama.cpp-like server with one model, on a port --local is told to try second."""
    with EngineServer(models=[MODEL]) as server:
        monkeypatch.setenv("STUDYBOT_LOCAL_PORTS", f"{free_port()},{server.port}")
        yield server


def test_run_finds_the_server_and_its_only_model_with_no_key(invoke, engine):
    result = invoke("run", "--from", "1", "--to", "2", "--local")
    assert result.exit_code == 0, result.stderr
    assert "offline" not in result.stderr
    record = Store.open(write=False).sessions()[0]
    assert (record.live, record.model, record.base_url) == (True, MODEL, engine.base_url)
    assert [r.body["model"] for r in engine.generations] == [MODEL, MODEL]
    # the engine's tokenizer counts: --local turns token_counter to server
    assert "/tokenize" in engine.engine_calls


def test_a_key_from_the_environment_never_goes_to_the_local_server(invoke, engine, monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", "sk-for-the-hosted-provider-0123456789")
    result = invoke("run", "--from", "1", "--to", "1", "--local")
    assert result.exit_code == 0, result.stderr
    sent = {r.headers.get("authorization", "") for r in engine.requests}
    assert not any("sk-for-the-hosted" in header for header in sent)


def test_doctor_says_what_it_found(invoke, engine):
    result = invoke("doctor", "--local", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0, result.stderr
    local = next(c for c in data["checks"] if c["name"] == "local")
    assert local["ok"] is True
    assert engine.base_url in local["detail"] and MODEL in local["detail"]


def test_several_models_need_model_and_model_picks_one(invoke, monkeypatch):
    with EngineServer(models=["qwen2.5:7b", "llama3.2:3b"]) as server:
        monkeypatch.setenv("STUDYBOT_LOCAL_PORTS", str(server.port))
        refused = invoke("run", "--from", "1", "--to", "1", "--local")
        assert refused.exit_code == 2
        assert "lists 2 models: qwen2.5:7b, llama3.2:3b" in refused.stderr
        assert "--model" in refused.stderr
        chosen = invoke("run", "--from", "1", "--to", "1", "--local", "--model", "llama3.2:3b")
        assert chosen.exit_code == 0, chosen.stderr
        assert server.generations[-1].body["model"] == "llama3.2:3b"


def test_nothing_on_the_ports_is_one_message_with_a_hint(invoke, monkeypatch):
    ports = f"{free_port()},{free_port()}"
    monkeypatch.setenv("STUDYBOT_LOCAL_PORTS", ports)
    for command in (("run", "--from", "1", "--to", "1"), ("doctor",)):
        result = invoke(*command, "--local")
        assert result.exit_code == 1
        assert "no local model server answers on 127.0.0.1 ports" in result.stderr
        assert "STUDYBOT_LOCAL_PORTS" in result.stderr and "Traceback" not in result.stderr


def test_bad_port_lists_and_two_server_flags_are_usage_errors(invoke, monkeypatch):
    monkeypatch.setenv("STUDYBOT_LOCAL_PORTS", "8080,http")
    result = invoke("doctor", "--local")
    assert result.exit_code == 2 and "is not a list of ports" in result.stderr
    monkeypatch.delenv("STUDYBOT_LOCAL_PORTS")
    both = invoke("doctor", "--local", "--base-url", "http://127.0.0.1:9/v1")
    assert both.exit_code == 2 and "--local and --base-url" in both.stderr
