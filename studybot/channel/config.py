"""Settings, from layers: defaults < OPENAI_* env < Codex config < studybot config
(< its ``[providers.NAME]`` profile) < STUDYBOT_* env < flags.

Side requests (grades, an interviewer's probes) may go to another channel:
``[grader]`` in config.toml (``provider = "NAME"``, a profile, and/or the
profile keys themselves) or ``--grader NAME``; ``channel.grader`` reads it.

Every effective value remembers where it came from, so ``config show`` and
error messages can say "model (from ~/.codex/config.toml)". The API key is
never held here: only the name of the variable that holds it.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from studybot.channel.files import codex_config_path, codex_layer, config_path, read_toml
from studybot.channel.urls import is_taotoken, refuse_secrets
from studybot.costs.kv.shapes import DEFAULT_MODEL, PRESETS
from studybot.errors import ConfigError, quoted

DEFAULT_BASE_URL = "https://taotoken.net/api"
DEFAULT_ENV_KEY = "TAOTOKEN_API_KEY"


@dataclass(frozen=True)
class Settings:
    base_url: str = DEFAULT_BASE_URL  # OpenAI-compatible API root, no /v1
    model: str = ""  # model ID exactly as the provider lists it
    env_key: str = DEFAULT_ENV_KEY  # name of the environment variable holding the key
    wire_api: str = "chat"  # "chat" (Chat Completions) or "responses"
    offline: bool = False  # force the offline answer key even when a key is set
    segment_min: int = 5  # questions per segment, lower bound
    segment_max: int = 8  # questions per segment, upper bound
    segment_budget: int = 6000  # tokens: projected peak context of one segment
    context_window: int = 32768  # tokens: the model's window (input + output)
    answer_tokens: int = 600  # tokens: expected answer length of a live model
    max_output_tokens: int = 2048  # tokens: reserved for the answer in the window guard
    kv_model: str = DEFAULT_MODEL  # KV estimator preset used for per-turn KV bytes
    stream_idle_timeout: float = 120.0  # seconds without a stream event = cut
    request_timeout: float = 600.0  # seconds for one whole request
    max_retries: int = 3  # retries for 429 / 5xx / cut streams
    retry_backoff: float = 1.0  # seconds before the first retry, doubled each time (or Retry-After)
    stream: bool = True  # stream answers as they arrive; false for endpoints that cannot
    cache_min_tokens: int = 1024  # provider prompt cache: nothing cached below this
    cache_step_tokens: int = 128  # provider prompt cache: hits grow in these steps
    cache_rule: str = (
        ""  # openai | deepseek | gemini | exact | llamacpp | none | custom; "" = model's
    )
    cache_slots: int = 1  # llamacpp rule: the server's slots (llama-server --parallel)
    token_counter: str = (
        "local"  # "local" (offline, cl100k) or "server" (a live engine's /tokenize)
    )
    prefix_style: str = "designed"  # "designed" (cacheable, ~1.9K tokens) or "short" (no cache)
    offline_delay: float = 0.0  # seconds the offline provider waits per answer (demos)
    provider: str = ""  # a [providers.NAME] profile of studybot's config.toml, or "" for none
    local: bool = False  # --local: the model server on this machine (channel.local), no key
    local_ports: str = ""  # ports --local tries, e.g. "8080,11434"; "": 11434,8080,8000,30000
    grader: str = ""  # the [providers.NAME] profile grades and probes go to ("" none or inline)
    # FSRS, as Anki names them: intervals from the next rating on, what `review` serves a day
    desired_retention: float = 0.9  # the recall probability each review is scheduled for
    maximum_interval: int = 36500  # days: the longest wait FSRS may give a question
    reviews_per_day: int = 200  # ratings of already-rated questions `review` serves a day
    new_per_day: int = 0  # never-rated questions `review` adds a day (0: only what is due)
    stats: bool = False  # a quiz or review shows each turn's tokens, cache and KV (read mode does)
    sources: dict[str, str] = field(default_factory=dict, compare=False)
    # The grader's channel (PROFILE_KEYS over these settings), empty for none; and its origin.
    side: dict[str, str] = field(default_factory=dict, compare=False)
    side_origin: str = field(default="", compare=False)
    # What /props or /tokenize said the server is ("llama.cpp", "tokenize"), set by
    # channel.engine once it asked: an engine that decodes by grammar takes length bounds.
    engine: str = field(default="", compare=False)

    def source(self, name: str) -> str:
        return self.sources.get(name, "default")

    def api_key(self) -> str | None:
        """The key's value from the environment, or None when unset or empty."""
        value = os.environ.get(self.env_key)
        return value if value else None

    @property
    def live(self) -> bool:
        return not self.offline and (self.local or self.api_key() is not None)


