"""Notes written after (or before) a question that are no part of it.

Interview write-ups mark how often and where a question was asked:
``讲讲 Transformer（高频，字节/阿里都问过）``, ``(必考)``, ``【美团】``,
``[必考]``, ``（快手二面）``, ``(source: …)``, ``（2025年最新）``. Such a note leaves the text,
as a company suffix does; a bracket that says something else about the
question (``（基于人类反馈的强化学习）``, a link) stays.
"""

from __future__ import annotations

import functools
import re

from studybot.bank.importer.draft import QUESTION_MARKS

# the companies a write-up names in a note on where a question was asked
_COMPANIES = (
    r"字节(?![数码序流长位])|阿里|腾讯|美团|百度|京东|快手|小红书|拼多多|蚂蚁|华为|小米|网易|滴滴|商汤"
    r"|米哈游|百川|智谱|月之暗面|讯飞|携程|b站|哔哩|得物|shopee"
)
_COMPANY = re.compile(_COMPANIES, re.IGNORECASE)
# a note after a question, not part of it: "（高频，字节/阿里都问过）", "(必考)", "【美团】";
# "？(行号、单词数、字节数)" says what to count: 字节数 (bytes) is no company
_NOTE = re.compile(
    r"\s*(?:(?<!\])[（(](?P<round>[^（）()\n]{1,40})[）)]|【(?P<square>[^【】\n]{1,24})】"
    r"|(?<!\])\[(?P<ascii>[^\[\]\n]{2,24})\](?!\())(?P<mark>\s*[？?])?\s*$"
)
_LEAD_NOTE = re.compile(
    r"^(?:【(?P<square>[^【】\n]{1,24})】|[（(](?P<round>[^（）()\n]{1,40})[）)])\s*"
)
_NOTE_WORDS = re.compile(
    r"高频|低频|频率|必考|常考|必问|常问|重点(?![是在])|热门|经典|问过|都问|考过|被问|问到|出现|[一二三四终]面|hr面"
    r"|主管面|交叉面|面试|笔试|手撕|实习|校招|社招|秋招|春招|暑期|日常|大厂|每家|各家|公司|难度|[★☆⭐]"
    # a level alone ("（简单）", "（初级）", "(hard)"), never inside a sentence ("（…回退到简单规则引擎）")
    r"|^\W*(?:简单|中等|困难|[初中高]级|easy|medium|hard)(?:题|难度)?\W*$|\bdifficulty\b"
    rf"|\d+\s*(?:min|mins|minutes|分钟)\b|{_COMPANIES}|来源|出处|出自|^\W*\d{{1,3}}\s*/\s*100$"
    r"|(?:19|20)\d\d\s*年?\s*(?:最新|新版|版|更新)|\b(?:19|20)\d\d\s+(?:update|edition)\b"  # "（2025年最新）"
    r"|\b(?:updated|latest|as of)\s+(?:in\s+)?(?:19|20)\d\d\b"
    r"|(?<![A-Za-z])to (?:read|memorize|be concluded)\b|^\s*\?\s*$"  # a note to oneself: "(paper to read!!)", "(?)"
    r"|\b(?:source|asked|frequently|common|must|google|meta|amazon|microsoft|apple|openai|netflix|uber|bytedance|alibaba"
    r"|tencent|nvidia)\b",
    re.IGNORECASE,
)


_CLOSING = ("）", ")", "】", "]")
# "[Google]", "[Meta AI]" after a question: a company's tag ("[CLS]", an acronym, is not)
_TAG_NAME = re.compile(r"[A-Z][a-z][\w&.'’-]*(?: [A-Z][\w&.'’-]*){0,2}")
# an Obsidian callout's title, "[!question]- …", and the note's tags after it, "#高频"
CALLOUT = re.compile(r"^\[!(?P<kind>[A-Za-z][\w-]{0,30})\][-+]?\s*")
QUESTION_CALLOUTS = frozenset({"question", "faq", "help", "quiz"})


