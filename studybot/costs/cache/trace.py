"""Reading a JSONL token trace into compact uint32 arrays.

A trace has one request a line, ``{"tokens": [ids…]}``. Lines in that
exact shape (the one ``bench/replay_bench.py`` and most tools write) are
parsed in bulk: their bodies are joined, checked to hold nothing but
digits, commas and blanks with one ``bytes.translate``, and converted by
one ``numpy.fromstring`` call per run of about 256 KiB (``map(int, …)``
without numpy), the count and range checked on the whole flat array. Any other line goes
through the JSON parser on its own. When the bulk check fails, every
line is re-read one at a time so the error names the first bad line.
"""

from __future__ import annotations

import json
import sys
from array import array
from collections.abc import Sequence
from io import BufferedReader
from pathlib import Path

from studybot.costs.cache.radix import TOKEN_BYTES, TOKEN_CODE
from studybot.errors import BadInput

_HEADS = (b'{"tokens": [', b'{"tokens":[')
_TAIL = b"]}"
_ID_TEXT = b"0123456789, \t"  # all a well-formed body may hold
_LIMIT = 2**32
# Measured on the bench traces: one parse of all 220 MiB is slower than runs
# of this size, whose passes (join, translate, parse) stay in the CPU cache.
_GROUP_BYTES = 1 << 18
PACKED_MAGIC = b"studybot packed trace: uint32 little-endian\n"
_COUNT_BYTES = 8  # request count, then one uint64 length per request, then the tokens


def load_trace(path: Path) -> list[array]:
    """Requests of a JSONL trace as uint32 arrays (BadInput naming ``file:line``)."""
    try:
        with path.open("rb") as handle:
            if handle.read(len(PACKED_MAGIC)) == PACKED_MAGIC:
                return _unpacked(path, handle)
            handle.seek(0)
            data = handle.read()
    except OSError as exc:
        raise BadInput(
            f"cannot read {path}: {exc.strerror}", hint="give a JSONL trace file"
        ) from None
    numbered = [
        (number, line.strip()) for number, line in enumerate(data.split(b"\n"), 1) if line.strip()
    ]
    if not numbered:
        raise BadInput(f"{path}: the trace has no requests", hint='one {"tokens": [...]} per line')
    requests: list[array | None] = [None] * len(numbered)
    bodies: list[bytes] = []
    places: list[int] = []  # where each bulk body's request goes
    for place, (number, line) in enumerate(numbered):
        body = _body(line)
        if body is None:
            requests[place] = _checked(path, number, line)
        elif body.strip():
            bodies.append(body)
            places.append(place)
        else:
            requests[place] = array(TOKEN_CODE)
    for group in _groups(places, bodies):
        _fill(path, numbered, requests, group)
    return requests  # type: ignore[return-value]


def _groups(places: list[int], bodies: list[bytes]) -> list[list[tuple[int, bytes]]]:
    """Bodies in runs of about ``_GROUP_BYTES``: one parse each, and each stays in cache."""
    groups: list[list[tuple[int, bytes]]] = [[]]
    size = 0
    for place, body in zip(places, bodies, strict=True):
        if size >= _GROUP_BYTES:
            groups.append([])
            size = 0
        groups[-1].append((place, body))
        size += len(body)
    return groups


def _fill(
    path: Path,
    numbered: list[tuple[int, bytes]],
    requests: list[array | None],
    group: list[tuple[int, bytes]],
) -> None:
    """Parse one group in bulk into ``requests``; line by line if any of it is malformed."""
    counts = [body.count(b",") + 1 for _, body in group]
    flat = _bulk([body for _, body in group], sum(counts))
    if flat is None:
        for place, _ in group:
            requests[place] = _checked(path, *numbered[place])
        return
    start = 0
    for (place, _), count in zip(group, counts, strict=True):
        end = start + count * TOKEN_BYTES
        ids = array(TOKEN_CODE)
        ids.frombytes(flat[start:end])
        requests[place] = ids
        start = end