_FIELDS = {
    f.name: f
    for f in fields(Settings)
    if f.name not in ("sources", "side", "side_origin", "engine")
}

ENV_NAMES = {
    "base_url": "STUDYBOT_BASE_URL",
    "model": "STUDYBOT_MODEL",
    "wire_api": "STUDYBOT_WIRE_API",
    "env_key": "STUDYBOT_ENV_KEY",
    "offline_delay": "STUDYBOT_OFFLINE_DELAY",
    "provider": "STUDYBOT_PROVIDER",
    "grader": "STUDYBOT_GRADER",
}
# The openai SDK's own variables: below every studybot layer and the Codex config.
OPENAI_BASE_URL = "OPENAI_BASE_URL"
OPENAI_API_KEY = "OPENAI_API_KEY"
PROFILE_KEYS = ("base_url", "env_key", "wire_api", "model")
# The one mapping from CLI option names to the settings they set; a test checks every option.
FLAG_FIELDS = {
    "base_url": "base_url",
    "model": "model",
    "wire_api": "wire_api",
    "offline": "offline",
    "local": "local",
    "provider": "provider",
    "grader": "grader",
    "segment_min": "segment_min",
    "segment_max": "segment_max",
    "segment_budget": "segment_budget",
    "answer_tokens": "answer_tokens",
    "prefix_style": "prefix_style",
    "desired_retention": "desired_retention",
    "maximum_interval": "maximum_interval",
    "reviews_per_day": "reviews_per_day",
    "new_per_day": "new_per_day",
    "stats": "stats",
}
# Limits that keep a value from hanging or overflowing the loop: (lowest, highest, lowest allowed?).
RANGES: dict[str, tuple[float, float, bool]] = {
    "max_retries": (0, 20, True),
    "cache_slots": (1, 4096, True),
    "retry_backoff": (0, 600, True),
    "stream_idle_timeout": (0, 86400, False),
    "request_timeout": (0, 86400, False),
    "offline_delay": (0, 60, True),
    "desired_retention": (0.7, 0.99, True),  # Anki's bounds
    "maximum_interval": (1, 36500, True),
    "reviews_per_day": (0, 100000, True),
    "new_per_day": (0, 100000, True),
}
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")  # what env_key may name
TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def flag_settings(options: dict[str, Any]) -> dict[str, Any]:
    """The settings that a command's options set, by the one mapping ``FLAG_FIELDS``."""
    return {FLAG_FIELDS[name]: value for name, value in options.items() if value is not None}


def load(flags: dict[str, Any] | None = None) -> Settings:
    """Effective settings; ``flags`` maps field names to values (None = not given)."""
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    flags = {k: v for k, v in (flags or {}).items() if v is not None}

    def apply(layer: dict[str, Any], source: str) -> None:
        for name, raw in layer.items():
            if raw is None:
                continue
            values[name] = _coerce(name, raw, source)
            sources[name] = source

    own = config_path()
    own_data = _studybot_layer(own)
    env = _env_layer()
    apply(_openai_layer(), f"env {OPENAI_BASE_URL}")
    codex = codex_config_path()
    try:
        apply(codex_layer(codex), str(codex))
    except ConfigError:
        # --offline never reads the model channel, so a broken Codex config must not block it.
        if not _offline_asked(flags, env, own_data, own):
            raise
    grader_table = own_data.get("grader")
    if isinstance(grader_table, dict):  # [grader]: its provider is the setting
        own_data = {**own_data, "grader": grader_table.get("provider")}
    apply({k: v for k, v in own_data.items() if k != "providers"}, str(own))
    profile = flags.get("provider") or env.get("provider") or values.get("provider")
    if profile:
        apply(profile_keys(own_data, own, str(profile)), f"{own} [providers.{profile}]")
    apply(env, "env")
    apply(flags, "flag")
    from studybot.channel.grader import side_channel  # it builds on Settings, defined here

    side, side_origin = side_channel(values, sources, own_data, own, grader_table)
    _openai_key(values, sources)
    if isinstance(values.get("base_url"), str):
        # "https://taotoken.net/api/" is what users paste; the slash only doubles up paths.
        values["base_url"] = values["base_url"].rstrip("/")
    if values.get("local") and not values.get("offline"):
        from studybot.channel import local

        local.override(values, sources)
    settings = replace(Settings(), **values)
    object.__setattr__(settings, "sources", sources)
    object.__setattr__(settings, "side", side)
    object.__setattr__(settings, "side_origin", side_origin)
    validate(settings)
    return settings


