"""Channel settings: precedence with a Codex config, `config show`, and lint."""

from __future__ import annotations

import json

import pytest
from openai_server import OpenAIServer

from studybot.channel import checks, config
from studybot.storage.store import Store

KEY = "sk-codex-test-0123456789abcdef"

CODEX = """
model = "codex-model"
model_provider = "taotoken"

[model_providers.taotoken]
name = "TaoToken"
base_url = "{base_url}"
env_key = "MY_TAO_KEY"
wire_api = "responses"

[model_providers.other]
base_url = "https://other.example/v1"
"""


@pytest.fixture
def codex_home(tmp_path):
    folder = tmp_path / "codex-home"
    folder.mkdir()
    return folder


def write(path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def show(invoke, *args: str) -> dict:
    result = invoke("config", "show", "--json", *args)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_defaults_with_nothing_configured(invoke):
    data = show(invoke)
    settings = data["settings"]
    assert settings["base_url"] == {"value": "https://taotoken.net/api", "source": "default"}
    assert settings["env_key"]["value"] == "TAOTOKEN_API_KEY"
    assert settings["wire_api"]["value"] == "chat"
    assert settings["model"]["value"] == ""
    assert data["mode"] == "offline"
    assert data["offline_reason"] == "TAOTOKEN_API_KEY is not set"
    assert data["key"] == {
        "variable": "TAOTOKEN_API_KEY",
        "set": False,
        "length": 0,
        "starts": "",
        "summary": "TAOTOKEN_API_KEY: not set",
    }


def test_the_codex_config_names_the_channel(invoke, codex_home, monkeypatch):
    write(codex_home / "config.toml", CODEX.format(base_url="https://codex.example/api"))
    monkeypatch.setenv("MY_TAO_KEY", KEY)
    data = show(invoke)
    codex_file = str(codex_home / "config.toml")
    for name, value in [
        ("model", "codex-model"),
        ("base_url", "https://codex.example/api"),
        ("env_key", "MY_TAO_KEY"),
        ("wire_api", "responses"),
    ]:
        assert data["settings"][name] == {"value": value, "source": codex_file}
    assert data["mode"] == "live"
    assert data["key"]["variable"] == "MY_TAO_KEY" and data["key"]["length"] == len(KEY)
    assert data["key"]["starts"] == "sk-"


def test_precedence_flags_env_studybot_codex_defaults(
    invoke, codex_home, studybot_home, monkeypatch
):
    write(codex_home / "config.toml", CODEX.format(base_url="https://codex.example/api"))
    write(
        studybot_home / "config.toml", 'base_url = "https://own.example/api"\nmodel = "own-model"\n'
    )
    monkeypatch.setenv("STUDYBOT_MODEL", "env-model")
    data = show(invoke, "--wire-api", "chat")
    settings = data["settings"]
    assert settings["wire_api"] == {"value": "chat", "source": "--wire-api"}
    assert settings["model"] == {"value": "env-model", "source": "env STUDYBOT_MODEL"}
    own = str(studybot_home / "config.toml")
    assert settings["base_url"] == {"value": "https://own.example/api", "source": own}
    assert settings["env_key"] == {"value": "MY_TAO_KEY", "source": str(codex_home / "config.toml")}
    assert settings["segment_max"] == {"value": 8, "source": "default"}

    flagged = show(invoke, "--model", "flag-model", "--base-url", "https://flag.example/api/")
    assert flagged["settings"]["model"] == {"value": "flag-model", "source": "--model"}
    assert flagged["settings"]["base_url"]["value"] == "https://flag.example/api"  # slash trimmed


def test_config_show_masks_the_key(invoke, monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    result = invoke("config", "show")
    assert result.exit_code == 0
    assert f'TAOTOKEN_API_KEY: set, {len(KEY)} characters, starts "sk-"' in result.stdout
    assert "mode" in result.stdout and "live" in result.stdout
    assert KEY not in result.stdout and KEY[:8] not in result.stdout


def test_a_short_key_shows_no_characters_at_all(monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", "abc123")
    facts = checks.key_facts(config.load())
    assert (facts.length, facts.starts) == (6, "")


def test_a_live_run_driven_by_the_codex_config_alone(invoke, codex_home, monkeypatch):
    monkeypatch.setenv("MY_TAO_KEY", KEY)
    with OpenAIServer(key=KEY, models=["codex-model"]) as server:
        write(codex_home / "config.toml", CODEX.format(base_url=server.base_url))
        result = invoke("run", "--from", "1", "--to", "2")
        assert result.exit_code == 0, result.stderr
        assert {r.path for r in server.generations} == {"/api/responses"}
        assert all(r.headers["authorization"] == f"Bearer {KEY}" for r in server.generations)
    record = Store.open().session(1)
    assert (record.model, record.wire_api) == ("codex-model", "responses")


def test_a_broken_codex_config_is_an_input_error(invoke, codex_home):
    write(codex_home / "config.toml", "model = \n")
    result = invoke("config", "show")
    assert result.exit_code == 2
    assert "config.toml" in result.stderr


@pytest.mark.parametrize(
    ("base_url", "problem"),
    [
        ("https://taotoken.net/api", None),
        ("http://127.0.0.1:8000/api", None),
        ("https://taotoken.net/api/v1", "ends in /v1"),
        ("https://taotoken.net/?utm_source=x&utm_medium=y", "landing page"),
        ("https://taotoken.net/api#top", "has a fragment"),
        ("mailto:someone@taotoken.net", "http(s)"),
        ("https://", "http(s)"),
        ("", "http(s)"),
        ("https://taotoken.net/ api", "whitespace"),
    ],
)
def test_base_url_lint(base_url, problem):
    settings = config.load({"base_url": base_url})
    problems = [p.message for p in checks.lint_base_url(settings)]
    if problem is None:
        assert problems == []
    else:
        assert len(problems) == 1 and problem in problems[0]
        assert "(from --base-url)" in problems[0]


@pytest.mark.parametrize(
    "key",
    ["YOUR_API_KEY", "your-api-key", "sk-xxx", "sk-...", "xxxxxxxx", "<key>", "$TAOTOKEN_API_KEY"],
)
def test_placeholder_keys(key):
    [problem] = checks.lint_key("TAOTOKEN_API_KEY", key)
    assert "placeholder" in problem.message and key not in problem.message + problem.hint


@pytest.mark.parametrize("key", ["sk-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c", "tt-7QpX2mZr9LkW3vBn"])
def test_real_looking_keys_pass(key):
    assert checks.lint_key("TAOTOKEN_API_KEY", key) == []


def test_lint_checks_key_and_model_only_when_a_key_is_set(monkeypatch):
    settings = config.load({"base_url": "https://taotoken.net/api/v1"})
    assert [p.message for p in checks.lint(settings)] == [
        "base_url 'https://taotoken.net/api/v1' (from --base-url) ends in /v1"
    ]
    monkeypatch.setenv("TAOTOKEN_API_KEY", "YOUR_API_KEY")
    assert len(checks.lint(settings)) == 3  # URL, key, and the missing model


def test_check_names_the_count_of_further_problems(monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", "YOUR_API_KEY")
    with pytest.raises(config.ConfigError) as caught:
        checks.check(config.load({"base_url": "https://taotoken.net/api/v1"}))
    assert "ends in /v1" in caught.value.message
    assert "2 more problem(s)" in caught.value.hint
