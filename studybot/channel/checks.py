"""The model channel as configured: lint before any request, and a masked description.

Everything here is decided from the settings and the environment alone,
so a wrong URL, a placeholder key or a missing model stops the run with
exit 2 before a single byte goes over the network. The key itself is
never returned or printed: only its variable's name, its length and its
first three characters.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, fields
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from studybot.channel.config import DEFAULT_BASE_URL, ENV_NAMES, Settings
from studybot.channel.files import codex_config_path, config_path
from studybot.channel.urls import host_fits, is_taotoken, masked, port_fits
from studybot.errors import ConfigError, quoted

# Compacted (lower-case, letters and digits only) values that setup guides use as stand-ins.
PLACEHOLDERS = {
    "apikey",
    "changeme",
    "key",
    "none",
    "null",
    "replaceme",
    "sk",
    "taotokenapikey",
    "todo",
    "token",
    "xxx",
}
# Keys shorter than this show no leading characters at all.
SHOW_START_FROM = 12
MODEL_ID_LIMIT = 200  # characters: the longest IDs listed by providers are under 100


@dataclass(frozen=True)
class KeyFacts:
    variable: str  # name of the environment variable read
    present: bool  # the variable exists in the environment
    length: int  # characters in its value
    starts: str  # its first 3 characters, or "" for short values

    @property
    def usable(self) -> bool:
        return self.length > 0

    def describe(self) -> str:
        if not self.present:
            return f"{self.variable}: not set"
        if not self.length:
            return f"{self.variable}: set but empty"
        start = f', starts "{self.starts}"' if self.starts else ""
        return f"{self.variable}: set, {self.length} characters{start}"


def key_facts(settings: Settings) -> KeyFacts:
    value = os.environ.get(settings.env_key)
    text = value or ""
    return KeyFacts(
        variable=settings.env_key,
        present=value is not None,
        length=len(text),
        starts=text[:3] if len(text) >= SHOW_START_FROM else "",
    )


def origin(settings: Settings, name: str) -> str:
    """Where a setting came from, in words a user can act on."""
    source = settings.source(name)
    if source == "env" and name in ENV_NAMES:
        return f"env {ENV_NAMES[name]}"
    if source == "flag":
        return "--" + name.replace("_", "-")
    return source


def offline_reason(settings: Settings) -> str | None:
    """Why a run would be offline, or None when it would be live."""
    if settings.offline:
        return f"offline is on ({origin(settings, 'offline')})"
    facts = key_facts(settings)
    if not facts.present:
        return f"{facts.variable} is not set"
    if not facts.usable:
        return f"{facts.variable} is set but empty"
    return None


def describe(settings: Settings) -> dict[str, Any]:
    """What ``config show`` prints: each setting, its value and origin; the key masked."""
    facts = key_facts(settings)
    return {
        "mode": "live" if settings.live else "offline",
        "offline_reason": offline_reason(settings),
        "key": {
            "variable": facts.variable,
            "set": facts.usable,
            "length": facts.length,
            "starts": facts.starts,
            "summary": facts.describe(),
        },
        "settings": {
            f.name: {"value": _shown(settings, f.name), "source": origin(settings, f.name)}
            for f in fields(Settings)
            if f.name not in ("sources", "side", "side_origin")
        },
        "files": {"studybot": str(config_path()), "codex": str(codex_config_path())},
    }


def _shown(settings: Settings, name: str) -> Any:
    value = getattr(settings, name)
    if name == "grader" and settings.side:  # where grades go: the profile's model and URL
        side = settings.side
        model = side.get("model") or settings.model
        url = masked(side.get("base_url") or settings.base_url)
        return f"{value or '[grader]'}: {model} at {url}"
    return masked(value) if name == "base_url" else value


# -- lint -----------------------------------------------------------------


def lint(settings: Settings) -> list[ConfigError]:
    """Every problem that would make a live request fail; empty when none is known."""
    problems = lint_base_url(settings)
    key = settings.api_key()
    if key:
        problems += lint_key(settings.env_key, key)
        problems += lint_model(settings)
    return problems


def check(settings: Settings) -> None:
    """Raise the first lint problem (exit 2); called before any request."""
    problems = lint(settings)
    if not problems:
        return
    first = problems[0]
    if len(problems) > 1:
        more = f"{len(problems) - 1} more problem(s): `studybot doctor` lists them all"
        first.hint = f"{first.hint}; {more}" if first.hint else more
    raise first


def lint_base_url(settings: Settings) -> list[ConfigError]:
    url = settings.base_url
    # Shown masked: user info, query and fragment are where pasted keys end up.
    where = f"base_url {quoted(masked(url))} (from {origin(settings, 'base_url')})"
    example = f"use the API root, e.g. {DEFAULT_BASE_URL}"
    if any(ch.isspace() for ch in url):
        return [ConfigError(f"{where} contains whitespace", hint=example)]
    if not url.isprintable():
        return [ConfigError(f"{where} contains control characters", hint=example)]
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return [ConfigError(f"{where} is not a valid URL", hint=example)]
    if parts.scheme not in {"http", "https"} or not host:
        return [ConfigError(f"{where} is not an http(s) URL with a host", hint=example)]
    if not host_fits(url):
        return [ConfigError(f"{where} has a host name that cannot be", hint=example)]
    if not port_fits(url):
        return [
            ConfigError(
                f"{where} has a port that cannot be: a port is a number from 1 to 65535",
                hint=f"fix the number after the host's ':' (or drop it); {example}",
            )
        ]
    problems = []
    if parts.query:
        problems.append(
            ConfigError(
                f"{where} has a query string: that is the landing page, not the API address",
                hint=f"drop everything from '?': {example}",
            )
        )
    if "#" in url:
        problems.append(
            ConfigError(
                f"{where} has a fragment ('#…'): an API address has none",
                hint=f"drop everything from '#': {example}",
            )
        )
    path = parts.path.rstrip("/")
    # Only TaoToken documents its root without /v1; OpenAI, DeepSeek, vLLM, Ollama... use /v1.
    if path.endswith("/v1") and is_taotoken(url):
        fixed = urlunsplit((parts.scheme, parts.netloc, path[: -len("/v1")], "", ""))
        problems.append(
            ConfigError(
                f"{where} ends in /v1",
                hint=f"drop /v1 and use {masked(fixed)}; studybot adds /chat/completions itself",
            )
        )
    return problems


def lint_key(variable: str, key: str) -> list[ConfigError]:
    """Problems with the key's value; messages name the variable, never the value."""
    export = f"export {variable}='…' with the key copied from your provider's console"
    if _is_placeholder(variable, key):
        return [
            ConfigError(
                f"{variable} holds a placeholder ({len(key)} characters), not a key",
                hint=export,
            )
        ]
    if "\n" in key or "\r" in key:
        return [ConfigError(f"{variable} contains a line break", hint=f"export it again: {export}")]
    if any(ch.isspace() for ch in key):
        return [ConfigError(f"{variable} contains whitespace", hint=f"export it again: {export}")]
    if len(key) > 1 and key[0] in "\"'" and key[-1] == key[0]:
        return [
            ConfigError(
                f"{variable} is wrapped in quote characters",
                hint=f"the quotes became part of the value; {export}",
            )
        ]
    return []


