"""``config show``: the effective settings, and where each one came from."""

from __future__ import annotations

import click

from studybot.cli.common import channel_options, emit_json, grader_option, json_option
from studybot.cli.render import echo
from studybot.errors import clip, quoted

CHANNEL_FIELDS = ("base_url", "model", "wire_api", "env_key", "offline")


@click.group(name="config")
def config_group() -> None:
    """Inspect studybot's settings.

    \b
    Example:
      studybot config show
    """


@config_group.command()
@channel_options
@grader_option
@json_option
def show(as_json: bool, **flags) -> None:
    """Show the effective settings and where each came from.

    Layers, highest first: flags > env (STUDYBOT_BASE_URL, STUDYBOT_MODEL, ...)
    > the [providers.NAME] profile chosen by --provider > studybot's
    config.toml > the Codex config ($CODEX_HOME/config.toml, model /
    model_provider / [model_providers.ID]) > OPENAI_BASE_URL and
    OPENAI_API_KEY (never sent to TaoToken) > defaults. The API key
    is shown only as its variable's name, its length and first 3 characters.

    \b
    Example:
      studybot config show
      studybot config show --model deepseek-v3 --json
    """
    from studybot.channel import checks, config

    data = checks.describe(config.load(config.flag_settings(flags)))
    if as_json:
        emit_json(data)
        return
    render(data)


def render(data: dict, fields: tuple[str, ...] | None = None) -> None:
    """Name, value and origin of each setting (all, or just ``fields``), then the key."""
    from studybot.cli.render import fit

    settings = data["settings"]
    names = fields or tuple(settings)
    width = max(len(name) for name in (*names, "key"))
    hang = " " * (width + 2)  # a long value or origin goes on under the value, never mid-word

    def line(text: str) -> None:
        echo(fit(text, err=False, hang=hang), err=False, wrap=False)

    for name in names:
        entry = settings[name]
        value = entry["value"]
        odd = isinstance(value, str) and (value != value.strip() or not value.isprintable())
        shown = quoted(value) if odd else clip(str(value))  # a 1 MB value stays one line
        shown = "(none)" if shown == "" else shown
        line(f"{name:<{width}}  {shown}  ({entry['source']})")
    line(f"{'key':<{width}}  {data['key']['summary']}")
    mode = data["mode"]
    reason = f" ({data['offline_reason']})" if data["offline_reason"] else ""
    line(f"{'mode':<{width}}  {mode}{reason}")
    if fields is None:
        click.echo()
        echo(f"studybot config: {_path(data['files']['studybot'])}", err=False, wrap=False)
        echo(f"Codex config:    {_path(data['files']['codex'])}", err=False, wrap=False)


def _path(path: str) -> str:
    """A file's path as written, or quoted with its control characters escaped.

    A home may be named with anything, escape sequences included: shown
    escaped, the path stays readable and the terminal obeys none of it.
    """
    return path if path.isprintable() else repr(path)


COMMANDS = [config_group]
