"""Reading a user's question file safely: a regular file, at most the limit, UTF-8 text.

A FIFO, a terminal or ``/dev/zero`` is refused before a byte is read (opening
a FIFO for reading would wait for a writer forever); a regular file is read
through one descriptor, at most ``MAX_BYTES + 1`` bytes, so a file that grows
after it was looked at is refused rather than read whole. JSON is decoded by
one decoder that keeps a number too long for Python as its digits (an id
check names it) instead of failing, so every reader gets the same rules. The decoded text
shows what the file shows: characters that show nothing are taken out, as the grader does.
"""

from __future__ import annotations

import codecs
import json
import os
import re
from pathlib import Path
from typing import Any

from studybot.bank.text import SHOWS_NOTHING
from studybot.errors import BankError
from studybot.storage.kinds import not_regular

MAX_BYTES = 200 * 2**20  # 200 MB: 8× the shipped bank repeated 100 times as JSON
MAX_QUESTIONS = 200_000
_CHUNK = 2**20
_SPLIT = "split the file and import each part under its own --name"
SURROGATE = re.compile("[\ud800-\udfff]")


class BigNumber(str):
    """A JSON integer with more digits than any id may have, kept as its digits."""


def _parse_int(digits: str) -> int | BigNumber:
    return BigNumber(digits) if len(digits.lstrip("-")) > 19 else int(digits)


# one decoder for every JSON the importer reads: no int() of 5,000 digits
DECODER = json.JSONDecoder(parse_int=_parse_int)


def loads(text: str) -> Any:
    """``json.loads`` with the importer's decoder (JSONDecodeError, RecursionError pass)."""
    return DECODER.decode(text)


def read_bytes(path: Path) -> bytes:
    """The bytes of a regular file of at most MAX_BYTES, or BankError saying why not."""
    try:
        status = os.stat(path)
        kind = not_regular(status.st_mode)
        if not kind and status.st_size > MAX_BYTES:
            raise BankError(
                [
                    f"{path}: {status.st_size / 2**20:,.1f} MB; a question file may be at most "
                    f"{MAX_BYTES // 2**20} MB"
                ],
                hint=_SPLIT,
            )
        if kind:
            raise BankError(
                [f"{path}: {kind}, not a question file"],
                hint="give a question file saved on disk (copy a stream into a file first)",
            )
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise BankError([f"{path}: cannot read ({exc.strerror or exc})"]) from None
    try:
        kind = not_regular(os.fstat(fd).st_mode)  # what was opened, not what was looked at
        if kind:
            raise BankError([f"{path}: {kind}, not a question file"])
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_BYTES:
            chunk = os.read(fd, min(_CHUNK, MAX_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise BankError([f"{path}: cannot read ({exc.strerror or exc})"]) from None
    finally:
        os.close(fd)
    if size > MAX_BYTES:
        raise BankError(
            [f"{path}: more than {MAX_BYTES // 2**20} MB; a question file may be at most that"],
            hint=_SPLIT,
        )
    return b"".join(chunks)


# Characters that show nothing, read as nothing (as the grader reads them), and a zero-width
# joiner except inside an emoji sequence (the joiner of "👩‍💻" draws it).
INVISIBLE = re.compile(f"[{SHOWS_NOTHING}]|(?<![\U0001f000-\U0001faff\u2600-\u27bf\ufe0f])\u200d")


def decode(path: Path, data: bytes, force: bool = False) -> tuple[str, list[str]]:
    """The visible text of ``data`` and notes on what was mended (only with ``force``)."""
    text, mended = _decoded(path, data, force)
    return INVISIBLE.sub("", text), mended


def _decoded(path: Path, data: bytes, force: bool) -> tuple[str, list[str]]:
    wide = _wide(data)
    if wide:
        name = wide.upper().removesuffix("-LE").removesuffix("-BE")  # UTF-16 or UTF-32
        if force:
            return data.decode(wide, errors="replace").lstrip("\ufeff"), [
                f"{path}: read as {wide.upper()} text (--force)"
            ]
        raise BankError(
            [f"{path}:1: the file is {name} text, not UTF-8"],
            hint=f"save it as UTF-8 (Notepad: Save as → UTF-8; or iconv -f {name} -t UTF-8)",
        )
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        where = f"{path}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02x})"
        if not force:
            raise BankError(
                [where],
                hint="save the file as UTF-8 (Excel: “CSV UTF-8”; or iconv -f GBK -t UTF-8); "
                "--force reads it with the bad bytes replaced",
            ) from None
    text = data.decode("utf-8-sig", errors="replace")
    return text, [f"{where}; bytes that are not UTF-8 were replaced by � (--force)"]


_WIDE_BOMS = (  # UTF-32's marks first: UTF-16 LE's (FF FE) begins UTF-32 LE's (FF FE 00 00)
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)
WIDE_SHARE = 0.9  # of the code units that must have their high bytes zero to be UTF-32


def _wide(data: bytes) -> str | None:
    """ "utf-16…" or "utf-32…" when ``data`` is text in one of those, by its mark or its zeros.

    UTF-32 puts three zero bytes in every ASCII character and two in every
    Chinese one (at fixed places in each 4 bytes), UTF-16 one in every ASCII
    character (on one side of each 2). UTF-8 has a zero byte only where the
    text has a NUL character: a file that decodes as UTF-8 and has NULs
    only here and there is UTF-8 with a NUL in it, not UTF-16.
    """
    for mark, name in _WIDE_BOMS:
        if data.startswith(mark):
            return name
    head = data[:4096]
    if b"\x00" not in head:
        return None
    units = len(head) // 4
    at = [head[k::4][:units].count(0) for k in range(4)]
    if units and min(at[2], at[3]) >= WIDE_SHARE * units:
        return "utf-32-le"
    if units and min(at[0], at[1]) >= WIDE_SHARE * units:
        return "utf-32-be"
    even, odd = head[0::2].count(0), head[1::2].count(0)
    try:  # the head, a character cut at its end allowed
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return "utf-16-be" if even > odd else "utf-16-le"
    # valid UTF-8: UTF-16 only when zeros are a third of the bytes or more, on one side (ASCII
    # text in UTF-16 is half zeros); a NUL here and there is a NUL character in UTF-8 text
    if max(even, odd) >= len(head) // 3 and min(even, odd) * 4 <= max(even, odd):
        return "utf-16-be" if even > odd else "utf-16-le"
    return None


def too_many(path: Path | str) -> BankError:
    """The refusal of a file holding more than MAX_QUESTIONS questions."""
    return BankError(
        [f"{path}: more than {MAX_QUESTIONS:,} questions; a bank holds at most {MAX_QUESTIONS:,}"],
        hint=_SPLIT,
    )
