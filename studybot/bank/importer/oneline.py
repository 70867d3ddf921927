"""A list item that asks and answers itself on one line.

``* What is se? It's the spread of the estimate.``: one question, then statements that ask
nothing and set no premise, is that question and its answer. ``…? Assume the coin is fair.``
(a premise) and ``…? Explain why.`` (a task) stay one question.
"""

from __future__ import annotations

import re

from studybot.bank.importer.markers import reads_as_question

# "What is se? It's the spread …": one question, then a statement that ends like one
_ANSWERED = re.compile(r"^(?P<q>[^?？\n]{8,}[?？])\s+(?P<a>[A-Z][^?？\n]*\S\s[^?？\n]*[.。!])$")
# "…? Assume the coin is fair.": the question's premise or a note, never its answer
_PREMISE = re.compile(
    r"(?:assume|suppose|consider|given|note|hint|imagine|let|e\.g\.|for example)\b", re.I
)


def answered_on_line(text: str) -> tuple[str, str] | None:
    """(question, answer) from a line that asks and then answers itself, else None."""
    found = _ANSWERED.match(text.strip())
    if found is None or _PREMISE.match(found["a"]) or reads_as_question(found["a"]):
        return None
    return found["q"], found["a"]
