"""The line each record of a JSON document starts on.

``lines`` walks the text once, decoding only what it steps over (linear in
the size of the file: no counting from the top for every record).
"""

from __future__ import annotations

import re
from typing import Any

from studybot.bank.importer.source import DECODER

_WS = re.compile(r"[ \t\r\n]*")


def lines(text: str, paths: list[tuple[Any, ...]]) -> list[int]:
    """The line each record at ``paths`` starts on, in one pass over ``text``."""
    trie: dict[Any, Any] = {}
    for path in paths:
        node = trie
        for step in path:
            node = node.setdefault(step, {})
        node[_LEAF] = True
    starts: list[int] = []
    _walk(text, _skip(text, 0), trie, starts)
    lines, line, previous = [], 1, 0
    for at in starts:
        line += text.count("\n", previous, at)
        lines.append(line)
        previous = at
    return lines


_LEAF = object()


def _walk(text: str, at: int, trie: dict[Any, Any], starts: list[int]) -> int:
    """Record the starts of the values ``trie`` leads to; the end of the value at ``at``."""
    if _LEAF in trie:
        starts.append(at)
        return _end(text, at)
    if text.startswith("[", at):
        at, index = _skip(text, at + 1), 0
        while not text.startswith("]", at):
            inner = trie.get(index)
            at = _skip(text, _walk(text, at, inner, starts) if inner else _end(text, at))
            at = _skip(text, at + 1) if text.startswith(",", at) else at
            index += 1
        return at + 1
    if text.startswith("{", at):
        at = _skip(text, at + 1)
        while not text.startswith("}", at):
            key, at = DECODER.raw_decode(text, at)
            at = _skip(text, _skip(text, at) + 1)  # past ":"
            inner = trie.get(key)
            at = _walk(text, at, inner, starts) if inner else _end(text, at)
            at = _skip(text, at)
            at = _skip(text, at + 1) if text.startswith(",", at) else at
        return at + 1
    return _end(text, at)


def _end(text: str, at: int) -> int:
    """Where the JSON value starting at ``at`` ends."""
    return DECODER.raw_decode(text, at)[1]


def _skip(text: str, at: int) -> int:
    spaces = _WS.match(text, at)  # matches everywhere: it takes no character or more
    return spaces.end() if spaces else at
