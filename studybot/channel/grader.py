"""The grader's channel: where grades and an interviewer's probes go, when not the main one.

``[grader]`` in config.toml (``provider = "NAME"``, a ``[providers.NAME]``
profile, and/or the profile keys themselves) or ``--grader NAME``
(STUDYBOT_GRADER) names it. ``config.load`` reads it through
``side_channel``; ``grader_settings`` gives the settings its requests use.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from studybot.channel.config import ENV_NAMES, PROFILE_KEYS, Settings, profile_keys, validate
from studybot.errors import ConfigError


def side_channel(
    values: dict[str, Any],
    sources: dict[str, str],
    own_data: dict[str, Any],
    own: Path,
    table: Any,
) -> tuple[dict[str, str], str]:
    """The grader's channel keys and where they came from; ({}, "") for none.

    ``--grader NAME`` (or STUDYBOT_GRADER) names a profile and replaces the
    config's ``[grader]``; the config's ``[grader]`` is a profile and/or keys.
    """
    name = str(values.get("grader") or "")
    inline: dict[str, Any] = {}
    if isinstance(table, dict) and sources.get("grader", str(own)) == str(own):
        unknown = sorted(set(table) - {"provider", *PROFILE_KEYS})
        if unknown:
            raise ConfigError(
                f"{own}: [grader] has an unknown key {unknown[0]!r}",
                hint="[grader] takes provider (a [providers.NAME] profile) and/or "
                + ", ".join(PROFILE_KEYS),
            )
        inline = {k: v for k, v in table.items() if k != "provider"}
    side = profile_keys(own_data, own, name) if name else {}
    side.update(inline)
    for key, raw in side.items():
        if not isinstance(raw, str):
            raise ConfigError(f"{own}: the grader's {key} must be text", hint=f'{key} = "…"')
    origin = f"--grader {name}" if sources.get("grader") == "flag" else f"{own} [grader]"
    if sources.get("grader") == "env":
        origin = f"env {ENV_NAMES['grader']}"
    return side, origin if side else ""


def grader_settings(settings: Settings) -> Settings | None:
    """The settings grades and probes go through, or None when they go to the main channel.

    The grader's base URL, key variable, wire API and model over the main
    settings (timeouts, retries and the rest are shared).
    """
    if not settings.side:
        return None
    values: dict[str, Any] = dict(settings.side)
    if "base_url" in values:
        values["base_url"] = values["base_url"].rstrip("/")
    grader = replace(settings, **values, grader="", provider="", offline=False, engine="")
    sources = {**settings.sources, **dict.fromkeys(values, settings.side_origin)}
    object.__setattr__(grader, "sources", sources)
    object.__setattr__(grader, "side", {})
    validate(grader)
    return grader
