"""The README's tour runs: every ``studybot ...`` command it shows, in order, offline.

Like sqlite-utils' documentation tests, so the README cannot drift from the
tool. Each command runs in a fresh home and folder; a command that needs a
file is given one first, one that needs a key or a network runs against the
local OpenAI-compatible server, and a skipped one says why.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from openai_server import OpenAIServer

from studybot import bank
from studybot.channel import config
from studybot.channel.providers.offline import OfflineProvider
from studybot.storage.store import Store
from studybot.study import session

README = Path(__file__).resolve().parents[2] / "README.md"
KEY = "sk-readme-tour-0123456789abcdef"
SKIPPED = {
    # the measurement times attention on the CPU for several seconds;
    # tests/test_kv_measure.py runs it with small sizes
    ("kv", "--measure"): "slow CPU timing, covered by tests/test_kv_measure.py",
}
MY_LIST = "".join(
    f"{n}. 第 {n} 个我自己的问题：什么是注意力的第 {n} 个细节？\n" for n in range(1, 9)
)


def readme_commands() -> list[list[str]]:
    """The ``studybot`` commands of the README's shell blocks, in order.

    Inline mentions in the prose (`studybot show`) name a command rather
    than show a line to type, so they are not run.
    """
    text = README.read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = re.split(r"\s{2,}#|\s#\s", line)[0]  # drop the trailing comment
            for part in line.split("&&"):  # the install line ends with the first run
                if part.strip().startswith("studybot "):
                    found.append(shlex.split(part)[1:])
    return found


def test_the_readme_shows_the_tour():
    commands = readme_commands()
    assert ["run", "--from", "1", "--to", "8"] in commands
    assert len(commands) >= 20


def unfinished_session() -> None:
    """What ``resume`` needs: a session stopped before its first answer."""
    loaded = bank.load()
    study = session.Study(loaded, OfflineProvider(loaded), config.load())
    session.start(study, Store.open(), loaded.select(9, 12))


def test_every_readme_command_runs(invoke, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my.md").write_text(MY_LIST, encoding="utf-8")
    (tmp_path / "trace.jsonl").write_text(
        "\n".join(json.dumps({"tokens": list(range(n))}) for n in (200, 260, 300)) + "\n",
        encoding="utf-8",
    )
    ran, skipped = [], []
    with OpenAIServer(key=KEY, models=["MODEL_ID"]) as server:
        for args in readme_commands():
            if tuple(args) in SKIPPED:
                skipped.append((args, SKIPPED[tuple(args)]))
                continue
            if args[0] == "resume":
                unfinished_session()
            env = None
            if "MODEL_ID" in args:  # the live section: the local server stands in for TaoToken
                env = {"TAOTOKEN_API_KEY": KEY}
                args = [*args, "--base-url", server.base_url]
            if args[:2] == ["export", "1"] and "-o" in args:
                args = [*args, "--force"]  # the tour may write the same file twice
            if "--quiz" in args or args[0] == "interview":  # a terminal: Enter at each prompt
                assert in_terminal(args) == 0, f"studybot {' '.join(args)}"
                ran.append(args)
                continue
            result = invoke(*args, env=env)
            assert result.exit_code == 0, f"studybot {' '.join(args)}\n{result.stderr}"
            ran.append(args)
    with capsys.disabled():
        for args, why in skipped:
            print(f"\nREADME tour: skipped `studybot {' '.join(args)}`: {why}")
    assert len(ran) >= 20
    assert (tmp_path / "notes.md").read_text(encoding="utf-8").startswith("# ")


def in_terminal(args: list[str]) -> int:
    """Run ``studybot ARGS`` in a pseudo-terminal, pressing Enter at every prompt; its exit code.

    Enter on an empty first line is "think, then reveal"; at the marks it
    confirms them, at the rating it takes the suggestion.
    """
    import pexpect

    env = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}
    env |= {"PROMPT_TOOLKIT_NO_CPR": "1", "NO_COLOR": "1"}
    child = pexpect.spawn(
        sys.executable, ["-m", "studybot", *args], env=env, encoding="utf-8", timeout=60
    )
    while child.expect(["›", r"u h \? q: ", r"h \? q: ", pexpect.EOF]) != 3:
        child.send("\r")
    child.close()
    return child.exitstatus


def test_bare_studybot_shows_help_and_exits_0(studybot_home):
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}
    result = subprocess.run(
        [sys.executable, "-m", "studybot"], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Usage: studybot") and "run " in result.stdout
    assert result.stderr == ""


def test_a_chapter_the_bank_lacks_is_bad_input(invoke):
    result = invoke("bank", "list", "--chapter", "99")
    assert result.exit_code == 2
    assert "no chapter 99" in result.stderr and "1–14" in result.stderr


def test_sessions_stay_one_row_each_at_80_columns(invoke, monkeypatch):
    invoke("run", "--from", "1", "--to", "3")
    invoke("run", "--from", "9", "--to", "12")
    monkeypatch.setenv("COLUMNS", "80")
    lines = invoke("sessions").stdout.splitlines()
    assert len(lines) == 3 and all(len(line.rstrip()) <= 80 for line in lines)
    assert lines[1].split()[:4] == ["2", "finished", "9–12", "4/4"]


def plan_figures() -> tuple[list[str], str]:
    """The README's ``plan`` command for the whole bank, and the paragraph that quotes it."""
    text = README.read_text(encoding="utf-8")
    section = text.split("### The numbers", 1)[1].split("\n### ", 1)[0]
    command = re.search(r"```sh\n(studybot plan [^\n]*)\n```", section)
    assert command, "The numbers: the plan command the figures come from is not in a sh block"
    prose = " ".join(section[command.end() :].split())
    return shlex.split(command.group(1))[1:], prose


def test_the_readme_quotes_what_plan_prints(invoke):
    args, prose = plan_figures()
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    seg, single = data["strategies"]["segmented"], data["strategies"]["single"]
    floor = data["floor_uncached_prompt_tokens"]
    quoted = {
        r"re-sends ([\d,]+) prompt tokens": f"{single['prompt_tokens']:,}",
        r"passes a 32K window at Q(\d+)": str(data["break_point"]["single"]),
        r"an 8K window at Q(\d+)": str(data["break_point"]["single_8k"]),
        r"studybot's (\d+) segments": str(data["segments"]),
        r"segments send ([\d,]+) \(": f"{seg['prompt_tokens']:,}",
        r"\(([\d.]+)× fewer\)": f"{single['prompt_tokens'] / seg['prompt_tokens']:.1f}",
        r"peak at ([\d,]+) tokens of context": f"{seg['peak_context_tokens']:,}",
        r"prefills ([\d.]+)× the floor": f"{seg['uncached_prompt_tokens'] / floor:.2f}",
        r"one long chat ([\d.]+)×;": f"{single['uncached_prompt_tokens'] / floor:.2f}",
        r"the whole ([\d,]+)-token system prefix": f"{data['prefixes']['designed']['system_tokens']:,}",
        r"the run costs ([\d.]+) CNY": f"{seg['cost']['total']:.2f}",
        r"against ([\d.]+) CNY for one long chat": f"{single['cost']['total']:.2f}",
    }
    found = {pattern: re.search(pattern, prose) for pattern in quoted}
    assert all(found.values()), [p for p, m in found.items() if m is None]
    stale = {p: (m.group(1), quoted[p]) for p, m in found.items() if m.group(1) != quoted[p]}
    assert not stale, f"README figure (quoted, what plan prints): {stale}"
