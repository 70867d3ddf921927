"""Reading a reply off the wire: Chat Completions and Responses, streamed or whole.

A part of ``OpenAICompatProvider``. A streamed reply counts only when it
reached its final event; an error while a stream is read means it was cut.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, cast

from studybot.channel.providers import replies
from studybot.channel.providers.failures import StreamCut
from studybot.errors import ProviderError
from studybot.types import Messages, Reply, TextSink


class WireReads:
    """The four ways a reply comes back, and the request's deadline."""

    client: Any
    model: str
    settings: Any

    def _chat_stream(self, messages: Messages, on_text: TextSink | None, limit: int) -> Reply:
        stream = self.client.chat.completions.create(
            model=self.model,
            messages=cast(Any, messages),  # the client types each role; ours are plain dicts
            stream=True,
            stream_options={"include_usage": True},
            max_tokens=limit,
        )
        parts: list[str] = []
        finish: str | None = None
        usage: Any = None
        deadline = self._deadline()
        with stream, _cut_on_error(parts, self.settings.stream_idle_timeout):
            replies.expect_event_stream(stream)
            for chunk in stream:
                if chunk.usage is not None:
                    usage = chunk.usage
                for choice in chunk.choices:
                    text = choice.delta.content if choice.delta is not None else None
                    if text:
                        parts.append(text)
                        if on_text is not None:
                            on_text(text)
                    if choice.finish_reason:
                        finish = choice.finish_reason
                self._check_deadline(deadline)
        if finish is None:
            raise StreamCut("it ended without a finish_reason", replies.size(parts))
        return Reply(text="".join(parts), usage=replies.chat_usage(usage), finish_reason=finish)

    def _chat_whole(
        self, messages: Messages, on_text: TextSink | None, limit: int, **extra: Any
    ) -> Reply:
        response = self.client.chat.completions.create(
            model=self.model,
            messages=cast(Any, messages),  # the client types each role; ours are plain dicts
            max_tokens=limit,
            **extra,
        )
        replies.expect_parsed(response)
        choice = response.choices[0] if response.choices else None
        if choice is None or not choice.finish_reason:
            raise StreamCut("the response had no finish_reason")
        text = choice.message.content or ""
        if on_text is not None and text:
            on_text(text)
        return Reply(
            text=text, usage=replies.chat_usage(response.usage), finish_reason=choice.finish_reason
        )

    def _responses_stream(self, messages: Messages, on_text: TextSink | None, limit: int) -> Reply:
        stream = self.client.responses.create(
            model=self.model,
            input=cast(Any, messages),
            stream=True,
            max_output_tokens=limit,
        )
        parts: list[str] = []
        final: Any = None
        finish = "stop"
        deadline = self._deadline()
        with stream, _cut_on_error(parts, self.settings.stream_idle_timeout):
            replies.expect_event_stream(stream)
            for event in cast(Iterable[Any], stream):  # one of many event types, read by .type
                kind = getattr(event, "type", "")
                if kind == "response.output_text.delta":
                    parts.append(event.delta)
                    if on_text is not None and event.delta:
                        on_text(event.delta)
                elif kind == "response.completed":
                    final = event.response
                elif kind == "response.incomplete":
                    final = event.response
                    details = getattr(final, "incomplete_details", None)
                    finish = replies.incomplete_reason(getattr(details, "reason", None))
                elif kind == "response.failed":
                    raise replies.reported(getattr(event.response, "error", None))
                elif kind == "error":
                    raise replies.reported(event)
                self._check_deadline(deadline)
        if final is None:
            raise StreamCut("it ended without response.completed", replies.size(parts))
        return Reply(
            text="".join(parts), usage=replies.responses_usage(final.usage), finish_reason=finish
        )

    def _responses_whole(
        self, messages: Messages, on_text: TextSink | None, limit: int, **extra: Any
    ) -> Reply:
        response = self.client.responses.create(
            model=self.model,
            input=cast(Any, messages),
            max_output_tokens=limit,
            **extra,
        )
        replies.expect_parsed(response)
        if response.status == "failed":
            raise replies.reported(response.error)
        if response.status not in ("completed", "incomplete"):
            raise StreamCut(f"the response's status is {response.status!r}")
        finish = "stop"
        if response.status == "incomplete":
            details = getattr(response, "incomplete_details", None)
            finish = replies.incomplete_reason(getattr(details, "reason", None))
        text = response.output_text
        if on_text is not None and text:
            on_text(text)
        return Reply(text=text, usage=replies.responses_usage(response.usage), finish_reason=finish)

    def _deadline(self) -> float:
        return time.monotonic() + self.settings.request_timeout

    def _check_deadline(self, deadline: float) -> None:
        if time.monotonic() > deadline:
            raise ProviderError(
                "the answer took longer than request_timeout "
                f"({self.settings.request_timeout:g} s)",
                hint="raise request_timeout in config.toml for very long answers",
            )


@contextmanager
def _cut_on_error(parts: list[str], idle: float) -> Iterator[None]:
    """Errors raised while a stream is read mean the stream was cut."""
    import openai

    try:
        yield
    except openai.APITimeoutError:
        raise StreamCut(f"no data for {idle:g} s", replies.size(parts)) from None
    except openai.APIConnectionError:
        raise StreamCut("the connection dropped", replies.size(parts)) from None


class SinkFailed(Exception):
    """Carries an error of the text sink past the reply-shape handler."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


class Sink:
    """``on_text`` with its own errors kept apart from errors reading the reply."""

    def __init__(self, on_text: TextSink) -> None:
        self.on_text = on_text

    def __call__(self, chunk: str) -> None:
        try:
            self.on_text(chunk)
        except Exception as exc:  # noqa: BLE001 - re-raised unchanged by _parsed
            raise SinkFailed(exc) from exc
