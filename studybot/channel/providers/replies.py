"""Reading what an OpenAI-compatible endpoint sent back: usage, finish words, and garbage.

The client hands back what it cannot parse (a proxy's HTML page, a stray
content type) as plain text, and an SSE stream of the wrong type as no
events at all; these helpers turn both into ``Malformed`` so the retry
policy treats them like a dropped stream.
"""

from __future__ import annotations

from typing import Any

from studybot.channel.providers.failures import Malformed, ReportedError
from studybot.types import Usage


def expect_event_stream(stream: Any) -> None:
    """A 200 that is not an event stream (a proxy's HTML page) has no events to read."""
    response = getattr(stream, "response", None)
    kind = response.headers.get("content-type", "") if response is not None else ""
    if kind and "event-stream" not in kind:
        raise Malformed(_described(kind.split(";")[0].strip()))


def expect_parsed(response: Any) -> None:
    """The client returns a body it cannot parse as plain text; that is no answer."""
    if isinstance(response, str):
        raise Malformed(_described("text/html" if response.lstrip().startswith("<") else "text"))


def _described(kind: str) -> str:
    if "html" in kind:
        return f"an HTML page ({kind})"
    return f"a {kind or 'non-JSON'} body, not the API's JSON"


def reported(error: Any) -> ReportedError:
    return ReportedError(getattr(error, "code", None), getattr(error, "message", None))


def size(parts: list[str]) -> int:
    return sum(len(p) for p in parts)


def incomplete_reason(reason: str | None) -> str:
    # Chat's words for the same outcomes, so reports read the same for both wire APIs.
    return {"max_output_tokens": "length", "content_filter": "content_filter"}.get(
        reason or "", reason or "length"
    )


def _get(obj: Any, name: str) -> Any:
    """A usage field, whether the client parsed it into a model or left it a dict."""
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj.get(name)
    value = getattr(obj, name, None)
    if value is None:
        extra = getattr(obj, "model_extra", None) or {}
        value = extra.get(name)
    return value


def chat_usage(usage: Any) -> Usage | None:
    """Chat usage; cached tokens from OpenAI's details or DeepSeek's cache-hit count."""
    return _usage(usage, "prompt_tokens", "completion_tokens", "prompt_tokens_details")


def responses_usage(usage: Any) -> Usage | None:
    """Responses usage: input/output tokens and ``input_tokens_details.cached_tokens``."""
    return _usage(usage, "input_tokens", "output_tokens", "input_tokens_details")


def _usage(usage: Any, prompt: str, completion: str, details: str) -> Usage | None:
    if usage is None:
        return None
    cached = _get(_get(usage, details), "cached_tokens")
    if cached is None:
        cached = _get(usage, "prompt_cache_hit_tokens")
    return Usage(
        prompt_tokens=int(_get(usage, prompt) or 0),
        completion_tokens=int(_get(usage, completion) or 0),
        cached_tokens=int(cached or 0),
    )
