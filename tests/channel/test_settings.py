"""Settings at their edges: validated where read, file and key named, nothing written."""

from __future__ import annotations

import json

import click
import pytest

from studybot.channel import config
from studybot.cli import cli
from studybot.storage.store import Store


@pytest.mark.parametrize(
    "line",
    [
        "max_retries = -1",
        "max_retries = 1000000",
        "retry_backoff = -0.5",
        "retry_backoff = nan",
        "stream_idle_timeout = 0",
        "stream_idle_timeout = inf",
        "request_timeout = -inf",
        "request_timeout = 1e400",
        'offline = "maybe"',
        "max_retries = 2.5",
    ],
)
def test_a_bad_value_names_file_and_key_and_writes_nothing(
    write_config, invoke, studybot_home, line
):
    write_config(line + "\n")
    result = invoke("run", "--from", "1", "--to", "2")
    assert result.exit_code == 2, result.stderr
    name = line.split()[0]
    assert f"setting {name} =" in result.stderr
    assert str(studybot_home / "config.toml") in result.stderr
    assert "unexpected" not in result.stderr
    assert Store.open().sessions() == []


def test_bool_words_are_read_both_ways(write_config, studybot_home):
    write_config('offline = "no"\nstream = "off"\n')
    settings = config.load()
    assert settings.offline is False and settings.stream is False


def test_zero_retries_means_one_attempt(write_config, studybot_home):
    write_config("max_retries = 0\nretry_backoff = 0\n")
    assert config.load().max_retries == 0


