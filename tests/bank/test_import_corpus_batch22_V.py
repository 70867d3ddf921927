"""Failure classes a twenty-second batch of real public question files showed (issue 34), part V.

Each file here is written for the test, in the shape those files had: a JSON study
plan whose questions are text lists nested in records (``tracks[].items[].drills``).
"""

from __future__ import annotations

import json

import pytest
from imported import previewed, questions, read

from studybot.errors import BankError

_PLAN = json.dumps(
    {
        "day": 3,
        "title": "Graphs and sampling",
        "tracks": [
            {
                "label": "Algorithms",
                "items": [
                    {
                        "id": "bfs",
                        "label": "Breadth-first search",
                        "href": "https://example.org/bfs",
                        "interviewQuestions": [
                            "Why does BFS find shortest paths in unweighted graphs?",
                            "How would you run BFS when the graph does not fit in memory?",
                        ],
                    },
                    {
                        "id": "topo",
                        "label": "Topological sort",
                        "interviewQuestions": ["When does Kahn's algorithm detect a cycle?"],
                    },
                ],
            }
        ],
        "references": [{"label": "A book", "href": "https://example.org/book"}],
    },
    indent=1,
)

# the questions are not named like questions and most do not ask: only --map reads them
_DRILLS = json.dumps(
    {
        "day": 4,
        "blocks": [
            {
                "heading": "Trees",
                "drills": ["Why are B-trees shallow?", "fan-out of a page", "split on insert"],
                "links": ["https://example.org/trees"],
            },
            {"heading": "Heaps", "drills": ["sift down", "build in linear time"]},
        ],
    }
)


def test_question_lists_nested_in_records_are_read_by_default(invoke, tmp_path):
    report = read(tmp_path, _PLAN, "plan.json")
    assert questions(report) == [
        "Why does BFS find shortest paths in unweighted graphs?",
        "How would you run BFS when the graph does not fit in memory?",
        "When does Kahn's algorithm detect a cycle?",
    ]
    assert report.bank.title == "Graphs and sampling"
    titles = {c.number: c.title for c in report.bank.chapters}
    chapters = [titles[q.chapter] for q in report.bank.questions]
    assert chapters == ["Breadth-first search", "Breadth-first search", "Topological sort"]
    said = previewed(invoke, tmp_path, _PLAN, "plan.json")
    assert "Total: 3 question(s) in 2 chapter(s)" in said


def test_the_refusal_names_the_map_that_reads_nested_lists(invoke, tmp_path):
    path = tmp_path / "drills.json"
    path.write_text(_DRILLS, encoding="utf-8")
    preview = invoke("bank", "import", str(path), "--preview")
    assert preview.exit_code != 0
    said = " ".join(preview.stderr.split())
    assert "expected a list of questions" in said
    assert "Hint: --map question=drills reads the texts listed under 'drills'" in said


def test_map_reaches_a_nested_key_by_its_name_or_its_dotted_path(invoke, tmp_path):
    for key in ("drills", "blocks.drills"):
        report = read(tmp_path, _DRILLS, "drills.json", mapping=(("question", key),))
        assert questions(report) == [
            "Why are B-trees shallow?",
            "fan-out of a page",
            "split on insert",
            "sift down",
            "build in linear time",
        ]
        titles = {c.number: c.title for c in report.bank.chapters}
        chapters = [titles[q.chapter] for q in report.bank.questions]
        assert chapters == ["Trees"] * 3 + ["Heaps"] * 2
        said = previewed(invoke, tmp_path, _DRILLS, "drills.json", "--map", f"question={key}")
        assert f"--map question={key}" in said.split("Run:")[-1]


def test_a_map_naming_another_path_reads_nothing_there(tmp_path):
    with pytest.raises(BankError) as refused:
        read(tmp_path, _DRILLS, "drills.json", mapping=(("question", "other.drills"),))
    assert "expected a list of questions" in str(refused.value)
    assert "--map question=drills" in str(refused.value.hint)
