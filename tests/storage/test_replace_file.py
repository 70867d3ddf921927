"""Cache files written whole: the old file or the new one, never a part, and no leftovers."""

from __future__ import annotations

import pytest

from studybot.storage.home import replace_file


def test_a_file_is_replaced_whole_and_its_folder_made(tmp_path):
    path = tmp_path / "cache" / "kept.json"
    replace_file(path, b'{"old": 1}')
    replace_file(path, b'{"new": 2}')
    assert path.read_bytes() == b'{"new": 2}'
    assert [p.name for p in path.parent.iterdir()] == ["kept.json"]


def test_a_write_that_fails_leaves_nothing_beside_the_target(tmp_path):
    target = tmp_path / "cache" / "kept.json"
    target.mkdir(parents=True)  # a folder where the file should go: the rename fails
    with pytest.raises(OSError):
        replace_file(target, b"data")
    assert [p.name for p in target.parent.iterdir()] == ["kept.json"]
    assert target.is_dir()
