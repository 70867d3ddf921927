"""What makes a line a question: it asks. The line-level rules of the Markdown reader.

A line asks when it ends in ``？``/``?``; when it starts with a task verb
(介绍/解释/推导/比较/谈谈/说说/手写/实现/列举/补全…, explain/describe/compare/derive/
enumerate/interpret, name two…) or an English question word; or when it holds a Chinese
interrogative (为什么/如何/怎么/什么/哪些/区别…) or ends like a question's
topic (…的作用, …的原理, …的区别, …的定义, …的应用场景) and is no statement (it does not end in
``。``/``！``). Wherever it sits (heading, bullet, bold paragraph, table
cell, checklist item, a plain line of an interview write-up) the text is
cleaned the same way: a checkbox, a ``Q：`` marker, a company suffix
(`` - Google, Amazon``), a citation link (``[[src]](…)``), a trailing
emoji and a note on where it was asked (``（高频，字节问过）``, ``【美团】``)
leave it; ``</s>``, ``<think>`` and other text in angle brackets stay.
``importer.markdown`` decides from the blocks which is a question, and its answer.
"""

from __future__ import annotations

import functools
import re

from studybot.bank.importer.blocks import Block, link_target, plain
from studybot.bank.importer.decorations import emoji, undecorated, without_badges, without_marks
from studybot.bank.importer.draft import (
    CJK,
    HAN_COMMON,
    HINT_LABEL,
    QUESTION_MARKS,
    matched_cn_number,
)
from studybot.bank.importer.metadata import without_company
from studybot.bank.importer.notes import CALLOUT, callout_asks, without_note, without_tags
from studybot.bank.importer.numbering import without_stale
from studybot.bank.importer.resources import aside, placeholder, reading_line, source_line
from studybot.bank.importer.tails import asked_end
from studybot.bank.importer.wrapping import cut_short

