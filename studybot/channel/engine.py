"""What a local engine says about itself, and its tokenizer standing in for studybot's.

The routes live at the server's root (the base URL without a trailing
``/v1``), beside the OpenAI-compatible ones:

- llama.cpp's ``llama-server``: ``GET /props`` answers with its own fields
  (``default_generation_settings``, ``total_slots``, ``chat_template``,
  ``build_info``); ``POST /apply-template`` ``{"messages"}`` returns
  ``{"prompt"}``, the chat rendered by the model's template; ``POST
  /tokenize`` ``{"content", "add_special", "parse_special"}`` returns
  ``{"tokens"}``. A chat request is counted as the server counts it: the
  rendered prompt tokenized with special tokens added and parsed.
- vLLM (and SGLang where it offers the same route): ``POST /tokenize``
  ``{"model", "messages", "add_generation_prompt"}`` or ``{"model",
  "prompt", "add_special_tokens"}`` returns ``{"count", "tokens", …}``.
- Ollama and hosted APIs offer neither: studybot counts locally and says so.

Nothing here runs unless a live channel asks for the server's count
(``token_counter = "server"``, or ``--local``); the offline default never
opens a connection. Counts are kept per text, in memory and on disk under
``STUDYBOT_HOME/cache``, so a text is sent to the tokenizer once.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from studybot.channel.config import Settings
from studybot.channel.urls import masked
from studybot.costs import tokens
from studybot.types import Notify

READ_TIMEOUT = 30.0  # seconds: tokenizing a long prompt on a busy CPU server
LLAMA_FIELDS = ("default_generation_settings", "total_slots", "chat_template", "build_info")


@dataclass(frozen=True)
class Engine:
    """What the server at ``root`` told us about itself."""

    root: str  # the server's root URL: base_url without a trailing /v1
    kind: str  # "llama.cpp", "tokenize" (vLLM / SGLang style) or "" (offers neither)
    slots: int = 1  # llama.cpp: total_slots from /props

    @property
    def counts(self) -> bool:
        return self.kind != ""

    def describe(self) -> str:
        if self.kind == "llama.cpp":
            return f"llama.cpp ({self.slots} slot{'s' if self.slots != 1 else ''})"
        if self.kind == "tokenize":
            return "an engine with /tokenize (vLLM or SGLang)"
        return "no /props or /tokenize"


def root(base_url: str) -> str:
    """The server root the engine routes hang from: ``base_url`` less a trailing ``/v1``."""
    url = base_url.rstrip("/")
    return url[: -len("/v1")] if url.endswith("/v1") else url


def attach(settings: Settings, notify: Notify) -> tuple[Settings, str | None]:
    """Count with the engine's tokenizer when these settings ask for it.

    Returns the settings to use and a line to show once (or None). Only a
    live channel with ``token_counter = "server"`` is probed. A llama.cpp
    server also sets the cache rule (``llamacpp``, its slots) unless the
    user chose one. When the server offers no tokenizer, counting stays
    local and the line says so; ``notify`` hears of a tokenizer that stops
    answering later.
    """
    if not settings.live or settings.token_counter != "server":
        return settings, None
    client = _client(settings)
    engine = probe(client, settings)
    if not engine.counts:
        return settings, (
            f"token_counter = server: {masked(engine.root)} offers no /tokenize; "
            "counting tokens locally (cl100k, not the engine's tokenizer)"
        )
    tokens.use(ServerTokens(client, engine, settings.model, notify))
    settings = replace(settings, engine=engine.kind)
    if engine.kind != "llama.cpp" or settings.cache_rule:
        return settings, None
    chosen = replace(settings, cache_rule="llamacpp", cache_slots=engine.slots)
    sources = {**settings.sources, "cache_rule": "server /props", "cache_slots": "server /props"}
    object.__setattr__(chosen, "sources", sources)
    return chosen, None


def probe(client: Http, settings: Settings) -> Engine:
    """Ask the server what it is: llama.cpp's /props first, then a vLLM-style /tokenize.

    The vLLM-style probe tokenizes a text; a server that cannot tokenize a
    chat says so at the first request, and counting turns local then.
    """
    base = root(settings.base_url)
    try:
        status, body = client.get(f"{base}/props")
        llama = isinstance(body, dict) and any(name in body for name in LLAMA_FIELDS)
        if status == 200 and llama:
            slots = body.get("total_slots")
            return Engine(base, "llama.cpp", slots if _count(slots) else 1)
        asked = {"model": settings.model, "prompt": "hi", "add_special_tokens": False}
        status, body = client.post(f"{base}/tokenize", asked)
        if status == 200 and _tokens(body) is not None:
            return Engine(base, "tokenize")
    except OSError:  # nothing answers there, or not in time
        pass
    return Engine(base, "")


class ServerTokens:
    """The engine's token ids of texts and of whole chat requests, kept per text."""

    def __init__(self, client: Http, engine: Engine, model: str, notify: Notify) -> None:
        self._client = client
        self._engine = engine
        self._model = model
        self._notify = notify
        self._store = _Store(engine.root, model)
        self._failed = False  # the server stopped answering: local counts from then on

    def text_ids(self, text: str) -> tuple[int, ...]:
        return self._ids("text", text, lambda: self._text(text), lambda: tokens.local_ids(text))

    def request_ids(self, messages: list[Mapping[str, str]]) -> tuple[int, ...]:
        plain = [dict(m) for m in messages]
        key = json.dumps(plain, ensure_ascii=False, separators=(",", ":"))
        local = lambda: tuple(tokens.local_request_ids(plain))  # noqa: E731
        return self._ids("chat", key, lambda: self._chat(plain), local)

    def _ids(self, kind: str, key: str, ask, local) -> tuple[int, ...]:
        """Known ids, else the server's (kept), else, once it has failed, the local ones."""
        known = self._store.get(kind, key)
        if known is not None:
            return known
        if not self._failed:
            try:
                ids = ask()
            except (OSError, ValueError) as error:
                self._failed = True
                self._notify(
                    f"the server's tokenizer stopped answering ({_why(error)}); "
                    "counting tokens locally from here"
                )
            else:
                self._store.put(kind, key, ids)
                return ids
        return local()

    def _text(self, text: str) -> tuple[int, ...]:
        if self._engine.kind == "llama.cpp":
            body = {"content": text, "add_special": False, "parse_special": True}
        else:
            body = {"model": self._model, "prompt": text, "add_special_tokens": False}
        return self._tokenize(body)

    def _chat(self, messages: list[dict[str, str]]) -> tuple[int, ...]:
        if self._engine.kind == "llama.cpp":
            rendered = self._post("/apply-template", {"messages": messages})
            prompt = rendered.get("prompt") if isinstance(rendered, dict) else None
            if not isinstance(prompt, str):
                raise ValueError("/apply-template returned no prompt")
            # what the server does with a chat: special tokens added and parsed
            body = {"content": prompt, "add_special": True, "parse_special": True}
        else:
            body = {"model": self._model, "messages": messages, "add_generation_prompt": True}
        return self._tokenize(body)

    def _tokenize(self, body: dict[str, Any]) -> tuple[int, ...]:
        ids = _tokens(self._post("/tokenize", body))
        if ids is None:
            raise ValueError("/tokenize returned no token list")
        return ids

    def _post(self, path: str, body: dict[str, Any]) -> Any:
        status, answer = self._client.post(f"{self._engine.root}{path}", body)
        if status != 200:
            raise ValueError(f"{path} answered HTTP {status}")
        return answer


