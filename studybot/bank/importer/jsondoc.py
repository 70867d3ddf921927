"""Where the questions are in a JSON document, and the line each one starts on.

A question file's JSON holds its records at any depth: a list of records
or strings, an object holding such a list under a usual key (``questions``,
``data``, ``items``, …), categories → subcategories → items, lists of lists,
an object of topics → questions; each record's chapter is its nearest named
parent. ``locate`` finds them in the decoded data; ``lines``
(``jsonplaces``) walks the text once to give each record its line.
"""

from __future__ import annotations

import re
from typing import Any

from studybot.bank.importer.draft import QUESTION_MARKS
from studybot.bank.importer.keys import KEY_GAPS, USUAL, field_of
from studybot.bank.importer.keys import texts_only as _texts
from studybot.bank.importer.markers import reads_as_question

_CONTAINERS = (
    "questions", "items", "data", "records", "rows", "entries", "qa", "qas", "faq",
    "list", "results", "examples", "cards", "train", "题目", "问题", "题库",
)  # fmt: skip
_GROUPS = ("chapters", "sections", "categories", "topics", "parts", "units", "章节")
_GROUP_TITLE = (
    "title", "name", "chapter", "topic", "section", "category", "label", "heading", "标题",
    "章节", "名称", "分类", "类别", "主题",
)  # fmt: skip
# keys that say what they hold, never a chapter's name
_STRUCTURE = {
    "children", "child", "subcategories", "subcategory", "subsections", "subtopics", "subgroups",
    "sub", "nodes", "groups", "group", "contents", "body", "values", "levels", "branches",
    "leaves", "elements", "faqs", "list", "lists", "subitems", "questionlist", "子分类", "子类",
    "子目录", "内容", "列表",
}  # fmt: skip
_TEXT_ASKS = ("text", "stem")  # a question's words where no key names a question
_ID = re.compile(r"[\w.:-]{1,64}")  # "1", "q07", "lora-vs-qlora"
_SUB_NAME = re.compile(r"^sub[\s_\-]?(?:category|topic|section|group|chapter)$", re.IGNORECASE)
_SAYS_WHAT = {KEY_GAPS.sub("", k) for k in (*_CONTAINERS, *_GROUPS, *_STRUCTURE)}


Groups = list[tuple[str | None, list[Any]]]


Found = list[tuple[tuple[Any, ...], str | None, Any]]  # (path, chapter, record)


def locate(
    data: Any, question_keys: tuple[str, ...] = ()
) -> tuple[str | None, list[tuple[Any, ...]], list[tuple[str | None, Any]]] | None:
    """(title, the path of each record, [(chapter, record)]) for a decoded JSON document.

    Records are found at any depth (``_tree``); a document in which none has
    a key that names a question is read by the shapes of ``_by_steps``, so
    records with keys nobody names still get their ``--map`` suggestion.
    """
    found = _tree(data, question_keys, top=True)
    title = _own_name(data) if isinstance(data, dict) else None
    if not found:
        shaped = _by_steps(data)
        if shaped is None:
            return None
        title, steps, groups = shaped
        found = [
            (path, chapter, item)
            for (chapter, items), paths in zip(groups, _expand(data, steps), strict=True)
            for path, item in zip(paths, items, strict=True)
        ]
    return title, [p for p, _, _ in found], [(c, item) for _, c, item in found]


def text_key(data: Any) -> str | None:
    """Where no key names a question: ``text`` (or ``stem``) when the largest list of objects
    in the document, at any depth, holds a text under it in each of them
    (``assessment.sections[].questions[].text``)."""
    best, size, pending = None, 0, [data]
    while pending:
        node = pending.pop()
        values = node if isinstance(node, list) else list(node.values())
        pending.extend(v for v in values if isinstance(v, (list, dict)))
        objects = [v for v in node if isinstance(v, dict)] if isinstance(node, list) else []
        for key in _TEXT_ASKS if len(objects) > size else ():
            if all(isinstance(v.get(key), str) and v[key].strip() for v in objects):
                best, size = key, len(objects)
                break
    return best


