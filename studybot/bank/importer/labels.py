"""Labels in front of what is asked: they name or number a question, they are not its text.

- under a heading that labels a question (``### Question 3: DevOps Principle``), the
  bold paragraph that opens its section and asks is the question; what follows
  (options, explanation) is its answer (``bold_question``);
- in a list whose plain items ask (an outline of questions), an item that is a link
  away (``- [new 操作符原理](…/issues/12)``) is a question too, the link pointing to its
  answer, unless it names a collection (``[HTML 高频面试题汇总](…)``) (``linked_question``);
- an id code (`` `#q10001` ``, ``COD-001 ·``), a letter in parentheses (``(A)``) or a
  short topic label (``数据类型存储：``) in front of a question is no part of its text
  (``without_label``);
- in a list that mostly asks, in a file whose questions are not marked, a short topic
  that asks nothing (``- 事件类型``, ``- var vs let vs const``) is listed as not taken
  (``terse``): ``--questions items`` takes it;
- under a heading that numbers a topic (``## Q1 决策树``), the paragraph that opens its
  section is the question when an answer box or an answer label follows it (the options
  between them are no part of the answer box, they stay with the question's answer);
- a list item that opens with a bold question and goes on after it (``1. **What is
  RAG?** Retrieving context …``, ``6. **Explain RoPE.** Rotary …``) holds its answer
  on its own line: the bold asks, the rest answers (``bold_answer``);
- a bold label in front of a statement (``**What to learn, in order:** Use planning …``)
  asks nothing: the question word is the label's (``statement_label``); in a list of bold
  labels that mostly ask nothing (``* **Sleep well**: …``), a label that sets a task
  (``* **Describe your projects**: …``) is a tip too (``tips``);
- a heading that names the kind of question (``### ✅ 3. 选择题``, ``## 填空题``,
  ``### Multiple choice``), or numbers one and names its kind in brackets (``### Q12 (MCQ)``,
  ``### Q50 (Final Reflection)``: the paragraph under it must ask), is a label: the paragraph (or quote) that opens its section is
  the question, what follows it the answer; a choice picked right after a choice question's
  stem (``…组成部分？C``) is the owner's answer, no part of the question (``under_kind``);
- a heading that is a number alone (``### Question 2``) over a deeper heading (``#### Can
  you devise …?``): the deeper heading is the question, what follows it the answer
  (``bold_question``);
- a ``问题N：`` label before a topic that asks nothing (``## 问题1：context length``), over
  lines that ask, names a section as its unnumbered siblings (``## 问题二： 幻觉``) do
  (``topic_label``).
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block, link_target, plain
from studybot.bank.importer.collapsible import answer_box
from studybot.bank.importer.decorations import undecorated
from studybot.bank.importer.digests import first_lines
from studybot.bank.importer.draft import ALL_BOLD, HAN_COMMON, WORD
from studybot.bank.importer.markers import (
    ANSWER_MARKER,
    BOLD_LEAD,
    CODE_LABEL,
    asks,
    asks_inside,
    clean,
    items,
    marker,
    numbered,
    reads_as_question,
)
from studybot.bank.importer.notes import without_note
from studybot.bank.importer.wrapping import joined

# a blank to fill in: "DevOps is an extension of _____ infrastructure."
_BLANK = re.compile(r"(?:\\?_){3,}|＿{2,}|（\s*）|\(\s{2,}\)")
# "`#q10001` HTML 和 HTML5 有什么区别？", "#A102 …": an id code in front
_ID_CODE = re.compile(r"^(?:`#?[A-Za-z]{0,4}-?\d{3,}`|#[A-Za-z]{0,4}-?\d{3,})\s+(?=\S)")
# "数据类型存储：数据类型的存储之间有什么区别": a short topic label in front
_TOPIC_LABEL = re.compile(
    rf"^(?P<label>[{HAN_COMMON}]{{2,10}})[：:][^\S\n]*(?P<rest>\S.{{3,}})$", re.S
)
# labels that say what kind of task follows (or how to answer it): part of what is asked
_TASK_KIND = re.compile(
    r"手撕|手写|场景|算法|编程|开放|追问|问题|题目|第.+题|比喻|类比|一句话|各说|^(?:计算|推导|证明|估算|设计|实现|分析"
    r"|比较|对比|解释|举例|思考|练习|案例|例题|讨论|实操|实践|动手|综合|挑战|进阶|加分)题?$"
)
# a link that names many questions, not one, or points to answers ("[点击查看答案](…)")
_COLLECTION = re.compile(
    r"面试题|汇总|合集|大全|题库|清单|interview questions|cheat ?sheet|collection"
    r"|答案|查看|点击|详情|原文|阅读|^(?:answers?|solutions?|click|read more|see|more)\b",
    re.IGNORECASE,
)
_ITEM_MARK = re.compile(r"^\s*[-*+]\s+")  # a bullet item's marker, before its text
# a heading that numbers a question before its topic: "Question 2: What Is DevOps?"
_NUMBERED_LABEL = re.compile(r"(?:question|问题|题目)\s*\d{1,4}\s*[:：.．]", re.IGNORECASE)


def bold_question(
    title: str, inner: list[Block], lines: list[str]
) -> tuple[str, str | None] | None:
    """(the question, its answer when written beside it) asked right under a heading that
    labels it, or None.

    The heading is a label when it does not ask, or opens with ``Question N:``. The question
    is a bold paragraph (an emoji mark in front, ``🟦 **What is …?**``, too), the only bold
    paragraph that asks in the section (a chapter of bold questions is not this), and something must follow it (its answer); or the first item of
    a list that opens the section, marked ``Q：``, the next item marked ``A：`` (a card): the
    items from that one on are the answer."""
    if not title or not inner or (reads_as_question(title) and not _NUMBERED_LABEL.match(title)):
        return None
    kind = under_kind(title, inner)
    if kind is not None:  # "### ✅ 1. 选择题" over "以下哪个…？C"
        return kind
    deeper = clean(plain(inner[0].raw)) if inner[0].kind == "heading" else ""
    if deeper and WORD.search(deeper) and _number_alone(title) and not _number_alone(deeper):
        return deeper, None  # "### Question 2" over "#### Can you …?"
    if _under_topic(title, inner, lines):  # "## Q1 决策树" over "使用决策树分类时，…是："
        return clean(joined(inner[0].raw)), None
    if inner[0].kind == "bullet_list":  # "### 卡片 3" over "- **Q：** …" and "- **A：** …"
        return _card(inner[0], lines)
    if len(inner) < 2 or inner[0].kind != "paragraph":  # "##" alone: listed
        return None
    bold = [b for b in inner if b.kind == "paragraph" and ALL_BOLD.fullmatch(undecorated(b.raw))]
    asking = [b for b in bold if _asks(b.raw)]
    if len(asking) != 1 or asking[0] is not inner[0]:
        return None
    return clean(joined(undecorated(inner[0].raw))), None


def under_kind(title: str, inner: list[Block]) -> tuple[str, str | None] | None:
    """(the question, the choice picked after it) under a heading that names a kind of
    question (``✅ 1. 选择题``): the paragraph, or a quote of one, that opens its section;
    None when the heading is no such label or a numbered question opens the section."""
    typed = bool(_TYPED_NUMBER.fullmatch(title))  # "Q12 (MCQ)": one question, numbered
    if not inner or not (typed or _QUESTION_KIND.fullmatch(numbered(title)[1])):
        return None
    if any(b.kind == "heading" or (_OPENS_NUMBERED.match(b.raw) and not typed) for b in inner):
        return None  # "## 单选题" over "1、…", "TODO:2、…", "### 1. …": a part of questions
    first = inner[0]
    if first.kind == "quote" and len(first.children) == 1:  # "> ✍️ 推导…"
        first = first.children[0]
    if (
        first.kind != "paragraph"
        or marker(first.raw.split("\n")[0])
        or ALL_BOLD.fullmatch(first.raw)
    ):
        return None
    text = _PEN.sub("", clean(joined(first.raw)))
    if numbered(text)[0] is not None or (typed and not reads_as_question(text)):
        return None  # "## 选择题" over "1. …？": a part of questions
    picked = _PICKED.search(text) if _CHOICE.search(title) else None
    if picked is None:
        return text, None
    return text[: picked.start()].rstrip(), picked["pick"]


def kind_heading(title: str, inner: list[Block]) -> tuple[str | None, str] | None:
    """(number, title) of a heading that names a kind of question over the one it labels
    (``## 📌 附加挑战题：`` over ``> ✍️ 推导…``): a question's heading, whatever its level."""
    return numbered(title) if under_kind(title, inner) and not asks_inside(inner[1:]) else None


def topic_label(title: str, found: tuple[str | None, str], inner: list[Block]) -> bool:
    """``## 问题1：context length`` (``found``: its marker) over lines that mostly ask: a
    section whose label numbers it, not a question; ``Q1: Paging`` keeps its answer's lines."""
    if found[0] is None or reads_as_question(found[1]) or not title.startswith(("问题", "题目")):
        return False
    if not _NUMBERED_LABEL.match(title):
        return False
    own = inner[: next((j for j, b in enumerate(inner) if b.kind == "heading"), len(inner))]
    lines = [line for b in own if b.kind == "paragraph" for line in b.raw.split("\n")]
    lines = [plain(line) for line in lines if line.strip()]
    lines += [line for b in own if b.is_list for line in first_lines(b)]
    asking = sum(1 for line in lines if reads_as_question(line))
    return asking > 0 and 2 * asking >= len(lines)


def _number_alone(title: str) -> bool:
    found = marker(title, heading=True)
    return found is not None and found[0] is not None and not found[1].strip()


# a heading that names the kind of question below it: "✅ 1. 选择题", "Multiple choice"
_QUESTION_KIND = re.compile(
    r"[^\w]*(?:[单多]?选择?题|填空题?|判断题|简答题|问答题|编程题|推导题|思维题|应用题|论述题|计算题"
    r"|证明题|分析题|设计题|附加(?:挑战)?题|挑战题|multiple[- ]choice|single[- ]choice"
    r"|true(?: or |/)false|fill[- ]in[- ](?:the[- ])?blanks?|short[- ]answers?|long[- ]answers?"
    r"|essay|coding|open[- ]ended|题目|问题|题干|question|problem)(?:\s*(?:questions?|problems?))?\s*(?:[（(][^）)]{0,12}[）)])?"
    r"\s*[:：]?",
    re.IGNORECASE,
)
# a heading that numbers a question and names its kind in brackets, asking nothing:
# "Q12 (MCQ)", "Q50 (Final Reflection)", "第3题（单选）"
_TYPED_NUMBER = re.compile(
    r"[^\w]*(?:Q|question|问题|题目?|第)?\s*\d{1,4}\s*题?\s*[（(\[【][^？?()（）\[\]【】]{1,24}[）)\]】]\s*",
    re.IGNORECASE,
)
# a paragraph that opens with a number, near its start: one of several questions
_OPENS_NUMBERED = re.compile(r"[^\d\n]{0,8}\d{1,3}\s*[、.．)）:：]")
_PEN = re.compile(r"^(?:[✍✏📝🖊]\ufe0f?\s*)+")  # "✍️ 推导…": a sign to write, no part of it
_CHOICE = re.compile(r"选|choice", re.IGNORECASE)
# the owner's pick right after a choice question's stem: "…组成部分？C", "…作用包括：C、D"
_PICKED = re.compile(r"(?<=[？?：:])\s*(?P<pick>[A-H](?:\s*[、,，/]\s*[A-H])*)\s*$")


def _under_topic(title: str, inner: list[Block], lines: list[str]) -> bool:
    """The heading numbers a short topic that asks nothing, a paragraph opens the section and
    an answer box (``<details><summary>答案</summary>``) or label (``答案：C``) comes later."""
    found = marker(title, heading=True)
    topic = found[1].strip() if found else ""
    if not topic or len(topic) > _TOPIC_MOST or reads_as_question(topic):
        return False
    if len(inner) < 2 or inner[0].kind != "paragraph" or ALL_BOLD.fullmatch(inner[0].raw):
        return False
    return any(answer_box(lines, b) or ANSWER_MARKER.match(b.raw) for b in inner[1:])


_TOPIC_MOST = 30  # characters of a topic's name: "类别不平衡", "Feature scaling"


def _card(block: Block, lines: list[str]) -> tuple[str, str | None] | None:
    listed = items(block)
    first, second = (i.first_paragraph() for i in listed[:2]) if len(listed) > 1 else (None, None)
    if first is None or second is None or len(listed[0].children) != 1:
        return None
    asked = marker(first.raw.split("\n")[0])
    opening = _ITEM_MARK.sub("", lines[second.start], count=1)
    said = ANSWER_MARKER.match(opening)
    if asked is None or asked[0] is not None or said is None or not asked[1].strip():
        return None
    answer = [opening[said.end() :]]
    answer += lines[second.start + 1 : block.end]
    return clean(asked[1]), "\n".join(answer).strip() or None


def _asks(text: str) -> bool:
    return reads_as_question(clean(joined(text))) or bool(_BLANK.search(text))


def linked_question(block: Block, text: str) -> bool:
    """``text``, an item of ``block`` that is a link away, is a question: at least two of
    the list's items that are no link ask, and it names no collection."""
    if not text.strip() or _COLLECTION.search(text):
        return False
    plain_asking = 0
    for item in items(block):
        first = item.first_paragraph()
        if first is None or link_target(first.raw) is not None:
            continue
        plain_asking += reads_as_question(clean(joined(first.raw.split("\n")[0])))
        if plain_asking >= 2:
            return True
    return False


def question_labelled(text: str) -> bool:
    """``验收题：为什么…``, ``思考题：…``: a label before ``text``'s ask that names a question."""
    found = _TOPIC_LABEL.match(text)
    return found is not None and found["label"].endswith("题")


def without_label(text: str) -> str:
    """``text`` without an id code or a short CJK topic label in front of what it asks."""
    text = _ID_CODE.sub("", text, count=1)
    coded = CODE_LABEL.match(text)
    if coded is not None and (coded["code"] or reads_as_question(text[coded.end() :])):
        text = text[coded.end() :]
    found = _TOPIC_LABEL.match(text)
    if found is None or _TASK_KIND.search(found["label"]):
        return text
    if reads_as_question(found["label"]) or not reads_as_question(found["rest"]):
        return text
    # "三类结构：Encoder-only / Decoder-only？": terms the label names, asking by the mark alone
    bare = found["rest"].rstrip().rstrip("？?").rstrip()
    return found["rest"] if reads_as_question(bare) else text


def terse(text: str, rest: list[Block], among_questions: bool) -> bool:
    """A short prompt with no ask, among items that ask: nothing but sub-lists below it,
    no sentence, no field (``作用：…``) and no lead-in (``数据类型转换：``)."""
    if not among_questions or any(not b.is_list for b in rest):
        return False
    text = text.strip()
    if not WORD.search(text) or len(text) > _TERSE:
        return False
    return not _SAID.search(text) and not _FIELD_LIKE.search(text)


_TERSE = 30
TERSE_LEFT = "a short topic among questions; it asks nothing (--questions items takes it)"
_SAID = re.compile(r"[。.！!；;,，：:]$|[。！；]")
_FIELD_LIKE = re.compile(r"^[^：:]{1,24}[：:]")


def bold_answer(raw_line: str) -> tuple[str, str] | None:
    """(question, answer) of an item line whose bold asks and whose rest answers: ``**What is
    RAG?** Retrieving …``; None when the rest asks too, says nothing, or is only a note after
    the question (``**What is X?** (asked at Google)``)."""
    lead = BOLD_LEAD.match(raw_line)
    if lead is None or not lead["rest"]:
        return None
    asked, rest = clean(plain(lead["q"])), lead["rest"].strip()
    if not reads_as_question(asked) or asks(clean(plain(rest))) or not WORD.search(rest):
        return None
    whole = f"{asked} {rest}"
    return (asked, rest) if without_note(whole) == whole else None


def statement_label(raw_line: str) -> bool:
    """``**What to learn, in order:** Use planning only when …``: a bold label ending in a
    colon in front of a statement that neither asks nor sets a task, or alone on its line
    over what it names (``**How It Works:**``): no question."""
    lead = BOLD_LEAD.match(raw_line)
    if lead is None or asks(plain(raw_line)):
        return False
    rest = lead["rest"]
    if not rest:
        return plain(lead["q"]).rstrip().endswith((":", "："))
    labelled = plain(lead["q"]).rstrip().endswith((":", "：")) or rest.startswith((":", "："))
    return labelled and not reads_as_question(plain(rest.lstrip(":：")))


def tips(block: Block) -> bool:
    """A list of bold labels, each before a colon and its text (``* **Sleep well**: A rested
    mind …``), whose labels mostly ask nothing: a list of tips, so a label that sets a task
    (``**Describe your projects**: …``) is one of them, no question."""
    labels = []
    for item in items(block):
        paragraph = item.first_paragraph()
        lead = BOLD_LEAD.match(paragraph.raw.split("\n")[0]) if paragraph else None
        if lead is None or not (lead["rest"] or "").startswith((":", "：")):
            return False
        labels.append(reads_as_question(plain(lead["q"])))
    return len(labels) >= 3 and sum(labels) * 2 < len(labels)


# "Matrix Operations: Write a function to compute …", "RAG Pipeline Flow: Walk through …"
_LABELLED_TASK = re.compile(
    r"^[A-Z](?:vs\.|[^:：?？.!。\n]){1,58}:\s+(?:Explain|Describe|Design|Write|Compare|Implement|Outline"
    r"|Walk (?:me |us )?through|Solve|Discuss|Derive|Contrast|Sketch|Given [^.\n]{3,80}?, "
    r"(?:write|design|implement|build|explain))\b[^\n]{8,}$"
)


def labelled_task(text: str) -> bool:
    """``Bias-Variance Tradeoff: Explain the bias-variance tradeoff.``: a short label, a colon
    and an English imperative that sets a task, on one line: asked like ``Label: …?``. A
    sentence that only opens with such a verb (no label) is answer prose."""
    return len(text) <= 300 and _LABELLED_TASK.match(text) is not None
