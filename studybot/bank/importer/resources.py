"""Source and resource lines under a question: where it comes from, not what answers it.

Real notes put a line under a question that says where it was asked or
read (``(source: …)``, ``Source: …``, ``来源：…``, ``（来源：…）``,
``参考：[…](…)``, ``Reference: …``, ``[Reference](…)``, a link alone on its
line). Such a line is never a question, and never the start of an
answer: it moves to the end of the answer, kept as written, so the answer
a quiz shows opens with what answers the question (with nothing else
under the question, they are its answer: a link may be where the answer
is). Lines inside fenced code are left where they are.

An answer still to be written (``_TODO_``, ``待补充``) or a label with nothing
under it (``*solution*``, ``**答案：**``, ``...``) is no answer.
"""

from __future__ import annotations

import re

from studybot.bank.importer.draft import FENCE_ANY_INDENT, one_blank_line

_WORDS = (
    r"source|sources|src|via|ref|refs|reference|references|further reading|see also|credit"
    r"|see|link|links|url|read more|more at"
    r"|来源|出处|出自|参考|参考资料|参考链接|参考文献|原文|原文链接|原题|链接|延伸阅读|题目来源|相关阅读|扩展阅读|推荐阅读|参见|详见"
)
SOURCE_LINE = re.compile(
    rf"^(?:[（(]\s*(?:{_WORDS})\s*[:：][^\n]*[）)]"  # (source: …), （来源：…）
    rf"|(?:\*\*|__)?(?:{_WORDS})(?:\*\*|__)?\s*[:：][^\n]*"  # Source: …, 参考：…, **来源**：…
    rf"|\[(?:{_WORDS})[^\]\n]*\]\([^)\s]+\)"  # [Reference](https://…)
    r"|\[[^\]\n]*\]\(https?://[^)\s]+\)"  # [a title](https://…) alone
    r"|<?(?:https?://|www\.)\S+>?)\s*$",  # a link alone
    re.IGNORECASE,
)
_PLACEHOLDER = re.compile(  # also a label with nothing under it: "*solution*", "**答案：**"
    r"(?:[-*+]\s+)?(?:\[[ xX]?\]\s*)?"  # "- [ ] TODO": a task box still to tick
    r"[_*\s]*(?:(?:TODO|TBD|待补充|待完善|待更新|coming soon)(?![A-Za-z0-9]).{0,80}"
    r"|to\s?do(?:\s*\*\*.{0,80}|[_*\s:：]*)"  # "**To Do**", "**TO DO** 查书", never "To do so, …"
    r"|(?:solution|answer|ans|答案|解答|参考答案)[_*\s:：]*|\.{2,}|…+"
    r"|(?:(?:your|the)\s+)?answers?\s+(?:goes\s+)?here\W*|to\s+be\s+(?:added|written|done)\W*"
    r"|略|暂无|暂缺|待定|空|[+＋]\d{1,3}"  # "+1": a reader's vote, no answer
    r"|\*\*[^*\n]{1,60}?(?:[:：]\s*\*\*|\*\*\s*[:：])"  # "**Follow-up Questions:**", a label alone
    r"|<details[^>]{0,200}>\s*(?:<summary[^>]{0,200}>[^<]{0,80}</summary>)?\s*</details>)[_*\s]*",
    re.I | re.S,
)


def placeholder(answer: str) -> bool:
    """``_TODO: add answer_``, ``**To Do**``, ``待补充``, ``Answer here``, ``略``, ``*solution*`` alone, an empty
    ``<details>``: an answer still to be written; a vote (``+1``) none; a bold label alone (``**Follow-up Questions:**``,
    its list taken as questions of their own): none."""
    return bool(_PLACEHOLDER.fullmatch(answer))


_TO_WRITE = re.compile(r"TODO|TBD|to\s?do|待补充|待完善|待更新|coming soon", re.I)


def to_write(text: str) -> bool:
    """``- [ ] TODO``, ``待补充``: an answer its author means to write (a placeholder that says
    so, not ``...`` or a label left alone)."""
    return placeholder(text) and _TO_WRITE.search(text) is not None


_LIST_MARK = re.compile(r"^\s*(?:>\s*)*(?:[-*+]\s+)?(?:[*_](?=[^\s*_]))?")  # "*Source: …*"


def source_line(text: str) -> bool:
    """True when ``text`` only says where a question comes from or where to read more."""
    return bool(SOURCE_LINE.match(_LIST_MARK.sub("", text.strip(), count=1)))


# "- [Why This Matters](why-this-matters.md) -- framing for …": a link to another page, what it holds
_SEE_ALSO = re.compile(r"^\s*(?:[-*+]\s+)?\[[^\]\n]+\]\([^)\s]+\)\s*(?:--|[—–:：]|-\s)\s*\S[^\n]*$")