_SEP = r"[:：.、．)）·]"
# "Q4：…", "Question 2. …", "第3题", "面试问题 1：…", "Q9.1) …", "Q:1) : …", "## Problem 3: topic" (a
# colon after it: "**Problem 5** (`x.py`) implements:" only names one); "Q3（判断题）：…": its kind
MARKER = re.compile(
    rf"^(?:(?:[Qq](?:[:：](?=\d+[)）]))?|Question|Problem(?=\s*\d+\s*[:：])|(?:面试)?问题|题目)"
    rf"\s*(?P<n>\d+(?:\.(?:[a-z]|\d{{1,3}})(?=\)))?)(?:\s*[（(](?P<kind>[^（）()\n]{{1,12}})[）)](?=\s*[:：]))?|第\s*(?P<n2>\d+)\s*题|[Qq](?=\s*\.\s))"
    rf"\s*(?P<sep>{_SEP})?\s*(?:[:：]\s+)?(?P<text>.*)$",
    re.DOTALL,
)
# "Q：…", "[Question] …", "【问题】…" without a number, and a follow-up: "【面试官追问】…", "Follow-up: …",
# "追问 2：…" (a follow-up's number counts within its question: no label)
BARE_MARKER = re.compile(
    r"^(?:(?:[Qq]|问|问题|题目|Question|(?:面试官)?追问\s*\d{0,2}|Follow[- ]?up)\s*[:：]"
    r"|[\[【](?:(?i:q|question)|问|问题|题目|(?:面试官)?追问)[\]】](?!\())\s*(?P<text>.*)$",
    re.DOTALL,
)
# "COD-001 · 手写…", "(A) What is …?": a code and its separator (a colon or a letter in
# parentheses count only in front of what asks: importer.labels)
CODE_LABEL = re.compile(
    r"^(?:(?P<code>[A-Z]{2,6}-\d{2,5}\s*[·|｜])|[A-Z]{2,6}-\d{2,5}\s*[:：]|\([A-Z]\))\s*(?=\S)"
)
# a transcript: "Interviewer: …？" asks (its other lines do not), "Me: …" answers
SPEAKER = re.compile(r"^(?:Interviewer|面试官|考官)\s*[:：]\s*(?P<text>\S.*)$", re.DOTALL)
# a question said in quotes, a separator after it: '"…？" |', '“…？”'
_SAID = re.compile(r"^[\"“「'](?P<q>[^\"“”「」\n]+?)[\"”」']\s*[|｜]*\s*$")
_MARKER_FIRST = frozenset("QqP问题第追面F【[I考")  # where MARKER, BARE_MARKER, SPEAKER start
# "1 Question 1: …", "2.3 Problem 4: …": a PDF's section number before the question's own
_SECTION_NUMBER = re.compile(r"^\d{1,4}(?:\.\d{1,4})*\s+(?=(?:Question|Problem|Q)\s*\d+\s*[:：.])")
# "**1. 全参数微调和 PEFT 的区别是什么？** 全参数微调更新…": the bold asks, the rest answers
BOLD_LEAD = re.compile(r"^\s*\*\*(?P<q>(?:(?!\*\*).){2,300}?)\*\*\s*(?P<rest>\S.*)?$", re.DOTALL)
_BOLD_Q = re.compile(r"^\s*(?:\*\*|__)\s*(?:Q|Question)\s*\.\s*(?:\*\*|__)")  # "**Q.** …"
# "**考点 1**：…？", "**Point 2:** …?" label what is asked; "**Llama 3**: why …?" is the question
_BOLD_LABEL = re.compile(
    r"^(?:Q|Question|Point|Step|Task|Topic|Item|Problem|Exercise|Part|Card|Quiz|Test"
    rf"|[{HAN_COMMON}]{{1,6}}|(?P<chapter>\d{{1,3}})-)\s*(?P<n>\d{{1,3}})\s*(?P<colon>[:：])?$",
    re.IGNORECASE,
)
ANSWER_MARKER = re.compile(
    r"^\s*(?:(?:\*\*|__)?(?:[Aa]|答|简答|答案|回答|解答|(?:参考|正确|标准)答案|(?:Correct [Aa]|A)nswer"
    r"|Ans|Me|Candidate|我|候选人)\s*(?:\*\*|__)?\s*[:：]"
    r"|(?:\*\*|__)\s*(?:A|Answer)\s*\.\s*(?:\*\*|__))\s*(?:\*\*|__)?\s*"
)
# "Describe the RLHF pipeline. — SFT, then …": a list item's answer after a dash
DASH_ANSWER = re.compile(r"^(?P<q>.+?[？?.。])\s+[—–]{1,2}\s+(?P<a>\S.*)$", re.DOTALL)
# "问：…？答：…", "What is X? — X is …", "…？（答：L3）": the answer on the question's line
INLINE_ANSWER = re.compile(
    r"^(?P<q>.+?[？?])\s*(?P<open>[（(]\s*(?=(?:答|A|回答|答案)\s*[:：]))?"
    r"(?:(?:答|A|回答|答案)\s*[:：]|\s[—–]{1,2}\s|\s--\s)\s*(?P<a>.*?)(?(open)\s*[）)])\s*$",
    re.DOTALL,
)
# "**12.** …": the bold closes right after the number ("**1、Megatron-LM**" is a label)
_BOLD_NUMBER = re.compile(rf"^\s*(?:\*\*|__)\s*\d+\s*{_SEP}?\s*(?:\*\*|__)")
# "（1）…", "(2) …", "一、…", "第3题 …": Chinese numbering, read like "1. …"
_ZH_NUMBER = (
    r"[（(]\s*(?P<p>\d{1,3})\s*[）)]\s*|(?P<c>[一二三四五六七八九十]{1,3})\s*[、．]\s*"
    r"|(?P<o>[①-⑳])\s*"
    r"|第\s*(?P<t>\d{1,4}|[一二三四五六七八九十]{1,3})\s*题\s*[:：.、．]?\s*"
)
# "1.3.7为什么…": a section number right before Chinese text ("3.5亿…" is an amount)
_DOTTED_CJK = rf"(?<=\d\.\d|\.\d\d)(?=[{HAN_COMMON}])(?![亿万千百倍秒年个元天月日时分米次])"
_BIG = r"\d{5,6}(?=[.、．:：)）])"  # "10000. …" past 9,999: a separator, not "10000 tokens"
NUMBER = re.compile(
    rf"^(?:[\U0001F300-\U0001FAFF\u2300-\u23FF\u2600-\u27BF\u2B00-\u2BFF]\uFE0F?\s*)?(?:{_ZH_NUMBER}|(?P<n>\d{{1,4}}(?:\.\d{{1,4}})*|{_BIG})(?:\*(?=[ \t]))?(?:\s*[、．:：)）]|\.(?!\d)|>(?=\s)|\s(?![xX×*]\s*\d)|(?=【)|{_DOTTED_CJK})\s*)"
    r"(?P<text>\S.*)$",  # "1 x 1卷积作用": a size, no numbering; "5.9* 试推导…": starred, 5.9
    re.DOTALL,
)
PARAGRAPH_NUMBER = re.compile(
    rf"^(?:{_ZH_NUMBER}|(?P<n>\d{{1,4}}(?:\.\d{{1,4}})*|{_BIG})\s*(?:[:：、．)）]|\.(?!\d))\s*)"
    r"(?P<text>\S.*)$"
)
HINT_LINE = re.compile(rf"^{HINT_LABEL}\s*(?P<text>.+)$", re.IGNORECASE | re.DOTALL)
_INLINE_HINT = re.compile(rf"[（(【\[]\s*{HINT_LABEL}.*?[）)】\]]\s*$", re.IGNORECASE)
OPTIONS = re.compile(r"以下|下列|下面哪|如下|选项|which of|which one of", re.IGNORECASE)

