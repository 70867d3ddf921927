"""The preview names the option that takes the asking lines it lists as not taken (issue 34,
item 2), and nothing when no reading is clearly better. The files are written here, in the
shapes of real ones: a notebook whose later cells the default reading leaves, and a README
whose contents list repeats its questions over an answered list.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import replace

from imported import notebook_text

from studybot import bank
from studybot.bank.importer.steer import Reading, _better

CELLS = [
    "# ML interview notes",
    "## Concepts",
    "What is regularisation?\n- penalises large weights\n- L1 and L2 are the usual two",
    "How does dropout work?\n- zeroes activations at random\n- scales the rest up",
    "Bagging & boosting how they differ?\n- bagging trains in parallel\n"
    "- what's the catch with boosting: it chases noisy labels\n"
    "- boosting trains one after another\n- out-of-bag error: needs explanation\n"
    "- learning rate: needs explanation",
    "What is a learning curve?\n- error against training set size",
    "What is a decision stump?\n- a tree of depth one\n\nWhy use stumps in boosting?\n"
    "- weak learners add up\n\nWhat limits a single stump?\n- it splits on one feature only",
    "Explain batch normalisation:\n- normalises each mini-batch\n- then scales and shifts",
    "Does Adam always converge?\n- not on every problem\n- a decaying rate helps",
    "What does a ROC curve show?\n- true positive rate against false positive rate",
    "Why stratify a split?\n- keeps the class balance in each part",
]

LEFT = [  # what the default reading leaves: every cell after the boosting one
    ("cell 6, line 1", "What is a learning curve?"),
    ("cell 7, line 1", "What is a decision stump?"),
    ("cell 7, line 4", "Why use stumps in boosting?"),
    ("cell 7, line 7", "What limits a single stump?"),
    ("cell 8, line 1", "Explain batch normalisation:"),
    ("cell 9, line 1", "Does Adam always converge?"),
    ("cell 10, line 1", "What does a ROC curve show?"),
    ("cell 11, line 1", "Why stratify a split?"),
]

CONTENTS = """# OS interview

* Processes
    * [What is the difference between a process and a thread?](#process-and-thread)
    * [How do processes talk to each other?](#how-processes-talk)
    * [What is a zombie process?](#zombie)
* Locks
    * [What is a deadlock?](#deadlock)
    * [How can a deadlock be avoided?](#avoiding-deadlock)

### What is the difference between a process and a thread?
A process owns an address space; the threads of a process share it.

### How do processes talk to each other?
Pipes, sockets, shared memory and signals.

### What is a zombie process?
A child that has exited and that its parent has not waited for.

### What is a deadlock?
Tasks that each hold a lock another one waits for.

### How can a deadlock be avoided?
Take locks in one global order, or give up and retry after a timeout.

### Scheduling

1. If a parent forks three children and never calls wait,
   how many zombies are left once they exit?
2. Which scheduler does Linux use for normal tasks, and
   why does it keep runnable tasks in a red-black tree?
"""


def _notebook(tmp_path):
    path = tmp_path / "notes.ipynb"
    path.write_text(notebook_text(*(("markdown", text) for text in CELLS)), encoding="utf-8")
    return path


def test_a_notebook_whose_later_cells_are_left_is_steered_to_lines_and_the_run_line_takes_them(
    invoke, tmp_path
):
    path = _notebook(tmp_path)
    shown = invoke("bank", "import", str(path), "--preview")
    assert shown.exit_code == 0, shown.stderr
    out = shown.stdout
    assert "Took 4 question(s): 4 of the file's 12 asking line(s), 0 that do not ask." in out
    assert "Asking lines not taken (8):\n" + "".join(f"  {w}: {t}\n" for w, t in LEFT) in out
    assert (
        "Try --questions lines: 12 questions, 11 asking with an answer, 0 non-asking "
        "(12 of 12 asking lines, 8 of those not taken)" in out
    )
    last = out.rstrip("\n").split("\n")[-1]
    assert last == f"Run: studybot bank import {path} --name notes --questions lines"
    run = invoke(*shlex.split(last.removeprefix("Run: studybot ")))
    assert run.exit_code == 0, run.stderr
    saved = bank.load("notes").questions
    asked = [text for text in (cell.split("\n")[0] for cell in CELLS[2:]) if text]
    assert [q.question for q in saved] == [
        *asked[:3],
        "what's the catch with boosting: it chases noisy labels",
        *(text for _, text in LEFT),
    ]
    answers = {q.question: q.reference for q in saved}
    assert answers["What limits a single stump?"] == "- it splits on one feature only"
    assert answers["Why stratify a split?"] == "- keeps the class balance in each part"
    again = invoke("bank", "import", str(path), "--preview", "--questions", "lines")
    assert "Asking lines not taken" not in again.stdout and "Try --questions" not in again.stdout


def test_a_contents_list_that_repeats_the_questions_is_not_left_and_no_option_is_named(
    invoke, tmp_path
):
    path = tmp_path / "os.md"
    path.write_text(CONTENTS, encoding="utf-8")
    shown = invoke("bank", "import", str(path), "--preview", "--json")
    steer = json.loads(shown.stdout)["steer"]
    # the contents entries were imported as the headings' questions; what is left sits in
    # the answer taken under "Scheduling", each wrapped item in two lines
    assert [a["where"].rsplit(":", 1)[1] for a in steer["asking_not_taken"]] == [
        "29",
        "30",
        "31",
    ]
    assert steer["suggestion"] is None  # 'lines' would cut each wrapped question in two
    lines = next(r for r in steer["readings"] if r["option"] == "--questions lines")
    assert lines["takes_not_taken"] == 3 and lines["asking"] > steer["taken"]["asking"]
    text = invoke("bank", "import", str(path), "--preview").stdout
    assert "line 4:" not in text and "Try --questions" not in text
    assert text.rstrip("\n").split("\n")[-1] == f"Run: studybot bank import {path} --name os"


def test_a_reading_that_takes_the_lines_left_is_named_unless_it_loses_or_cuts_answers():
    previewed = Reading("", 16, 13, 3, answered=12)
    lines = Reading("--questions lines", 30, 30, 0, answered=26, gained=13, dropped=3, split=2)
    assert _better(previewed, [lines]) == lines
    assert _better(previewed, [replace(lines, lost=1)]) is None  # an asking answer lost
    assert _better(previewed, [replace(lines, split=4)]) is None  # more than 1 cut in 4
    assert _better(previewed, [replace(lines, dropped=7)]) is None  # more than 1 title in 2
    assert _better(previewed, [replace(lines, gained=2)]) is None  # not clearly more
    assert _better(previewed, [replace(lines, refused=True)]) is None  # --force not needed
