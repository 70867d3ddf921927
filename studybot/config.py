"""Settings, from five layers: defaults < Codex config < studybot config < env < flags.

Every effective value remembers where it came from, so ``config show`` and
error messages can say "model (from ~/.codex/config.toml)". The API key is
never held here: only the name of the variable that holds it.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from studybot.errors import ConfigError
from studybot.kv.shapes import PRESETS

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
    kv_model: str = "qwen2.5-7b"  # KV estimator preset used for per-turn KV bytes
    stream_idle_timeout: float = 120.0  # seconds without a stream event = cut
    request_timeout: float = 600.0  # seconds for one whole request
    max_retries: int = 3  # retries for 429 / 5xx / cut streams
    retry_backoff: float = 1.0  # seconds before the first retry, doubled each time (or Retry-After)
    stream: bool = True  # stream answers as they arrive; false for endpoints that cannot
    cache_min_tokens: int = 1024  # provider prompt cache: nothing cached below this
    cache_step_tokens: int = 128  # provider prompt cache: hits grow in these steps
    cache_rule: str = ""  # openai | deepseek | gemini | exact | none | custom; "" = from the model
    prefix_style: str = "designed"  # "designed" (cacheable, ~1.9K tokens) or "short" (no cache)
    offline_delay: float = 0.0  # seconds the offline provider waits per answer (demos)
    sources: dict[str, str] = field(default_factory=dict, compare=False)

    def source(self, name: str) -> str:
        return self.sources.get(name, "default")

    def api_key(self) -> str | None:
        """The key's value from the environment, or None when unset or empty."""
        value = os.environ.get(self.env_key)
        return value if value else None

    @property
    def live(self) -> bool:
        return not self.offline and self.api_key() is not None


_FIELDS = {f.name: f for f in fields(Settings) if f.name != "sources"}

ENV_NAMES = {
    "base_url": "STUDYBOT_BASE_URL",
    "model": "STUDYBOT_MODEL",
    "wire_api": "STUDYBOT_WIRE_API",
    "env_key": "STUDYBOT_ENV_KEY",
    "offline_delay": "STUDYBOT_OFFLINE_DELAY",
}


def home() -> Path:
    """The folder holding studybot's database and imported banks."""
    override = os.environ.get("STUDYBOT_HOME")
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("studybot", appauthor=False))


def config_path() -> Path:
    override = os.environ.get("STUDYBOT_HOME")
    if override:
        return Path(override).expanduser() / "config.toml"
    import platformdirs

    return Path(platformdirs.user_config_dir("studybot", appauthor=False)) / "config.toml"


def codex_config_path() -> Path:
    codex_home = os.environ.get("CODEX_HOME")
    base = Path(codex_home).expanduser() if codex_home else Path.home() / ".codex"
    return base / "config.toml"


def load(flags: dict[str, Any] | None = None) -> Settings:
    """Effective settings; ``flags`` maps field names to values (None = not given)."""
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}

    def apply(layer: dict[str, Any], source: str) -> None:
        for name, raw in layer.items():
            if raw is None:
                continue
            values[name] = _coerce(name, raw, source)
            sources[name] = source

    codex = codex_config_path()
    apply(_codex_layer(codex), str(codex))
    own = config_path()
    apply(_studybot_layer(own), str(own))
    apply(_env_layer(), "env")
    apply(flags or {}, "flag")
    if isinstance(values.get("base_url"), str):
        # "https://taotoken.net/api/" is what users paste; the slash only doubles up paths.
        values["base_url"] = values["base_url"].rstrip("/")
    settings = replace(Settings(), **values)
    object.__setattr__(settings, "sources", sources)
    _check(settings)
    return settings


def _read_toml(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            f"{path}: {exc}", hint="fix the TOML syntax or move the file away"
        ) from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from None


def _codex_layer(path: Path) -> dict[str, Any]:
    """The subset of a Codex config that names a model channel."""
    data = _read_toml(path)
    layer: dict[str, Any] = {"model": data.get("model")}
    provider_id = data.get("model_provider")
    providers = data.get("model_providers") or {}
    provider = providers.get(provider_id) if isinstance(providers, dict) and provider_id else None
    if isinstance(provider, dict):
        layer["base_url"] = provider.get("base_url")
        layer["env_key"] = provider.get("env_key")
        layer["wire_api"] = provider.get("wire_api")
    return layer


def _studybot_layer(path: Path) -> dict[str, Any]:
    data = _read_toml(path)
    data.pop("prices", None)  # [prices."MODEL"] tables: read by studybot.prices
    unknown = sorted(set(data) - set(_FIELDS))
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
            if isinstance(raw, str):
                return raw.strip().lower() in {"1", "true", "yes", "on"}
            return bool(raw)
        if kind == "int":
            if isinstance(raw, bool):
                raise ValueError
            return int(raw)
        if kind == "float":
            return float(raw)
        if not isinstance(raw, str):
            raise ValueError
        return raw
    except (TypeError, ValueError):
        raise ConfigError(
            f"setting {name} = {raw!r} (from {source}) is not a valid {kind}",
        ) from None


def _check(settings: Settings) -> None:
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
    if settings.prefix_style not in {"designed", "short"}:
        raise ConfigError(
            f"prefix_style {settings.prefix_style!r} (from {settings.source('prefix_style')}) "
            "is not known",
            hint="use designed (cacheable) or short (for providers without caching)",
        )
    if settings.cache_rule:
        from studybot.cache.rules import CHOICES

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