# "**Why?**", a template's "问题？", a row "问号     ?" (a name and its sign): no question
_ONE_WORD = re.compile(r"[*_\s]*(?:[A-Za-z]+|问题|题目|提问)[*_\s]*[?？]|[^?？\s]{1,8}\s{2,}[?？]")
CHECKBOX = re.compile(r"^\[[ xX✓✔]\]\s+")
_CITATION = re.compile(
    r"\s*\[?\[(?:src|source|sources|answer|answers|solution|link|ref|reference|参考|答案|解答|详解|原文|链接|来源|more|read more|更多|详情|阅读更多)\]\]?"
    r"(?:\([^)\n]{0,2000}\))?\s*$",
    re.IGNORECASE,
)
_ZH_TASK = (
    "介绍", "解释", "推导", "说一下", "说一说", "说下", "讲下", "聊一聊", "聊一下", "谈一谈",
    "谈一下", "讲述", "描述下", "列出", "画一画", "写下", "比较", "对比", "谈谈", "说说", "讲讲",
    "简述", "简要", "描述", "阐述", "论述", "分析", "手写", "手撕", "实现", "写出", "写一个",
    "写一下", "设计", "分享", "列举", "概述", "总结", "证明", "计算", "估算", "举例", "说明",
    "画出", "画一下", "讲清楚", "讲解", "评价", "如何", "怎么", "怎样", "为什么", "为何",
    "什么是", "请", "试述", "能否", "是否", "讲一下", "讲一讲", "聊聊", "补全", "绘制", "默写", "归纳", "辨析", "复述",
)  # fmt: skip
# a task verb in front asks ("手撕 LayerNorm"), a label or a noun does not ("总结：", "计算开销")
# and so does a request at the end ("交叉熵的梯度推一下", "MoE 介绍一下")
_ZH_TASK_END = re.compile(
    r"(?:推一下|推导一下|讲一下|讲讲|说一下|说说|介绍一下|解释一下|聊一下|聊聊|谈一下|谈谈"
    r"|写一下|画一下|对比一下|比较一下|分析一下|总结一下|实现一下)[。.！!]?$"
)
ZH_TASK_START = re.compile(  # "简单讲一下…", "详细说说…" ask; "详细解释了…" (done) tells
    "^(?:[A-Za-z][A-Za-z0-9+#.]{0,15} +)?(?:简单|详细|具体|大概|大致|稍微|再|尝试(?:自己)?)?(?:"  # "Numpy 实现…"
    + "|".join(map(re.escape, _ZH_TASK))
    + r")(?![:：，,]|题|代码|了(?!解)|\s*[/|｜&＆]|[量性者师器机层图稿]|结果|过程|方式|方法|开销|成本|代价|资源|效率|复杂度|模式)"
)
_ZH_ASKING = re.compile(
    r"为什么|为何|如何|怎么|怎样|什么|哪些|哪个|哪种|哪一|哪里|哪儿|是否|能否|可否|有没有|是不是|能不能"
    r"|会不会|要不要|多少|多大|多久|几种|几个|区别|差异|异同|优缺点|优劣|利弊|有何|[吗呢嘛]$|是[^，,。；;]{1,20}还是"
)
_ZH_TOPIC_END = re.compile(
    r"的(?:作用|原理|区别|关系|联系|缺点|优点|优势|劣势|难点|意义|思路|流程|过程|目的|本质|影响|好处"
    r"|局限|瓶颈|挑战|实现|计算|推导|步骤|核心|思想|机制|用途|差别|理解|看法|缘由|定义|等价性|应用场景|解决[办方][法案])$"
)
_EN_START = re.compile(  # "Given two strings, write a method …": a task after its premise
    r"^(?:given\b[^,?]{1,100},\s*)?(?:what|why|how|when|where|which|who|whose|explain|describe|compare|contrast|derive"
    r"|implement|define|discuss|design|list(?!\s+of\b)|give|walk\s+(?:(?:me|us)\s+)?through|tell\s+(?:me|us)"
    r"|write|prove|outline|summari[sz]e|calculate|estimate|illustrate|differentiate"
    r"|distinguish|evaluate|propose|justify|identify|sketch|share|elaborate|talk\s+about|enumerate|interpret|classify"
    r"|(?:build|create|find|compute|name|complete|draw|state)\s+(?:a|an|the|your|all|their|some|one|two|three|four|five|six|seven|several|why|how|what|which|\d+|and\s+[a-z]+)\s|(?-i:(?:name|complete|draw|state)\s+(?!of\b|is\b|to\b)[a-z]+(?:\s+\S+){2}\s+\w+))\b(?!-)",  # "name risks that …"; not "a-b"
    re.IGNORECASE,
)
_ASKED_THEN_TASK = re.compile(r"[？?]\s*(?P<task>(?:请|并|试)?[^？?。！!]{2,80})[。.]?$")
# "在微调大模型时，…，请阐述其考虑因素。", "In production, explain how …": asked in its last clause
_ZH_REQUEST = re.compile(r"[，,；;]\s*请(?P<task>[^，,；;。！!？?]{2,40})[。.]?$")
_EN_REQUEST = re.compile(
    r"[,;]\s*(?:please\s+)?(?:explain|describe|discuss|compare|outline|justify)\s[^,;]{3,200}\.?$",
    re.IGNORECASE,
)
_STATEMENT_END = ("。", "！", "!", "；", ";", "~", "～", "：", ":")
CONTRIBUTE = re.compile(r"how (?:to|can i|do i|can you) contribute\W*$|contributing$", re.I)
META = re.compile(  # sections whose content is never a question: contents, contributing, links
    r"^(?:(?:primary|additional|further|other|useful|recommended)\s+)?(?:table of contents|toc|目录"
    r"|contents|contribut(?:ing|ions?|ors)|how to contribute|how to use|使用说明|使用方法|license|licence"
    r"|许可|许可证|resources|references|reading|links|related|acknowledge?ments?|credits|致谢"
    r"|(?:知乎|博客|论文|文章)?参考|参考资料|参考文献|参考链接|相关链接|推荐阅读|(?:如何)?贡献|贡献指南|star history|stargazers|sponsors?"
    r"|changelog|更新日志|更新记录|what to learn next|next steps|about|关于|关于作者|作者|todo|to do|待办|notes to self|back to top|反问(?:环节)?$|我的问题$"
    r"|(?:小结|总结|结语|后记|写在最后|summary|conclusions?|recap)(?:\s*(?:与|和|及|&|and)(?!.*(?:题|问|quiz|questions?|interview|faq|q&a))\s*\S.{0,24})?$|(?:前言|序言|导读|写在前面|preface|foreword)$"
    r"|how (?:can|do) (?:i|you) contribute)\b",
    re.IGNORECASE,
)
# the candidate's own questions to the interviewer: "反问：…", "> 我提问:" ("向我提问" is asked of them)
REVERSE = re.compile(r"反问|(?<![向对给])我的?提问")
REVERSE_LEFT = "the candidate's own question (反问)"  # why such a line is not taken


