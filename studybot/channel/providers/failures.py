"""What went wrong on the channel, in the user's terms, and whether to retry.

``classify`` turns an ``openai`` exception (or a cut stream) into a
``Failure``: the error the user sees if retrying does not help, whether a
retry may help, and how long the server asked us to wait. Messages name
the variable, URL and model as sent; they never contain the key, and
server messages are scrubbed of it before they are quoted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any

from studybot.channel.urls import masked
from studybot.errors import ContextOverflow, ProviderError, StudybotError

QUOTE_CHARS = 160  # longest piece of a server message quoted to the user

_CONTEXT_CODES = {"context_length_exceeded", "string_above_max_length"}
_CONTEXT_TEXT = re.compile(
    r"context[ _-]?(length|window)|maximum context|too many tokens|prompt is too long"
    r"|input is too long|tokens? exceed|exceeds? the (model'?s? )?(maximum|max)",
    re.IGNORECASE,
)
_MODEL_TEXT = re.compile(
    r"model.*(not (be )?found|does not exist|not exist|no such|unknown|invalid|not supported"
    r"|unavailable)|(unknown|invalid|unsupported) model",
    re.IGNORECASE,
)


class ReportedError(Exception):
    """An error the API put inside a 200 response: a stream error event, a failed response."""

    def __init__(self, code: str | None, message: str | None) -> None:
        super().__init__(message or code or "the response failed")
        self.code = code
        self.message = message or ""


class StreamCut(Exception):
    """A stream that ended before its final event; never an answer to keep."""

    def __init__(self, reason: str, received: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.received = received  # characters of answer text that did arrive


class Malformed(Exception):
    """A reply that is not the API's format: bad JSON, an HTML page, a stray content type."""

    def __init__(self, came_back: str) -> None:
        super().__init__(came_back)
        self.came_back = came_back  # what arrived, in words: "an HTML page (text/html)"


class Refused(ProviderError):
    """The server refused the request itself (a plain 400-class status, or a 5xx): a request
    of another shape (a weaker JSON mode) may pass where this one will not."""

    def __init__(self, message: str, hint: str | None = None, *, said: str = "") -> None:
        super().__init__(message, hint)
        self.said = said  # the status and the server's own words, e.g. "HTTP 500: …"


@dataclass(frozen=True)
class Channel:
    """What failure messages name: everything about the request but the key."""

    base_url: str
    model: str
    model_origin: str
    wire_api: str
    variable: str
    key_state: str  # e.g. "set, 51 characters"
    retries: int
    secret: str = ""  # only to scrub quoted server text; never printed

    def __post_init__(self) -> None:
        # Messages name the URL; user info, query and fragment may hold a key.
        object.__setattr__(self, "base_url", masked(self.base_url))


@dataclass(frozen=True)
class Failure:
    error: StudybotError  # shown when retrying does not help
    retryable: bool
    label: str  # short, for "retrying" notices
    wait: float | None = None  # seconds the server asked for (Retry-After)


def classify(exc: BaseException, channel: Channel, what: str) -> Failure:
    """The failure behind ``exc`` for the request that answers ``what``."""
    import openai

    if isinstance(exc, StreamCut):
        return _cut(exc, channel, what)
    if isinstance(exc, Malformed):
        return Failure(
            ProviderError(
                f"{what}: {channel.base_url} sent {exc.came_back} instead of an answer, "
                f"{channel.retries + 1} times",
                hint="check that base_url is the OpenAI-compatible API root (not a web page or "
                "a proxy's login); `studybot doctor --probe` checks the channel",
            ),
            retryable=True,
            label=f"the reply was {exc.came_back}",
        )
    if isinstance(exc, openai.APITimeoutError):
        return Failure(
            ProviderError(
                f"{what}: {channel.base_url} did not answer in time, "
                f"{channel.retries + 1} attempts",
                hint="the provider is slow or unreachable; try again later, "
                "or raise request_timeout / stream_idle_timeout in config.toml",
            ),
            retryable=True,
            label="the request timed out",
        )
    if isinstance(exc, openai.APIConnectionError):
        cause = _cause(exc)
        return Failure(
            ProviderError(
                f"cannot reach {channel.base_url}: {cause} ({channel.retries + 1} attempts)",
                hint="check the base URL and your network; `studybot doctor` checks the channel",
            ),
            retryable=True,
            label=f"cannot connect ({cause})",
        )
    if isinstance(exc, openai.APIStatusError):
        return _status(exc, channel, what)
    if isinstance(exc, ReportedError):
        return _reported(exc.code, _scrub(exc.message, channel), channel, what)
    if isinstance(exc, openai.APIError):  # the client's own reading of a stream's error event
        return _reported(exc.code, _server_text(exc, channel), channel, what)
    raise exc


def _cut(exc: StreamCut, channel: Channel, what: str) -> Failure:
    return Failure(
        ProviderError(
            f"{what}: the answer stream was cut {channel.retries + 1} times ({exc.reason}); "
            "the partial answer was not saved",
            hint="the provider or the network keeps dropping the connection; try again later",
        ),
        retryable=True,
        label=f"the answer stream was cut after {exc.received} characters ({exc.reason})",
    )


