"""What a provider's prompt cache reuses: one named rule for every report.

``plan``, the offline provider's ``cached_tokens``, ``cache SESSION``,
``show`` and the run's table all take their rule from here, so the same
request sequence gets the same hits everywhere.

- ``openai``: a prompt under 1,024 tokens gets nothing; a longer one hits
  the longest prefix shared with an earlier prompt, rounded down to
  128-token steps (OpenAI's documented prompt caching).
- ``deepseek``: DeepSeek's disk cache persists *prefix units* at the end of
  each request's input and at the end of its output, plus common prefixes
  it detects across requests; a request hits only a unit it matches fully,
  the longest such unit (DeepSeek's context-caching guide).
- ``gemini``: implicit caching of shared prefixes once a prompt reaches the
  model's minimum (1,024 / 2,048 / 4,096 tokens by model; configurable).
- ``exact``: every token of the longest earlier prefix (page 1, unlimited).
- ``llamacpp``: llama.cpp's ``llama-server`` slots. Each slot keeps the
  tokens of its last request, prompt and generated answer; a request goes
  to the slot sharing the longest prefix with it (none shares any: the
  least recently used slot) and re-uses that prefix, but the last prompt
  token is always evaluated, so at most ``prompt - 1`` tokens hit. With one
  slot (``--parallel 1``) a side request (a grade) replaces the main
  thread's tokens, and the next main request hits only the part both
  share. Not modelled: the host-memory prompt cache of newer builds
  (``--cache-ram``), which can bring an evicted prompt back, the
  ``--slot-prompt-similarity`` threshold and ``--cache-reuse`` shifting.
- ``none``: nothing is ever cached.
- ``custom``: ``cache_min_tokens`` and ``cache_step_tokens`` from config.

``provider`` and ``simple``, the names of earlier versions, stay as aliases
of ``openai`` and ``exact``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from studybot.costs.cache.radix import TOKEN_BYTES, RadixCache, pack
from studybot.errors import BadInput

NAMES = ("openai", "deepseek", "gemini", "exact", "llamacpp", "none", "custom")
ALIASES = {"provider": "openai", "simple": "exact"}
CHOICES = (*NAMES, *ALIASES)

# Gemini's implicit-cache minimum by model family, most specific first.
GEMINI_MINIMUMS = (
    ("gemini-2.5-flash-lite", 2048),
    ("gemini-2.5-flash", 1024),
    ("gemini-2.5-pro", 2048),
    ("gemini-", 4096),  # newer models document 4,096
)


@dataclass(frozen=True)
class CacheRule:
    name: str  # preset name, one of NAMES
    kind: str  # "prefix" (longest shared prefix), "units" (DeepSeek), "slots" (llama.cpp), "none"
    min_tokens: int  # a prompt shorter than this is neither served nor kept
    step: int  # tokens: hits round down to whole steps
    slots: int = 1  # "slots": the server's slots (llama-server --parallel)

    def describe(self) -> str:
        if self.kind == "none":
            return "none (nothing cached)"
        if self.kind == "units":
            return "deepseek (whole prefix units: each request's input end and output end)"
        if self.name == "exact":
            return "exact (longest earlier prefix, every token)"
        if self.kind == "slots":
            plural = "slot" if self.slots == 1 else "slots"
            return (
                f"llamacpp ({self.slots} {plural}: the prefix shared with the slot's last "
                "prompt and answer; the last prompt token is always evaluated)"
            )
        return (
            f"{self.name} (nothing under {self.min_tokens:,} tokens, "
            f"hits in {self.step:,}-token steps)"
        )

    def simulator(self) -> PromptCache:
        """A fresh cache that applies this rule to a run's requests, in order."""
        if self.kind == "units":
            return UnitCache(self.min_tokens)
        if self.kind == "none":
            return NoCache()
        if self.kind == "slots":
            return SlotCache(self.slots)
        return StepCache(self.min_tokens, self.step)

    def chain_hit(self, previous_prompt: int, previous_output: int, prompt_tokens: int) -> int:
        """The hit of a request that extends the previous one exactly (one long chat).

        ``previous_prompt`` and ``previous_output`` are the previous
        request's prompt and answer tokens; ``prompt_tokens`` this one's.
        Only the previous request matters: it is the longest cached prefix.
        """
        if self.kind == "none" or previous_prompt == 0:
            return 0
        if self.kind == "units":
            unit = previous_prompt + previous_output  # its output-end unit
            return unit if unit >= self.min_tokens and unit < prompt_tokens else 0
        if self.kind == "slots":  # the one slot holds the previous prompt and its answer
            return min(previous_prompt + previous_output, prompt_tokens - 1)
        if prompt_tokens < self.min_tokens or previous_prompt < self.min_tokens:
            return 0
        hit = previous_prompt // self.step * self.step
        return hit if hit >= self.min_tokens else 0


class PromptCache:
    """A provider's cache: ``request(ids, output)`` returns the hit in tokens."""

    def request(self, ids: Sequence[int], output: Sequence[int] = ()) -> int:
        raise NotImplementedError


class NoCache(PromptCache):
    def request(self, ids: Sequence[int], output: Sequence[int] = ()) -> int:
        return 0


class StepCache(PromptCache):
    """Longest shared prefix in whole steps, once a prompt reaches the minimum.

    Capacity is unlimited: API providers keep a run's prefixes for minutes,
    longer than a study run's gaps between requests.
    """

    def __init__(self, min_tokens: int, step: int) -> None:
        self.min_tokens = min_tokens
        self.step = step
        self._tree = RadixCache(page_size=step)

    def request(self, ids: Sequence[int], output: Sequence[int] = ()) -> int:
        if len(ids) < self.min_tokens:
            return 0
        hit = self._tree.request(ids)
        return hit if hit >= self.min_tokens else 0


