"""A plain-text deck of ``front; back`` (or ``front | back``) lines, one card a line.

Anki's "Notes in Plain Text" written with ``;`` or ``|`` between the fields and no
header lines, and hand-made decks like it (``flashcards.line_separator`` says when a file
is one): each line is a card, its front before the first separator, asking or not
(``Matrix multiplication in tf; y = tf.matmul(x, W) + b``), its back after it. A line
without the separator that asks and answers itself (``What is X? It is …``) is that
question and its answer (``oneline``); any other is a front alone. A first line
``# My deck`` is the deck's title, the chapter of every card.
"""

from __future__ import annotations

from pathlib import Path

from studybot.bank.importer import flashcards
from studybot.bank.importer.draft import Draft, Options, Parsed
from studybot.bank.importer.oneline import answered_on_line


def read(path: Path, text: str, separator: str, options: Options) -> Parsed:
    """The cards of a deck whose fields are separated by ``separator``."""
    del options  # a card a line: no level to choose, no columns to map
    out = Parsed()
    lines = text.splitlines()
    titled = flashcards.title(text)
    if titled is not None:
        out.notes.append(f"line 1 is the deck's title ({titled}): the chapter of every card")
    name = "a semicolon" if separator == ";" else "a bar"
    out.notes.append(f"a deck of one card a line: {name} ({separator}) between front and back")
    for number, line in enumerate(lines[1:] if titled else lines, start=2 if titled else 1):
        front, mark, back = line.partition(separator)
        if not line.strip():
            continue
        if not mark:
            front, back = answered_on_line(line) or (line, "")
        draft = Draft(f"{path}:{number}", front.strip(), chapter=titled)
        draft.reference = back.strip() or None
        out.add(draft)
    return out