@pytest.mark.parametrize("which", ["studybot", "codex"])
def test_a_config_file_that_is_not_utf8_is_a_bad_setting(invoke, studybot_home, tmp_path, which):
    path = (
        studybot_home / "config.toml"
        if which == "studybot"
        else tmp_path / "codex-home/config.toml"
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes('model = "模型"\n'.encode("gbk"))
    result = invoke("run", "--from", "1", "--to", "2")
    assert result.exit_code == 2
    assert f"{path}: not UTF-8" in result.stderr


def test_a_broken_codex_config_does_not_block_offline(invoke, tmp_path):
    codex = tmp_path / "codex-home" / "config.toml"
    codex.parent.mkdir(parents=True)
    codex.write_text("model = [unclosed\n", encoding="utf-8")
    assert invoke("run", "--from", "1", "--to", "2").exit_code == 2
    result = invoke("run", "--from", "1", "--to", "2", "--offline")
    assert result.exit_code == 0, result.stderr


def test_every_cli_option_that_sets_a_setting_maps_to_a_field():
    """FLAG_FIELDS is the one mapping; an option missing from it would be a KeyError at run."""
    fields = set(config.Settings.__dataclass_fields__)
    assert set(config.FLAG_FIELDS.values()) <= fields
    mapped = set(config.FLAG_FIELDS)

    def commands(group):
        for command in group.commands.values():
            if isinstance(command, click.Group):
                yield from commands(command)
            else:
                yield command

    seen = set()
    for command in commands(cli):
        if "flags" not in command.callback.__code__.co_varnames:
            continue  # takes every option by name: nothing is forwarded to settings
        names = set(command.callback.__code__.co_varnames[: command.callback.__code__.co_argcount])
        forwarded = {p.name for p in command.params} - names
        assert forwarded <= mapped, (command.name, forwarded - mapped)
        seen |= forwarded
    assert {"base_url", "model", "wire_api", "offline", "provider", "segment_max"} <= seen
    with pytest.raises(KeyError):
        config.flag_settings({"no_such_option": 1})


# -- endpoints -------------------------------------------------------------


def show(invoke, *args: str, env: dict | None = None) -> dict:
    result = invoke("config", "show", "--json", *args, env=env)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_openai_variables_sit_below_studybot_settings(
    write_config, invoke, monkeypatch, studybot_home
):
    monkeypatch.setenv("OPENAI_BASE_URL", "https://api.openai.com/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-0123456789abcdef")
    data = show(invoke, "--model", "gpt-4o-mini")
    assert data["settings"]["base_url"] == {
        "value": "https://api.openai.com/v1",
        "source": "env OPENAI_BASE_URL",
    }
    assert data["settings"]["env_key"] == {
        "value": "OPENAI_API_KEY",
        "source": "env OPENAI_API_KEY",
    }
    assert data["mode"] == "live"
    write_config('base_url = "http://localhost:11434/v1"\n')
    data = show(invoke)
    assert data["settings"]["base_url"]["value"] == "http://localhost:11434/v1"
    assert data["settings"]["base_url"]["source"] == str(studybot_home / "config.toml")


def test_taotoken_never_receives_an_openai_key(invoke, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-0123456789abcdef")
    data = show(invoke)
    assert data["settings"]["env_key"]["value"] == "TAOTOKEN_API_KEY"
    assert data["mode"] == "offline"
    result = invoke("run", "--from", "1", "--to", "2")
    assert result.exit_code == 0 and "offline" in result.stderr


@pytest.mark.parametrize(
    "url",
    [
        "https://api.openai.com/v1",
        "https://api.deepseek.com/v1",
        "https://openrouter.ai/api/v1",
        "http://localhost:8000/v1",
        "http://localhost:11434/v1",
        "http://127.0.0.1:30000/v1",
    ],
)
def test_v1_is_fine_for_every_endpoint_but_taotoken(url, monkeypatch):
    from studybot.channel import checks

    monkeypatch.setenv("TAOTOKEN_API_KEY", "sk-live-test-0123456789abcdef")
    assert checks.lint(config.load({"base_url": url, "model": "m"})) == []
    taotoken = checks.lint(config.load({"base_url": "https://taotoken.net/api/v1", "model": "m"}))
    assert "ends in /v1" in taotoken[0].message


@pytest.mark.parametrize(
    "url",
    [
        "https://api.example.com/v1?api_key=sk-secret-0123456789",
        "https://user:sk-secret-0123456789@api.example.com/v1",
        "https://sk-secret-0123456789@api.example.com/v1",
    ],
)
def test_a_key_in_the_url_is_refused_without_echoing_it(invoke, url):
    result = invoke("run", "--from", "1", "--to", "2", "--base-url", url)
    assert result.exit_code == 2
    assert "contains a key or password" in result.stderr
    assert "sk-secret" not in result.stderr + result.stdout
    assert Store.open().sessions() == []
    shown = invoke("config", "show", "--base-url", url)
    assert shown.exit_code == 2 and "sk-secret" not in shown.stderr + shown.stdout


PROFILES = """
model = "gateway-model"

[providers.local]
base_url = "http://localhost:11434/v1"
env_key = "OLLAMA_KEY"
model = "qwen2.5:7b"

[providers.gateway]
base_url = "https://gateway.example/v1"
wire_api = "responses"
"""


def test_provider_profiles_switch_the_channel(write_config, invoke, studybot_home, monkeypatch):
    write_config(PROFILES)
    data = show(invoke, "--provider", "local")
    settings = data["settings"]
    assert settings["base_url"]["value"] == "http://localhost:11434/v1"
    assert settings["base_url"]["source"] == f"{studybot_home / 'config.toml'} [providers.local]"
    assert settings["env_key"]["value"] == "OLLAMA_KEY"
    assert settings["model"]["value"] == "qwen2.5:7b"
    data = show(invoke, "--provider", "gateway", "--model", "other")
    assert data["settings"]["wire_api"]["value"] == "responses"
    assert data["settings"]["model"] == {"value": "other", "source": "--model"}
    monkeypatch.setenv("STUDYBOT_PROVIDER", "local")
    assert show(invoke)["settings"]["model"]["value"] == "qwen2.5:7b"


def test_an_unknown_profile_lists_the_known_ones(write_config, invoke, studybot_home):
    write_config(PROFILES)
    result = invoke("config", "show", "--provider", "nope")
    assert result.exit_code == 2
    assert "no provider profile 'nope'" in result.stderr and "gateway, local" in result.stderr