def _body(line: bytes) -> bytes | None:
    """The text between the brackets of a line in the usual shape, else None."""
    if not line.endswith(_TAIL):
        return None
    for head in _HEADS:
        if line.startswith(head):
            return line[len(head) : -len(_TAIL)]
    return None


def _bulk(bodies: list[bytes], expected: int) -> memoryview | None:
    """All bodies' ids as uint32 words in a byte view, or None unless ``expected`` plain ids."""
    if not bodies:
        return memoryview(b"")
    joined = b",".join(bodies)
    if joined.translate(None, _ID_TEXT):
        return None  # a sign, a point, a letter, a quote: not plain ids
    try:
        import numpy
    except ImportError:
        try:
            return memoryview(array(TOKEN_CODE, map(int, joined.split(b",")))).cast("B")
        except (ValueError, OverflowError):  # an empty element, or an id ≥ 2^32
            return None
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy warns, and stops, at text it cannot read
        try:
            ids = numpy.fromstring(joined, dtype=numpy.int64, sep=",")
        except (ValueError, DeprecationWarning):
            return None
    if ids.size != expected or ids.max() >= _LIMIT:
        return None  # an empty element ("1,,2") or an id past 32 bits
    return ids.astype(numpy.uint32).data.cast("B")


def _checked(path: Path, number: int, line: bytes) -> array:
    """One line through the JSON parser, or BadInput naming it."""
    ids = _ids(line)
    if ids is None:
        raise BadInput(
            f'{path}:{number}: expected {{"tokens": [token ids…]}}',
            hint="each line is one request: a JSON object whose tokens are ids in 0..2^32-1",
        )
    return ids


def _ids(line: bytes) -> array | None:
    try:
        ids = json.loads(line)["tokens"]
    except (json.JSONDecodeError, UnicodeDecodeError, TypeError, KeyError):
        return None
    if not isinstance(ids, list):
        return None
    # JSON booleans are ints to Python: array("I", [True]) would take them.
    if (b"true" in line or b"false" in line) and any(isinstance(i, bool) for i in ids):
        return None
    try:
        return array(TOKEN_CODE, ids)
    except (OverflowError, TypeError):
        return None


def write_packed(requests: Sequence[array], path: Path) -> None:
    """Write loaded requests in the packed form ``load_trace`` reads back."""
    lengths = array("Q", (len(ids) for ids in requests))
    with path.open("wb") as out:
        out.write(PACKED_MAGIC)
        out.write(len(requests).to_bytes(_COUNT_BYTES, "little"))
        out.write(_little_bytes(lengths))
        for ids in requests:
            out.write(_little_bytes(ids))


def _unpacked(path: Path, handle: BufferedReader) -> list[array]:
    """A packed trace after its first line: each request read straight into its array."""
    count = int.from_bytes(handle.read(_COUNT_BYTES), "little")
    table = handle.read(count * 8)
    requests: list[array] = []
    if count and len(table) == count * 8:
        zero = array(TOKEN_CODE, [0])
        for length in _little(array("Q", table)):
            ids = zero * length  # one allocation; readinto then fills it without a copy
            if handle.readinto(memoryview(ids).cast("B")) != length * TOKEN_BYTES:
                break
            requests.append(_little(ids))
    if not count or len(requests) != count or handle.read(1):
        raise BadInput(
            f"{path}: a packed trace that is cut short, padded or empty",
            hint="pack it again: studybot cache pack TRACE.jsonl -o FILE",
        )
    return requests


def _little_bytes(words: array) -> bytes:
    """``words`` as little-endian bytes, leaving ``words`` as it is."""
    if sys.byteorder == "big":
        words = array(words.typecode, words)
        words.byteswap()
    return words.tobytes()


def _little(words: array) -> array:
    """``words`` in little-endian order (the packed form's), swapped in place if need be."""
    if sys.byteorder == "big":
        words.byteswap()
    return words