def unmarked(text: str) -> str:
    """``📌 Q1: …``, ``*Q1: …`` → ``Q1: …``: a mark or stray star before the prefix is no text."""
    if text[:1] in _MARKER_FIRST or not text:
        return text
    shorn = undecorated(text.lstrip("*_"))
    return shorn if shorn != text and (MARKER.match(shorn) or BARE_MARKER.match(shorn)) else text


@functools.lru_cache(maxsize=1 << 18)  # the reader asks about one line's text several times
def clean(text: str) -> str:
    """A question's text without checkbox, ``Q：``, company suffix, citation link or emoji."""
    text = unmarked(without_badges(CALLOUT.sub("", CHECKBOX.sub("", text.strip()))))
    bare = BARE_MARKER.match(text)
    if bare and bare["text"].strip():
        text = bare["text"]
    if "]" in text:  # every citation has one
        text = _CITATION.sub("", text)
    text = without_company(text)
    if "]" in text:
        text = _CITATION.sub("", text)
    return without_note(without_marks(without_tags(text))).strip()


def asks(text: str) -> bool:
    """True when ``text`` ends in a question mark (a bracketed hint or note after it aside)."""
    text = without_marks(_INLINE_HINT.sub("", asked_end(text)))  # "What is X? 👶", "…?\""
    if not text.endswith((*QUESTION_MARKS, "）", ")", "】")):
        return False
    if reading_line(text) is not None:  # "推荐阅读：【…？】": the title of an article to read
        return False
    if text.endswith(QUESTION_MARKS):  # "**Why?**: …" is a label: one word asks nothing
        return not _ONE_WORD.fullmatch(text)
    answered = INLINE_ANSWER.match(text)  # "…？（答：L3）": asked, answered in brackets
    return without_note(text).endswith(QUESTION_MARKS) or bool(answered and answered["open"])


