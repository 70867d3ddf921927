"""Shared fixtures: every test gets its own STUDYBOT_HOME and a clean environment.

Defined here once: ``shipped`` (the shipped bank), ``store`` (the test home's
store, open), ``write_config`` (config.toml in the test home), ``server`` (an
OpenAI-compatible server, as the test module's ``SERVER`` sets it up) and
``invoke`` (a command in-process). Helpers that are not fixtures live in
modules of their own beside this one (``terminal``, ``running``, ``screens``,
``scripted``, ``openai_server``), never in a test module.
"""

from __future__ import annotations

import shlex
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner

from studybot import bank
from studybot.channel import files
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


@pytest.fixture
def run_line():
    """A preview's last line, ``Run: studybot …``, as the words a shell would pass to studybot."""

    def words(stdout: str) -> list[str]:
        last = stdout.rstrip().splitlines()[-1]
        assert last.startswith("Run: studybot "), last
        return shlex.split(last.removeprefix("Run: studybot "))

    return words


@pytest.fixture(scope="module")
def shipped():
    """The shipped bank, read once per test module."""
    return bank.load()


@pytest.fixture
def store(studybot_home):
    """The test home's store, open for the test and closed after it."""
    from studybot.storage.store import Store

    opened = Store.open()
    yield opened
    opened.close()


@pytest.fixture
def write_config(studybot_home):
    """Write ``text`` as studybot's config.toml in the test home; returns its path."""

    def write(text: str) -> Path:
        path = files.config_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture
def server(request, monkeypatch, studybot_home):
    """An OpenAI-compatible server in a thread, as the test module's ``SERVER`` sets it up.

    ``SERVER`` holds the server's own options (``key``, ``models``, ``answer``,
    ...) and two of the test home: ``config``, the text of its config.toml,
    and ``key_env``, whether the key is exported as TAOTOKEN_API_KEY.
    """
    from openai_server import OpenAIServer

    options = dict(request.module.SERVER)
    config, key_env = options.pop("config", None), options.pop("key_env", False)
    if key_env:
        monkeypatch.setenv("TAOTOKEN_API_KEY", options["key"])
    if config is not None:
        studybot_home.mkdir(parents=True, exist_ok=True)
        (studybot_home / "config.toml").write_text(config, encoding="utf-8")
    with OpenAIServer(**options) as running:
        yield running


@pytest.fixture
def rate(studybot_home):
    """Record a rating of ``question_id`` as the learner gave it ``at`` (default: now).

    Through ``store`` when given, else a store opened for the one rating;
    ``extra``: the rest of ``learn.review.record_review`` (attempt, session_id).
    """
    from studybot.learn import review
    from studybot.storage.store import Store

    def record(
        question_id, rating, at=None, *, grade=None, bank_key="default", store=None, **extra
    ):
        opened = store or Store.open()
        try:
            return review.record_review(
                opened,
                bank=bank_key,
                question_id=question_id,
                rating=rating,
                grade=grade,
                now=at,
                **extra,
            )
        finally:
            if store is None:
                opened.close()

    return record
