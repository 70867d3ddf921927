"""Block-hash prefix caching with vLLM v1 automatic prefix caching semantics.

A request is cut into blocks of ``block_size`` tokens; each full block is
named by a hash of its parent block's hash and its own tokens, so a block
hash stands for the whole prefix up to it. Only full blocks hit, a hit run
stops at the first block not in the cache, and it is capped at
``num_tokens - 1`` tokens: a fully cached prompt still computes its last
token (``kv_cache_manager.get_computed_blocks``).

With a capacity, the pool follows ``block_pool.py``: every block starts in
a free queue in id order; a hit takes its blocks out of the queue, a new
block comes from the queue's front and forgets the hash it held. A
finished request frees its blocks tail first: blocks without a hash (the
partial tail) go to the *front* of the queue, to be reused first; hashed
blocks go to the back in that reversed order, so a chain's tail is evicted
before its head. Equal hashes are not de-duplicated, as in vLLM.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from studybot.costs.cache.radix import TOKEN_BYTES, pack


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
        # block hash -> the blocks holding it, oldest first (a lookup takes the first)
        self._cached: dict[int, dict[int, None]] = {}
        self._hash_of: dict[int, int] = {}  # block id -> the hash it holds
        self._free: OrderedDict[int, None] = OrderedDict.fromkeys(range(self._blocks))

    @property
    def tokens_held(self) -> int:
        """Tokens in blocks that can still hit."""
        return sum(len(blocks) for blocks in self._cached.values()) * self.block_size

    def request(self, ids: Sequence[int]) -> int:
        data = pack(ids)
        width = self.block_size * TOKEN_BYTES
        full = len(data) // width
        hashes: list[int] = []
        parent: int | None = None
        for start in range(0, full * width, width):
            parent = hash((parent, data[start : start + width]))
            hashes.append(parent)
        limit = max(0, len(ids) - 1) // self.block_size  # the last token is always computed
        hit = 0
        while hit < limit and hashes[hit] in self._cached:
            hit += 1
        if self._blocks:
            self._serve_bounded(hashes, hit, -(-len(ids) // self.block_size))
        else:
            for position in range(hit, full):
                self._cached.setdefault(hashes[position], {})[len(self._hash_of)] = None
                self._hash_of[len(self._hash_of)] = hashes[position]
        return hit * self.block_size

    def _serve_bounded(self, hashes: list[int], hit: int, needed: int) -> None:
        """Touch the hit blocks, allocate the rest from the queue's front, then free all."""
        used = [next(iter(self._cached[h])) for h in hashes[:hit]]
        for block in used:
            self._free.pop(block, None)
        for position in range(hit, needed):
            if not self._free:
                break  # the pool is full of this request: the rest is served, not kept
            block, _ = self._free.popitem(last=False)
            self._forget(block)
            used.append(block)
            if position < len(hashes):
                self._cached.setdefault(hashes[position], {})[block] = None
                self._hash_of[block] = hashes[position]
        tail_first = list(reversed(used))
        for block in reversed([b for b in tail_first if b not in self._hash_of]):
            self._free[block] = None
            self._free.move_to_end(block, last=False)
        for block in tail_first:
            if block in self._hash_of:
                self._free[block] = None

    def _forget(self, block: int) -> None:
        """A block leaves the cache when it is reused for new tokens."""
        evicted = self._hash_of.pop(block, None)
        if evicted is not None:
            holders = self._cached[evicted]
            del holders[block]
            if not holders:
                del self._cached[evicted]
