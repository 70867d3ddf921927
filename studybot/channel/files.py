"""The files settings come from: studybot's config.toml, the Codex config, price tables.

Reading them is here; what the values mean and which layer wins is
``channel.config``'s. Every problem names the file.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from studybot.errors import ConfigError


def config_path() -> Path:
    if os.environ.get("STUDYBOT_HOME"):
        from studybot.storage.home import home

        return home() / "config.toml"
    import platformdirs

    return Path(platformdirs.user_config_dir("studybot", appauthor=False)) / "config.toml"


def codex_config_path() -> Path:
    codex_home = os.environ.get("CODEX_HOME")
    base = Path(codex_home).expanduser() if codex_home else Path.home() / ".codex"
    return base / "config.toml"


def price_tables(path: Path | None = None) -> dict[str, dict[str, Any]]:
    """The ``[prices."MODEL"]`` tables of the config file (empty without any)."""
    path = path or config_path()
    data = read_toml(path).get("prices", {})
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise ConfigError(
            f'{path}: [prices] must hold one table per model, like [prices."deepseek-chat"]'
        )
    return data


def read_toml(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            f"{path}: {exc}", hint="fix the TOML syntax or move the file away"
        ) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{path}: not UTF-8 text (byte {exc.start})",
            hint="save the file as UTF-8 (TOML files must be UTF-8)",
        ) from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from None
    except (RecursionError, ValueError):  # deep nesting; a number over 4,300 digits
        raise ConfigError(
            f"{path}: arrays or tables nested too deeply, or a number too long, to read",
            hint="fix the file or move it away",
        ) from None


def codex_layer(path: Path) -> dict[str, Any]:
    """The subset of a Codex config that names a model channel."""
    data = read_toml(path)
    layer: dict[str, Any] = {"model": data.get("model")}
    provider_id = data.get("model_provider")
    providers = data.get("model_providers") or {}
    provider = providers.get(provider_id) if isinstance(providers, dict) and provider_id else None
    if isinstance(provider, dict):
        layer["base_url"] = provider.get("base_url")
        layer["env_key"] = provider.get("env_key")
        layer["wire_api"] = provider.get("wire_api")
    return layer
