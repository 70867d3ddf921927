"""The files settings come from: studybot's config.toml, the Codex config, price tables.

Reading them is here; what the values mean and which layer wins is
``channel.config``'s. Every problem names the file.
"""

from __future__ import annotations

import errno
import os
import re
import tomllib
from pathlib import Path
from typing import Any

from studybot.errors import ConfigError
from studybot.storage.kinds import not_regular


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


# A config file is a few hundred bytes; one with price tables for a hundred models is 20 kB.
CONFIG_BYTES = 2**20
# Parts of one dotted key or table header ([prices."m"] has 2): Python's TOML reader takes
# 13 s and gigabytes for 100,000 of them, so a file with more is refused before it is parsed.
KEY_PARTS = 32
_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*+"|\'[^\'\n]*+\'')  # basic and literal strings
_DOTTED = re.compile(
    rf"(?<![\w-])(?:[\w-]++[ \t]*+\.[ \t]*+){{{KEY_PARTS}}}", re.ASCII
)  # KEY_PARTS + 1 parts in a row, from the start of a word: linear


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML of a settings file; {} when there is none. A file that is no regular file
    (a FIFO, a folder, a device, a link to nothing or to itself), is larger than
    CONFIG_BYTES or has a key of more than KEY_PARTS parts is a ConfigError, not skipped."""
    data = _config_bytes(path)
    if data is None:
        return {}
    try:
        text = data.decode("utf-8")
        if _DOTTED.search(_QUOTED.sub("s", text)):
            raise ConfigError(
                f"{path}: a key or table header of more than {KEY_PARTS} parts (a.b.c…)",
                hint="fix the file or move it away",
            )
        return tomllib.loads(text)
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


def _config_bytes(path: Path) -> bytes | None:
    """The bytes of the regular file at ``path`` (at most CONFIG_BYTES); None when there is
    nothing there; ConfigError for anything else, named."""
    hint = "move it away, or put studybot's TOML settings there"
    try:
        status = os.stat(path)
    except FileNotFoundError:
        if not os.path.islink(path):
            return None
        raise ConfigError(
            f"{path}: a link to {os.readlink(path)}, which does not exist", hint=hint
        ) from None
    except NotADirectoryError:
        return None  # a home that is a file holds no settings; the store says what is wrong
    except OSError as exc:  # a link to itself, no permission
        why = "a link that leads back to itself" if exc.errno == errno.ELOOP else None
        why = why or f"cannot be read ({exc.strerror or exc})"
        raise ConfigError(f"{path}: {why}", hint=hint) from None
    kind = not_regular(status.st_mode)
    if kind:
        raise ConfigError(f"{path}: {kind}, not a settings file", hint=hint)
    if status.st_size > CONFIG_BYTES:
        raise ConfigError(
            f"{path}: {status.st_size:,} bytes; a settings file may be at most {CONFIG_BYTES:,}",
            hint=hint,
        )
    try:  # never waiting on a FIFO swapped in since the look, never reading past the limit
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            kind = not_regular(os.fstat(fd).st_mode)
            if kind:
                raise ConfigError(f"{path}: {kind}, not a settings file", hint=hint)
            data = os.read(fd, CONFIG_BYTES + 1)
        finally:
            os.close(fd)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror or exc})", hint=hint) from None
    if len(data) > CONFIG_BYTES:
        raise ConfigError(f"{path}: more than {CONFIG_BYTES:,} bytes", hint=hint)
    return data


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