def field_line(text: str) -> bool:
    """``作用：负责…``, ``定义：清晰解释概念``, ``Pros: fast``: a short key and its value, not asking."""
    return bool(_FIELD.match(text)) and not asks(text)


_FIELD = re.compile(r"^[^：:？?]{1,24}[：:]\s*\S")


@functools.lru_cache(maxsize=1 << 18)
def reads_as_question(text: str) -> bool:
    """A question mark, a task verb or question word in front, or a question's topic at the end."""
    declared = callout_asks(text)  # "> [!question] …" asks, "> [!tip] …" never does
    if declared is not None:
        return declared and len(clean(text)) >= 2
    text = clean(text)
    if aside(text):  # "本文原作者…", "要不要我帮你…？"
        return False
    if len(text) < 2 or asks(text):
        return len(text) >= 2
    if link_only(text) or META.match(text) or REVERSE.search(text) or source_line(text):
        return False
    if reading_line(text) is not None:
        return False
    body = numbered(text)[1]  # "1、讲讲…", "（2）说一下…", "第3题 …"
    body = CODE_LABEL.sub("", body, count=1)  # "COD-001 · 手写…"
    body = re.sub(r"^[（(【\[].{0,12}?[）)】\]]\s*", "", body)  # "（字节一面）…"
    body = re.sub(r"^(?:开放题|场景题|算法题|编程题|手撕|追问|问)\s*[:：]\s*", "", body)
    if CJK.search(body):
        task = ZH_TASK_START.match(body)
        if task and len(body) > task.end() + 1:  # "手撕" alone is a section's name
            return True
        if _ZH_TASK_END.search(body) and len(body) > 5:  # "DPO 的 loss 推一下"
            return True
        task = _ASKED_THEN_TASK.search(body)  # "…如何评估？请描述…。", "…是什么？画出维度。"
        if task and (task["task"][0] in "请并试" or ZH_TASK_START.match(task["task"])):
            return True
        request = _ZH_REQUEST.search(body)
        if request and ZH_TASK_START.match(request["task"]):
            return True
        if body.endswith(_STATEMENT_END) or re.search(r"[^.]\.$", body):  # "…, 并进行讨论."
            return False
        # a question word inside a long sentence ("后台很多同学问到底考什么。我把…") is prose
        return bool((len(body) <= 80 and _ZH_ASKING.search(body)) or _ZH_TOPIC_END.search(body))
    if bool(_EN_START.match(body) or _EN_REQUEST.search(body)) and len(body.split()) >= 2:
        return True
    head, mark, then = body.rpartition("?")  # "Have you …? Describe the process.": asked, then set
    return bool(mark and head.strip() and _EN_START.match(then.strip())) and len(then.split()) >= 2


