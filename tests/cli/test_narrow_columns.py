"""``COLUMNS=0`` (or any width below 20) draws as 80 columns, never nothing (#29 item 12).

rich takes ``COLUMNS`` as the width and draws nothing at 0; studybot exited
0 with an empty stdout. Each report is run piped and in a pseudo-terminal.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect
import pytest

ROOT = Path(__file__).resolve().parents[2]
REPORTS = [
    ("bank", "show", "23"),
    ("bank", "list"),
    ("plan", "--from", "1", "--to", "8"),
    ("progress",),
    ("kv",),
]


@pytest.fixture
def studied(invoke):
    assert invoke("run", "--from", "1", "--to", "3").exit_code == 0


@pytest.mark.parametrize("command", REPORTS, ids=" ".join)
@pytest.mark.parametrize("columns", ["0", "1", "19"])
def test_a_width_below_20_prints_what_80_columns_print(invoke, studied, command, columns):
    usual = invoke(*command, env={"COLUMNS": "80"})
    narrow = invoke(*command, env={"COLUMNS": columns})
    assert usual.exit_code == narrow.exit_code == 0, narrow.stderr
    assert usual.stdout.strip()
    assert narrow.stdout == usual.stdout


@pytest.mark.parametrize("command", REPORTS, ids=" ".join)
def test_columns_0_in_a_terminal_draws_the_report(studybot_home, studied, command):
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}
    env.update(PYTHONPATH=str(ROOT), STUDYBOT_HOME=str(studybot_home), COLUMNS="0", LINES="40")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "studybot", *command],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(40, 100),
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    longest = max(len(line) for line in child.before.splitlines())
    assert len(child.before.strip()) > 100 and longest > 20
