"""Prefix-cache simulators and the reports built on them.

``radix`` (SGLang RadixAttention) and ``paged`` (vLLM PagedAttention's
automatic prefix caching, the mode "blocks") model a serving engine's
cache; ``replay.ProviderCache`` models an API provider's prompt cache,
which also feeds the offline provider's cached tokens, under a named rule
(``rules``). ``recorded`` rebuilds a session's real requests, ``trace``
reads a JSONL token trace, and ``lint`` finds what in a system prefix
defeats the cache.
"""
