"""The live channel: any OpenAI-compatible API, through the official ``openai`` client.

Two wire APIs: Chat Completions (``chat``, the default) and Responses
(``responses``). Answers stream to the caller's ``on_text`` as they arrive.
A reply is returned only when its stream reached its final event (a Chat
``finish_reason``, a Responses ``response.completed``): a stream without
it is cut and retried, so no partial answer ever reaches the caller. Rate limits, 5xx, dropped connections and
stalls are retried with backoff (``Retry-After`` wins); the client's own
retries are off so that there is one policy, and one place to test it.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from studybot.bank import Question
from studybot.channel.checks import key_facts, origin
from studybot.channel.config import Settings
from studybot.channel.providers import json_modes
from studybot.channel.providers.base import kept, quiet
from studybot.channel.providers.failures import (
    Channel,
    Malformed,
    Refused,
    ReportedError,
    StreamCut,
    classify,
)
from studybot.channel.providers.wire import Sink, SinkFailed, WireReads
from studybot.costs import tokens
from studybot.errors import ProviderError, StudybotError
from studybot.types import NONE_DISCARDED, Messages, Notify, Reply, TextSink, Usage

LONGEST_WAIT = 120.0  # seconds: a server asking to wait longer than this gets an error instead
BACKOFF_CAP = 30.0  # seconds: the longest wait between retries without Retry-After
JITTER = 0.25  # fraction a backoff is shortened at random, so clients do not retry in step
CONNECT_TIMEOUT = 5.0  # seconds to open a connection: an unreachable host fails fast
MORE_ROOM = 2  # a cut answer is asked once more with this many times the output tokens
MODEL_LIST_MISSING = {404, 405, 501}  # statuses meaning "this endpoint lists no models"
SCHEMA_NAME = "studybot_reply"  # the name a strict JSON schema is sent under
PROBE_READ_CHARS = 2_000  # a probe is a sentence or two: a streamed one is not read past this
# A grade asked at temperature 0 fails the same way again: it is asked at most once more.
GRADE_RETRIES = 1
MODE_NAMES = {
    json_modes.SCHEMA: "the strict JSON schema",
    json_modes.OBJECT: "JSON object mode",
    json_modes.TEXT: "asking for JSON in the prompt alone",
}


@dataclass(frozen=True)
class JsonReply:
    """How a side request asks for a JSON reply: a ``json_modes`` mode, and its schema."""

    mode: str  # json_modes.SCHEMA, OBJECT or TEXT (the prompt alone asks for JSON)
    schema: Mapping[str, Any] | None = None  # the strict schema, for SCHEMA


class OpenAICompatProvider(WireReads):
    """Any OpenAI-compatible endpoint (TaoToken by default), chat or responses, streamed."""

    name = "openai-compat"
    live = True

    def __init__(
        self,
        settings: Settings,
        *,
        sleep: Callable[[float], None] = time.sleep,
        notify: Notify = quiet,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        import openai

        self.settings = settings
        self.model = settings.model
        self.sleep = sleep
        self.notify = notify
        self.discard = kept
        self.jitter = jitter
        key = settings.api_key() or ("no-key" if settings.local else "")  # the SDK needs one
        facts = key_facts(settings)
        self.channel = Channel(
            base_url=settings.base_url,
            model=settings.model,
            model_origin=origin(settings, "model"),
            wire_api=settings.wire_api,
            variable=settings.env_key,
            key_state=f"set, {facts.length} characters" if facts.usable else "not set",
            retries=settings.max_retries,
            secret=key,
        )
        # Between two bytes of a stream the read timeout is the idle timeout;
        # a non-streamed answer arrives in one piece, so it gets the whole budget.
        read = settings.stream_idle_timeout if settings.stream else settings.request_timeout
        self.client = openai.OpenAI(
            api_key=key,
            base_url=settings.base_url,
            max_retries=0,
            timeout=openai.Timeout(settings.request_timeout, read=read, connect=CONNECT_TIMEOUT),
        )

    # -- the Provider protocol ----------------------------------------------

    def warm(self, requests: Iterable[tuple[Messages, str | None]]) -> None:
        """A real provider keeps its own cache: nothing to replay."""

    def answer(
        self, messages: Messages, *, question: Question, on_text: TextSink | None = None
    ) -> Reply:
        return self.ask(messages, on_text, f"question {question.id}")

    def pose(
        self, messages: Messages, *, question: Question, on_text: TextSink | None = None
    ) -> Reply:
        """The interviewer's wording of ``question``, streamed like an answer."""
        return self.ask(messages, on_text, f"asking question {question.id}")

    def summarise(self, messages: Messages, *, questions: Sequence[Question], lines: int) -> Reply:
        # The last message asks for ``lines`` lines; the loop clips whatever comes back.
        return self.ask(messages, None, "the segment summary")

    def follow_up(
        self,
        messages: Messages,
        *,
        question: Question,
        text: str,
        on_text: TextSink | None = None,
    ) -> Reply:
        return self.ask(messages, on_text, f"the follow-up to question {question.id}")

    def grade(
        self,
        messages: Messages,
        *,
        question: Question,
        schema: Mapping[str, Any] | None = None,
        limit: int | None = None,
    ) -> Reply | None:
        """A grading side request at temperature 0 whose reply must be JSON, in ``limit`` tokens.

        Asked in the strongest JSON mode the endpoint takes: with ``schema``
        the wire API's strict schema, else JSON object mode, else the prompt's
        own instructions (``json_modes``). A refused mode (a 400-class or 5xx
        status) is asked once more at most, then the next one once; the mode
        that worked after a refusal is remembered for the endpoint and said
        once on screen.
        """
        what = f"grading question {question.id}"
        # A grade's own bound, not the answers' max_output_tokens: a small answer cap
        # must not cut every grade mid-string.
        limit = limit or self.settings.max_output_tokens
        if schema is not None and not self.settings.engine:
            schema = json_modes.unbounded(schema)
        strongest = json_modes.SCHEMA if schema is not None else json_modes.OBJECT
        ladder = json_modes.modes(self.settings.base_url, self.model, strongest)
        retries, refusal = GRADE_RETRIES, ""
        thrown = NONE_DISCARDED  # the refused requests: sent, and served nothing
        for mode in ladder:
            asked = JsonReply(mode, schema if mode == json_modes.SCHEMA else None)
            try:
                reply = self._retrying(messages, None, what, limit, asked, retries=retries)
            except Refused as refused:
                refused.discarded = thrown = thrown + (refused.discarded or NONE_DISCARDED)
                if mode == ladder[-1]:
                    raise
                refusal = refusal or f"{MODE_NAMES[mode]} ({refused.said})"
                retries = 0  # the server refuses a shape, not a moment: once is enough
                continue
            if mode != ladder[0]:
                self._remembered(mode, refusal)
            return replace(reply, discarded=thrown + reply.discarded)
        raise AssertionError("unreachable")  # the last mode returns or raises

    def _remembered(self, mode: str, refusal: str) -> None:
        saved = json_modes.remember(self.settings.base_url, self.model, mode)
        where = f"remembered in {saved}" if saved else "not remembered: the cache is not writable"
        self.notify(
            f"grading: {self.channel.base_url} refused {refusal}; {MODE_NAMES[mode]} works "
            f"for {self.model} there and grades use it from now on ({where})"
        )

    def probe(self, messages: Messages, *, question: Question) -> Reply | None:
        """An interviewer's follow-up question: a short side request, read up to
        ``PROBE_READ_CHARS`` and never asked again for being cut there."""
        what = f"a follow-up question on question {question.id}"
        return self.ask(messages, None, what, most=PROBE_READ_CHARS)

    # -- requests -------------------------------------------------------------

    def ask(
        self,
        messages: Messages,
        on_text: TextSink | None,
        what: str,
        *,
        json_reply: JsonReply | None = None,
        most: int | None = None,
    ) -> Reply:
        """One whole answer: an empty or cut one is asked once more, with more room if cut.

        If the second reply is still not whole it is returned as it is, and
        the session saves it flagged (``Turn.answer_flag``), never as normal.
        A JSON reply (grading) is returned as it comes: its reader falls back.
        ``most``: a streamed reply is read up to this many characters, and one
        cut (there, or by the token limit) is returned as it is.
        """
        limit = self.settings.max_output_tokens
        reply = self._retrying(messages, on_text, what, limit, json_reply, most)
        cut = reply.finish_reason == "length"
        if json_reply is not None or (reply.text.strip() and (not cut or most is not None)):
            return reply
        room = self.settings.context_window - tokens.prompt_tokens(messages)
        larger = min(limit * MORE_ROOM, room) if cut else limit
        if cut and larger <= limit:
            return reply  # the window has no more room to give
        why = f"was cut at {limit} tokens" if cut else "came back empty"
        self._abandoned(
            on_text is not None and bool(reply.text),
            f"{what}: the answer {why}; asking once more (retry 1/1) with room for {larger}",
        )
        thrown = reply.discarded.add(*_served(messages, reply.text, reply.usage))
        try:
            again = self._retrying(messages, on_text, what, larger, json_reply, most)
        except StudybotError as exc:
            exc.discarded = thrown + (exc.discarded or NONE_DISCARDED)
            raise
        return replace(again, discarded=thrown + again.discarded)

    def _retrying(
        self,
        messages: Messages,
        on_text: TextSink | None,
        what: str,
        limit: int,
        json_reply: JsonReply | None = None,
        most: int | None = None,
        retries: int | None = None,
    ) -> Reply:
        """One answer, retried on failures that retrying can fix (``retries`` times at most)."""
        import openai

        retries = self.settings.max_retries if retries is None else retries
        channel = replace(self.channel, retries=retries)  # messages count the retries made
        shown: list[str] = []  # text of this attempt received (and passed to on_text)

        def sink(text: str) -> None:
            shown.append(text)
            if on_text is not None:
                on_text(text)

        thrown = NONE_DISCARDED  # the attempts that failed, each a request sent
        for attempt in range(retries + 1):
            shown.clear()
            try:
                reply = self._parsed(messages, sink, limit, json_reply, most)
                return replace(reply, discarded=thrown) if thrown.requests else reply
            except (openai.OpenAIError, StreamCut, ReportedError, Malformed) as exc:
                failure = classify(exc, channel, what)
                thrown = thrown.add(*_failed(exc, messages, "".join(shown)))
            if not failure.retryable or attempt == retries:
                failure.error.discarded = thrown
                raise failure.error
            delay = self._delay(attempt, failure.wait)
            if delay > LONGEST_WAIT:
                raise ProviderError(
                    f"{failure.label}; the provider asks to wait {delay:.0f} s before retrying",
                    hint="wait that long, then resume",
                )
            self._abandoned(
                bool(shown),
                f"{what}: {failure.label}; retry {attempt + 1}/{retries} in {delay:.3g} s",
            )
            self.sleep(delay)
        raise AssertionError("unreachable")  # the loop returns or raises

    def _abandoned(self, shown: bool, notice: str) -> None:
        """An attempt is given up and the request goes again: the text it streamed is
        taken back (``discard``) before the user is told why."""
        if shown:
            self.discard()
        self.notify(notice)

    def _parsed(
        self,
        messages: Messages,
        on_text: TextSink | None,
        limit: int,
        json_reply: JsonReply | None,
        most: int | None = None,
    ) -> Reply:
        """``_once``, with replies the client could not read turned into Malformed.

        Only the reply's reading is judged: an error raised by ``on_text`` (the
        terminal drawing the answer) is studybot's own and passes through as it is,
        never retried as the server's fault.
        """
        sink = None if on_text is None else Sink(on_text)
        try:
            if json_reply is not None:
                return self._json_once(messages, limit, json_reply)
            return self._once(messages, sink, limit, most)
        except SinkFailed as failed:
            raise failed.error from None
        except json.JSONDecodeError:
            raise Malformed("text that is not valid JSON (cut short, or not the API)") from None
        except RecursionError:
            raise Malformed("JSON nested too deep to read") from None
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            # The client hands back what it cannot parse as-is; reading it fails here.
            raise Malformed(f"a reply in an unexpected shape ({type(exc).__name__})") from None

    def _delay(self, attempt: int, wait: float | None) -> float:
        if wait is not None:
            return wait  # the server's own figure, as the SDK honours it
        backoff = min(BACKOFF_CAP, self.settings.retry_backoff * 2**attempt)
        return backoff * (1 - JITTER * self.jitter())

    def _once(
        self, messages: Messages, on_text: TextSink | None, limit: int, most: int | None = None
    ) -> Reply:
        # ``most`` bounds only a stream: the client reads a whole reply before we see it.
        if self.settings.wire_api == "responses":
            if self.settings.stream:
                return self._responses_stream(messages, on_text, limit, most)
            return self._responses_whole(messages, on_text, limit)
        if self.settings.stream:
            return self._chat_stream(messages, on_text, limit, most)
        return self._chat_whole(messages, on_text, limit)

    def _json_once(self, messages: Messages, limit: int, asked: JsonReply) -> Reply:
        # A JSON reply is parsed whole, so it is never streamed; each wire API names
        # its JSON modes differently. A judgement should not vary: temperature 0.
        if self.settings.wire_api == "responses":
            extra: dict[str, Any] = {}
            if asked.mode == json_modes.SCHEMA and asked.schema is not None:
                schema = {"type": "json_schema", "name": SCHEMA_NAME, "strict": True}
                extra["text"] = {"format": {**schema, "schema": dict(asked.schema)}}
            elif asked.mode != json_modes.TEXT:
                extra["text"] = {"format": {"type": "json_object"}}
            return self._responses_whole(messages, None, limit, temperature=0, **extra)
        extra = {}
        if asked.mode == json_modes.SCHEMA and asked.schema is not None:
            strict = {"name": SCHEMA_NAME, "strict": True, "schema": dict(asked.schema)}
            extra = {"response_format": {"type": "json_schema", "json_schema": strict}}
        elif asked.mode != json_modes.TEXT:
            extra = {"response_format": {"type": "json_object"}}
        return self._chat_whole(messages, None, limit, temperature=0, **extra)

    # -- doctor -------------------------------------------------------------

    def list_models(self) -> list[str] | None:
        """Model IDs the endpoint lists, or None when it does not list models."""
        import openai

        try:
            return sorted(model.id for model in self.client.models.list())
        except openai.APIStatusError as exc:
            if exc.status_code in MODEL_LIST_MISSING:
                return None
            raise classify(exc, self.channel, "listing models").error from None
        except openai.OpenAIError as exc:
            raise classify(exc, self.channel, "listing models").error from None


def _served(messages: Messages, text: str, usage: Usage | None) -> tuple[Usage, bool]:
    """What a thrown-away reply cost: the server's usage, else a local count (an estimate)."""
    if usage is not None:
        return usage, False
    return tokens.settle(None, messages, text).usage, True


def _failed(exc: Exception, messages: Messages, received: str) -> tuple[Usage | None, bool]:
    """What a failed attempt cost: a request the model worked on (cut, an error inside its
    stream, a timeout) is counted locally; one refused or never connected served nothing."""
    import openai

    worked = isinstance(exc, StreamCut | ReportedError | openai.APITimeoutError) or (
        isinstance(exc, openai.APIError)
        and not isinstance(exc, openai.APIStatusError | openai.APIConnectionError)
    )
    return _served(messages, received, None) if worked else (None, False)
