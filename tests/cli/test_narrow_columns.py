"""``COLUMNS=0`` (or any width below 20) draws as 80 columns, never nothing (#29 item 12).

rich takes ``COLUMNS`` as the width and draws nothing at 0; studybot exited
0 with an empty stdout. Each report is run piped and in a pseudo-terminal.
"""

from __future__ import annotations

import pytest
from screens import on_terminal

REPORTS = [
    ("bank", "show", "23"),
    ("bank", "list"),
    ("plan", "--from", "1", "--to", "8"),
    ("progress",),
    ("kv",),
]


@pytest.fixture
def read_three(invoke):
    assert invoke("run", "--from", "1", "--to", "3").exit_code == 0


@pytest.mark.parametrize("command", REPORTS, ids=" ".join)
@pytest.mark.parametrize("columns", ["0", "1", "19"])
def test_a_width_below_20_prints_what_80_columns_print(invoke, read_three, command, columns):
    usual = invoke(*command, env={"COLUMNS": "80"})
    narrow = invoke(*command, env={"COLUMNS": columns})
    assert usual.exit_code == narrow.exit_code == 0, narrow.stderr
    assert usual.stdout.strip()
    assert narrow.stdout == usual.stdout


@pytest.mark.parametrize("command", REPORTS, ids=" ".join)
def test_columns_0_in_a_terminal_draws_the_report(studybot_home, read_three, command):
    text = on_terminal(studybot_home, command, 100, COLUMNS="0", LINES="40")
    longest = max(len(line) for line in text.splitlines())
    assert len(text.strip()) > 100 and longest > 20
