"""YAML question files, read as JSON ones are: records at any depth (``rows.read_document``).

The text is parsed by PyYAML's safe loader only (plain data: no tags that
build objects). Its node tree gives each record its line; anchors and
aliases are followed only while the document stays the size of a question
list, so a few lines that expand into billions of nodes are refused. A
syntax error names its line, what the parser expected, and how YAML is
usually mended there.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from studybot.bank.importer import rows
from studybot.bank.importer.draft import Options, Parsed
from studybot.bank.importer.source import MAX_QUESTIONS

if TYPE_CHECKING:  # PyYAML is loaded only when a YAML file is read
    import yaml

_MAX_NODES = 200 * MAX_QUESTIONS  # values a question list may hold, aliases followed
_MENDING = (
    "YAML nests by spaces (no tabs), each item of a list under its key with `- `; "
    "a value holding `: ` or starting with `*`, `&`, `[` or `{` needs quotes"
)


def read_yaml(path: Path, text: str, options: Options) -> Parsed:
    import yaml

    out = Parsed()
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        if root is not None and _size(root, _MAX_NODES) > _MAX_NODES:
            out.fatal.append(f"{path}:1: YAML expands (anchors and aliases) past a question list")
            return out
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        said = "; ".join(str(part) for part in (exc.context, exc.problem) if part)
        out.fatal.append(f"{path}:{line}: YAML syntax error: {said}")
        out.suggestions.append(_MENDING)
        return out
    except yaml.YAMLError as exc:  # not marked: a reader error (a control character)
        out.fatal.append(f"{path}:1: YAML error: {exc}")
        return out
    except RecursionError:
        out.fatal.append(f"{path}:1: YAML nested too deeply to be a question list")
        return out
    if data is None:
        data = []
    return rows.read_document(out, path, data, lambda paths: _lines(root, paths), options)


def _size(node: yaml.Node, budget: int) -> int:
    """How many nodes ``node`` holds with its aliases followed, counting stopped past
    ``budget``."""
    import yaml

    count, pending = 0, [node]
    while pending and count <= budget:
        current = pending.pop()
        count += 1
        if isinstance(current, yaml.SequenceNode):
            pending.extend(current.value)
        elif isinstance(current, yaml.MappingNode):
            pending.extend(value for pair in current.value for value in pair)
    return count


def _lines(root: yaml.Node | None, paths: list[tuple[Any, ...]]) -> list[int]:
    """The line each record at ``paths`` starts on (ValueError when a path is not found)."""
    return [_at(root, path).start_mark.line + 1 for path in paths]


def _at(node: yaml.Node | None, path: tuple[Any, ...]) -> yaml.Node:
    import yaml

    for step in path:
        if isinstance(node, yaml.SequenceNode) and isinstance(step, int):
            node = node.value[step]
        elif isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if _same_key(k, step)), None)
        else:
            node = None
        if node is None:
            raise ValueError(f"no node at {path!r}")
    if node is None:
        raise ValueError("an empty document")
    return node


def _same_key(key: yaml.Node, step: Any) -> bool:
    import yaml

    return isinstance(key, yaml.ScalarNode) and key.value == str(step)
