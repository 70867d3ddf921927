"""Which key (or column) of a user's records holds what: the usual names, ``--map``, chats.

Records come with their own keys: ``prompt``/``response``, ``q``/``a``,
``title``/``content``, ``问题``/``答案``/``分类``, ``good_answer``, ``topic``, and the
usual names in Japanese (``問題``/``答え``), Korean (``문제``/``정답``) and other languages.
One mapping is chosen per file from the keys its records use, the usual
names tried in the order below (so ``question`` wins over ``title`` when a
file has both), and ``--map question=KEY,answer=KEY`` overrides any of it;
a KEY may be a dotted path into nested objects (``meta.topic``). The
mapping is printed as it was used, and every key it leaves out is named.
Chat records (``messages`` with roles, ShareGPT ``conversations``) give
the first user turn as the question and the assistant's reply as the answer.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from studybot.bank.importer.draft import HAN_COMMON_CHAR, QUESTION_MARKS
from studybot.bank.importer.markers import reads_as_question
from studybot.bank.importer.metadata import tag_word
from studybot.errors import BadInput

FIELDS = ("question", "answer", "chapter", "id", "key_points", "hint", "tags")
# the usual names of each field, most specific first; compared after _fold()
USUAL: dict[str, tuple[str, ...]] = {
    "question": (
        "question", "questions", "q", "prompt", "instruction", "query", "problem", "ask",
        "question text", "title", "front", "题目", "问题", "题干", "问", "提问", "面试题", "标题",
        "題目", "問題", "質問", "設問", "問", "문제", "질문", "문항",  # zh-Hant, ja, ko
        "pregunta", "pergunta", "frage", "domanda", "вопрос",  # es, pt, de, it, ru
    ),
    "answer": (
        "answer", "reference", "reference answer", "good answer", "best answer",
        "correct answer", "model answer", "sample answer", "answers", "a", "ans", "response",
        "output", "completion", "chosen", "solution", "explanation", "content", "body", "back",
        "参考答案", "答案", "回答", "解答", "答", "解析", "内容",
        "答え", "正解", "解説", "정답", "답", "답변", "해답", "해설",  # ja, ko
        "respuesta", "resposta", "réponse", "antwort", "risposta", "ответ",  # es, pt, fr, de, it, ru
    ),
    "chapter": (
        "chapter", "topic", "category", "section", "subject", "module", "part", "group",
        "domain", "area", "deck", "章节", "章", "分类", "类别", "主题", "模块", "板块", "领域", "方向",
        "分類", "カテゴリ", "カテゴリー", "분류", "카테고리", "주제", "단원",  # ja, ko
    ),
    "id": ("id", "no", "number", "num", "qid", "question id", "#", "编号", "题号", "序号"),
    "key_points": (
        "key points", "keypoints", "points", "point", "要点", "关键点", "考点", "得分点",
    ),
    "hint": ("hint", "hints", "tip", "提示"),
    "tags": ("tags", "tag", "labels", "keywords", "标签", "关键词"),
}  # fmt: skip
_NAME = {name: field for field, names in USUAL.items() for name in names}
# words that only say how a field is written: "Question Text", "Topic Name", "问题（英文）"
_NEUTRAL = {
    "text", "string", "str", "field", "column", "col", "value", "name", "title", "full",
    "en", "zh", "cn", "english", "chinese", "raw", "main", "the", "of", "md", "markdown", "key",
}  # fmt: skip
# a last word that makes the key about something else: "Question Type", "Answer Length"
_OTHER = {
    "type", "kind", "format", "style", "length", "len", "count", "date", "time", "url", "link",
    "links", "source", "author", "score", "level", "status", "lang", "language", "image",
}  # fmt: skip
_ZH_OTHER = ("类型", "难度", "来源", "出处", "数量", "长度", "链接", "时间", "日期", "作者", "状态")
_ZH_ID = ("编号", "序号", "题号")
_ZH_NAMES = sorted(
    ((n, f) for n, f in _NAME.items() if len(n) >= 2 and HAN_COMMON_CHAR.search(n)),
    key=lambda pair: -len(pair[0]),
)
_ROLES_USER = {"user", "human", "prompter"}
_ROLES_ASSISTANT = {"assistant", "gpt", "bot", "model", "chatgpt"}
CHAT = "messages"  # the pseudo-key of a chat record's turns

KEY_GAPS = re.compile(r"[\s_\-]+")  # between a key's words: "sub_categories", "child-nodes"


def _fold(key: str) -> str:
    key = key.strip().lstrip("\ufeff").strip()
    key = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", key).lower()  # "QuestionText", "sampleAnswer"
    return KEY_GAPS.sub(" ", key)


@functools.lru_cache(maxsize=4096)  # asked for every key of every record
def field_of(key: str) -> str | None:
    """The field a key names (``good_answer`` → ``answer``, ``Interview Question`` →
    ``question``, ``题目描述`` → ``question``), else None.

    A usual name matches as it is, case and spaces ignored; else a key is read
    by its words: the last English word that says more than how the field is
    written (``Expected Answer``, ``Topic Area``, ``Question Text (EN)``), a
    Chinese usual name inside it, the first one written (``答案解析``, ``所属分类``).
    A key about something else (``Question Type``, ``难度``, ``答案来源``) is none.
    """
    folded = _fold(key)
    if folded in _NAME:
        return _NAME[folded]
    words = re.sub(r"[()\[\]（）【】.:：#/,，]", " ", folded).split()
    if not words or len(words) > 5 or len(folded) > 40 or re.search(r"[。？?！!；;]", folded):
        return None  # a sentence, not a column's name
    if " ".join(words) in _NAME:
        return _NAME[" ".join(words)]
    if HAN_COMMON_CHAR.search(folded):
        found = _zh_field(folded)
        words = [w for w in words if not HAN_COMMON_CHAR.search(w)]
        if found or not words:
            return found  # "问题描述"; else the English words of "Question（中文）"
    meaningful = [w for w in words if w not in _NEUTRAL and len(w) > 1 and not w.isdigit()]
    if not meaningful or meaningful[-1] in _OTHER:
        return None
    last = meaningful[-1]
    return _NAME.get(last) if len(last) > 1 else None


def _zh_field(folded: str) -> str | None:
    if any(word in folded for word in _ZH_ID):
        return "id"
    if len(folded) > 10 or folded.endswith(_ZH_OTHER):
        return None
    found = [(folded.find(n), -len(n), f) for n, f in _ZH_NAMES if n in folded]
    return min(found)[2] if found else None


def _rank(field: str, key: str) -> int:
    """Where ``key`` comes among the usual names of ``field``: a name read by its words last."""
    names = USUAL[field]
    folded = _fold(key)
    return names.index(folded) if folded in names else len(names)


def parse_map(text: str | None) -> tuple[tuple[str, str], ...]:
    """``question=prompt,answer=good_answer`` as pairs; BadInput naming what is wrong."""
    if not text:
        return ()
    pairs = []
    for part in text.split(","):
        name, sep, key = part.partition("=")
        name = {"reference": "answer"}.get(name.strip(), name.strip())
        if not sep or not key.strip() or name not in FIELDS:
            raise BadInput(
                f"--map {part.strip()!r}: expected FIELD=KEY with FIELD one of {', '.join(FIELDS)}",
                hint="for example: --map question=prompt,answer=good_answer,chapter=topic",
            )
        pairs.append((name, key.strip()))
    return tuple(pairs)


@dataclass(frozen=True)
class Mapping:
    """Field → the keys it is read from (a record uses the first it has), and keys unread."""

    keys: dict[str, tuple[str, ...]]  # field -> keys, a dotted path for a nested key
    unused: tuple[str, ...]
    chat: bool = False  # records are chats: question and answer come from their turns
    with_input: bool = False  # Alpaca: the question is 'instruction' followed by 'input'

    def line(self) -> str:
        """``question ← 'prompt', answer ← 'good_answer', chapter ← 'topic'``."""
        shown = [
            f"{field} ← {' or '.join(repr(k) for k in names)}" for field, names in self.keys.items()
        ]
        if self.with_input:
            shown[0] += " + 'input'"
        if self.chat:
            shown = ["question ← the first user turn", "answer ← the reply", *shown]
        return ", ".join(shown)

    def get(self, record: dict[str, Any], field: str) -> Any:
        """The value of ``field`` in ``record``: its first key that the record has.

        An answer in several keys (``参考答案`` and ``答案解析``) is all of them, in order.
        """
        names = self.keys.get(field, ())
        if field == "answer" and len(names) > 1:
            values = [value(record, key) for key in names]
            texts = [v.strip() for v in values if isinstance(v, str) and v.strip()]
            if len(texts) > 1 and all(v is None or isinstance(v, str) for v in values):
                return "\n\n".join(texts)
        for key in names:
            found = value(record, key)
            if isinstance(found, dict) and field == "answer":  # {"accepted_answer": {"text": …}}
                found = next((found[k] for k in _TEXT_KEYS if isinstance(found.get(k), str)), None)
            if found is not None:
                return found
        return None


def choose(keys: Iterable[str], forced: tuple[tuple[str, str], ...] = ()) -> Mapping:
    """The mapping for records with ``keys`` (in first-seen order), ``forced`` pairs first."""
    keys = list(dict.fromkeys(keys))
    chosen: dict[str, tuple[str, ...]] = {field: (key,) for field, key in forced}
    taken = {key for field, key in forced}
    chat = CHAT in keys or "conversations" in keys
    for field in FIELDS:
        if field in chosen or (chat and field in ("question", "answer")):
            continue
        candidates = [k for k in keys if k not in taken and field_of(k) == field]
        if candidates:
            ranked = tuple(sorted(candidates, key=lambda k: _rank(field, k)))
            chosen[field] = ranked
            taken.update(ranked)
    answers = chosen.get("answer", ())
    if chosen.get("question", ("",))[0] in _POST_TITLES and len(answers) > 1:
        # a post's title is the question and its body the details: the answer is the reply
        replies = tuple(k for k in answers if _fold(k) not in _POST_BODIES)
        if replies:
            chosen["answer"] = replies
            taken -= set(answers) - set(replies)
    if chat:
        taken |= {CHAT, "conversations"}
    with_input = chosen.get("question", ("",))[0] == "instruction" and "input" in keys
    if with_input:
        taken.add("input")  # Alpaca: the input is part of the task
    top = {k.split(".")[0] for k in taken}
    unused = tuple(k for k in keys if k not in taken and k not in top)
    ordered = {field: chosen[field] for field in FIELDS if field in chosen}
    return Mapping(ordered, unused, chat, with_input)


_TEXT_KEYS = ("text", "body", "content", "answer", "value")
_POST_TITLES = ("title", "标题")
_POST_BODIES = ("body", "content", "内容")


def value(record: dict[str, Any], key: str) -> Any:
    """``record[key]``, following a dotted path (``meta.topic``) when there is no such key."""
    if key in record:
        return record[key]
    current: Any = record
    for part in key.split("."):
        if not isinstance(current, dict) or part not in current:
            return None
        current = current[part]
    return current


def chat_turns(record: dict[str, Any]) -> tuple[Any, Any] | None:
    """(first user turn, the assistant turn after it) of a chat record, else None."""
    turns = record.get(CHAT, record.get("conversations"))
    if not isinstance(turns, list):
        return None
    question = answer = None
    for turn in turns:
        if not isinstance(turn, dict):
            continue
        role = str(turn.get("role", turn.get("from", ""))).strip().lower()
        text = turn.get("content", turn.get("value"))
        if question is None and role in _ROLES_USER:
            question = text
        elif question is not None and role in _ROLES_ASSISTANT:
            answer = text
            break
    return (question, answer) if question is not None else None


def suggest_map(names: list[str], records: Sequence[dict[str, Any]] = ()) -> str:
    """``--map question=KEY``, KEY the one whose values read most like questions."""

    def score(name: str) -> tuple[int, int]:
        values = [str(r.get(name, "")) for r in records[:200]]
        return sum(v.rstrip().endswith(QUESTION_MARKS) for v in values), sum(len(v) for v in values)

    best = max(names, key=score) if records else (names[0] if names else "KEY")
    return f"--map question={best} (and answer=KEY, chapter=KEY) says which key holds what"


def asking_key(data: Any) -> str | None:
    """The key whose lists hold most question-like texts, at any depth: the ``--map`` for a
    document in which no question was found."""
    counts: dict[str, int] = {}
    todo = [data]
    while todo:
        node = todo.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for name, value in items:
            if isinstance(value, (list, dict)):
                todo.append(value)
            if isinstance(name, str) and texts_only(value):
                asks = sum(1 for v in value if reads_as_question(v))
                counts[name] = counts.get(name, 0) + asks
    best = max(counts, key=counts.__getitem__, default=None)
    return best if best is not None and counts[best] else None


def texts_only(value: Any) -> TypeGuard[list[str]]:
    """A list of texts and nothing else (``["…?", "…?"]``)."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


