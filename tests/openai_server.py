"""A small OpenAI-compatible HTTP server for tests, on 127.0.0.1 in a thread.

It serves ``/api/chat/completions`` (streaming or not), ``/api/responses``
(streaming or not) and ``/api/models`` the way compatible providers do,
logs every request it receives, and can be told to misbehave: an HTTP
status with an OpenAI-style error body, a stream cut mid-way, a stall,
keep-alive comments instead of data, a connection held open after the
final event, text after it, a second choice.
Tests drive it through the real ``openai`` client; nothing is patched.

    with OpenAIServer(key="sk-test", models=["m"]) as server:
        server.script(None, Fault.cut())    # 1st request normal, 2nd cut
        ... studybot run --base-url {server.base_url} --model m ...
        server.generations                  # what studybot sent

Usage mimics a provider with a prefix cache: prompt "tokens" are
characters, and cached tokens are the characters shared with an earlier
request, counted from 1024 in steps of 128 (both adjustable).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PREFIX = "/api"


@dataclass(frozen=True)
class Received:
    method: str
    path: str
    headers: dict[str, str]  # lower-case names
    body: Any  # decoded JSON, or None

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The conversation sent: ``messages`` (chat) or ``input`` (responses)."""
        if not isinstance(self.body, dict):
            return []
        return list(self.body.get("messages") or self.body.get("input") or [])


@dataclass(frozen=True)
class Served:
    """What one generation request cost the server, whether or not it said so."""

    prompt_tokens: int
    completion_tokens: int  # of the text sent: a cut stream's part
    cached_tokens: int  # the server's prefix hit, reported or not
    reported: bool  # the client received this usage (a cut stream's never arrives)