def _status(exc: Any, channel: Channel, what: str) -> Failure:
    status = exc.status_code
    code = (exc.code or "").lower()
    text = _server_text(exc, channel)
    wrong_wire = (
        "; if the endpoint has no Responses API, use --wire-api chat"
        if channel.wire_api == "responses"
        else ""
    )
    if status in (401, 403):
        return _final(
            ProviderError(
                f"the API refused the key (HTTP {status}): studybot read {channel.variable}, "
                f"which is {channel.key_state}",
                hint=f"export {channel.variable}='…' with the key exactly as your provider "
                "shows it (no quotes, spaces or line breaks), in the shell that runs studybot; "
                "if your key lives in another variable, set env_key in config.toml",
            )
        )
    if _is_context(code, text) and status in (400, 413, 422):
        return _final(_overflow(what, text))
    if status in (400, 404) and (code == "model_not_found" or _MODEL_TEXT.search(text)):
        return _final(
            ProviderError(
                f"model {channel.model!r} (from {channel.model_origin}) was not found "
                f"at {channel.base_url}",
                hint="copy the model ID exactly from the provider's model list "
                f"(`studybot doctor --probe` lists them): no spaces, no invented suffix{wrong_wire}",
            )
        )
    if status == 404:
        url = str(exc.request.url) if getattr(exc, "request", None) is not None else "?"
        return _final(
            ProviderError(
                f"the API answered 404 Not Found for {exc.request.method} {url}",
                hint="base_url is the API root without /v1 (e.g. https://taotoken.net/api); "
                f"studybot adds the /chat/completions path itself{wrong_wire}",
            )
        )
    if status == 429:
        if code == "insufficient_quota":
            return _final(
                ProviderError(
                    "the account has no quota left (HTTP 429 insufficient_quota)",
                    hint="top up or check your plan in the provider's console",
                )
            )
        return Failure(
            ProviderError(
                f"{channel.base_url} is rate limiting requests (HTTP 429), "
                f"still after {channel.retries} retries",
                hint="wait a minute before resuming, or check your plan's rate limit",
            ),
            retryable=True,
            label="rate limited (HTTP 429)",
            wait=retry_after(exc.response.headers),
        )
    if status >= 500 or status in (408, 409):
        said = f": {text}" if text else ""
        message = f"the API failed with HTTP {status} for {what}, still after {channel.retries} retries{said}"
        hint = "the provider is having trouble; try again in a few minutes"
        return Failure(
            Refused(message, hint, said=f"HTTP {status}{said}")
            if status >= 500
            else ProviderError(message, hint),  # 408, 409: a moment's trouble, not the request
            retryable=True,
            label=f"HTTP {status}",
            wait=retry_after(exc.response.headers),
        )
    return _final(
        Refused(
            f"the API rejected the request for {what} (HTTP {status}): {text or 'no details'}",
            hint="`studybot doctor --probe` checks the URL, key and model",
            said=f"HTTP {status}: {text or 'no details'}",
        )
    )


def _reported(code: str | None, text: str, channel: Channel, what: str) -> Failure:
    code = (code or "").lower()
    if _is_context(code, text):
        return _final(_overflow(what, text))
    if code == "model_not_found" or _MODEL_TEXT.search(text):
        return _final(
            ProviderError(
                f"model {channel.model!r} (from {channel.model_origin}) was not found "
                f"at {channel.base_url}",
                hint="copy the model ID exactly from the provider's model list",
            )
        )
    return Failure(
        ProviderError(
            f"{what}: the API reported an error inside the answer stream, "
            f"{channel.retries + 1} times: {text or code or 'no details'}",
            hint="the provider is having trouble; try again in a few minutes",
        ),
        retryable=True,
        label=f"error inside the stream ({code or 'no code'})",
    )


def _overflow(what: str, text: str) -> ContextOverflow:
    detail = f": {text}" if text else ""
    return ContextOverflow(
        f"{what} did not fit the model's context window{detail}",
        hint="the history is too long for this model: study the range again with smaller "
        "segments (--segment-max 4) or use a model with a longer context",
    )


def _final(error: StudybotError) -> Failure:
    return Failure(error, retryable=False, label=error.message)


def _is_context(code: str, text: str) -> bool:
    return code in _CONTEXT_CODES or bool(_CONTEXT_TEXT.search(text))


def _server_text(exc: Any, channel: Channel) -> str:
    """The server's own message, one line, clipped, with the key scrubbed out."""
    body = getattr(exc, "body", None)
    text = ""
    if isinstance(body, dict):
        error = body.get("error")
        text = str((error if isinstance(error, dict) else body).get("message") or "")
    elif isinstance(body, str):
        text = body
    if not text:
        text = getattr(exc, "message", "") or ""
    return _scrub(text, channel)


def _scrub(text: str, channel: Channel) -> str:
    text = " ".join(text.split())
    if channel.secret:
        text = text.replace(channel.secret, "[key]")
    return text[:QUOTE_CHARS] + ("…" if len(text) > QUOTE_CHARS else "")


def _cause(exc: BaseException) -> str:
    inner = exc.__cause__ or exc.__context__
    name = type(inner).__name__ if inner is not None else ""
    if "Connect" in name:
        return "connection refused or host unknown"
    if "Protocol" in name or "ReadError" in name:
        return "the connection dropped"
    return "connection error"


def retry_after(headers: Any) -> float | None:
    """Seconds from ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date)."""
    if headers is None:
        return None
    millis = headers.get("retry-after-ms")
    if millis:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        from datetime import UTC, datetime

        when = parsedate_to_datetime(value)
        return max(0.0, (when - datetime.now(UTC)).total_seconds())
    except (TypeError, ValueError):
        return None
