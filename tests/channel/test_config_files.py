"""A config.toml that is no settings file is refused in one line; its size and depth are capped.

Issue 29, item 15: a config.toml that was a FIFO, a folder, a link to
itself or a link to /dev/zero was ignored without a word (and ``config
show`` named it as the file in use); a 100,000-part dotted table header
took 10–16 s to reject. Each is now one line and exit 2, before anything
is parsed.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from studybot.channel import files


def shapes(path: Path) -> dict:
    return {
        "a FIFO": (lambda: os.mkfifo(path), "a named pipe (FIFO), not a settings file"),
        "a folder": (lambda: path.mkdir(), "a folder, not a settings file"),
        "a link to itself": (lambda: path.symlink_to(path), "a link that leads back to itself"),
        "a link to /dev/zero": (
            lambda: path.symlink_to("/dev/zero"),
            "a device, not a settings file",
        ),
        "a link to nothing": (
            lambda: path.symlink_to(path.parent / "gone.toml"),
            f"a link to {path.parent / 'gone.toml'}, which does not exist",
        ),
    }


@pytest.mark.parametrize(
    "shape",
    ["a FIFO", "a folder", "a link to itself", "a link to /dev/zero", "a link to nothing"],
)
@pytest.mark.parametrize(
    "command", [("config", "show"), ("run", "--from", "1", "--to", "1"), ("doctor",)]
)
def test_a_config_that_is_no_settings_file_is_refused_in_one_line(
    invoke, studybot_home, shape, command
):
    studybot_home.mkdir(parents=True, exist_ok=True)
    path = studybot_home / "config.toml"
    make, said = shapes(path)[shape]
    make()
    started = time.monotonic()
    result = invoke(*command)
    assert time.monotonic() - started < 10  # a FIFO is never waited on
    assert result.exit_code == 2, result.stdout
    assert result.stderr.splitlines() == [
        f"Error: {path}: {said}",
        "Hint: move it away, or put studybot's TOML settings there",
    ]
    assert str(path) not in result.stdout  # config show does not name it as in use


def test_the_codex_config_is_held_to_the_same_rules(invoke, tmp_path):
    codex = tmp_path / "codex-home"
    codex.mkdir()
    os.mkfifo(codex / "config.toml")
    result = invoke("config", "show")
    assert result.exit_code == 2
    assert "a named pipe (FIFO), not a settings file" in result.stderr


def test_a_config_over_the_size_cap_is_refused_unread(invoke, studybot_home):
    studybot_home.mkdir(parents=True)
    (studybot_home / "config.toml").write_text("#" * (files.CONFIG_BYTES + 1))
    result = invoke("config", "show")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0].endswith(
        f"{files.CONFIG_BYTES + 1:,} bytes; a settings file may be at most {files.CONFIG_BYTES:,}"
    )


@pytest.mark.parametrize(
    "text",
    [
        "[" + ".".join(["a"] * 100_000) + "]\nx = 1\n",
        ".".join(["a"] * 100_000) + " = 1\n",
        "x = {" + ".".join(["a"] * 100_000) + " = 1}\n",
        '[prices."' + '"."'.join(["m"] * 100_000) + '"]\n',
    ],
    ids=["table header", "dotted key", "inline table", "quoted parts"],
)
def test_a_key_of_100000_parts_is_refused_before_it_is_parsed(invoke, studybot_home, text):
    studybot_home.mkdir(parents=True)
    (studybot_home / "config.toml").write_text(text)
    started = time.monotonic()
    result = invoke("config", "show")
    assert time.monotonic() - started < 2  # 10-16 s before
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0].endswith(
        f"a key or table header of more than {files.KEY_PARTS} parts (a.b.c…)"
    )


def test_real_settings_with_dots_in_values_and_quoted_keys_still_read(invoke, studybot_home):
    studybot_home.mkdir(parents=True)
    (studybot_home / "config.toml").write_text(
        'base_url = "https://a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g.h/v1"\n'
        'model = "gpt-4.1"\n'
        '[prices."gpt-4.1"]\ninput = 2.5\ncached_input = 0.5\noutput = 10.0\ncurrency = "USD"\n'
        '[providers.local]\nbase_url = "http://127.0.0.1:8000/v1"\n'
    )
    result = invoke("config", "show")
    assert result.exit_code == 0, result.stderr
    assert "gpt-4.1" in result.stdout
