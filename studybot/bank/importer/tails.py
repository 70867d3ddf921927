"""What may follow the question mark of a line that still asks.

- closing quotes: ``Label: "Why does …?"`` asks as ``Why does …?`` does;
- a note in brackets, then a full stop: ``…? (e.g., "Answer from the text").``,
  ``…? (Mentioning "tracing").`` asks; the note stays in the question's words.
"""

from __future__ import annotations

import re

_QUOTED = re.compile(r"(?<=[?？])\s*[\"”'’」』]+\s*$")
_NOTE_STOP = re.compile(r"(?<=[?？])\s*[（(][^()（）\n]{1,200}[)）]\s*[.。]\s*$")


def asked_end(text: str) -> str:
    """``text`` without closing quotes or a note and its full stop after its question mark."""
    return _NOTE_STOP.sub("", _QUOTED.sub("", text.rstrip()))
