"""Where a clause ends: a claim's parts must meet in one clause of the attempt.

Text is cut at ``。！？；;，,`` and newlines (never at a colon: "损失：交叉熵"
says one thing), at an ASCII "." that ends a sentence, at ``、`` between two items of four characters or more (so
"Q、K、V" stays whole, "冻结底层、训练顶层" is two), and before a contrast
(而, 但, 却, 而是, 然而, 可是, but, whereas, while, however, rather than,
instead of, as opposed to) that is not part
of a word (反而, 从而, 不但); never inside ``()``, ``[]``, ``{}``, quotes
(「」, “”, ""), `` `code` `` or ``$math$``, nor at the comma of 131,072.
Each clause keeps the number of its sentence (。！？, a newline or a final
"."), and whether it asks (it ends in ？).

Before any of it, characters that show nothing are taken out (zero-width
spaces and joiners, word joiners, soft hyphens, NUL): a key point typed
with U+200B between its characters reads as the point.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from studybot.bank.text import SHOWS_NOTHING

_CJK_CHAR = re.compile("[\u3400-\u4dbf\u4e00-\u9fff]")
# A contrast opens a new clause; never inside a word (反而, 从而, 不但, 冷却).
CONTRAST = re.compile(
    r"(?<![不然从因进反继故甚时])(?:而是|而(?![且已言]))|(?<!不)但(?!凡)|(?<![冷退了])却"
    r"|然而|可是|\b(?:but|whereas|while|however|rather than|instead of|as opposed to)\b",
    re.IGNORECASE,
)
_SEPARATORS = set("。!?;,\n\r")
_SENTENCE_ENDS = set("。!?\n\r")
OPEN, CLOSE = "([{「『“", ")]}」』”"
_QUOTES = '`$"'
# Characters that show nothing (the bank's list, which the importer reads too), the
# zero-width joiner and NUL.
INVISIBLE = re.compile(f"[{SHOWS_NOTHING}\u200d\x00]")


class Piece(NamedTuple):
    """One clause of a text: the number of its sentence, its text, whether it asks."""

    sentence: int
    text: str
    asks: bool  # it ends in ？ or ?


def width(text: str) -> str:
    """NFKC with the powers kept as powers (NFKC alone makes n² into n2), nothing invisible."""
    text = INVISIBLE.sub("", text)
    text = text.replace("−", "-").replace("–", "-")
    text = _POWER.sub(lambda m: "^" + m.group().translate(_SUPERSCRIPT), text)
    return unicodedata.normalize("NFKC", text)


_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_POWER = re.compile(r"(?<=\w)[⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+")  # "n²", "10⁹", "10⁻³": NFKC alone reads 109


def split(text: str) -> list[str]:
    """The clauses of ``text`` (NFKC'd), each stripped, empty ones left out."""
    return [piece.text for piece in sentences(text)]


def sentences(text: str) -> list[Piece]:
    """The clauses of ``text`` (NFKC'd), each with its sentence's number and whether it asks."""
    text = width(text)
    protected = _protected(text)
    contrasts = {m.start() for m in CONTRAST.finditer(text) if not protected[m.start()]}
    pieces: list[Piece] = []
    start, sentence = 0, 0
    for i, char in enumerate(text):
        if i in contrasts and i > start:
            pieces.append(Piece(sentence, text[start:i], False))  # a contrast opens a clause
            start = i
        if protected[i]:
            continue
        ends = char in _SENTENCE_ENDS or (char == "." and _ends_sentence(text, i))
        cut = ends or (char in _SEPARATORS and not _in_number(text, i))
        cut = cut or (char == "、" and _long_items(text, i))
        if cut:
            pieces.append(Piece(sentence, text[start:i], char == "?"))
            start = i + 1
            sentence += ends
    pieces.append(Piece(sentence, text[start:], False))
    return [Piece(p.sentence, p.text.strip(), p.asks) for p in pieces if p.text.strip()]


def _protected(text: str) -> list[bool]:
    """Which characters lie inside a bracket pair or a `code`/$math$ span on one line."""
    flags = [False] * len(text)
    stack: list[int] = []
    for i, char in enumerate(text):
        if char in OPEN:
            stack.append(i)
        elif char in CLOSE and stack:
            opened = stack.pop()
            if "\n" not in text[opened:i] and i - opened <= 160:
                flags[opened : i + 1] = [True] * (i + 1 - opened)
        elif char == "\n":
            stack.clear()
    for quote in _QUOTES:
        for match in re.finditer(rf"\{quote}[^\{quote}\n]+\{quote}", text):
            flags[match.start() : match.end()] = [True] * (match.end() - match.start())
    return flags


def _in_number(text: str, i: int) -> bool:
    """A comma of 131,072: a digit before, three digits after and no fourth."""
    return (
        text[i] == ","
        and i > 0
        and text[i - 1].isdigit()
        and text[i + 1 : i + 4].isdigit()
        and len(text[i + 1 : i + 4]) == 3
        and not text[i + 4 : i + 5].isdigit()
    )


# Words an ASCII "." follows without ending the sentence: "Dr. GRPO", "e.g. BERT".
_ABBREVIATIONS = re.compile(r"(?:\b(?:dr|mr|ms|vs|etc|fig|eq|al|e\.g|i\.e|cf|no|approx))$", re.I)


def _ends_sentence(text: str, i: int) -> bool:
    after = text[i + 1 : i + 2]
    if _ABBREVIATIONS.search(text[max(0, i - 8) : i]):
        return False
    return after == "" or after.isspace()


def _long_items(text: str, i: int) -> bool:
    """、 between two items of at least four characters each ("K、V" are items of one)."""
    return len(_item(text, i - 1, -1)) >= 4 and len(_item(text, i + 1, 1)) >= 4


def _item(text: str, i: int, step: int) -> str:
    """The enumerated item that ends (step -1) or starts (step 1) at ``i``: a run of one script."""
    while 0 <= i < len(text) and text[i] == " ":
        i += step
    cjk = 0 <= i < len(text) and bool(_CJK_CHAR.match(text[i]))
    out = []
    while 0 <= i < len(text):
        char = text[i]
        if char in _SEPARATORS or char == "、" or char.isspace():
            break
        if bool(_CJK_CHAR.match(char)) != cjk:
            break
        out.append(char)
        i += step
    return "".join(out)
