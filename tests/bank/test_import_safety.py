"""Files that are not files, values Python cannot take, limits, and a kill during --force.

Issue 21, items 2, 3 and 5: a FIFO, a device or a file that is larger than
it says is refused with one line (exit 2) without hanging or reading it
whole; a lone surrogate or a 5,000-digit id is a file:line problem; a
`bank import --force` killed at any step leaves the old bank or the new one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from running import studybot

from studybot import bank
from studybot.bank import importer
from studybot.bank.importer import source
from studybot.errors import BankError

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "import"


# -- item 2: regular files only, read at most the limit ----------------------------------


def test_a_fifo_is_refused_at_once_instead_of_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "questions.md"
    os.mkfifo(fifo)
    result = studybot(
        tmp_path / "home", "bank", "import", str(fifo), "--name", "pipe", timeout=30, loud=True
    )
    assert result.returncode == 2
    assert (
        result.stderr.splitlines()[0] == f"Error: {fifo}: a named pipe (FIFO), not a question file"
    )
    assert "unexpected" not in result.stderr


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_is_refused_before_a_byte_is_read(tmp_path, device):
    if not Path(device).exists():
        pytest.skip(f"{device} is not on this system")
    result = studybot(
        tmp_path / "home", "bank", "import", device, "--preview", timeout=30, loud=True
    )
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == f"Error: {device}: a device, not a question file"
    assert len(result.stderr.splitlines()) == 2  # the line and its hint
    listed = studybot(tmp_path / "home", "bank", "list", "--bank", device, timeout=30, loud=True)
    assert listed.returncode == 2 and "a device, not a question file" in listed.stderr


def test_a_file_larger_than_it_says_is_read_only_to_the_limit(monkeypatch):
    maps = Path("/proc/self/maps")  # a regular file whose size reads as 0
    if not maps.exists() or maps.stat().st_size != 0:
        pytest.skip("needs /proc")
    monkeypatch.setattr(source, "MAX_BYTES", 64)
    with pytest.raises(BankError, match="more than 0 MB; a question file may be at most that"):
        importer.read(maps)


def test_reading_stops_counting_at_the_question_limit(monkeypatch, tmp_path):
    monkeypatch.setattr(source, "MAX_QUESTIONS", 50)
    lines = tmp_path / "many.jsonl"
    # line 80 would be a syntax error: reading stopped before it, at question 51
    lines.write_text("".join(f'"第 {n} 题？"\n' for n in range(79)) + "{broken\n", encoding="utf-8")
    with pytest.raises(BankError, match="more than 50 questions; a bank holds at most 50") as e:
        importer.read(lines)
    assert "syntax" not in e.value.message
    text = tmp_path / "many.md"
    text.write_text("".join(f"- 第 {n} 题？\n" for n in range(200)), encoding="utf-8")
    with pytest.raises(BankError, match="more than 50 questions"):
        importer.read(text)


def test_200_000_questions_import_and_one_more_is_refused(tmp_path):
    path = tmp_path / "many.jsonl"
    path.write_text("".join(f'"第 {n} 个问题？"\n' for n in range(200_001)), encoding="utf-8")
    with pytest.raises(BankError, match="more than 200,000 questions"):
        importer.read(path)
    path.write_text("".join(f'"第 {n} 个问题？"\n' for n in range(25_000)), encoding="utf-8")
    assert len(importer.read(path).questions) == 25_000  # 125× the shipped bank


# -- item 3: values Python cannot take -----------------------------------------------------


def test_a_lone_surrogate_is_a_problem_with_its_line_and_force_mends_it(invoke, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('[\n  "什么是词元？",\n  {"question": "什么是\\ud800嵌入？"}\n]\n')
    result = invoke("bank", "import", str(path), "--name", "sur")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {path}:3: a lone surrogate (such as \\ud800)")
    forced = invoke("bank", "import", str(path), "--name", "sur", "--force")
    assert forced.exit_code == 0, forced.stderr
    assert bank.load("sur").get(2).question == "什么是\ufffd嵌入？"
    assert f"{path}:3: a lone surrogate" in forced.stdout  # what --force got past is listed


@pytest.mark.parametrize("kind", ["json", "jsonl", "csv"])
def test_an_id_of_5000_digits_is_a_problem_with_its_line(invoke, tmp_path, kind):
    digits = "7" * 5000
    path = tmp_path / f"ids.{kind}"
    if kind == "json":
        path.write_text(
            f'[\n  {{"id": 1, "question": "什么是词元？"}},\n  {{"id": {digits}, "question": "什么是嵌入？"}}\n]\n'
        )
    elif kind == "jsonl":
        path.write_text(
            f'{{"id": 1, "question": "什么是词元？"}}\n{{"id": {digits}, "question": "什么是嵌入？"}}\n'
        )
    else:
        path.write_text(f"id,question\n1,什么是词元？\n{digits},什么是嵌入？\n", encoding="utf-8")
    line = 3 if kind == "json" else 2 if kind == "jsonl" else 3
    result = invoke("bank", "import", str(path), "--name", "ids")
    assert result.exit_code == 2
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"Error: {path}:{line}: id must be a whole number from 1 to "), first
    assert "5,000 digits" in first and len(first) < 300
    forced = invoke("bank", "import", str(path), "--name", "ids", "--force")
    assert forced.exit_code == 0, forced.stderr
    assert [q.question for q in bank.load("ids").questions] == ["什么是词元？", "什么是嵌入？"]


# -- item 5: a kill during bank import --force --------------------------------------------

KILLER = """
import os, signal, sys, shutil
target = int(sys.argv[1])
calls = [0]
def wrap(module, name):
    real = getattr(module, name)
    def step(*args, **kwargs):
        calls[0] += 1
        if calls[0] == target:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*args, **kwargs)
    setattr(module, name, step)
