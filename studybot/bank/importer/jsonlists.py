"""The lists of objects a JSON or YAML document holds, named for a document refused.

Where no record is found, the refusal names each list of objects it saw by
its path (``assessment.sections[].questions[]``), how many objects it
holds and their keys, and the ``--map`` that reads the largest of them by
a key holding text in each of its objects.
"""

from __future__ import annotations

from typing import Any

from studybot.bank.importer.keys import asking_key

_SHOWN = 4  # lists named in a refusal, the largest first
_KEYS_SHOWN = 6  # keys named for each


def refusal(where: str, data: Any) -> tuple[str, list[str]]:
    """The problem of a document with no records, and its hints (the ``--map`` to use)."""
    problem = f'{where}: expected a list of questions, or an object holding one (such as "questions": […])'
    seen = _lists(data)
    hints: list[str] = []
    key = asking_key(data)
    if key is not None:  # "tracks": [{"items": [{"prompts": ["…?", …]}]}]
        hints.append(f"--map question={key} reads the texts listed under {key!r}")
    if seen:
        named = "; ".join(
            f"{path} ({count}: {', '.join(keys[:_KEYS_SHOWN])}{', …' if len(keys) > _KEYS_SHOWN else ''})"
            for path, count, keys in seen[:_SHOWN]
        )
        problem += f"; lists of objects in it: {named}"
        top, _, keys = seen[0]
        texts = sorted((-_text_at(data, top, k), k) for k in keys if _text_at(data, top, k))
        if texts and key is None:  # the key holding the most text: a question's words
            hints.append(f"--map question={texts[0][1]} reads each object of {top} as a question")
    return problem, hints


def _lists(data: Any) -> list[tuple[str, int, list[str]]]:
    """Each list of objects at any depth: (its path, how many objects, their keys), the
    largest first, the shallower of two as large; a path is named once, its lists in every parent added together."""
    found: dict[str, tuple[int, list[str]]] = {}
    pending: list[tuple[str, Any]] = [("", data)]
    while pending:
        path, node = pending.pop()
        if isinstance(node, dict):
            pending.extend((f"{path}.{k}" if path else str(k), v) for k, v in node.items())
        elif isinstance(node, list):
            objects = [v for v in node if isinstance(v, dict)]
            if objects:
                count, keys = found.get(f"{path}[]", (0, []))
                keys = list(dict.fromkeys([*keys, *(str(k) for v in objects for k in v)]))
                found[f"{path}[]"] = (count + len(objects), keys)
            pending.extend((f"{path}[]", v) for v in node)
    ranked = sorted(found.items(), key=lambda pair: (-pair[1][0], pair[0].count("[]")))
    return [(path, count, keys) for path, (count, keys) in ranked]


def _text_at(data: Any, path: str, key: str) -> int:
    """How much text the objects of the lists at ``path`` hold under ``key``: 0 unless each
    holds text there."""
    values = [item.get(key) for item in _objects(data, path)]
    return sum(map(len, values)) if all(isinstance(v, str) for v in values) else 0  # type: ignore[arg-type]


def _objects(data: Any, path: str) -> list[dict[str, Any]]:
    nodes = [data]
    for step in path.split("."):
        name, listed, _ = step.partition("[]")
        nodes = [n.get(name) for n in nodes if isinstance(n, dict)] if name else nodes
        if listed:
            nodes = [v for n in nodes if isinstance(n, list) for v in n]
    return [n for n in nodes if isinstance(n, dict)]
