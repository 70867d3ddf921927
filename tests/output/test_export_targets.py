"""``export -o PATH`` replaces only a regular file: never a device, a FIFO or a link (#29 item 2).

Each case runs the real CLI and then looks at what PATH is: the same kind
of thing as before (``lstat``), with nothing left beside it.
"""

from __future__ import annotations

import os
import stat
import zipfile
from pathlib import Path

import pytest

NULL_DEVICE = os.makedev(1, 3)  # Linux's /dev/null: made here, so a bug replaces a copy


@pytest.fixture
def session(invoke) -> str:
    ran = invoke("run", "--from", "1", "--to", "2")
    assert ran.exit_code == 0, ran.stderr
    return "1"


def device(folder: Path) -> Path:
    """A character device to export onto: a null device made in ``folder`` (root), else /dev/null.

    As root a rename would go over /dev/null itself, so the test makes its own.
    """
    if os.geteuid() != 0:
        return Path(os.devnull)
    path = folder / "null"
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, NULL_DEVICE)
    except OSError as exc:
        pytest.skip(f"cannot make a device node here: {exc}")
    return path


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("fmt", ["md", "apkg"])
@pytest.mark.parametrize("force", [False, True])
def test_a_device_is_refused_by_name_and_stays_a_device(invoke, tmp_path, session, fmt, force):
    target = device(tmp_path)
    result = invoke("export", session, "-f", fmt, "-o", str(target), *(["--force"] * force))
    assert result.exit_code == 2, result.stderr
    assert f"{target} is not a regular file (a device)" in result.stderr
    assert stat.S_ISCHR(os.lstat(target).st_mode)
    if target.parent == tmp_path:
        assert names(tmp_path) == ["null", "studybot-home"]  # no temporary file left


@pytest.mark.parametrize("fmt", ["anki", "apkg"])
def test_a_fifo_is_refused_without_being_opened(invoke, tmp_path, session, fmt):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result = invoke("export", session, "-f", fmt, "-o", str(fifo), "--force")  # open() would hang
    assert result.exit_code == 2
    assert f"{fifo} is not a regular file (a FIFO)" in result.stderr
    assert "-o - for standard output" in result.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert names(tmp_path) == ["pipe", "studybot-home"]


def test_a_link_to_a_file_is_written_through_and_stays_a_link(invoke, tmp_path, session):
    notes = tmp_path / "real" / "notes.md"
    notes.parent.mkdir()
    notes.write_text("my own notes\n", encoding="utf-8")
    link = tmp_path / "notes-link.md"
    link.symlink_to(notes)
    refused = invoke("export", session, "-o", str(link))
    assert refused.exit_code == 2 and "already exists" in refused.stderr
    assert notes.read_text(encoding="utf-8") == "my own notes\n"
    replaced = invoke("export", session, "-o", str(link), "--force")
    assert replaced.exit_code == 0, replaced.stderr
    assert link.is_symlink() and os.readlink(link) == str(notes)
    assert notes.read_text(encoding="utf-8").startswith("# ")
    assert names(notes.parent) == ["notes.md"] and "notes-link.md" in names(tmp_path)


@pytest.mark.parametrize("force", [False, True])
def test_a_link_to_nothing_is_refused_and_never_replaced(invoke, tmp_path, session, force):
    link = tmp_path / "cards.txt"
    link.symlink_to(tmp_path / "elsewhere" / "cards.txt")
    result = invoke("export", session, "-f", "anki", "-o", str(link), *(["--force"] * force))
    assert result.exit_code == 2
    assert f"{link} is a link to {tmp_path / 'elsewhere' / 'cards.txt'}, which does not exist" in (
        result.stderr
    )
    assert link.is_symlink() and not link.exists()
    assert names(tmp_path) == ["cards.txt", "studybot-home"]


def test_a_link_to_itself_is_one_line(invoke, tmp_path, session):
    link = tmp_path / "loop.md"
    link.symlink_to(link)
    result = invoke("export", session, "-o", str(link), "--force")
    assert result.exit_code == 2
    assert f"cannot write {link}: Too many levels of symbolic links" in result.stderr
    assert link.is_symlink()


def test_dash_is_standard_output_and_no_file_named_dash(invoke, tmp_path, session, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = invoke("export", session, "-f", "md", "-o", "-")
    assert text.exit_code == 0, text.stderr
    assert text.stdout.startswith("# ") and "第 1 题" in text.stdout
    package = invoke("export", session, "-f", "apkg", "-o", "-")
    assert package.exit_code == 0, package.stderr
    assert "2 notes" in package.stderr
    (tmp_path / "from-stdout.apkg").write_bytes(package.stdout_bytes)
    with zipfile.ZipFile(tmp_path / "from-stdout.apkg") as opened:
        assert "collection.anki2" in opened.namelist()
    assert names(tmp_path) == ["from-stdout.apkg", "studybot-home"]


def test_cache_pack_keeps_to_the_same_rules(invoke, tmp_path, monkeypatch):
    """``cache pack -o`` writes through the same ``write_file``; ``-o -`` is stdout there too."""
    monkeypatch.chdir(tmp_path)
    trace = tmp_path / "trace.jsonl"
    trace.write_text('{"tokens": [1, 2, 3]}\n{"tokens": [1, 2, 4]}\n', encoding="utf-8")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    refused = invoke("cache", "pack", str(trace), "-o", str(fifo), "--force")
    assert refused.exit_code == 2 and "is not a regular file (a FIFO)" in refused.stderr
    packed = invoke("cache", "pack", str(trace), "-o", "-")
    assert packed.exit_code == 0, packed.stderr
    assert "Wrote stdout (2 requests, 6 tokens)" in packed.stderr
    (tmp_path / "from-stdout.packed").write_bytes(packed.stdout_bytes)
    replayed = invoke("cache", "replay", str(tmp_path / "from-stdout.packed"))
    assert replayed.exit_code == 0 and replayed.stdout.startswith("2 requests · 6 tokens")
    assert names(tmp_path) == ["from-stdout.packed", "pipe", "trace.jsonl"]  # no file "-"