class UnitCache(PromptCache):
    """DeepSeek's prefix units: a hit is the longest stored unit the request starts with.

    Units are kept at the end of every request's input and of its output;
    when a request shares a prefix with an earlier unit but leaves it, that
    common prefix is detected and kept as a unit of its own, for later
    requests (the request that revealed it pays for it in full).
    """

    def __init__(self, min_tokens: int = 0) -> None:
        self.min_tokens = min_tokens
        self._units: dict[int, set[bytes]] = {}  # length in tokens -> units of that length
        self._lengths: list[int] = []  # distinct unit lengths, longest first
        self._tree = RadixCache()  # every stored unit, to find common prefixes

    def request(self, ids: Sequence[int], output: Sequence[int] = ()) -> int:
        data = pack(ids)
        shared = self._tree.request(ids)  # no unit longer than this can match
        hit = next(
            (n for n in self._lengths if n <= shared and data[: n * TOKEN_BYTES] in self._units[n]),
            0,
        )
        if hit < shared < len(ids):
            self._keep(data[: shared * TOKEN_BYTES])
        self._keep(data)
        if output:
            self._tree.request([*ids, *output])
            self._keep(data + pack(output))
        return hit if hit >= self.min_tokens else 0

    def _keep(self, unit: bytes) -> None:
        length = len(unit) // TOKEN_BYTES
        if length < max(1, self.min_tokens):
            return
        if length not in self._units:
            self._units[length] = set()
            self._lengths.append(length)
            self._lengths.sort(reverse=True)
        self._units[length].add(unit)


class SlotCache(PromptCache):
    """llama.cpp's slots: the longest prefix shared with one slot's last request, last token out.

    A slot holds the prompt and the generated answer of the request it
    served last (llama-server keeps both in the slot's KV cache). Requests
    come one at a time, so every slot is idle when one arrives.
    """

    def __init__(self, slots: int = 1) -> None:
        if slots < 1:
            raise ValueError("a llama.cpp server has at least one slot")
        self._held: list[bytes] = [b""] * slots  # packed tokens each slot holds
        self._order: list[int] = list(range(slots))  # slot numbers, least recently used first

    def request(self, ids: Sequence[int], output: Sequence[int] = ()) -> int:
        data = pack(ids)
        shared = [_shared_tokens(held, data) for held in self._held]
        best = max(range(len(shared)), key=shared.__getitem__)  # the first of equals
        slot = best if shared[best] > 0 else self._order[0]
        self._held[slot] = data + pack(output)
        self._order.remove(slot)
        self._order.append(slot)
        return min(shared[slot], max(len(ids) - 1, 0))


def _shared_tokens(a: bytes, b: bytes) -> int:
    """Tokens of the longest common prefix of two packed sequences."""
    low, high = 0, min(len(a), len(b)) // TOKEN_BYTES  # a[:low] == b[:low] holds throughout
    while low < high:
        middle = (low + high + 1) // 2
        end = middle * TOKEN_BYTES
        if a[:end] == b[:end]:
            low = middle
        else:
            high = middle - 1
    return low


def canonical(name: str) -> str:
    """A rule name with the old aliases resolved; BadInput for an unknown one."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in NAMES:
        raise BadInput(
            f"unknown cache rule {name!r}",
            hint="use one of " + ", ".join(NAMES) + " (provider = openai, simple = exact)",
        )
    return key


def default_name(model: str, base_url: str = "") -> str:
    """The rule a model ID or base URL implies: deepseek-*, gemini-*, else openai."""
    model = model.strip().lower().rsplit("/", 1)[-1]
    url = base_url.lower()
    if model.startswith("deepseek") or "deepseek.com" in url:
        return "deepseek"
    if model.startswith("gemini") or "generativelanguage.googleapis.com" in url:
        return "gemini"
    return "openai"


def gemini_minimum(model: str) -> int:
    model = model.strip().lower().rsplit("/", 1)[-1]
    return next((n for prefix, n in GEMINI_MINIMUMS if model.startswith(prefix)), 4096)


def resolve(name: str | None, settings) -> CacheRule:
    """The rule ``name`` (or the settings' ``cache_rule``, or the model's default) stands for.

    ``cache_min_tokens`` / ``cache_step_tokens`` set explicitly in config,
    env or flags override the preset's figures; ``custom`` is only them.
    """
    chosen = name or getattr(settings, "cache_rule", "") or ""
    key = canonical(chosen) if chosen else default_name(settings.model, settings.base_url)
    min_set = settings.source("cache_min_tokens") != "default"
    step_set = settings.source("cache_step_tokens") != "default"
    if key == "none":
        return CacheRule("none", "none", 0, 1)
    if key == "exact":
        return CacheRule("exact", "prefix", 0, 1)
    if key == "llamacpp":
        return CacheRule("llamacpp", "slots", 0, 1, slots=settings.cache_slots)
    if key == "deepseek":
        return CacheRule("deepseek", "units", settings.cache_min_tokens if min_set else 0, 1)
    if key == "gemini":
        minimum = settings.cache_min_tokens if min_set else gemini_minimum(settings.model)
        return CacheRule("gemini", "prefix", minimum, settings.cache_step_tokens if step_set else 1)
    if key == "custom":
        return CacheRule("custom", "prefix", settings.cache_min_tokens, settings.cache_step_tokens)
    return CacheRule(
        "openai",
        "prefix",
        settings.cache_min_tokens if min_set else 1024,
        settings.cache_step_tokens if step_set else 128,
    )
