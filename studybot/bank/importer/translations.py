"""The same question in another language, right under it: its hint, never its answer.

A bilingual list writes each question twice, the second time on its own line below
(``1. **如何实现 Agent 的长期记忆？**`` over ``   How do you persist Agent memory?``).
That line asks what the question asks: taken as the reference answer it would grade
every reply against a restatement. ``translated`` tells such a line: a paragraph of one
line under the question, in the other script (Latin under Chinese or Chinese under
Latin), that asks (opens with a letter and ends with a question mark, or opens with a question's or
a task's first word: ``How …``, ``Compare …``). It becomes the question's hint, the lines after it stay the answer.
"""

from __future__ import annotations

import re

from studybot.bank.importer.draft import CJK

# the first word of an English question or task, as a translation of one opens
_ASKS = re.compile(
    r"(?:what|how|why|when|where|which|who|whom|whose|explain|describe|compare|contrast|discuss"
    r"|outline|summari[sz]e|analy[sz]e)\b",  # not "Write …", "Use …": an answer may open so
    re.IGNORECASE,
)
_LEAD = re.compile(r"^[\s>*_]*")  # a quote's mark or emphasis before the line's words
_MOST = 400  # a translation is a question's length, not an essay


def translated(question: str, reference: str | None) -> tuple[str, str | None] | None:
    """(the translation, the rest of the answer) when ``reference`` opens with the question in
    the other script, alone in its paragraph; else None."""
    if not reference:
        return None
    first, _, rest = reference.strip().partition("\n")
    if rest.split("\n", 1)[0].strip():  # the paragraph goes on: no line of its own
        return None
    line = _LEAD.sub("", first).strip(" *_")
    if not line or len(line) > _MOST or not _asks_other(question, line):
        return None
    return line, rest.strip() or None


def _asks_other(question: str, line: str) -> bool:
    """Whether ``line`` asks in the script ``question`` is not written in."""
    if CJK.search(question) and not CJK.search(line):
        words = line.split()
        asks = line.endswith("?") or bool(_ASKS.match(line))  # "… → __?__ → …" does not
        return len(words) >= 3 and line[0].isalpha() and asks
    if not CJK.search(question) and CJK.search(line):
        return line.endswith(("？", "?", "吗", "呢"))
    return False
