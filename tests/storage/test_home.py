"""Where studybot keeps its files: ``STUDYBOT_HOME``, else the platform's user data folder."""

from __future__ import annotations

from pathlib import Path

from studybot.bank import saved_root
from studybot.storage.home import home
from studybot.storage.store import DB_NAME, Store


def test_studybot_home_is_used_as_given_with_the_user_folder_expanded(monkeypatch, tmp_path):
    monkeypatch.setenv("STUDYBOT_HOME", str(tmp_path / "here"))
    assert home() == tmp_path / "here"
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("STUDYBOT_HOME", "~/study")
    assert home() == tmp_path / "study"


def test_without_studybot_home_it_is_the_platforms_user_data_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("STUDYBOT_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert home() == tmp_path / "data" / "studybot"
    monkeypatch.setenv("STUDYBOT_HOME", "")  # empty means unset, not the current folder
    assert home() == tmp_path / "data" / "studybot"
    assert not (tmp_path / "data").exists()  # asking where it is creates nothing


def test_the_database_and_saved_banks_live_in_the_home(studybot_home):
    store = Store.open()
    assert store.path == studybot_home / DB_NAME and store.path.is_file()
    assert saved_root() == studybot_home / "banks"
    assert Path(home()) == studybot_home
