"""A radix tree of token sequences with SGLang RadixAttention semantics.

A request's hit is the longest cached prefix, in whole pages. A match that
ends inside an edge splits it there. With a capacity, eviction frees whole
least-recently-used leaves that no request holds, and a parent whose
children are all gone becomes a leaf in turn. Per request: match → lock
the matched path → evict until the request fits → insert → unlock, as
SGLang's ``radix_cache.py`` does: a split stamps both halves with the
access time, and a request that does not fit even after eviction is
inserted whole (the tree goes over capacity).

Edges hold token ids packed four bytes apiece, so a match compares whole
edges with one ``bytes`` comparison and finds a split point by binary
search over pages: the cost per request is a few C-level comparisons per
edge, never one Python step per token.
"""

from __future__ import annotations

import heapq
from array import array
from collections.abc import Sequence

TOKEN_BYTES = 4
# The array type code of unsigned 32-bit words ("I" on every mainstream ABI).
TOKEN_CODE = next(code for code in "IL" if array(code).itemsize == TOKEN_BYTES)


def pack(ids: Sequence[int]) -> bytes:
    """Token ids as unsigned 32-bit words (OverflowError outside 0..2³²-1)."""
    if isinstance(ids, array) and ids.typecode == TOKEN_CODE:
        return ids.tobytes()  # a loaded trace is already packed
    return array(TOKEN_CODE, ids).tobytes()


class _Node:
    __slots__ = ("key", "children", "parent", "lock", "tick", "serial")

    def __init__(self, key: bytes, parent: _Node | None, tick: int, serial: int) -> None:
        self.key = key
        self.children: dict[bytes, _Node] = {}
        self.parent = parent
        self.lock = 0  # requests currently holding this node (and so its ancestors)
        self.tick = tick  # logical time of the last match or insert through it
        self.serial = serial  # creation order; breaks ties between equal ticks


class RadixCache:
    """Prefix cache over token ids; ``request(ids)`` returns the hit in tokens."""

    def __init__(self, page_size: int = 1, capacity: int = 0) -> None:
        if page_size < 1:
            raise ValueError("page_size must be at least 1")
        if capacity < 0:
            raise ValueError("capacity must be 0 (unlimited) or a number of tokens")
        self.page_size = page_size
        self.capacity = capacity  # tokens; 0 = unlimited
        self._unit = page_size * TOKEN_BYTES  # bytes per page
        self._clock = 0
        self._serial = 0
        self._root = _Node(b"", None, 0, 0)
        self._root.lock = 1  # the root is never evicted
        self._leaves: set[_Node] = set()
        self._held = 0  # tokens in the tree

    @property
    def tokens_held(self) -> int:
        return self._held

    def request(self, ids: Sequence[int]) -> int:
        """Serve one request: its hit in tokens; the tree then holds its whole pages."""
        data = pack(ids)
        data = data[: len(data) // self._unit * self._unit]
        self._clock += 1
        matched, node = self._match(data)
        self._lock(node, +1)
        if self.capacity:
            uncached = (len(data) - matched) // TOKEN_BYTES
            self._evict(self._held + uncached - self.capacity)
        # SGLang inserts the whole request even when eviction could not make
        # room for it; the tree then holds more than the capacity until the
        # next eviction.
        self._insert(node, data[matched:])
        self._lock(node, -1)
        return matched // TOKEN_BYTES

    def _match(self, data: bytes) -> tuple[int, _Node]:
        """Bytes of ``data`` already in the tree, and the node where they end."""
        unit, tick = self._unit, self._clock
        node = self._root
        position = 0
        while position < len(data):
            child = node.children.get(data[position : position + unit])
            if child is None:
                break
            key = child.key
            end = position + len(key)
            if data[position:end] == key:
                child.tick = tick
                node, position = child, end
                continue
            common = self._common(key, data, position)
            # As SGLang does: the child is stamped before it splits, so both
            # halves carry this access time.
            child.tick = tick
            node = self._split(child, common)
            position += common
            break
        return position, node

    def _common(self, key: bytes, data: bytes, position: int) -> int:
        """Bytes, in whole pages, that ``key`` shares with ``data[position:]``."""
        unit = self._unit
        low, high = 1, min(len(key), len(data) - position) // unit  # pages; low known equal
        while low < high:
            middle = (low + high + 1) // 2
            cut = middle * unit
            if key[:cut] == data[position : position + cut]:
                low = middle
            else:
                high = middle - 1
        return low * unit

    def _split(self, child: _Node, at: int) -> _Node:
        """Cut ``child``'s edge ``at`` bytes in; returns the new upper node."""
        parent = child.parent
        assert parent is not None
        self._serial += 1
        head = _Node(child.key[:at], parent, child.tick, self._serial)
        head.lock = child.lock
        parent.children[child.key[: self._unit]] = head
        child.key = child.key[at:]
        child.parent = head
        head.children[child.key[: self._unit]] = child
        return head

    def _insert(self, node: _Node, rest: bytes) -> None:
        if not rest:
            return
        self._serial += 1
        leaf = _Node(rest, node, self._clock, self._serial)
        node.children[rest[: self._unit]] = leaf
        self._leaves.discard(node)
        self._leaves.add(leaf)
        self._held += len(rest) // TOKEN_BYTES

    def _lock(self, node: _Node | None, delta: int) -> None:
        while node is not None and node is not self._root:
            node.lock += delta
            node = node.parent

    def _evict(self, tokens: int) -> None:
        """Free at least ``tokens`` tokens, least recently used unlocked leaves first."""
        if tokens <= 0:
            return
        heap = [(n.tick, n.serial, n) for n in self._leaves if n.lock == 0]
        heapq.heapify(heap)
        freed = 0
        while freed < tokens and heap:
            _, _, leaf = heapq.heappop(heap)
            parent = leaf.parent
            assert parent is not None
            del parent.children[leaf.key[: self._unit]]
            self._leaves.discard(leaf)
            size = len(leaf.key) // TOKEN_BYTES
            freed += size
            self._held -= size
            if not parent.children and parent is not self._root:
                self._leaves.add(parent)
                if parent.lock == 0:
                    heapq.heappush(heap, (parent.tick, parent.serial, parent))
