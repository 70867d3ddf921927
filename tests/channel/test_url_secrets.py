"""A base URL's secrets are never echoed, and a port that cannot be stops a run (#21 items 7, 8)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from studybot.channel.urls import masked
from studybot.storage.store import DB_NAME

KEY = "sk-live-test-0123456789abcdef"
SECRET = "SECRET0123456789"

SECRET_URLS = [
    f"https://u:{SECRET}@api.example.com/v1",  # user info with a password
    f"https://{SECRET}@api.example.com/v1",  # a token as the user name
    f"https://api.example.com/v1?auth={SECRET}",
    f"https://api.example.com/v1?region=eu&x={SECRET}",
    f"https://api.example.com/v1?{SECRET}",
    f"https://api.example.com/v1#{SECRET}",
    f"https://u:{SECRET}@[not-an-ip/v1",  # does not even parse
    f"https://api.example.com:abc/v1?x={SECRET}",
]


@pytest.fixture
def live(monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)


@pytest.mark.parametrize("url", SECRET_URLS)
def test_a_secret_in_the_base_url_is_never_echoed_nor_stored(invoke, studybot_home, live, url):
    run = invoke("run", "--from", "1", "--to", "2", "--model", "m", "--base-url", url)
    assert run.exit_code == 2
    shown = invoke("config", "show", "--base-url", url)
    shown_json = invoke("config", "show", "--json", "--base-url", url)
    doctor = invoke("doctor", "--model", "m", "--base-url", url)
    for result in (run, shown, shown_json, doctor):
        assert SECRET not in result.stdout + result.stderr, result.stdout + result.stderr
        assert "unexpected" not in result.stderr
    database = studybot_home / DB_NAME
    if database.exists():
        with sqlite3.connect(database) as con:
            rows = con.execute("select base_url, settings from sessions").fetchall()
        assert all(SECRET not in str(row) for row in rows)


def test_a_fragment_is_named_as_a_fragment(invoke, live):
    result = invoke(
        "run", "--from", "1", "--to", "2", "--model", "m", "--base-url", "https://h/v1#x"
    )
    assert result.exit_code == 2
    assert "has a fragment ('#…')" in result.stderr and "query" not in result.stderr


def test_config_show_prints_a_url_with_a_query_masked(invoke):
    result = invoke("config", "show", "--json", "--base-url", f"https://h/v1?x={SECRET}")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["settings"]["base_url"]["value"] == "https://h/v1?x=***"


def test_cannot_reach_names_the_url_masked():
    from studybot.channel.providers.failures import Channel

    channel = Channel(
        base_url=f"http://u:{SECRET}@127.0.0.1:9/v1?k={SECRET}#{SECRET}",
        model="m",
        model_origin="flag",
        wire_api="chat",
        variable="TAOTOKEN_API_KEY",
        key_state="set",
        retries=0,
    )
    assert channel.base_url == "http://***@127.0.0.1:9/v1?k=***#***"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://u:p@h:8/v1?a=1&b=&c#f", "https://***@h:8/v1?a=***&b=&***#***"),
        ("u:p@h/v1", "***@h/v1"),
        ("https://h/v1", "https://h/v1"),
        ("https://h/v1#", "https://h/v1#"),
        ("http://[::1]:8000/v1", "http://[::1]:8000/v1"),
    ],
)
def test_masked_hides_user_info_query_values_and_the_fragment(url, shown):
    assert masked(url) == shown


@pytest.mark.parametrize("port", ["99999999", "65536", "-1", "abc", "0"])
def test_a_port_that_cannot_be_stops_before_any_request(invoke, live, port):
    url = f"http://127.0.0.1:{port}/v1"
    result = invoke("run", "--from", "1", "--to", "2", "--model", "m", "--base-url", url)
    assert result.exit_code == 2
    assert "has a port that cannot be" in result.stderr
    assert "attempts" not in result.stderr and "unexpected" not in result.stderr
    doctor = invoke("doctor", "--json", "--model", "m", "--base-url", url)
    assert doctor.exit_code == 2
    verdict = json.loads(doctor.stdout)["verdict"]
    assert verdict["kind"] == "config" and "port that cannot be" in verdict["text"]
