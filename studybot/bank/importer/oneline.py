"""A list item that asks and answers itself on one line.

``* What is se? It's the spread of the estimate.``: one question, then statements that ask
nothing and set no premise, is that question and its answer. ``…? Assume the coin is fair.``
(a premise) and ``…? Explain why.`` (a task) stay one question. So in Chinese: ``加班能接受吗？
能，看情况`` (the reply after the question mark) and, in an interview write-up, a question then
the candidate's own reply after a colon, ``你选择工作主要看哪些方面：我说先看团队…``; ``…？
假设…`` (a premise), ``…？ 简单谈谈`` (a task) and ``…？讲一个…`` (no space) stay one question.
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
# "加班能接受吗？ 11， 11， 6": a question in Chinese, a space, then a reply of more than one
# clause that asks nothing ("…哪些？讲一个印象深的", "…？ 简单谈谈" stay one question)
_ANSWERED_CJK = re.compile(
    r"^(?P<q>[^?？\n]*[\u4e00-\u9fff][^?？\n]*？)\s+(?P<a>[^?？\n（(\[【][^?？\n]*[，。,][^?？\n]*)$"
)
# "…方面：我说先看团队…": the candidate's own reply after the question, in a write-up
_REPLIED = re.compile(r"^(?P<q>[^：:\n]{4,}?)\s*[：:]\s*(?P<a>我(?:就|当时)?(?:说|答|回答)[^\n]*)$")
_PREMISE_CJK = re.compile(r"(?:假设|假如|如果|给定|已知|例如|比如|提示|注意|其中|要求)")


def answered_on_line(text: str) -> tuple[str, str] | None:
    """(question, answer) from a line that asks and then answers itself, else None."""
    found = _ANSWERED.match(text.strip())
    if found is None or _PREMISE.match(found["a"]) or reads_as_question(found["a"]):
        return _answered_in_chinese(text.strip())
    return found["q"], found["a"]


def _answered_in_chinese(text: str) -> tuple[str, str] | None:
    replied = _REPLIED.match(text)
    if replied is not None and reads_as_question(replied["q"]):
        return replied["q"], replied["a"]
    found = _ANSWERED_CJK.match(text)
    if found is None or _PREMISE_CJK.match(found["a"]) or reads_as_question(found["a"]):
        return None
    return found["q"], found["a"].strip()