# "- High bias: …", "## Fixes", "```python": a line that opens with its own Markdown
_OWN_MARKUP = re.compile(r"^\s*(?:[-*+]\s|\d{1,3}[.)]\s|#{1,6}\s|`{3})")


def listed_answer(values: list[Any]) -> str:
    """An answer given as a list of texts: each a point of a Markdown list (``- …``), unless
    the list holds the lines of one text (a blank one among them, or one with its own list
    mark, heading or fence: ``["**Fixes:**", "- more data", ""]``), kept a line each."""
    texts = [str(v) for v in values if v is not None]
    if any(not t.strip() or _OWN_MARKUP.match(t) for t in texts):
        return "\n".join(t.rstrip() for t in texts).strip("\n")
    return "\n".join(f"- {t.strip()}" for t in texts)


_POINT_PREFIX = re.compile(r"^\s*(?:[-*+•]|\d+\s*(?:[、．)）]|\.(?!\d)))\s*")


def split_points(value: Any) -> list[str]:
    """Key points from a list, or from one text split at its lines, ``|`` or ``；``."""
    if isinstance(value, list):
        parts = [("" if v is None else str(v)) for v in value]
    else:
        text = "" if value is None else str(value)
        separator = next((s for s in ("\n", "|", "；") if s in text), None)
        parts = text.split(separator) if separator else [text]
    points = [_POINT_PREFIX.sub("", p).strip() for p in parts]
    return [p for p in points if p]


