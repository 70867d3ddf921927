"""How an endpoint takes a request for JSON, remembered across runs.

A side request whose reply must be JSON (a grade) asks in the strongest
mode first: a strict JSON schema (``SCHEMA``), else any JSON object
(``OBJECT``), else plain instructions in the prompt (``TEXT``). Servers
differ: llama.cpp answers some strict schemas with HTTP 500, others refuse
``json_object``. When a weaker mode was taken after a stronger one was
refused, the weaker one is written down for the endpoint (base URL and
model) in ``STUDYBOT_HOME/cache/json-modes.json``, and later requests start
there. Deleting the file makes studybot try the strict schema again. A file
that cannot be read or written is passed over: the modes are tried again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from studybot.storage.home import replace_file

SCHEMA, OBJECT, TEXT = "json_schema", "json_object", "text"
LADDER = (SCHEMA, OBJECT, TEXT)  # strongest first
FILE_NAME = "json-modes.json"
LENGTH_KEYS = ("minLength", "maxLength")


def unbounded(schema: Mapping[str, Any]) -> dict[str, Any]:
    """``schema`` without its string lengths: the strictest common subset hosted APIs take.

    OpenAI's strict mode (and Azure's) refuses ``minLength``/``maxLength``;
    engines that decode by grammar honour them (``Settings.engine``).
    """

    def strip(node: Any) -> Any:
        if isinstance(node, Mapping):
            return {k: strip(v) for k, v in node.items() if k not in LENGTH_KEYS}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node

    return strip(schema)


def path() -> Path:
    from studybot.storage.home import home

    return home() / "cache" / FILE_NAME


def modes(base_url: str, model: str, strongest: str) -> tuple[str, ...]:
    """The modes to try, in order: from the one remembered (or ``strongest``) down."""
    start = _read().get(_key(base_url, model), strongest)
    start = start if start in LADDER else strongest
    return LADDER[max(LADDER.index(start), LADDER.index(strongest)) :]


def remember(base_url: str, model: str, mode: str) -> Path | None:
    """Write down that the endpoint takes ``mode``; the file, or None if it cannot be written."""
    known = _read()
    known[_key(base_url, model)] = mode
    target = path()
    try:
        text = json.dumps(known, ensure_ascii=False, indent=1, sort_keys=True)
        replace_file(target, text.encode("utf-8"))
    except OSError:
        return None  # a read-only home or a full disk: the modes are tried again next time
    return target


def _key(base_url: str, model: str) -> str:
    return f"{base_url} {model}"


def _read() -> dict[str, str]:
    try:
        data = json.loads(path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and v in LADDER}