@dataclass(frozen=True)
class Fault:
    """One misbehaviour, applied to one generation request."""

    kind: str  # "status", "raw", "length", "cut", "stall", "stream_error", "bad_sse",
    # "keepalive", "linger", "trailing", "second_choice"
    status: int = 500
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    after_chunks: int = 2  # cut/stall: text chunks sent before the fault
    clean: bool = True  # cut: close cleanly (no error) rather than mid-message
    pause: float = 0.0  # cut: seconds the stream rests after its chunks before it breaks
    seconds: float = 5.0  # stall, keepalive, linger: how long the server holds the connection
    every: float = 0.0  # keepalive, linger: seconds between ": keepalive" comments (0: silent)
    text: str = ""  # trailing, second_choice: the extra text sent
    content_type: str = "application/json"  # raw: the Content-Type sent with ``body``

    @classmethod
    def http(
        cls,
        status: int,
        message: str,
        code: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Fault:
        error = {"message": message, "type": "invalid_request_error", "code": code}
        return cls("status", status=status, body={"error": error}, headers=headers or {})

    @classmethod
    def unauthorized(cls, status: int = 401) -> Fault:
        return cls.http(status, "Invalid API key provided", code="invalid_api_key")

    @classmethod
    def not_found(cls) -> Fault:
        return cls("status", status=404, body="404 page not found")

    @classmethod
    def model_not_found(cls, model: str) -> Fault:
        message = f"The model `{model}` does not exist or you do not have access to it."
        return cls.http(404, message, code="model_not_found")

    @classmethod
    def context_length(cls) -> Fault:
        message = "This model's maximum context length is 8192 tokens. Please reduce the length."
        return cls.http(400, message, code="context_length_exceeded")

    @classmethod
    def rate_limited(cls, retry_after: str | None = "0", code: str | None = None) -> Fault:
        headers = {"Retry-After": retry_after} if retry_after is not None else {}
        return cls.http(429, "Rate limit reached, slow down", code=code, headers=headers)

    @classmethod
    def server_error(cls, status: int = 500) -> Fault:
        return cls.http(status, "The server had an error while processing your request.")

    @classmethod
    def raw(cls, body: str, content_type: str, status: int = 200) -> Fault:
        """Any body at all, e.g. a proxy's HTML page served with status 200."""
        return cls("raw", status=status, body=body, content_type=content_type)

    @classmethod
    def html(cls) -> Fault:
        page = "<!DOCTYPE html><html><head><title>Welcome</title></head><body>Hi</body></html>"
        return cls.raw(page, "text/html; charset=utf-8")

    @classmethod
    def truncated_json(cls) -> Fault:
        """A JSON body cut off mid-way, sent as application/json."""
        return cls.raw(
            '{"id": "chatcmpl-test", "object": "chat.completion", "choi', "application/json"
        )

    @classmethod
    def bad_sse(cls, after_chunks: int = 2) -> Fault:
        """A stream whose next data line is not JSON."""
        return cls("bad_sse", after_chunks=after_chunks)

    @classmethod
    def length(cls) -> Fault:
        """A whole reply that says the output limit cut it (finish_reason "length")."""
        return cls("length")

    @classmethod
    def cut(cls, after_chunks: int = 2, clean: bool = True, pause: float = 0.0) -> Fault:
        return cls("cut", after_chunks=after_chunks, clean=clean, pause=pause)

    @classmethod
    def stall(cls, seconds: float = 5.0, after_chunks: int = 2) -> Fault:
        return cls("stall", seconds=seconds, after_chunks=after_chunks)

    @classmethod
    def keepalive(cls, seconds: float = 15.0, every: float = 0.2, after_chunks: int = 1) -> Fault:
        """After ``after_chunks`` text chunks, only SSE comments, then the connection closes."""
        return cls("keepalive", seconds=seconds, every=every, after_chunks=after_chunks)

    @classmethod
    def linger(cls, seconds: float = 15.0, every: float = 0.0) -> Fault:
        """Every event up to the final one (and Chat's usage), then the connection stays open,
        silent or sending comments every ``every`` s; Chat's ``[DONE]`` never comes."""
        return cls("linger", seconds=seconds, every=every)

    @classmethod
    def trailing(cls, text: str) -> Fault:
        """Answer text sent after the final event (Chat's finish chunk, ``response.completed``)."""
        return cls("trailing", text=text)

    @classmethod
    def second_choice(cls, text: str) -> Fault:
        """Chat deltas of a second choice (index 1), one after each of choice 0's."""
        return cls("second_choice", text=text)

    @classmethod
    def stream_error(cls, code: str, message: str, after_chunks: int = 2) -> Fault:
        """An error inside a 200 stream: Chat's error chunk, or Responses' response.failed."""
        body = {"code": code, "message": message}
        return cls("stream_error", body=body, after_chunks=after_chunks)


def default_answer(body: dict[str, Any]) -> str:
    """A deterministic answer that names the last user message it replies to."""
    messages = body.get("messages") or body.get("input") or [{}]
    last = str(messages[-1].get("content", ""))
    head = " ".join(last.split())[:24]
    return f"结论：这是对「{head}」的回答。要点一，要点二，要点三。"


def strict_schema_problem(body: dict[str, Any], wire: str) -> str | None:
    """What a real API refuses in a strict JSON schema request, or None.

    As OpenAI's structured outputs do: every object of a strict schema lists
    all its properties as required and forbids additional ones.
    """
    if wire == "chat":
        shape = body.get("response_format") or {}
        spec = shape.get("json_schema") or {}
    else:
        shape = spec = (body.get("text") or {}).get("format") or {}
    if shape.get("type") != "json_schema" or not spec.get("strict"):
        return None
    if not spec.get("name"):
        return "a json_schema needs a name"
    return _object_problem(spec.get("schema"), "schema")


def _object_problem(schema: Any, where: str) -> str | None:
    if not isinstance(schema, dict):
        return f"{where} is not a schema"
    if schema.get("type") == "object":
        properties = schema.get("properties") or {}
        if schema.get("additionalProperties") is not False:
            return f"{where}: additionalProperties must be false"
        if sorted(schema.get("required") or []) != sorted(properties):
            return f"{where}: every property must be required"
        for name, child in properties.items():
            problem = _object_problem(child, f"{where}.{name}")
            if problem:
                return problem
    if schema.get("type") == "array":
        return _object_problem(schema.get("items"), f"{where}[]")
    return None


def _invalid_schema(problem: str, wire: str) -> dict[str, Any]:
    param = "response_format" if wire == "chat" else "text.format.schema"
    message = f"Invalid schema for {param}: {problem}."
    return {
        "error": {"message": message, "type": "invalid_request_error", "param": param, "code": None}
    }


class OpenAIServer:
    """Start with ``with OpenAIServer() as server`` (or ``start()`` / ``stop()``)."""

    def __init__(
        self,
        *,
        key: str | None = None,
        models: list[str] | tuple[str, ...] = ("test-model",),
        answer: Callable[[dict[str, Any]], str] = default_answer,
        usage: str | None = "openai",  # "openai", "deepseek", or None (report none)
        list_models: bool = True,
        context_limit: int | None = None,  # characters of prompt; above it: context error
        chunk_chars: int = 6,
        cache_min: int = 1024,  # shared prompt characters before anything counts as cached
        cache_step: int = 128,  # cached counts grow in steps of this many characters
        finish_at: int | None = None,  # output limits up to this are answered as cut ("length")
        reported_prompt: int | None = None,  # report this many prompt tokens, whatever was sent
        # (prompt, output) "tokens" of a request and of the text sent; None: characters
        counter: Callable[[list[dict[str, Any]], str], tuple[int, int]] | None = None,
        listed: list[str] | None = None,  # the IDs /models lists, if not ``models`` (llama-server)
        refuse: Callable[[dict[str, Any]], Fault | None] | None = None,  # a fault for a body
    ) -> None:
        self.key = key
        self.models = list(models)
        self.answer = answer
        self.usage = usage
        self.list_models = list_models
        self.context_limit = context_limit
        self.chunk_chars = chunk_chars
        self.cache_min = cache_min
        self.cache_step = cache_step
        self.finish_at = finish_at
        self.reported_prompt = reported_prompt
        self.counter = counter
        self.served: list[Served] = []  # every generation answered, as far as it got
        self.listed = list(models) if listed is None else list(listed)
        self.refuse = refuse  # an engine that refuses some request shapes (a JSON mode)
        self.requests: list[Received] = []
        self.usage_sent: list[dict[str, Any]] = []  # the usage of each answer, as reported
        self._steps: deque[Fault | None] = deque()
        self._prompts: list[str] = []
        self._lock = threading.Lock()
        self._release = threading.Event()
        self._httpd = _QuietServer(("127.0.0.1", 0), _handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    # -- life cycle --------------------------------------------------------

    def start(self) -> OpenAIServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._release.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{PREFIX}"

    # -- scripting and inspection -------------------------------------------

    def script(self, *steps: Fault | None) -> None:
        """How the next generation requests go, in order: a Fault, or None for normal."""
        with self._lock:
            self._steps.extend(steps)

    @property
    def generations(self) -> list[Received]:
        """Chat and Responses requests, in the order received."""
        return [r for r in self.requests if r.path.endswith(("/chat/completions", "/responses"))]

    def _next_step(self) -> Fault | None:
        with self._lock:
            return self._steps.popleft() if self._steps else None

    def finish(self, body: dict[str, Any]) -> str:
        """ "length" when the request's output limit is within ``finish_at``, else "stop"."""
        limit = body.get("max_tokens") or body.get("max_output_tokens")
        cut = self.finish_at is not None and limit is not None and limit <= self.finish_at
        return "length" if cut else "stop"

    def _usage(self, messages: list[dict[str, Any]], text: str, wire: str) -> dict[str, Any]:
        prompt = "".join(f"{m.get('role')}:{m.get('content')}\n" for m in messages)
        with self._lock:
            shared = max((_common_prefix(prompt, p) for p in self._prompts), default=0)
            self._prompts.append(prompt)
        cached = 0 if shared < self.cache_min else shared - shared % self.cache_step
        size = len(prompt) if self.reported_prompt is None else self.reported_prompt
        if self.counter is not None:
            size = self.counter(messages, "")[0]
        output = len(text) if self.counter is None else self.counter(messages, text)[1]
        usage = self._usage_body(size, output, min(cached, size), wire)
        with self._lock:
            self.usage_sent.append(usage)
        return usage

    def _serve(
        self,
        messages: list[dict[str, Any]],
        broken: str | None,
        usage: dict[str, Any],
        wire: str,
    ) -> None:
        """Log what a generation served: all of it, or (``broken`` holds the text sent
        before a stream broke) its prompt and that text, its usage never reported."""
        prompt = usage["input_tokens" if wire == "responses" else "prompt_tokens"]
        details = usage.get("input_tokens_details") or usage.get("prompt_tokens_details") or {}
        cached = details.get("cached_tokens", usage.get("prompt_cache_hit_tokens", 0))
        if broken is None:
            output = usage["output_tokens" if wire == "responses" else "completion_tokens"]
            served = Served(prompt, output, cached, reported=self.usage is not None)
        else:
            size = len(broken) if self.counter is None else self.counter(messages, broken)[1]
            served = Served(prompt, size, cached, reported=False)
        with self._lock:
            self.served.append(served)

    def _usage_body(self, prompt: int, output: int, cached: int, wire: str) -> dict[str, Any]:
        if wire == "responses":
            return {
                "input_tokens": prompt,
                "output_tokens": output,
                "total_tokens": prompt + output,
                "input_tokens_details": {"cached_tokens": cached},
                "output_tokens_details": {"reasoning_tokens": 0},
            }
        usage: dict[str, Any] = {
            "prompt_tokens": prompt,
            "completion_tokens": output,
            "total_tokens": prompt + output,
        }
        if self.usage == "deepseek":
            usage["prompt_cache_hit_tokens"] = cached
            usage["prompt_cache_miss_tokens"] = prompt - cached
        else:
            usage["prompt_tokens_details"] = {"cached_tokens": cached}
        return usage


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):  # a client killed mid-answer
            super().handle_error(request, client_address)


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _handler(server: OpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        # HTTP/1.0: a streamed body ends when the connection closes, like a cut.
        protocol_version = "HTTP/1.0"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            self._record(None)
            if not self._authorised():
                return
            if self.path == f"{PREFIX}/models" and server.list_models:
                data = [
                    {"id": m, "object": "model", "created": 0, "owned_by": "test"}
                    for m in server.listed
                ]
                self._json(200, {"object": "list", "data": data})
            else:
                self._json(404, "404 page not found")

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = None
            self._record(body)
            if not self._authorised():
                return
            if self.path == f"{PREFIX}/chat/completions":
                wire = "chat"
            elif self.path == f"{PREFIX}/responses":
                wire = "responses"
            else:
                self._json(404, "404 page not found")
                return
            body = body if isinstance(body, dict) else {}
            fault = server._next_step()
            if fault is None and server.refuse is not None:
                fault = server.refuse(body)
            if fault is not None and fault.kind == "status":
                self._json(fault.status, fault.body, fault.headers)
                return
            if fault is not None and fault.kind == "raw":
                self._raw(fault.status, fault.body.encode(), fault.content_type)
                return
            model = body.get("model")
            if model not in server.models:
                self._json(404, Fault.model_not_found(str(model)).body)
                return
            problem = strict_schema_problem(body, wire)
            if problem is not None:
                self._json(400, _invalid_schema(problem, wire))
                return
            messages = list(body.get("messages") or body.get("input") or [])
            size = sum(len(str(m.get("content", ""))) for m in messages)
            if server.context_limit is not None and size > server.context_limit:
                self._json(400, Fault.context_length().body)
                return
            text = server.answer(body)
            usage = server._usage(messages, text, wire)
            finish = (
                "length" if fault is not None and fault.kind == "length" else server.finish(body)
            )
            if body.get("stream"):
                asked = (body.get("stream_options") or {}).get("include_usage")
                send_usage = server.usage is not None and bool(asked)
                events = _chat_events if wire == "chat" else _responses_events
                sent = _with_extra(events(model, text, usage, server, finish), fault)
                whole = self._stream(sent, fault, send_usage)
                server._serve(messages, whole, usage, wire)
            elif wire == "chat":
                self._json(200, _chat_completion(model, text, usage, server, finish))
                server._serve(messages, None, usage, wire)
            else:
                self._json(200, _response(model, text, usage, server, _status(finish)))
                server._serve(messages, None, usage, wire)

        # -- helpers ------------------------------------------------------

        def _record(self, body: Any) -> None:
            headers = {k.lower(): v for k, v in self.headers.items()}
            with server._lock:
                server.requests.append(Received(self.command, self.path, headers, body))

        def _authorised(self) -> bool:
            if server.key is None or self.headers.get("Authorization") == f"Bearer {server.key}":
                return True
            self._json(401, Fault.unauthorized().body)
            return False

        def _raw(self, status: int, data: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _json(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
            data = (body if isinstance(body, str) else json.dumps(body)).encode()
            self.send_response(status)
            kind = "text/plain" if isinstance(body, str) else "application/json"
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def _stream(
            self, events: list[tuple[str, dict[str, Any], str]], fault, send_usage
        ) -> str | None:
            """Send SSE events; ``events`` are (event name, data, role) with role
            "text" for answer chunks, "usage" for the usage event, "end" for
            the final ones a cut stream never sends. Returns None when every
            event went out, else the answer text sent before the stream broke."""
            sent: list[str] = []
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            if fault is not None and fault.kind == "cut" and not fault.clean:
                # Promise more than will come: the client sees a broken message.
                self.send_header("Content-Length", "1000000")
            self.end_headers()
            sent_text = 0
            breaking = fault is not None and fault.kind in BREAKING
            for name, data, role in events:
                if role == "usage" and not send_usage:
                    continue
                faulty = breaking and (role != "text" or sent_text >= fault.after_chunks)
                if faulty and role not in ("start", "extra"):
                    if fault.kind == "stall":
                        self.wfile.flush()
                        server._release.wait(fault.seconds)
                    elif fault.kind == "stream_error":
                        self.wfile.write(_error_event(fault.body, chat=not events[0][0]))
                    elif fault.kind == "bad_sse":
                        self.wfile.write(b'data: {"id": "chatcmpl-test", "choices": [{"de\n\n')
                    elif fault.kind == "keepalive":
                        self._hold(fault)
                    elif fault.kind == "cut" and fault.pause:
                        self.wfile.flush()  # what came so far is drawn before the break
                        server._release.wait(fault.pause)
                    return "".join(sent)
                prefix = f"event: {name}\n" if name else ""
                self.wfile.write(f"{prefix}data: {json.dumps(data)}\n\n".encode())
                self.wfile.flush()
                sent_text += role == "text"
                if role == "text":
                    sent.append(_delta(data))
            if fault is not None and fault.kind == "linger":
                self._hold(fault)  # the answer is whole; the connection stays open
                return None
            if events and not events[0][0]:  # Chat Completions ends with [DONE]
                self.wfile.write(b"data: [DONE]\n\n")
            return None

        def _hold(self, fault: Fault) -> None:
            """Keep the connection open for ``fault.seconds``: silent, or with SSE comments."""
            self.wfile.flush()
            until = time.monotonic() + fault.seconds
            while time.monotonic() < until:
                if server._release.wait(fault.every or fault.seconds):
                    return  # the server is stopping
                if fault.every:
                    self.wfile.write(b": keepalive\n\n")
                    self.wfile.flush()

    return Handler


BREAKING = {"cut", "stall", "stream_error", "bad_sse", "keepalive"}  # faults that end a stream


def _delta(data: dict[str, Any]) -> str:
    """The answer text of one text event, Chat's or Responses'."""
    if "choices" in data:
        return data["choices"][0]["delta"].get("content") or ""
    return data.get("delta") or ""


def _with_extra(events: list[tuple[str, dict[str, Any], str]], fault: Fault | None):
    """``events`` with a ``trailing`` or ``second_choice`` fault's extra events put in."""
    if fault is None or fault.kind not in ("trailing", "second_choice"):
        return events
    chat = not events[0][0]
    texts = [n for n, (_, _, role) in enumerate(events) if role == "text"]
    out = list(events)
    if fault.kind == "trailing":
        name, data, _ = events[texts[-1]]
        extra = json.loads(json.dumps(data))
        if chat:
            extra["choices"][0]["delta"] = {"content": fault.text}
        else:
            extra["delta"] = fault.text
        end = next(n for n, (_, _, role) in enumerate(events) if role == "end")
        out.insert(end + 1, (name, extra, "extra"))
        return out
    for n in reversed(texts):  # second_choice: Chat only
        name, data, _ = events[n]
        extra = json.loads(json.dumps(data))
        extra["choices"][0].update(index=1, delta={"content": fault.text})
        out.insert(n + 1, (name, extra, "extra"))
    return out


def _error_event(error: dict[str, Any], chat: bool) -> bytes:
    if chat:
        return f"data: {json.dumps({'error': error})}\n\n".encode()
    failed = {
        "id": "resp-test",
        "object": "response",
        "status": "failed",
        "error": error,
        "output": [],
        "model": "",
        "created_at": 0,
    }
    data = {"type": "response.failed", "sequence_number": 99, "response": failed}
    return f"event: response.failed\ndata: {json.dumps(data)}\n\n".encode()


def _chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _status(finish: str) -> str:
    return "incomplete" if finish == "length" else "completed"


def _chat_events(model, text, usage, server, finish) -> list[tuple[str, dict[str, Any], str]]:
    def chunk(delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return {
            "id": "chatcmpl-test",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": model,
            "choices": [choice],
        }

    events = [("", chunk({"role": "assistant", "content": ""}, None), "start")]
    events += [
        ("", chunk({"content": part}, None), "text") for part in _chunks(text, server.chunk_chars)
    ]
    events.append(("", chunk({}, finish), "end"))
    final = {
        "id": "chatcmpl-test",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": model,
        "choices": [],
        "usage": usage,
    }
    events.append(("", final, "usage"))
    return events


def _chat_completion(model, text, usage, server, finish) -> dict[str, Any]:
    message = {"role": "assistant", "content": text}
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": usage if server.usage else None,
    }


def _response(model, text, usage, server, status: str = "completed") -> dict[str, Any]:
    content = [{"type": "output_text", "text": text, "annotations": []}]
    item = {
        "id": "msg-test",
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": content,
    }
    return {
        "id": "resp-test",
        "object": "response",
        "created_at": int(time.time()),
        "model": model,
        "status": status,
        "output": [item],
        "parallel_tool_calls": False,
        "tool_choice": "auto",
        "tools": [],
        "usage": usage if server.usage else None,
        "incomplete_details": {"reason": "max_output_tokens"} if status == "incomplete" else None,
    }


def _responses_events(model, text, usage, server, finish) -> list[tuple[str, dict[str, Any], str]]:
    created = _response(model, "", None, server, status="in_progress")
    created["output"] = []
    events = [
        (
            "response.created",
            {"type": "response.created", "sequence_number": 0, "response": created},
            "start",
        )
    ]
    for n, part in enumerate(_chunks(text, server.chunk_chars), start=1):
        data = {
            "type": "response.output_text.delta",
            "sequence_number": n,
            "item_id": "msg-test",
            "output_index": 0,
            "content_index": 0,
            "delta": part,
            "logprobs": [],
        }
        events.append(("response.output_text.delta", data, "text"))
    kind = "response.completed" if finish == "stop" else "response.incomplete"
    done = {
        "type": kind,
        "sequence_number": len(events),
        "response": _response(model, text, usage, server, _status(finish)),
    }
    events.append((kind, done, "end"))
    return events