def _openai_layer() -> dict[str, Any]:
    return {"base_url": os.environ.get(OPENAI_BASE_URL) or None}


def _openai_key(values: dict[str, Any], sources: dict[str, str]) -> None:
    """OPENAI_API_KEY stands in for an unset env_key, but never goes to TaoToken's host.

    Many users export an OpenAI key for other tools; sending it to TaoToken
    would turn the offline default into a failing live run.
    """
    if "env_key" in values or not os.environ.get(OPENAI_API_KEY):
        return
    if is_taotoken(str(values.get("base_url", DEFAULT_BASE_URL))):
        return
    values["env_key"] = OPENAI_API_KEY
    sources["env_key"] = f"env {OPENAI_API_KEY}"


def _offline_asked(
    flags: dict[str, Any], env: dict[str, Any], own: dict[str, Any], path: Path
) -> bool:
    for layer, source in ((flags, "flag"), (env, "env"), (own, str(path))):
        if layer.get("offline") is not None:
            return bool(_coerce("offline", layer["offline"], source))
    return False


def profile_keys(data: dict[str, Any], path: Path, name: str) -> dict[str, Any]:
    profiles = data.get("providers") or {}
    if not isinstance(profiles, dict) or not isinstance(profiles.get(name), dict):
        known = ", ".join(sorted(profiles)) if isinstance(profiles, dict) else ""
        raise ConfigError(
            f"no provider profile {name!r} in {path}",
            hint=f"profiles there: {known}"
            if known
            else f"add [providers.{name}] with base_url, env_key, wire_api, model to {path}",
        )
    profile = profiles[name]
    unknown = sorted(set(profile) - set(PROFILE_KEYS))
    if unknown:
        raise ConfigError(
            f"{path}: [providers.{name}] has an unknown key {unknown[0]!r}",
            hint="a profile takes: " + ", ".join(PROFILE_KEYS),
        )
    return dict(profile)


def recorded_settings(record, given: dict[str, Any] | None = None) -> Settings:
    """The settings a past session ran with (its channel), under the settings ``given``.

    An offline session stays offline: it reads no channel, so a broken Codex
    config cannot stop its report. A live one keeps its model, URL and wire API.
    """
    given = dict(given or {})
    if not record.live:
        given.setdefault("offline", True)
    else:
        given.setdefault("base_url", record.base_url or None)
        given.setdefault("model", record.model)
        given.setdefault("wire_api", record.wire_api)
        for name in ("cache_rule", "cache_slots"):  # a rule the server named (llama.cpp /props)
            given.setdefault(name, (record.settings or {}).get(name))
    return load(given)


def _studybot_layer(path: Path) -> dict[str, Any]:
    data = read_toml(path)
    data.pop("prices", None)  # [prices."MODEL"] tables: read by price_tables
    unknown = sorted(set(data) - set(_FIELDS) - {"providers"})
    if unknown:
        raise ConfigError(
            f"{path}: unknown setting {unknown[0]!r}",
            hint="known settings: " + ", ".join(sorted(_FIELDS)),
        )
    return data


def _env_layer() -> dict[str, Any]:
    return {name: os.environ.get(var) or None for name, var in ENV_NAMES.items()}


