"""Compiled rubrics kept on disk: a later process grades without compiling, and grades the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace

import pytest

from studybot import bank
from studybot.learn import grading, rubric, rubric_cache

ATTEMPT = "只缓存 K 和 V：每步的 q 只用一次，而历史的 K、V 每一步都要读，显存随长度线性增长。"


def grade_in_a_process(home) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "studybot", "grade", "23", "--offline", "--json"],
        input=ATTEMPT,
        capture_output=True,
        text=True,
        env=dict(os.environ, STUDYBOT_HOME=str(home)),
        check=True,
    )
    return json.loads(done.stdout)


def kept_files(home) -> list:
    """The questions' kept rubrics (the bank's names, kept once beside them, left out)."""
    return sorted(
        p for p in (home / "cache" / "rubrics").glob("*/*.pickle") if p.name != "names.pickle"
    )


def test_a_second_process_grades_from_the_kept_rubric_as_the_first_did(studybot_home):
    first = grade_in_a_process(studybot_home)
    assert [p.name for p in kept_files(studybot_home)] == ["23.pickle"]
    second = grade_in_a_process(studybot_home)
    assert second == first
    assert first["points"][0]["state"] == "covered"


def test_a_kept_rubric_is_read_instead_of_compiled_and_grades_alike(monkeypatch):
    shipped = bank.load()
    question = shipped.get(23)
    compiled = grading.OfflineGrader(shipped).grade(question, ATTEMPT)  # compiles, then keeps

    def no_compiling(*_args, **_kwargs):
        raise AssertionError("compiled again")

    monkeypatch.setattr(rubric, "compile_rubric", no_compiling)
    kept = grading.OfflineGrader(shipped).grade(question, ATTEMPT)  # a new grader: the file
    assert kept == compiled


def test_a_damaged_kept_file_is_compiled_again_and_replaced(studybot_home):
    first = grade_in_a_process(studybot_home)
    [path] = kept_files(studybot_home)
    path.write_bytes(b"\x80\x05 not a pickle")
    assert grade_in_a_process(studybot_home) == first
    shipped = bank.load()
    assert rubric_cache.load(shipped, shipped.get(23)) is not None  # written afresh


def test_the_banks_names_are_kept_once_and_a_damaged_copy_mends(studybot_home):
    shipped = bank.load()
    grader = grading.OfflineGrader(shipped)
    for question_id in (23, 24):
        grader.grade(shipped.get(question_id), ATTEMPT)
    assert [p.name for p in kept_files(studybot_home)] == ["23.pickle", "24.pickle"]
    [names] = (studybot_home / "cache" / "rubrics").glob("*/names.pickle")
    names.write_bytes(b"damaged")
    first = grade_in_a_process(studybot_home)  # cannot read 23's names: compiles, keeps both
    assert grade_in_a_process(studybot_home) == first
    assert names.read_bytes() != b"damaged"


def test_a_kept_rubric_of_another_question_text_is_not_used():
    shipped = bank.load()
    question = shipped.get(23)
    grading.OfflineGrader(shipped).grade(question, ATTEMPT)
    assert rubric_cache.load(shipped, question) is not None
    assert rubric_cache.load(shipped, replace(question, question="另一个问题？")) is None


def test_only_the_shipped_bank_is_kept_a_folder_bank_compiles_each_time(studybot_home, tmp_path):
    folder = tmp_path / "bank"
    folder.mkdir()
    (folder / "01-intro.toml").write_text(
        (bank.shipped_dir() / "01-intro.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (folder / "bank.toml").write_text(
        'title = "t"\n\n[[chapters]]\nnumber = 1\ntitle = "导论"\nfile = "01-intro.toml"\n'
        "first = 1\nlast = 8\n",
        encoding="utf-8",
    )
    own = bank.load(str(folder))
    result = grading.OfflineGrader(own).grade(own.get(2), "Reflexion 用语言反馈代替梯度更新。")
    assert result.score is not None
    assert kept_files(studybot_home) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through any folder's mode")
def test_a_home_that_cannot_be_written_grades_all_the_same(studybot_home):
    first = grade_in_a_process(studybot_home)
    cache = studybot_home / "cache"
    for path in kept_files(studybot_home):
        path.unlink()
    cache.chmod(0o500)
    try:
        assert grade_in_a_process(studybot_home) == first
    finally:
        cache.chmod(0o700)
