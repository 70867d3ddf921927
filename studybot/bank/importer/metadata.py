"""Lines that describe a question rather than answer it, read as its tags.

Question banks open each answer with lines such as ``**Difficulty:** Medium``,
``**Tags:** rag,retrieval``, ``**Company**: Google | **Round**: Onsite`` or
``**Topic:** Attention, **Level:** Easy``. Such a line, at the top of an
answer, becomes tags (``difficulty:medium``, ``rag``, ``company:google``) and
leaves the answer; the first line that is not one ends them, so
``**Question:** …`` or a line of the answer itself stays. A bold level alone
(``**L1**``) is such a line (``level:l1``); a heading that only says the answer
follows (``#### 答案``) leaves the top of the answer too.

A sub-list under a question made only of such lines (``- Type: Multiple
Choice``, ``- Choices: a; b; c``) describes it too: its keys become tags and
its choices the question's hint, never its text or its answer.
"""

from __future__ import annotations

import re

from studybot.bank.importer.draft import HAN_COMMON, NOT_WORD
from studybot.bank.importer.notes import note_companies

_KEYS = (
    r"company|companies|asked by|asked at|round|rounds|topic|topics|level|difficulty|tags?|category|categories"
    r"|frequency|role|position|seniority|type|question type|access|公司|轮次|面试轮次|难度|分类|标签|频率|主题|岗位|题型|级别|类别"
)
_BOLD = r"(?:\*\*|__)?"
_KEY = rf"{_BOLD}\s*(?P<key>{_KEYS})\s*{_BOLD}\s*[:：]\s*{_BOLD}"
# one "key: value" pair; a value ends at a separator or where the next key starts
_PAIR = re.compile(
    rf"{_KEY}\s*(?P<value>[^|·•;；\n]*?)\s*{_BOLD}\s*"
    rf"(?=$|[|·•;；]|[,，]\s*{_BOLD}\s*(?:{_KEYS})\s*{_BOLD}\s*[:：])",
    re.IGNORECASE,
)
_SPACES = re.compile(r"\s+")
_SEPARATORS = re.compile(r"[\s|·•;；,，*_]*")
_SPLIT = re.compile(r"\s*[,，、/]\s*")
_OWN_WORDS = {"tag", "tags", "标签"}  # their values are tags themselves, not "key:value"
# "Choices: a; b; c": what a multiple-choice question offers, shown as its hint
_CHOICES = re.compile(
    r"^\s*(?:\*\*|__)?\s*(?:choices|options|选项)\s*(?:\*\*|__)?\s*[:：]\s*(?P<text>\S.*)$",
    re.IGNORECASE,
)
_ONE = re.compile(rf"^{_KEY}\s*(?P<value>[^\n]{{1,100}}?)\s*{_BOLD}\s*[.。]?$", re.IGNORECASE)
_SYMBOLS = re.compile(r"[`\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F]")  # "🟢 Easy", "`RAG`"
# "[E] …", "[Hard] …", "【进阶】…": a difficulty or level mark before a question
_MARK = re.compile(
    r"^\s*(?:[\[【](?P<mark>[EMH]|easy|medium|hard|简单|中等|困难)[\]】]\s+"
    r"|【(?P<level>基础|进阶|高级|入门|实战)】\s*)(?=\S)",
    re.I,
)
# "大模型理论追问题：…", "高频面试题：…": a label naming what kind of question follows
_KIND_LABEL = re.compile(rf"^\s*[{HAN_COMMON}]{{0,8}}(?:追问|面试)题\s*[:：]\s*(?=\S)")
_LEVELS = {
    "e": "easy",
    "m": "medium",
    "h": "hard",
    "简单": "easy",
    "中等": "medium",
    "困难": "hard",
}
# "**L1**": a question's level, alone on its line
_LEVEL_LINE = re.compile(r"\s*(?:\*\*|__)(?P<level>L[0-9])(?:\*\*|__)\s*")
# a heading that only says the answer is below it
ANSWER_TITLE = re.compile(
    r"(?:answer|answers|answer guide|model answer|suggested answer|solution|explanation"
    r"|答案|参考答案|答案解析|解析|解答|回答)\s*[:：]?",
    re.IGNORECASE,
)
_VALUE = re.compile(r"[^.。？?!！:：]{1,40}")  # a word or a name, not a sentence


def leading_tags(answer: str | None) -> tuple[list[str], str | None]:
    """(tags, the rest of the answer) from the metadata lines that open ``answer``, and
    without a heading right after them that only says the answer follows."""
    if not answer:
        return [], answer
    lines = answer.split("\n")
    tags: list[str] = []
    taken = 0
    for taken, line in enumerate(lines):  # noqa: B007 - where the answer starts
        if not line.strip():
            continue
        level = _LEVEL_LINE.fullmatch(line)
        found = [f"level:{level['level'].lower()}"] if level else _tags_of(line)
        if found is None:
            break
        tags.extend(found)
    else:
        taken = len(lines)
    rest = lines[taken:]
    heading = rest and rest[0].startswith("#") and ANSWER_TITLE.fullmatch(rest[0].strip("# *_"))
    if heading and "\n".join(rest[1:]).strip():  # "#### 答案" over the answer: a label
        rest = rest[1:]
    if len(rest) == len(lines):
        return [], answer
    return tags, "\n".join(rest).strip() or None