def callout_asks(text: str) -> bool | None:
    """Whether the Obsidian callout ``text`` opens is a question's (``[!question]``, not
    ``[!tip]``); None when it opens none."""
    found = CALLOUT.match(text.strip())
    return found["kind"].lower() in QUESTION_CALLOUTS if found else None


_TAGS = re.compile(r"(?:\s+#[^\s#\d][^\s#]{0,40})+\s*$")
# "…？ → [Attention](/basics/attention)": where the answer is, no part of the question
_LINK = r"(?:\[[^\[\]\n]{0,200}\]\([^()\s]{0,500}\)|[^？?\n\[\]]{1,80})"
_ARROWS = ("→", "⇒", "➜", "➡", "->")
_MD_LINK = r"\[[^\[\]\n]{0,200}\]\([^()\s]{0,500}\)"
_POINTER = re.compile(  # after a task that does not ask ("手写 LoRA → [13](…)"): a link only
    rf"(?<=[？?])\s*(?:{'|'.join(_ARROWS)})\s*{_LINK}(?:\s*[,，、/|]\s*{_LINK})*\s*$"
    rf"|\s+(?:{'|'.join(_ARROWS)})\s*{_MD_LINK}(?:\s*[,，、/|]\s*{_MD_LINK})*\s*$"
)


_ARROW_TAIL = re.compile(
    rf"(?<=[？?])[*_]*\s*(?:{'|'.join(map(re.escape, _ARROWS))})\s*(?P<a>\S.*)$", re.DOTALL
)
_LINKS_ONLY = re.compile(rf"{_MD_LINK}(?:\s*[,，、/|]\s*{_MD_LINK})*[\s。.]*")


def arrow_answer(raw: str, text: str) -> tuple[str, str] | None:
    """``- *Q:底层是哪个调用?* → `dup2`…``: (the question, the answer after the arrow);
    None when there is none or it only points to where the answer is (links alone)."""
    found = _ARROW_TAIL.search(raw)
    if found is None or _LINKS_ONLY.fullmatch(found["a"]):
        return None
    return _ARROW_TAIL.sub("", text).strip(), found["a"].strip()


# "？（说了…，面试官追问…）": what a write-up says was answered; "？（Goodhart's Law）" stays
ANSWER_AFTER = re.compile(
    r"^(?P<q>.*[？?])\s*[（(](?P<a>(?=.*?(?:说了|答了|回答|提到|讲了|面试官|追问|我[说答讲提]"
    r"|\bI (?:said|answered|mentioned)\b))(?:[^（）()]|[（(][^（）()]*[）)]){6,})[）)]$"
)


# "最长有效括号组合 -> 栈": a task named, then after an arrow how it is solved
_APPROACH = re.compile(
    rf"^(?P<q>[^\n]*[^\s>=-])\s*(?:{'|'.join(map(re.escape, _ARROWS))})\s*(?P<a>[^\n?？]{{1,40}})$"
)


def approach_tail(question: str) -> tuple[str, str] | None:
    """``最长有效括号组合 -> 栈``: (the task, the approach after the one arrow); else None."""
    found = _APPROACH.match(question.strip())
    if found is None or any(arrow in found["q"] for arrow in _ARROWS):
        return None
    return found["q"].strip(), found["a"].strip()


# "卡 01-A:…", "Card 3:…", "题面:…": a card's id or the word for a task, no part of it
_LABEL = re.compile(
    r"^(?:(?:卡|卡片|Card)\s*\d{1,4}(?:-[A-Za-z0-9]{1,3})?|题面|题干)\s*[:：]\s*(?=\S)"
)


def without_tags(text: str) -> str:
    """``为什么用 LayerNorm？ #高频`` → ``为什么用 LayerNorm？``."""
    return _TAGS.sub("", text) if "#" in text else text


# "…? [more](/sections/a.md#q-1)", "[[more]](…)", "[详情](…)": where to read more, no part of it
_MORE = re.compile(
    r"\s*\[\[?(?:more|read more|details?|更多|详情|阅读更多)\]?\]\([^()\s]{0,500}\)\s*$", re.I
)


