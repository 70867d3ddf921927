"""``--local``: the model server on this machine, found on its usual port, used with no key.

The usual ports, tried in this order on 127.0.0.1: Ollama 11434,
llama.cpp's ``llama-server`` 8080, vLLM 8000, SGLang 30000
(``STUDYBOT_LOCAL_PORTS="8080,9000"`` or the ``local_ports`` setting
replaces the list). A port counts when ``GET /v1/models`` answers with a
model list; its only model is used, or the one ``--model`` names. Each try
waits at most ``CONNECT_TIMEOUT``, and a closed port is refused at once,
so nothing there costs milliseconds. ``override`` lays what was found over
the settings ``config.load`` is building.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from studybot.errors import BadInput, ConfigError, StudybotError

HOST = "127.0.0.1"
PORTS = {11434: "Ollama", 8080: "llama.cpp", 8000: "vLLM", 30000: "SGLang"}
PORTS_ENV = "STUDYBOT_LOCAL_PORTS"
CONNECT_TIMEOUT = 0.5  # seconds: a local server answers at once or is not there
LOCAL_KEY_ENV = "STUDYBOT_LOCAL_API_KEY"  # a key for a server started with --api-key


class NothingLocal(StudybotError):
    """No model server answers on the local ports."""


@dataclass(frozen=True)
class Found:
    """A local server that listed its models."""

    base_url: str  # http://127.0.0.1:PORT/v1
    port: int
    engine: str  # the engine that usually sits on that port, or "a server"
    models: tuple[str, ...]  # as /v1/models lists them

    def describe(self) -> str:
        listed = ", ".join(self.models[:5]) + (" …" if len(self.models) > 5 else "")
        return f"{self.engine} at {self.base_url} (models: {listed})"


def ports(setting: str = "") -> tuple[int, ...]:
    """The ports to try: STUDYBOT_LOCAL_PORTS, else ``setting``, else the usual four."""
    text = os.environ.get(PORTS_ENV) or setting
    if not text.strip():
        return tuple(PORTS)
    chosen = []
    for part in text.replace(" ", "").split(","):
        if not part.isdigit() or not 1 <= int(part) <= 65535:
            where = PORTS_ENV if os.environ.get(PORTS_ENV) else "local_ports"
            raise BadInput(
                f"{where} {text!r} is not a list of ports",
                hint='list port numbers, e.g. "8080,11434"',
            )
        chosen.append(int(part))
    return tuple(chosen)


def find(candidates: tuple[int, ...], key: str | None = None) -> Found:
    """The first port that lists models; NothingLocal when none does."""
    from studybot.channel.engine import Http

    client = Http(key, timeout=CONNECT_TIMEOUT)
    for port in candidates:
        base = f"http://{HOST}:{port}/v1"
        try:
            status, body = client.get(f"{base}/models")
        except OSError:  # refused, or nothing answered in time
            continue
        models = _model_ids(body) if status == 200 else None
        if models is not None:
            return Found(base, port, PORTS.get(port, "a server"), models)
    tried = ", ".join(f"{port} ({PORTS.get(port, 'given')})" for port in candidates)
    raise NothingLocal(
        f"no local model server answers on {HOST} ports {tried}",
        hint=(
            "start one (ollama serve; llama-server -m MODEL.gguf --port 8080; vllm serve MODEL), "
            f"set {PORTS_ENV} to its port, or pass --base-url"
        ),
    )


def pick(found: Found, asked: str | None) -> str:
    """The model to use: the one asked for (--model), else the only one listed."""
    if asked:
        return asked
    if len(found.models) == 1:
        return found.models[0]
    if not found.models:
        raise NothingLocal(
            f"{found.engine} at {found.base_url} lists no model",
            hint="load a model into it (e.g. ollama pull qwen2.5), or pass --model NAME",
        )
    raise BadInput(
        f"{found.engine} at {found.base_url} lists {len(found.models)} models: "
        + ", ".join(found.models[:10]),
        hint=f"choose one with --model, e.g. --model {found.models[0]}",
    )


def _model_ids(body) -> tuple[str, ...] | None:
    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, list):
        return None
    return tuple(str(m["id"]) for m in data if isinstance(m, dict) and isinstance(m.get("id"), str))


def override(values: dict[str, Any], sources: dict[str, str]) -> None:
    """--local: the server found on this machine's usual ports, its model, no key.

    Only a ``--model`` flag names the model (a configured one belongs to the
    usual provider); the engine's tokenizer counts unless token_counter is set.
    """
    if sources.get("base_url") == "flag":
        raise ConfigError(
            "--local and --base-url both say where the server is",
            hint=f"drop one; {PORTS_ENV} lists other ports for --local to try",
        )
    found = find(ports(str(values.get("local_ports", ""))), _key())
    asked = values.get("model") if sources.get("model") == "flag" else None
    values["model"] = pick(found, asked)
    sources["model"] = "flag" if asked else f"--local: the only model {found.engine} lists"
    values["base_url"], sources["base_url"] = found.base_url, f"--local: {found.describe()}"
    values["env_key"], sources["env_key"] = LOCAL_KEY_ENV, "--local"
    values.setdefault("token_counter", "server")
    sources.setdefault("token_counter", "--local")
    if sources.get("wire_api") != "flag":
        values["wire_api"], sources["wire_api"] = "chat", "--local"


def _key() -> str | None:
    return os.environ.get(LOCAL_KEY_ENV) or None
