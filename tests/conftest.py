"""Shared fixtures: every test gets its own STUDYBOT_HOME and a clean environment."""

from __future__ import annotations

import signal

import pytest
from click.testing import CliRunner

from studybot.cli import cli
from studybot.costs import tokens

# A suite started as a background job of a script (``.ci/run &``) inherits SIGINT
# ignored, and so would every studybot it starts: the Ctrl-C tests would see
# nothing. A handler of our own is reset to the default in each child.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

CHANNEL_VARS = (
    "TAOTOKEN_API_KEY",
    "STUDYBOT_BASE_URL",
    "STUDYBOT_MODEL",
    "STUDYBOT_WIRE_API",
    "STUDYBOT_ENV_KEY",
    "STUDYBOT_OFFLINE_DELAY",
    "STUDYBOT_PROVIDER",
    "STUDYBOT_DEBUG",
    # The openai SDK's variables: a developer's exported key must never reach a test.
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
)


@pytest.fixture(autouse=True)
def studybot_home(tmp_path, monkeypatch):
    """No test touches the user's real home, config or Codex config."""
    home = tmp_path / "studybot-home"
    monkeypatch.setenv("STUDYBOT_HOME", str(home))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    for name in CHANNEL_VARS:
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture
def invoke():
    """Run a studybot command in-process; returns click's Result (stdout, stderr apart)."""
    runner = CliRunner()

    def run(*args: str, input: str | None = None, env: dict[str, str] | None = None):
        try:
            return runner.invoke(cli, list(args), input=input, env=env, catch_exceptions=False)
        finally:
            tokens.use(None)  # an engine's tokenizer lives as long as its command's process

    return run