def _tree(
    node: Any,
    question_keys: tuple[str, ...],
    key: str | None = None,
    top: bool = False,
    trail: tuple[str, ...] = (),
) -> Found:
    """Every record under ``node``, with the chapter of its nearest named parent.

    A record is an object with a question key (``q``, ``question``, ``title``,
    …, or the key ``--map`` names) holding text, that holds no records
    itself, a chat, a ``[question, answer]`` pair, or a text in a list of
    questions. A parent's name is its ``name``/``title``/``category``/… or
    the key it sits under, unless that key only says what it holds
    (``items``, ``subcategories``, ``children``…); the document's own name
    is the bank's title. Texts listed under a key named like questions
    (``interviewQuestions``) that mostly ask, or under the key ``--map``
    names (at any depth, or by its dotted path ``tracks.items.prompts``;
    ``trail``: the keys above ``node``), are questions of the object holding
    them, named by its ``title``/``label``/….
    """
    out: Found = []
    if isinstance(node, list):
        texts = key is None or not _says_field(key)
        if texts and key is not None and key.strip().lower() not in _CONTAINERS:
            texts = _mostly_questions(node)  # "sources": ["https://…"] holds no questions
        texts = texts or _mapped(trail, question_keys)
        others: list[int] = []  # neither record nor container: a record with a problem
        direct = False
        # records whose mapped key holds text: a peer's list there is a record gone wrong
        peers = any(_holds(item, question_keys, str) for item in node)
        for index, item in enumerate(node):
            nested = isinstance(item, list) or (
                isinstance(item, dict) and not (peers and _holds(item, question_keys, list))
            )
            inner = _tree(item, question_keys, trail=trail) if nested else []
            if inner and not _pair(item):
                out.extend(((index, *p), c, it) for p, c, it in inner)
            elif (isinstance(item, str) and texts) or _pair(item) or _record(item, question_keys):
                out.append(((index,), None, item))
                direct = True
            else:
                others.append(index)
        if direct and others:  # a list of records: each of its items is one
            out.extend(((index,), None, node[index]) for index in others)
            out.sort(key=lambda found: found[0])
        return out
    if not isinstance(node, dict):
        return out
    lists = [(*trail, str(name)) for name, value in node.items() if _texts(value)]
    shaped = _record(node, question_keys) and not any(_mapped(t, question_keys) for t in lists)
    if not shaped and _question_map(node):  # {"什么是 LoRA？": "低秩增量。", …}
        return [((name,), None, [str(name), value]) for name, value in node.items()]
    if not shaped and _keyed_records(node, question_keys):  # {"1": {"title": …}, "2": …}
        return [((name,), None, value) for name, value in node.items()]
    for name, value in node.items():
        if name in ("messages", "conversations") or not isinstance(value, (list, dict)):
            continue
        its_own = shaped and not _question_map(value)
        its_own = its_own and (not _holds_objects(value) or _references(node, str(name), value))
        # a record's own lists (tags, key points) are none; "提示工程": [records] is a topic
        group = not shaped and _holds_records(value, question_keys)
        path = (*trail, str(name))
        asks = _texts(value) and (
            _mapped(path, question_keys)
            or (_names_questions(str(name)) and _mostly_questions(value))
        )
        if not asks and (its_own or (_says_field(str(name), question=True) and not group)):
            continue
        inner = _tree(value, question_keys, str(name), trail=path)
        # texts under a key in an object with a name of its own ({"name": "cache", "prompts":
        # […]}) are that object's: the key says what they are, the name their topic
        named = _structural(str(name), group) or (_texts(value) and _own_name(node) is not None)
        label = None if named else str(name).strip()
        out.extend(((name, *p), c or label, it) for p, c, it in inner)
    own = None if top else _own_name(node)
    return [(p, c or own, it) for p, c, it in out] if own else out