def link_only(text: str) -> bool:
    return text.startswith(("http://", "https://", "www."))


def meta(title: str) -> bool:
    """A section that holds no questions: contents, links… ("How to use await …?" asks)."""
    rest = numbered(clean(title).lstrip("#*_ ").strip())[1].rstrip(":：")  # "4 总结：" too
    rest = rest[next((k for k, ch in enumerate(rest) if not emoji(ch)), 0) :].lstrip()  # "🤝 "
    asked = rest.endswith(QUESTION_MARKS) and not CONTRIBUTE.match(rest)  # "How to contribute?"
    return bool(META.match(rest)) and not asked


@functools.lru_cache(maxsize=1 << 18)  # asked of each heading by several rules
def marker(raw_line: str, heading: bool = False) -> tuple[str | None, str] | None:
    """(label, text) when a line starts with ``Q1：``/``第1题``/``**12.**``/``Q：``."""
    bold = raw_line.lstrip().startswith(("**", "__"))
    text = unmarked(plain(raw_line))
    section = _SECTION_NUMBER.match(text) if text[:1].isdigit() else None
    if section is not None:
        text = text[section.end() :]
    if not bold and text[:1] not in _MARKER_FIRST:
        return None
    if bold and (lead := _BOLD_Q.match(raw_line)):
        return None, plain(raw_line[lead.end() :])
    speaker = SPEAKER.match(text)
    if speaker:  # '面试官："…？" | [参考](…)': the words said, without quotes or separator
        said = _SAID.sub(r"\g<q>", clean(speaker["text"]))
        return (None, said) if asks(said) else None
    match = MARKER.match(text)
    asking = match is not None and asks(clean(match["text"]))  # "Q1 为什么…？": no separator
    if match and (heading or bold or match["sep"] or match["n2"] or asking):
        return match["n"] or match["n2"], match["text"].strip()
    bare = BARE_MARKER.match(text)
    if bare and not heading and not placeholder(bare["text"]) and not _problem(text):
        return None, bare["text"].strip()  # "Question: ..." shows a format, not a question
    lead = BOLD_LEAD.match(raw_line) if bold else None
    if lead and lead["rest"] and asks(plain(lead["q"])):  # "**1. Q？** its answer"
        found = NUMBER.match(plain(lead["q"]))
        return (number_of(found), found["text"].strip()) if found else (None, plain(lead["q"]))
    labelled = _bold_label(lead["q"], lead["rest"]) if lead and lead["rest"] else None
    if labelled is not None:
        return labelled
    if _BOLD_NUMBER.match(raw_line) or (bold and asks(text)):
        found = NUMBER.match(text)
        if found:
            return number_of(found), found["text"].strip()
    return None


