"""The analytic costs of a context of n tokens on a model shape.

- KV cache bytes = batch × n × bytes per token: linear in n (8K → 32K is 4×).
- Attention scores per layer = batch × query heads × n²: quadratic
  (8K → 32K is 16×). That is the n×n matrix a naive attention materialises.
- Prefill of a request whose first n − u tokens are already cached: its u
  new tokens each score against the n tokens of the context, so per layer
  batch × heads × u × n scores instead of n² (the causal mask skips part of
  the new block; ignored, as it is the same for both).

Pure arithmetic on integers: no torch, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from studybot.costs.kv.shapes import KVShape
from studybot.errors import BadInput

_TOKENS = re.compile(r"^(\d+)\s*([km]?)$", re.IGNORECASE)
_UNITS = {"": 1, "k": 1024, "m": 1024 * 1024}
CONTEXT_HINT = "give token counts such as 8192, 8k or 32K, separated by commas (8k,32k)"


@dataclass(frozen=True)
class ContextCost:
    tokens: int  # context n: history + this input + the output to come
    kv_bytes: int  # KV cache held for n tokens
    attention_score_elements: int  # per layer: batch × heads × n²
    uncached_tokens: int  # u: tokens of the request the prefix cache does not cover
    prefill_score_elements: int  # per layer: batch × heads × u × n


@dataclass(frozen=True)
class KVEstimate:
    shape: KVShape
    contexts: tuple[ContextCost, ...]
    cached_tokens: int = 0

    @property
    def bytes_per_token(self) -> int:
        return self.shape.bytes_per_token

    @property
    def kv_scaling(self) -> float:
        """KV bytes of the last context over the first: the growth is linear in n."""
        return self.contexts[-1].kv_bytes / self.contexts[0].kv_bytes

    @property
    def attention_scaling(self) -> float:
        """Attention scores of the last context over the first: quadratic in n."""
        first, last = self.contexts[0], self.contexts[-1]
        return last.attention_score_elements / first.attention_score_elements


def parse_tokens(text: str) -> int:
    """A token count as users write it: 8192, 8k, 32K, 1m (k = 1024)."""
    match = _TOKENS.match(text.strip())
    if not match or int(match.group(1)) == 0:
        raise BadInput(f"{text.strip()!r} is not a token count", hint=CONTEXT_HINT)
    return int(match.group(1)) * _UNITS[match.group(2).lower()]


def parse_contexts(text: str) -> tuple[int, ...]:
    """A comma list of token counts, in the order given."""
    parts = [part for part in text.split(",") if part.strip()]
    if not parts:
        raise BadInput("no context length given", hint=CONTEXT_HINT)
    return tuple(parse_tokens(part) for part in parts)


def token_label(tokens: int) -> str:
    """8192 → "8K", 1000 → "1000": the way the tokens were probably asked for."""
    if tokens >= 1024 and tokens % 1024 == 0:
        return f"{tokens // 1024}K"
    return str(tokens)


def kv_bytes(shape: KVShape, tokens: int) -> int:
    return shape.batch * tokens * shape.bytes_per_token


def score_elements(shape: KVShape, queries: int, keys: int) -> int:
    """Attention scores one layer computes for ``queries`` rows against ``keys``."""
    return shape.batch * shape.heads * queries * keys


def cost(shape: KVShape, tokens: int, cached_tokens: int = 0) -> ContextCost:
    uncached = tokens - cached_tokens
    return ContextCost(
        tokens=tokens,
        kv_bytes=kv_bytes(shape, tokens),
        attention_score_elements=score_elements(shape, tokens, tokens),
        uncached_tokens=uncached,
        prefill_score_elements=score_elements(shape, uncached, tokens),
    )


def estimate(shape: KVShape, contexts: Sequence[int], cached_tokens: int = 0) -> KVEstimate:
    """Costs of each context; ``cached_tokens`` is a prefix the provider already holds."""
    if not contexts:
        raise BadInput("no context length given", hint=CONTEXT_HINT)
    if cached_tokens < 0 or cached_tokens >= min(contexts):
        raise BadInput(
            f"{cached_tokens} cached tokens must be fewer than the shortest context ({min(contexts)})",
            hint="--cached is the prefix already in the provider's cache; at least one token is new",
        )
    return KVEstimate(
        shape=shape,
        contexts=tuple(cost(shape, n, cached_tokens) for n in contexts),
        cached_tokens=cached_tokens,
    )