def without_pointer(raw: str) -> str:
    """``手写 LoRA → [13](../13/README.md)`` → ``手写 LoRA``, read before links become text;
    ``…? [more](…)`` → ``…?``."""
    raw = _MORE.sub("", raw) if "](" in raw else raw
    return _POINTER.sub("", raw) if any(arrow in raw for arrow in _ARROWS) else raw


@functools.lru_cache(maxsize=1 << 18)  # asked of one line's text several times
def without_note(text: str) -> str:
    """``讲讲 X（高频，字节问过）`` → ``讲讲 X``: notes on how often and where it was asked go.

    A note before the question mark (``讲讲 X（高频）？``) or in front (``【字节】讲讲 X``) too,
    and a pointer to the answer after it: ``怎么实现？ → [01](../01/README.md)``; a card's
    label or the word for a task before it (``卡 01-A:``, ``题面:``) goes too.
    """
    text = _LABEL.sub("", text, count=1)  # "卡 01-A:…的区别?" → "…的区别?"
    if any(arrow in text for arrow in _ARROWS):
        text = _POINTER.sub("", text)
    lead = _LEAD_NOTE.match(text)
    if lead and lead.end() < len(text):
        inside = lead["square"] or lead["round"]
        if _NOTE_WORDS.search(inside) and "://" not in inside:  # "【演变史】…" is a topic
            text = text[lead.end() :]
    while True:
        if not text.rstrip().rstrip("".join(QUESTION_MARKS)).rstrip().endswith(_CLOSING):
            return text  # every note ends the text with its bracket
        note = _NOTE.search(text)
        if note is None or note.start() == 0:
            return text
        inside = note["round"] or note["square"] or note["ascii"]
        worded = bool(_NOTE_WORDS.search(inside)) and "://" not in inside
        worded = worded and not _spelled_out(text[: note.start()], inside)
        worded = worded or (note["ascii"] is not None and bool(_TAG_NAME.fullmatch(inside)))
        if note["square"] is None and not worded:
            return text  # "（基于人类反馈的强化学习）" is part of the question
        if note["square"] is not None and inside.rstrip().endswith(QUESTION_MARKS):
            return text
        text = text[: note.start()].rstrip() + (note["mark"] or "").strip()


def note_companies(line: str) -> list[str]:
    """The companies named in the notes ``without_note`` takes off the end of ``line``
    (``…求解梯度（滴滴）`` → ``滴滴``; ``（快手二面）`` → ``快手``), in their order."""
    kept = without_note(line.rstrip())
    return list(dict.fromkeys(_COMPANY.findall(line.rstrip()[len(kept) :])))


# "CTE (Common Table Expression)": the words an acronym stands for, written after it
_ACRONYM = re.compile(r"\b(?P<a>[A-Z][A-Z0-9]{1,9})s?\s*$")
_INITIAL = re.compile(r"[^\W\d_]+")


def _spelled_out(before: str, inside: str) -> bool:
    """Whether ``inside`` spells out the acronym ``before`` ends with: part of the question."""
    found = _ACRONYM.search(before)
    if found is None:
        return False
    words = _INITIAL.findall(inside)
    capitals = "".join(w[0] for w in words if w[0].isupper())
    every = "".join(w[0] for w in words).upper()
    letters = "".join(c for c in found["a"] if c.isalpha())
    return letters in (capitals, every)


# "*考察对…的理解。*", "_Covers the basics._": a line wholly in italics
_ITALIC_LINE = re.compile(r"^\s*(?P<mark>[*_])(?![*_\s])(?P<text>[^*_\n]+?)(?<!\s)(?P=mark)\s*$")


def italic_note(raw_line: str) -> bool:
    """A line wholly in italics that ends as a sentence (``。``/``.``) and asks nothing: a note on
    its section (``*考察对训练稳定性的理解。*``), never a question."""
    found = _ITALIC_LINE.match(raw_line)
    text = found["text"].rstrip() if found else ""
    return text.endswith(("。", ".")) and not any(mark in text for mark in QUESTION_MARKS)
