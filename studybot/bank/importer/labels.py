"""Labels in front of what is asked: they name or number a question, they are not its text.

- under a heading that labels a question (``### Question 3: DevOps Principle``), the
  bold paragraph that opens its section and asks is the question; what follows
  (options, explanation) is its answer (``bold_question``).
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block
from studybot.bank.importer.markers import clean, joined, reads_as_question

# a paragraph that is bold from end to end: "**Which practice area …?**"
_BOLD_PARAGRAPH = re.compile(r"\s*(\*\*|__)(?:(?!\1).)+\1\s*", re.S)
# a blank to fill in: "DevOps is an extension of _____ infrastructure."
_BLANK = re.compile(r"(?:\\?_){3,}|＿{2,}|（\s*）|\(\s{2,}\)")
# a heading that numbers a question before its topic: "Question 2: What Is DevOps?"
_NUMBERED_LABEL = re.compile(r"(?:question|问题|题目)\s*\d{1,4}\s*[:：.．]", re.IGNORECASE)


def bold_question(title: str, inner: list[Block]) -> str | None:
    """The question asked in bold right under a heading that labels it, or None.

    The heading is a label when it does not ask, or opens with ``Question N:``; the bold
    paragraph must be the only bold paragraph that asks in the section (a chapter of
    bold questions is not this), and something must follow it (its answer)."""
    if len(inner) < 2 or inner[0].kind != "paragraph":
        return None
    if reads_as_question(title) and not _NUMBERED_LABEL.match(title):
        return None
    bold = [b for b in inner if b.kind == "paragraph" and _BOLD_PARAGRAPH.fullmatch(b.raw)]
    asking = [b for b in bold if _asks(b.raw)]
    if len(asking) != 1 or asking[0] is not inner[0]:
        return None
    return clean(joined(inner[0].raw))


def _asks(text: str) -> bool:
    return reads_as_question(clean(joined(text))) or bool(_BLANK.search(text))
