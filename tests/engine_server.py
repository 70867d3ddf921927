"""A local engine for tests: the OpenAI-compatible test server plus an engine's own routes.

``EngineServer(style="llama.cpp")`` answers the way llama.cpp's
``llama-server`` does: ``GET /props`` (``default_generation_settings``,
``total_slots``, ``chat_template``, ``build_info``), ``POST /apply-template``
and ``POST /tokenize`` at the server root, chat at ``/v1``. Its usage is the
engine's: prompt tokens are the rendered chat template tokenized by its own
tokenizer (words, spaces, punctuation and special tokens, nothing like
cl100k), and cached tokens follow its slots: the longest prefix shared
with the slot's last prompt and answer, the last prompt token always
evaluated, the slot with the longest match (else the least recently used).

``style="vllm"`` offers vLLM's ``POST /tokenize`` (``messages`` or
``prompt``) and no ``/props``.

    with EngineServer(key=None, models=["tiny"]) as server:
        ... studybot run --base-url {server.base_url} --model tiny ...
        server.usage_sent        # the engine's usage of each answer
        server.engine_calls      # the /props, /apply-template and /tokenize requests
"""

from __future__ import annotations

import json
import re
import threading
from typing import Any

from openai_server import PREFIX, OpenAIServer, _handler

SPECIAL = ("<|im_start|>", "<|im_end|>")
PIECES = re.compile(r"<\|im_(?:start|end)\|>|\w+|\s+|[^\w\s]")


class EngineServer(OpenAIServer):
    def __init__(self, *, style: str = "llama.cpp", slots: int = 1, **options: Any) -> None:
        super().__init__(**options)
        self.style = style
        self.tokenizer_down = False  # /tokenize and /apply-template answer 500 while True
        self.slots = [[] for _ in range(slots)]  # the token ids each slot holds
        self._used = list(range(slots))  # least recently used first
        self._vocabulary: dict[str, int] = {piece: 151644 + i for i, piece in enumerate(SPECIAL)}
        self._engine_lock = threading.Lock()
        self._httpd.RequestHandlerClass = _engine_handler(self)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def engine_calls(self) -> list[str]:
        routes = ("/props", "/apply-template", "/tokenize")
        return [r.path for r in self.requests if r.path in routes]

    # -- the engine's tokenizer and template --------------------------------

    def tokenize(self, text: str, parse_special: bool = True) -> list[int]:
        with self._engine_lock:
            ids = []
            for piece in PIECES.findall(text):
                if piece in SPECIAL and not parse_special:
                    ids.extend(self._id(p) for p in re.findall(r"\w+|[^\w\s]", piece))
                else:
                    ids.append(self._id(piece))
            return ids

    def _id(self, piece: str) -> int:
        return self._vocabulary.setdefault(piece, len(self._vocabulary) + 1000)

    @staticmethod
    def render(messages: list[dict[str, Any]]) -> str:
        """A ChatML template, as Qwen2's renders a chat with a system message."""
        turns = [f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages]
        return "".join(turns) + "<|im_start|>assistant\n"

    def _usage(self, messages: list[dict[str, Any]], text: str, wire: str) -> dict[str, Any]:
        prompt = self.tokenize(self.render(messages))
        output = self.tokenize(text)
        with self._engine_lock:
            shared = [_common(held, prompt) for held in self.slots]
            best = max(range(len(shared)), key=shared.__getitem__)
            slot = best if shared[best] > 0 else self._used[0]
            self._used.remove(slot)
            self._used.append(slot)
            self.slots[slot] = prompt + output
        cached = min(shared[slot], len(prompt) - 1)
        usage = self._usage_body(len(prompt), len(output), cached, wire)
        with self._lock:
            self.usage_sent.append(usage)
        return usage


def _common(a: list[int], b: list[int]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def _engine_handler(server: EngineServer):
    base = _handler(server)

    class Handler(base):
        def do_GET(self) -> None:
            if self.path == "/props" and server.style == "llama.cpp":
                self._record(None)
                self._json(200, _props(server))
                return
            self.path = _openai_path(self.path)
            super().do_GET()

        def do_POST(self) -> None:
            if self.path in ("/tokenize", "/apply-template"):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"null")
                self._record(body)
                if not self._authorised():
                    return
                self._engine_route(body)
                return
            self.path = _openai_path(self.path)
            super().do_POST()

        def _engine_route(self, body: Any) -> None:
            if server.tokenizer_down:
                self._json(500, {"error": {"code": 500, "message": "tokenizer unavailable"}})
            elif server.style == "llama.cpp" and self.path == "/apply-template":
                self._json(200, {"prompt": server.render(body["messages"])})
            elif server.style == "llama.cpp":
                special = body.get("parse_special", True)
                self._json(200, {"tokens": server.tokenize(body["content"], special)})
            elif self.path == "/tokenize" and "messages" in body:
                ids = server.tokenize(server.render(body["messages"]))
                self._json(200, {"count": len(ids), "max_model_len": 32768, "tokens": ids})
            elif self.path == "/tokenize":
                ids = server.tokenize(body["prompt"])
                self._json(200, {"count": len(ids), "max_model_len": 32768, "tokens": ids})
            else:
                self._json(404, "404 page not found")

    return Handler


def _openai_path(path: str) -> str:
    """/v1/chat/completions is served by the test server's /api routes."""
    return PREFIX + path[len("/v1") :] if path.startswith("/v1/") else path


def _props(server: EngineServer) -> dict[str, Any]:
    return {
        "default_generation_settings": {"n_ctx": 32768, "params": {"temperature": 0.8}},
        "total_slots": len(server.slots),
        "model_path": "tiny-qwen2.gguf",
        "chat_template": "{% for message in messages %}<|im_start|>…{% endfor %}",
        "build_info": "b0000-test",
    }
