"""Block-hash prefix caching with vLLM automatic prefix caching semantics.

A request is cut into blocks of ``block_size`` tokens; each full block is
named by a hash of its parent block's hash and its own tokens, so a block
hash stands for the whole prefix up to it. Only full blocks hit, and a
hit run stops at the first block not in the cache. With a capacity,
blocks nobody uses wait in a least-recently-used free queue and are
reused (their hash forgotten) from its front; a finished request frees
its blocks tail first, so the tail of a chain is evicted before its head.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from studybot.cache.radix import TOKEN_BYTES, pack


class BlockCache:
    """Prefix cache over token ids; ``request(ids)`` returns the hit in tokens."""

    def __init__(self, block_size: int = 16, capacity: int = 0) -> None:
        if block_size < 1:
            raise ValueError("block_size must be at least 1")
        if capacity < 0:
            raise ValueError("capacity must be 0 (unlimited) or a number of tokens")
        self.block_size = block_size
        self.capacity = capacity  # tokens; 0 = unlimited
        self._blocks = capacity // block_size  # physical blocks; 0 = unlimited
        self._cached: dict[int, int] = {}  # block hash -> block id
        self._hash_of: dict[int, int] = {}  # block id -> the hash it holds
        self._free: OrderedDict[int, None] = OrderedDict()  # LRU first
        self._allocated = 0  # block ids handed out so far

    @property
    def tokens_held(self) -> int:
        """Tokens in blocks that can still hit."""
        return len(self._cached) * self.block_size

    def request(self, ids: Sequence[int]) -> int:
        data = pack(ids)
        width = self.block_size * TOKEN_BYTES
        full = len(data) // width
        hashes: list[int] = []
        parent: int | None = None
        for start in range(0, full * width, width):
            parent = hash((parent, data[start : start + width]))
            hashes.append(parent)
        hit = 0
        while hit < full and hashes[hit] in self._cached:
            hit += 1
        if self._blocks:
            self._serve_bounded(hashes, hit, -(-len(data) // width))
        else:
            for block_hash in hashes[hit:]:
                self._cached.setdefault(block_hash, len(self._cached))
        return hit * self.block_size

    def _serve_bounded(self, hashes: list[int], hit: int, needed: int) -> None:
        """Take the hit blocks out of the free queue, allocate the rest, then free all."""
        used = [self._cached[h] for h in hashes[:hit]]
        for block in used:
            self._free.pop(block, None)
        for position in range(hit, needed):
            block = self._allocate()
            if block is None:
                break  # the pool is full of this request: the rest is served, not kept
            used.append(block)
            if position < len(hashes) and hashes[position] not in self._cached:
                self._cached[hashes[position]] = block
                self._hash_of[block] = hashes[position]
        for block in reversed(used):
            self._free[block] = None

    def _allocate(self) -> int | None:
        if self._allocated < self._blocks:
            self._allocated += 1
            return self._allocated - 1
        if not self._free:
            return None
        block, _ = self._free.popitem(last=False)
        evicted = self._hash_of.pop(block, None)
        if evicted is not None:
            del self._cached[evicted]
        return block