def _references(record: dict, key: str, value: Any) -> bool:
    """A record's list of objects that are its own (``sources: [{title, url}]``), not records:
    under a key that names no list of questions, their titles mostly do not ask, they carry
    no answer, and the record carries one or more text than any of them."""
    inner = [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []
    if not inner or key.strip().lower() in _CONTAINERS or field_of(key) == "question":
        return False
    if not all(_record(v, ()) for v in inner) or any(map(_answered, inner)):
        return False
    asked = [t for v in inner for k, t in v.items() if field_of(str(k)) == "question"]
    if _mostly_questions(asked):
        return False
    return _answered(record) or _text_size(record) > max(map(_text_size, inner))


def _answered(item: dict) -> bool:
    return any(
        isinstance(v, str) and v.strip() and field_of(str(k)) == "answer" for k, v in item.items()
    )


def _text_size(item: dict) -> int:
    return sum(len(v) for v in item.values() if isinstance(v, str))


def _mapped(trail: tuple[str, ...], question_keys: tuple[str, ...]) -> bool:
    """Whether the keys ``trail`` end in a key ``--map`` names as the question: its name,
    or its dotted path from the top (``tracks.items.interviewQuestions``)."""
    dotted = ".".join(trail)
    return bool(trail) and any(
        key in (trail[-1], dotted) or dotted.endswith("." + key) for key in question_keys
    )


def _names_questions(key: str) -> bool:
    """``interviewQuestions``, ``follow_up_questions``: named like questions, not the one
    ``question`` of a record (``"question": ["…？"]`` is a record gone wrong)."""
    return field_of(key) == "question" and key.strip().lower() not in USUAL["question"]


def _holds(item: Any, question_keys: tuple[str, ...], kind: type) -> bool:
    return isinstance(item, dict) and any(isinstance(item.get(k), kind) for k in question_keys)


def _keyed_records(node: dict, question_keys: tuple[str, ...]) -> bool:
    """An object of records keyed by their numbers or ids (``{"1": {…}, "q2": {…}}``): a
    list of them, in the order written; a key with a space names a topic, not a record."""
    return bool(node) and all(
        _ID.fullmatch(str(name))
        and _record(value, question_keys)
        and not _tree(value, question_keys, top=True)
        for name, value in node.items()
    )


def _holds_records(value: Any, question_keys: tuple[str, ...]) -> bool:
    return isinstance(value, list) and any(_record(v, question_keys) for v in value[:50])


def _mostly_questions(values: list[Any]) -> bool:
    texts = [v for v in values[:200] if isinstance(v, str)]
    return 2 * sum(1 for v in texts if reads_as_question(v)) >= len(texts)


def _question_map(node: Any) -> bool:
    """An object whose keys are questions and whose values are their answers."""
    if (
        not isinstance(node, dict)
        or len(node) < 2
        or not all(isinstance(v, str) for v in node.values())
    ):
        return False
    return 3 * sum(1 for k in node if reads_as_question(str(k))) >= 2 * len(node)


def _record(item: Any, question_keys: tuple[str, ...]) -> bool:
    if not isinstance(item, dict):
        return False
    if isinstance(item.get("messages", item.get("conversations")), list):
        return True
    return any(
        isinstance(value, str) and (k in question_keys or field_of(str(k)) == "question")
        for k, value in item.items()
    )


def _pair(item: Any) -> bool:
    """``[question, answer]`` (two questions, ``["Q1？", "Q2？"]``, are a list of two)."""
    if not (isinstance(item, list) and 1 <= len(item) <= 2):
        return False
    if not all(isinstance(v, str) for v in item):
        return False
    return len(item) == 1 or not all(v.rstrip().endswith(QUESTION_MARKS) for v in item)


def _holds_objects(value: Any) -> bool:
    items = value.values() if isinstance(value, dict) else value
    return any(isinstance(v, (list, dict)) for v in items)


def _says_field(key: str, question: bool = False) -> bool:
    """A key that names a field of one record (``tags``, ``key_points``), not a list of them."""
    field = field_of(key)
    own = field is not None and (question or field != "question")
    return own and key.strip().lower() not in _CONTAINERS


def _structural(key: str, group: bool = False) -> bool:
    """A key that only says what it holds (``items``, ``subcategories``, ``0``), or names a
    field (``tags``), unless it holds records (``提示工程``: a topic named like a hint)."""
    folded = KEY_GAPS.sub("", key.strip().lower())  # "sub_categories", "child-nodes"
    return (
        not folded
        or folded.isdigit()
        or folded in _SAYS_WHAT
        or folded.startswith(("sub", "child", "nested"))
        or (field_of(key) is not None and not group)
    )


def _own_name(node: dict) -> str | None:
    """The name of a parent: ``name``/``title``/…, else a key naming a chapter or a
    sub-one (``topic``, ``subcategory``), whose value is text."""
    lower = {str(k).strip().lower(): v for k, v in node.items()}  # "Name", "Title"
    for key in _GROUP_TITLE:
        value = lower.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    for key, value in node.items():
        named = field_of(str(key)) == "chapter" or _SUB_NAME.match(str(key))
        if named and isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _expand(data: Any, steps: list[Any]) -> list[list[tuple[Any, ...]]]:
    """The paths ``steps`` lead to, one list per group as ``_by_steps`` gave them."""
    if steps[:1] == ["*"] and len(steps) == 1:
        return [[(i,) for i in range(len(data))]]
    if steps[:1] == ["*"]:
        key = steps[1]
        return [[(i, key, j) for j in range(len(group[key]))] for i, group in enumerate(data)]
    if steps[:1] == ["**"]:
        return [[(k, j) for j in range(len(v))] for k, v in data.items()]
    head, inner = steps[0], _expand(data[steps[0]], steps[1:])
    return [[(head, *path) for path in group] for group in inner]


def _by_steps(data: Any, depth: int = 0) -> tuple[str | None, list[Any], Groups] | None:
    """(title, path to the records, [(chapter, records)]) for a decoded JSON document.

    A path step is a key, ``"*"`` (every element of a list) or ``"**"`` (every
    value of an object).
    """
    if isinstance(data, list):
        titled = [g for g in map(_group, data) if g is not None]
        if data and len(titled) == len(data):
            key = titled[0][1]
            if all(g[1] == key for g in titled):
                return None, ["*", key, "*"], [(g[0], g[2]) for g in titled]
        return None, ["*"], [(None, data)]
    if not isinstance(data, dict) or depth > 3:
        return None
    title = next(
        (
            v.strip()
            for k, v in data.items()
            if k in ("title", "name", "标题") and isinstance(v, str)
        ),
        None,
    )
    for key, value in data.items():
        if str(key).lower() in _CONTAINERS and isinstance(value, (list, dict)):
            inner = _by_steps(value, depth + 1)
            if inner is not None:
                return inner[0] or title, [key, *inner[1]], inner[2]
    for key, value in data.items():
        if str(key).lower() in _GROUPS and isinstance(value, list):
            inner = _by_steps(value, depth + 1)
            if inner is not None and len(inner[1]) > 1:
                return title, [key, *inner[1]], inner[2]
    lists = {k: v for k, v in data.items() if isinstance(v, list)}
    if lists and len(lists) == len(data) and all(_records_like(v) for v in lists.values()):
        return title, ["**", "*"], [(str(k), v) for k, v in lists.items()]
    return None


def _group(item: Any) -> tuple[str | None, str, list[Any]] | None:
    """(chapter title, key of its questions, its questions) for a chapter object, else None."""
    if not isinstance(item, dict):
        return None
    for key, value in item.items():
        if str(key).lower() in _CONTAINERS and isinstance(value, list):
            title = next((item[k] for k in _GROUP_TITLE if isinstance(item.get(k), str)), None)
            return title, key, value
    return None


def _records_like(value: list[Any]) -> bool:
    return all(isinstance(v, (str, dict)) for v in value)