class _Store:
    """Token ids per text of one server and model: a dict, and a JSON-lines file behind it."""

    def __init__(self, base: str, model: str) -> None:
        name = hashlib.blake2b(f"{base}\0{model}".encode(), digest_size=8).hexdigest()
        self.path = _cache_dir() / f"tokens-{name}.jsonl"
        self._known: dict[str, tuple[int, ...]] | None = None  # read on first use

    def get(self, kind: str, key: str) -> tuple[int, ...] | None:
        return self._loaded().get(_digest(kind, key))

    def put(self, kind: str, key: str, ids: Sequence[int]) -> None:
        digest = _digest(kind, key)
        self._loaded()[digest] = tuple(ids)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps({"k": digest, "ids": list(ids)}) + "\n")
        except OSError:
            return  # a read-only home or a full disk: counted again next time

    def _loaded(self) -> dict[str, tuple[int, ...]]:
        if self._known is None:
            self._known = {}
            try:
                lines = self.path.read_text(encoding="utf-8").splitlines()
            except OSError:
                lines = []
            for line in lines:  # a damaged line (a write cut short) is passed over
                try:
                    row = json.loads(line)
                    self._known[str(row["k"])] = tuple(int(i) for i in row["ids"])
                except (ValueError, KeyError, TypeError):
                    continue
        return self._known


class Http:
    """JSON over HTTP with the standard library: (status, decoded body or None) per request.

    No proxy from the environment (the engine is local) and the key, when
    there is one, as a bearer token. OSError (refused, timed out) reaches
    the caller.
    """

    def __init__(self, key: str | None, timeout: float = READ_TIMEOUT) -> None:
        import urllib.request

        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        self._headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.timeout = timeout  # seconds for each connect and each read

    def get(self, url: str) -> tuple[int, Any]:
        return self._send(url, None)

    def post(self, url: str, body: Any) -> tuple[int, Any]:
        return self._send(url, json.dumps(body, ensure_ascii=False).encode("utf-8"))

    def _send(self, url: str, data: bytes | None) -> tuple[int, Any]:
        import urllib.error
        import urllib.request

        headers = {**self._headers, **({"Content-Type": "application/json"} if data else {})}
        request = urllib.request.Request(url, data=data, headers=headers)
        try:
            with self._opener.open(request, timeout=self.timeout) as answer:
                return answer.status, _json(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, _json(error.read())


def _client(settings: Settings) -> Http:
    return Http(settings.api_key())


def _cache_dir() -> Path:
    from studybot.storage.home import home

    return home() / "cache"


def _digest(kind: str, key: str) -> str:
    return hashlib.blake2b(f"{kind}\0{key}".encode(), digest_size=16).hexdigest()


def _json(data: bytes) -> Any:
    try:
        return json.loads(data)
    except ValueError:  # UnicodeDecodeError is one too
        return None


def _tokens(body: Any) -> tuple[int, ...] | None:
    """The ids of a /tokenize answer (llama.cpp and vLLM both name them ``tokens``)."""
    ids = body.get("tokens") if isinstance(body, dict) else None
    if not isinstance(ids, list) or not all(_count(i, 0) for i in ids):
        return None
    return tuple(ids)


def _count(value: Any, least: int = 1) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def _why(error: Exception) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return text[:120]