def named_by(raw: Any) -> list[str]:
    """A record's id that names it rather than numbers it (``ml_fund_001``, ``q-017``), as
    its tag; none for a number (``17``, ``Q17``)."""
    text = "" if raw is None else str(raw).strip()
    number = isinstance(raw, int) or text.lstrip("Qq#").isdigit()
    return [] if not text or number else [text]


# keys that say who asked a question and how hard it is: tags, never text
_DESCRIBING = {
    "company": "company", "companies": "company", "round": "round", "level": "level",
    "difficulty": "difficulty", "diff": "difficulty", "seniority": "level", "公司": "company", "轮次": "round",
    "难度": "difficulty", "级别": "level",
}  # fmt: skip


def record_tags(item: dict[str, Any]) -> list[str]:
    """``company:google``, ``level:l4/e4``… from a record's describing keys (short values)."""
    tags = []
    for key, value in item.items():
        name = describing(key)
        values = value if isinstance(value, list) else [value]
        if name is None or not all(isinstance(v, (str, int)) for v in values):
            continue
        words = [tag_word(str(v)) for v in values]
        tags += [f"{name}:{w}" for w in words if w and len(w) <= 40]
    return tags


def describing(key: Any) -> str | None:
    """The tag name a describing key gives (``Company`` → ``company``), else None."""
    return _DESCRIBING.get(str(key).strip().lower())
