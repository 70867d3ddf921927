"""An answer that only points elsewhere is no answer: it becomes the question's source.

Real collections put a link under each question where the answer is kept on
another page (``[答案&解析](https://…/issues/870)``, ``[点击查看答案](…)``,
``[Solution](…)``), or make the question itself the link (``- [如何获取项目的根
路径？](…/issues/2594)``; a topic, ``- **位置编码**`` over ``[位置编码](…)``, asks
nothing: its link is what to read). Neither says anything a quiz could show as the answer:
when that is how the file answers (at least as many such pointers as written
answers: ``elsewhere``), each question is imported unanswered and each such link
is kept as one of its sources (``[[questions.sources]]``: the link's text and its
address), so the learner can still follow it. A lone ``[参考答案](…)`` among
written answers stays the answer (the one place it is), and so does a bare
address or a link whose text names something else (an article:
``[Covariance and correlation](…)``): it says what to read.
"""

from __future__ import annotations

import re

from studybot.bank.importer.markers import reads_as_question
from studybot.bank.importer.metadata import leading_tags
from studybot.bank.sources import Source, well_formed

# a line that is one link, or a bare address (a list mark, emphasis or "<br>" around it)
_LINK_LINE = re.compile(
    r"(?:[-*+]\s+)?[*_]*\[(?P<text>[^\]\n]*)\]\((?P<ref>[^)\s]+)(?:\s+\"[^\"\n]*\")?\)[*_]*"
    r"|<?(?P<bare>https?://[^\s>]+)>?"
)
_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
# link text that only says "the answer is there": 答案&解析, 点击查看答案, Answer, See solution
_POINTER = re.compile(
    r"(?:[\s&＆/、|，,:：+*_()（）【】\[\]>»→-]"
    r"|点击|点此|点我|查看|参考|详细|完整|答案|解析|解答|详解|题解|详情|这里|此处|链接|戳"
    r"|click|here|see|view|read|the|full|answers?|solutions?|explanations?|details?|link)*",
    re.IGNORECASE,
)


def pointer_sources(question: str, reference: str | None) -> tuple[Source, ...] | None:
    """The links of ``reference`` as sources when it is only links that point to an answer
    elsewhere (their text a pointer or the question itself, each an https address); else None."""
    lines = [_BREAK.sub("", line).strip() for line in (reference or "").split("\n")]
    lines = [line for line in lines if line]
    if not lines:
        return None
    asked = _letters(question) if reads_as_question(question) else None  # "位置编码": a topic
    found: list[Source] = []
    for line in lines:
        link = _LINK_LINE.fullmatch(line)
        if link is None:
            return None
        text, ref = (link["text"] or "").strip("*_ "), link["ref"] or link["bare"]
        said = _letters(text)
        if not well_formed(ref) or not said or (said != asked and not _POINTER.fullmatch(text)):
            return None
        found.append(Source(text or ref, ref))
    return tuple(found)


def elsewhere(answers: list[tuple[str, str | None, bool]]) -> bool:
    """Whether a file keeps its answers elsewhere: of its (question, reference, has key points),
    at least two only point to an answer, and no fewer than those answered in the file."""
    answers = [(q, leading_tags(ref)[1], points) for q, ref, points in answers]  # "分类：…" lines
    pointing = sum(pointer_sources(q, ref) is not None for q, ref, _ in answers)
    written = sum(bool(points or ref) for _, ref, points in answers) - pointing
    return pointing >= 2 and pointing >= written


def _letters(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())