def see_also(raw: str) -> bool:
    """A line that is a link and what the page it points to holds, asking nothing (no question
    mark): a see-also list's item, never a question, whatever its link's words."""
    return bool(_SEE_ALSO.match(raw)) and not any(mark in raw for mark in "?？")


# "本文原作者…，本文原载于知乎专栏。", "Originally published on …": who wrote it, where first read
_CREDIT = re.compile(
    r"^(?:本文)?(?:原作者|作者[:：]|原载于|首发于|转载自|转自)|本文(?:原载于|首发于|转载自)"
    r"|^(?:originally (?:published|posted)|reposted from|written by)\b",
    re.IGNORECASE,
)
# "要不要我帮你…？", "Would you like me to …?": a chat assistant's offer to its reader
_OFFER = re.compile(
    r"^(?:要不要|需不需要|是否需要|需要|想不想|如果你(?:需要|愿意|想要?))[^，,。？?]{0,4}我"
    r"|^(?:would you like|do you want|want) me\b|^shall i\b",
    re.IGNORECASE,
)
# "…有什么好的建议…，欢迎加我微信", "…, feel free to reach out.": the author's invitation to get in
# touch ends the line; whatever "什么" it holds, it asks the reader nothing to answer
_INVITATION = re.compile(
    r"欢迎(?:加我|添加|关注|留言|评论|私信|联系|交流|指正)[^？?]{0,12}$"
    r"|\bfeel free to (?:reach out|contact|get in touch|open an issue)\b[^?]*$",
    re.IGNORECASE,
)


ASIDE_LEFT = "a credit, an invitation or an assistant's offer to its reader, not a question"


def aside(text: str) -> bool:
    """A credit (``本文原作者…``), an assistant's offer (``要不要我帮你…？``) or the author's
    invitation to get in touch (``…，欢迎加我微信``): never a question."""
    text = _LIST_MARK.sub("", text.strip(), count=1)
    return bool(_CREDIT.search(text) or _OFFER.match(text) or _INVITATION.search(text))


# "推荐阅读：[【…？】](…)", "第一段：延伸阅读：…", "参考：…", "refers to [如何…](…)": a reading
# list's line points to an article whose title may ask; the line itself never does
_READING = re.compile(
    r"^(?:第[一二三四五六七八九十百\d]{1,4}[段篇章节部分期]\s*[:：]\s*|\d{1,3}\s*[.、)）]\s*)?"
    r"(?:(?:\*\*|__)?(?:推荐阅读|延伸阅读|相关阅读|扩展阅读|参考阅读|参考|further reading|see also|read more)"
    r"(?:\*\*|__)?\s*[:：]|refers?\s+to\b\s*[:：]?)\s*(?P<title>.*)$",
    re.IGNORECASE | re.DOTALL,
)


def reading_line(text: str) -> str | None:
    """The title a reading list's line points to (``推荐阅读：【…？】``, ``第二段：延伸阅读：…``),
    or None for any other line: the line asks nothing, whatever its title asks."""
    found = _READING.match(_LIST_MARK.sub("", text.strip(), count=1))
    return None if found is None else found["title"].strip(' 【】《》「」"“”')


READING_LEFT = "a pointer to something to read (推荐阅读：…, 参考：…), not a question"


def sources_last(answer: str) -> str:
    """``answer`` with its source lines moved to its end, in their order."""
    if not answer:
        return answer
    kept: list[str] = []
    moved: list[str] = []
    fenced = False
    for line in answer.split("\n"):
        if FENCE_ANY_INDENT.match(line):
            fenced = not fenced
        if not fenced and line.strip() and source_line(line):
            moved.append(line.strip())
        else:
            kept.append(line)
    if not moved:
        return answer
    body = one_blank_line("\n".join(kept)).strip()
    if not body:
        return "\n".join(moved)  # a link alone may be where the answer is
    return f"{body}\n\n" + "\n".join(moved)


# a FAQ about the collection itself: "Can I use these questions…?", "Is there a PDF version?"
_FAQ = re.compile(r"^(?:faqs?|frequently asked questions|常见问题|q ?& ?a)$", re.IGNORECASE)
_ABOUT_ITSELF = re.compile(
    r"\b(?:these questions|this (?:repo|repository|list|guide|collection|project|page)"
    r"|the answers|pdf version|contribut\w*|pull request)\b"
    r"|本仓库|这个仓库|本项目|这份(?:题库|清单|资料|笔记)|这些题|PDF ?版",
    re.IGNORECASE,
)


def faq(title: str) -> bool:
    return bool(_FAQ.match(title.strip()))


def about_itself(text: str) -> bool:
    """A FAQ's text that asks about the collection (twice or more), not interview questions."""
    return len(_ABOUT_ITSELF.findall(text)) >= 2