for name in ("rename", "replace", "fsync", "unlink", "rmdir", "mkdir"):
    wrap(os, name)
from studybot.launch import main
sys.argv = ["studybot", *sys.argv[2:]]
main()
"""


def test_a_kill_at_any_step_of_a_forced_import_leaves_the_old_bank_or_the_new(tmp_path):
    home = tmp_path / "home"
    assert (
        studybot(
            home, "bank", "import", str(DATA / "notes.md"), "--name", "mine", loud=True
        ).returncode
        == 0
    )
    old, new = 6, 7  # notes.md holds 6 questions, plain-list.md 7
    env = {k: v for k, v in os.environ.items() if not k.startswith("STUDYBOT_")}
    env.update(PYTHONPATH=str(ROOT), STUDYBOT_HOME=str(home))
    outcomes = set()
    for step in range(1, 200):
        args = ["bank", "import", str(DATA / "plain-list.md"), "--name", "mine", "--force"]
        killed = subprocess.run(
            [sys.executable, "-c", KILLER, str(step), *args], env=env, capture_output=True
        )
        listed = studybot(
            home, "bank", "list", "--bank", "mine", "--json", loud=True
        )  # the next start
        assert listed.returncode == 0, (step, listed.stderr)
        count = len(json.loads(listed.stdout))
        assert count in (old, new), step
        outcomes.add(count)
        leftovers = [p.name for p in (home / "banks").iterdir() if p.name.startswith(".")]
        assert leftovers == [], (step, leftovers)
        if killed.returncode == 0:
            break
        assert killed.returncode == -9, killed.stderr
        # put the old bank back for the next step
        assert (
            studybot(
                home,
                "bank",
                "import",
                str(DATA / "notes.md"),
                "--name",
                "mine",
                "--force",
                loud=True,
            ).returncode
            == 0
        )
    else:
        pytest.fail("the import never finished")
    assert outcomes == {old, new} and step > 5  # kills landed before and after the swap


def test_leftover_staging_folders_are_cleaned_on_the_next_start(invoke, studybot_home):
    assert invoke("bank", "import", str(DATA / "notes.md"), "--name", "mine").exit_code == 0
    banks = studybot_home / "banks"
    dead = 2**22 + 12345  # above any pid a test machine hands out
    half = banks / f".mine.new-{dead}-abc123"
    half.mkdir()
    (half / "bank.toml").write_text("title = 'half written'\n")
    gone = banks / f".mine.old-{dead}-def456"  # replaced, not yet deleted
    gone.mkdir()
    assert invoke("bank", "banks").exit_code == 0
    assert sorted(p.name for p in banks.iterdir()) == ["mine"]
    assert len(bank.load("mine").questions) == 6


def test_a_kill_between_the_two_renames_is_finished_at_the_next_start(invoke, studybot_home):
    """The old bank stepped aside and the new one, written and read back, had not taken its name."""
    assert invoke("bank", "import", str(DATA / "notes.md"), "--name", "mine").exit_code == 0
    banks = studybot_home / "banks"
    dead = 2**22 + 12345
    new = banks / f".mine.new-{dead}-tok"
    new.mkdir()
    for path in (banks / "mine").iterdir():
        new.joinpath(path.name).write_bytes(path.read_bytes())
    (banks / "mine").rename(banks / f".mine.old-{dead}-tok")
    assert invoke("bank", "banks").exit_code == 0
    assert sorted(p.name for p in banks.iterdir()) == ["mine"]
    assert len(bank.load("mine").questions) == 6