def _tags_of(line: str) -> list[str] | None:
    """The tags a metadata line holds, or None when the line says anything else."""
    pairs = list(_PAIR.finditer(line))
    if not pairs or _SEPARATORS.fullmatch(_PAIR.sub("", line)) is None:
        return None
    tags = []
    for pair in pairs:
        key = pair["key"].lower()
        for value in _SPLIT.split(pair["value"].strip(" *_")):
            if not _VALUE.fullmatch(value.strip()):
                return None
            value = tag_word(_SYMBOLS.sub("", value))
            key = "company" if key.startswith("asked") else key
            tags.append(value if key in _OWN_WORDS else f"{key}:{value}")
    return tags


def described(lines: list[str]) -> tuple[list[str], str | None] | None:
    """(tags, choices) when every line is metadata (``Type: …``, ``Choices: …``), else None."""
    tags: list[str] = []
    choices = None
    for line in (line.strip() for line in lines):
        choice = _CHOICES.match(line)
        if choice:
            choices = choice["text"].strip()
            continue
        one = _ONE.match(line)
        found = _tags_of(line) if line else []
        if found is None and one is None:
            return None
        if found is not None:
            tags.extend(found)
        elif one is not None:
            slug = NOT_WORD.sub("-", one["value"].lower()).strip("-")
            tags.append(f"{one['key'].lower()}:{slug}")
    return (tags, choices) if tags or choices else None


def difficulty_mark(question: str) -> tuple[list[str], str]:
    """(``["difficulty:easy"]``, the question) from ``[E] question`` (``level:进阶`` from
    ``【进阶】…``), a kind label before it (``大模型理论追问题：``) dropped; no tag without a mark."""
    question = _KIND_LABEL.sub("", question, count=1)
    mark = _MARK.match(question)
    if mark is None:
        return [], question
    tag = f"level:{mark['level']}" if mark["level"] else difficulty_tag(mark["mark"])
    return [tag], question[mark.end() :]


def difficulty_tag(mark: str) -> str:
    """``difficulty:easy`` from a level's mark: ``E``, ``easy`` or ``简单``."""
    return f"difficulty:{_LEVELS.get(mark.lower(), mark.lower())}"


# "### What is X? - Google, NVIDIA Interview Question": who asked it, a tag each
_ASKED_BY = re.compile(
    r"\s[-–—]\s+(?:\*\*|__)?(?P<names>[A-Z][\w&.'’]*(?:[ ,/&]+[A-Z][\w&.'’]*){0,9})"
    r"(?:\*\*|__)?\s+interview\s+questions?\W*$",
    re.IGNORECASE,
)


def tag_word(text: str) -> str:
    """A tag as a bank keeps it: one lowercase word, its spaces dashes (``Machine Learning`` →
    ``machine-learning``); every reader's tags pass here."""
    return _SPACES.sub("-", text.strip().lower())


def company_tags(line: str) -> list[str]:
    """``company:google`` and the rest from a question line that ends ``- Google, Amazon
    Interview Question`` or ``…（滴滴）`` (the text itself loses that tail in ``markers.clean``)."""
    found = _ASKED_BY.search(line[-300:])
    if found is None:  # "…求导（滴滴）": a note on where it was asked names the company
        return ["company:" + tag_word(n) for n in note_companies(line)]
    names = [n.strip() for n in re.split(r"\s*[,/&]\s*", found["names"]) if n.strip()]
    return ["company:" + tag_word(n) for n in names]


# "（D:\notes\redis.md）", "（https://…）", "（D:\notes\redis.md、https://…）" after a
# question: where the author copied it from, one place or several
_PLACE = r"(?:[A-Za-z]:[\\/][^\s（）()、，；]*|https?://[^\s（）()、，；]+|[^\s（）()、，；]+\.(?:md|markdown|txt|html?|pdf))"
_SOURCE = rf"[（(]\s*{_PLACE}(?:\s*[、，；,;]\s*{_PLACE})*\s*[）)]"
_SOURCE_TAIL = re.compile(rf"\s*{_SOURCE}\s*$")
_SOURCE_LINE = re.compile(rf"^\s*{_SOURCE}\s*(?:\n|$)")


def source_tail_off(line: str) -> str:
    """``line`` without the source path or address in parentheses at its end."""
    return _SOURCE_TAIL.sub("", line)


def without_source(question: str, answer: str | None) -> tuple[str, str | None]:
    """A question and its answer without the source path or address that follows the question:
    neither its text nor its answer."""
    question = _SOURCE_TAIL.sub("", question)
    lead = _SOURCE_LINE.match(answer) if answer else None
    if answer and lead:
        answer = answer[lead.end() :].strip() or None
    return question, answer


_DASH = re.compile(r"\s[-–—]\s")
_COMPANY_NAME = re.compile(r"[A-Z][\w&.'’]*(?: [A-Z][\w&.'’]*){0,3}")
_INTERVIEW = re.compile(r"\s*interview\s+questions?\s*$", re.IGNORECASE)


def without_company(text: str) -> str:
    """``What is X? - Google, Amazon Interview Question`` without what follows the dash."""
    dashes = list(_DASH.finditer(text[-200:]))
    if not dashes:
        return text
    cut = len(text) - 200 + dashes[-1].start() if len(text) > 200 else dashes[-1].start()
    tail = text[cut + 3 :].strip().strip("*_ ")
    suffix = _INTERVIEW.sub("", tail)  # "- NVIDIA, Meta Interview Question": acronyms too
    names = [n.strip(" *_") for n in re.split(r"[,/&]", suffix)]
    if not suffix or not cut or not all(names):
        return text
    for name in names:  # companies are capitalised words, not acronyms: "- LSTM" stays
        if not _COMPANY_NAME.fullmatch(name) or not (suffix != tail or any(map(str.islower, name))):
            return text
    return text[:cut].rstrip()