def _is_placeholder(variable: str, key: str) -> bool:
    lower = key.lower()
    compact = re.sub(r"[^a-z0-9]", "", lower)
    return (
        compact in PLACEHOLDERS
        or compact.startswith("your")
        or compact == variable.lower().replace("_", "")
        or re.fullmatch(r"(sk-?)?(x+|\.+|\*+|…+|0+)", lower) is not None
        or (key.startswith("<") and key.endswith(">"))
        or key.startswith("$")
    )


def lint_model(settings: Settings) -> list[ConfigError]:
    model = settings.model
    copy = "copy the model ID exactly from the provider's model list"
    if not model.strip():
        return [
            ConfigError(
                "no model ID is set, and studybot has no default model",
                hint=f"pass --model ID (or STUDYBOT_MODEL, or model in config.toml); {copy}",
            )
        ]
    where = origin(settings, "model")
    if any(ch.isspace() for ch in model):
        return [
            ConfigError(
                f"model ID {quoted(model)} (from {where}) contains whitespace",
                hint=f"{copy}, without spaces or line breaks",
            )
        ]
    if len(model) > MODEL_ID_LIMIT or not model.isprintable():
        return [
            ConfigError(
                f"model ID {quoted(model)} (from {where}) is not a model ID "
                f"({len(model):,} characters{'' if model.isprintable() else ', control characters'})",
                hint=copy,
            )
        ]
    return []