def _coerce(name: str, raw: Any, source: str) -> Any:
    kind = _FIELDS[name].type
    try:
        if kind == "bool":
            return _bool(raw)
        if kind == "int":
            if isinstance(raw, bool) or (isinstance(raw, float) and not raw.is_integer()):
                raise ValueError
            value: Any = int(raw)
        elif kind == "float":
            if isinstance(raw, bool):
                raise ValueError
            value = float(raw)
        elif not isinstance(raw, str):
            raise ValueError
        else:
            value = raw
    except (TypeError, ValueError, OverflowError):
        raise ConfigError(
            f"setting {name} = {quoted(raw)} (from {source}) is not a valid {kind}",
            hint="true or false" if kind == "bool" else None,
        ) from None
    if name in RANGES:
        _check_range(name, value, source)
    return value


def _bool(raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str):
        word = raw.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    raise ValueError(raw)  # "maybe" must not silently mean live


def _check_range(name: str, value: float, source: str) -> None:
    low, high, low_ok = RANGES[name]
    fits = math.isfinite(value) and (value >= low if low_ok else value > low) and value <= high
    if not fits:
        bound = f"at least {low:g}" if low_ok else f"more than {low:g}"
        where = "--" + name.replace("_", "-") if source == "flag" else source
        raise ConfigError(
            f"setting {name} = {value!r} (from {where}) is out of range",
            hint=f"use a number {bound} and at most {high:g}",
        )


def validate(settings: Settings) -> None:
    _check_secret_in_url(settings)
    if not ENV_NAME.fullmatch(settings.env_key):
        raise ConfigError(
            f"env_key {quoted(settings.env_key)} (from {settings.source('env_key')}) "
            "is not the name of an environment variable",
            hint=f"name the variable that holds the key, e.g. env_key = {DEFAULT_ENV_KEY!r}",
        )
    if settings.wire_api not in {"chat", "responses"}:
        raise ConfigError(
            f"wire_api {settings.wire_api!r} (from {settings.source('wire_api')}) is not supported",
            hint="use chat (Chat Completions) or responses",
        )
    if not 1 <= settings.segment_min <= settings.segment_max:
        raise ConfigError(
            f"segment sizes {settings.segment_min}..{settings.segment_max} are not a valid range",
            hint="use e.g. --segment-min 5 --segment-max 8",
        )
    for name in (
        "segment_budget",
        "context_window",
        "answer_tokens",
        "max_output_tokens",
        "cache_step_tokens",
    ):
        if getattr(settings, name) <= 0:
            raise ConfigError(f"{name} must be a positive number of tokens")
    if settings.cache_min_tokens < 0:
        raise ConfigError("cache_min_tokens must be 0 or a number of tokens")
    if settings.token_counter not in {"local", "server"}:
        raise ConfigError(
            f"token_counter {settings.token_counter!r} (from {settings.source('token_counter')}) "
            "is not known",
            hint="use local (studybot's own count) or server (a live engine's tokenizer)",
        )
    if settings.prefix_style not in {"designed", "short"}:
        raise ConfigError(
            f"prefix_style {settings.prefix_style!r} (from {settings.source('prefix_style')}) "
            "is not known",
            hint="use designed (cacheable) or short (for providers without caching)",
        )
    if settings.cache_rule:
        from studybot.costs.cache.rules import CHOICES

        if settings.cache_rule.strip().lower() not in CHOICES:
            raise ConfigError(
                f"cache_rule {settings.cache_rule!r} (from {settings.source('cache_rule')}) "
                "is not known",
                hint="use one of " + ", ".join(CHOICES),
            )
    if settings.kv_model.strip().lower() not in PRESETS:
        raise ConfigError(
            f"kv_model {settings.kv_model!r} (from {settings.source('kv_model')}) is not a KV preset",
            hint="presets: " + ", ".join(PRESETS),
        )


def _check_secret_in_url(settings: Settings) -> None:
    source = settings.source("base_url")
    source = {"flag": "--base-url", "env": f"env {ENV_NAMES['base_url']}"}.get(source, source)
    refuse_secrets(settings.base_url, f"base_url (from {source})", settings.env_key)
