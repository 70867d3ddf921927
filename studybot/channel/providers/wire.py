"""Reading a reply off the wire: Chat Completions and Responses, streamed or whole.

A part of ``OpenAICompatProvider``. A streamed reply counts only when it
reached its final event, and ends there: choice 0 up to its finish_reason
(after which only Chat's usage chunk is read), or the Responses text up to
``response.completed``; a side request may stop reading sooner (``most``
characters, then it comes back as cut by the limit). Before that event, an error while the stream is
read, or a ``StreamWatch`` clock that ran out, means the stream was cut.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, cast

from studybot.channel.providers import replies
from studybot.channel.providers.failures import StreamCut
from studybot.channel.providers.watch import DEADLINE, IDLE, StreamWatch
from studybot.errors import ProviderError
from studybot.types import Messages, Reply, TextSink


class WireReads:
    """The four ways a reply comes back, each stream under its watch."""

    client: Any
    model: str
    settings: Any

    def _chat_stream(
        self, messages: Messages, on_text: TextSink | None, limit: int, most: int | None = None
    ) -> Reply:
        started = time.monotonic()
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
        with stream, self._watched(stream, parts, started) as watch:
            replies.expect_event_stream(stream)
            for chunk in stream:
                watch.data()
                if chunk.usage is not None:
                    usage = chunk.usage
                for choice in chunk.choices:
                    # The answer is choice 0 up to its finish_reason: a second choice's
                    # deltas and text sent after the finish are no part of it.
                    if (choice.index or 0) != 0 or finish is not None:
                        continue
                    text = choice.delta.content if choice.delta is not None else None
                    if text:
                        parts.append(text)
                        if on_text is not None:
                            on_text(text)
                    if choice.finish_reason:
                        finish = choice.finish_reason
                        watch.finished()  # only the usage chunk may follow
                if finish is None and _past(parts, most):
                    finish = "length"  # read up to ``most``: the rest is not wanted
                    break
                if watch.expired:
                    break
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

    def _responses_stream(
        self, messages: Messages, on_text: TextSink | None, limit: int, most: int | None = None
    ) -> Reply:
        started = time.monotonic()
        stream = self.client.responses.create(
            model=self.model,
            input=cast(Any, messages),
            stream=True,
            max_output_tokens=limit,
        )
        parts: list[str] = []
        final: Any = None
        finish = "stop"
        stopped = False  # read up to ``most``: the rest is not wanted
        with stream, self._watched(stream, parts, started) as watch:
            replies.expect_event_stream(stream)
            for event in cast(Iterable[Any], stream):  # one of many event types, read by .type
                watch.data()
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
                if final is None and _past(parts, most):
                    stopped, finish = True, "length"
                    break
                if final is not None or watch.expired:
                    break  # the final event carries the usage: nothing after it is read
        if final is None and not stopped:
            raise StreamCut("it ended without response.completed", replies.size(parts))
        usage = replies.responses_usage(getattr(final, "usage", None))
        return Reply(text="".join(parts), usage=usage, finish_reason=finish)

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

    @contextmanager
    def _watched(self, stream: Any, parts: list[str], started: float) -> Iterator[StreamWatch]:
        """The stream read under its watch, and how it ended in the retry policy's terms.

        Once the final event arrived the answer is whole, whatever the connection
        does next; before it, a watch that ran out, a timeout or a dropped
        connection cut the stream.
        """
        import openai

        idle = self.settings.stream_idle_timeout
        with StreamWatch(stream, idle, started + self.settings.request_timeout) as watch:
            try:
                yield watch
            except openai.APITimeoutError:
                if not (watch.done or watch.expired):
                    raise StreamCut(f"no data for {idle:g} s", replies.size(parts)) from None
            except openai.APIConnectionError:
                if not (watch.done or watch.expired):
                    raise StreamCut("the connection dropped", replies.size(parts)) from None
        if watch.done:
            return
        if watch.expired == DEADLINE:
            raise ProviderError(
                "the answer took longer than request_timeout "
                f"({self.settings.request_timeout:g} s)",
                hint="raise request_timeout in config.toml for very long answers",
            )
        if watch.expired == IDLE:
            # Keep-alive comments are no data: idle time counts from the last event.
            raise StreamCut(f"no data for {idle:g} s", replies.size(parts))


def _past(parts: list[str], most: int | None) -> bool:
    return most is not None and replies.size(parts) >= most


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