def _bold_label(bold: str, rest: str) -> tuple[str, str] | None:
    """(number, question) of ``**考点 1**：…？`` (a bold label, a colon) or ``**5-1** …？``."""
    label = _BOLD_LABEL.match(plain(bold).strip())
    if label is None or not (label["colon"] or label["chapter"] or rest.startswith((":", "："))):
        return None
    asked = plain(rest.lstrip(":：")).strip()
    return (label["n"], asked) if reads_as_question(asked) else None


def _problem(text: str) -> bool:
    """``问题：…不一致。`` (a problem, not a question) under a question: a statement after it."""
    rest = text[2:].lstrip(":： ") if text.startswith("问题") else ""
    return rest.rstrip().endswith("。") and not reads_as_question(rest)


def numbered(text: str) -> tuple[str | None, str]:
    """(the line's own number or None, the rest)."""
    match = NUMBER.match(text)
    return (number_of(match), without_stale(match["text"].strip())) if match else (None, text)


def number_of(match: re.Match[str]) -> str:
    """The number of a ``NUMBER``/``PARAGRAPH_NUMBER`` match as digits (``三`` → ``3``)."""
    if match["c"]:
        return str(matched_cn_number(match["c"]))
    if match["o"]:
        return str(ord(match["o"]) - ord("①") + 1)
    if match["t"] and not match["t"].isdigit():
        return str(matched_cn_number(match["t"]))
    return match["n"] or match["p"] or match["t"]


def split_answer(raw_lines: list[str]) -> int:
    """How many of ``raw_lines`` are the question; the rest is its answer.

    The question ends at a bold line that closes (``**12. …？**``), before
    an answer marker (``A：``/``答：``), or after its line unless the next
    one asks too or continues a sentence cut in the middle.
    """
    first = raw_lines[0].strip()
    if first.startswith(("**", "__")) and first.endswith(("**", "__")) and len(first) > 4:
        return 1
    end = 1
    while end < len(raw_lines):
        line = raw_lines[end].strip()
        if ANSWER_MARKER.match(line) or not line:
            break
        cut = cut_short(plain(raw_lines[end - 1]).rstrip(), line)  # "… used in" over "LLMs?"
        if not (asks(plain(line)) or cut or _INLINE_HINT.fullmatch(plain(line))):
            break
        end += 1
    return end


def items(block: Block) -> list[Block]:
    return [c for c in block.children if c.kind == "item"]


def q_marker(block: Block) -> bool:
    """A paragraph that starts ``Q7：…``/``第7题``/``Q：``: never part of the answer above it."""
    first = block.raw.split("\n")[0]
    text = unmarked(plain(first))
    return marker(first) is not None and (
        MARKER.match(text) is not None or BARE_MARKER.match(text) is not None
    )


def asks_inside(blocks: list[Block]) -> bool:
    """True when a question lives among ``blocks``: an asking heading or item, or a marker."""
    for block in blocks:
        if block.kind == "heading":
            if asks(plain(block.raw)) or marker(block.raw, heading=True):
                return True
        elif block.kind == "paragraph":
            # "Q1：…", or "> [!question] …" inside a quote
            if marker(block.raw.split("\n")[0]) or callout_asks(block.raw):
                return True
        elif block.kind == "item":
            paragraph = block.first_paragraph()
            own = paragraph is not None and link_target(paragraph.raw) is None
            first = paragraph.raw.split("\n")[0] if paragraph else ""
            if own and (reads_as_question(plain(first)) or marker(first)):
                return True
            if asks_inside(block.children[1:] if paragraph else block.children):
                return True
        elif asks_inside(block.children):
            return True
    return False
