"""An interview's figures (issue 31.4): `show` suggests a plan of the same questions and mode,
and the plan counts the probes and gradings a live interview sends, offline too."""

from __future__ import annotations

import json
import re
import shlex

from scripted import ScriptedInterview, interview


def suggested_plan(invoke, session_id: int) -> list[str]:
    """The `studybot plan …` that `show` suggests, as the words a user would type."""
    shown = invoke("show", str(session_id), env={"COLUMNS": "400"}).stdout
    line = re.search(r"studybot plan [^\n]*", shown).group()
    return shlex.split(line)[1:]


def test_show_of_an_interview_suggests_a_plan_of_its_ids_and_mode(invoke):
    record = interview(ScriptedInterview({}), ids=[5, 22, 24], followups=2)
    words = suggested_plan(invoke, record.id)
    assert words[:6] == ["plan", "--ids", "5,22,24", "--mode", "interview", "--price-input"]
    planned = invoke(*words, "--json")
    assert planned.exit_code == 0, planned.stderr
    data = json.loads(planned.stdout)
    assert data["questions"] == [5, 22, 24] and data["mode"] == "interview"
    # each of 3 questions: its grading, 2 probes, each probe's answer graded
    kinds = data["kinds"]
    assert kinds["answer"]["requests"] == 3
    assert kinds["probe"]["requests"] == 6 and kinds["grading"]["requests"] == 9
    assert data["cost"]["total"] > 0  # priced at the suggested prices


def test_an_interview_with_other_followups_plans_those(invoke):
    record = interview(ScriptedInterview({}), first=1, last=3, followups=1)
    words = suggested_plan(invoke, record.id)
    assert words[:8] == ["plan", "--from", "1", "--to", "3", "--mode", "interview", "--followups"]
    assert words[8] == "1"


def test_a_read_run_of_a_chapter_suggests_the_chapter(invoke):
    assert invoke("run", "--chapter", "1").exit_code == 0
    assert suggested_plan(invoke, 1)[:3] == ["plan", "--chapter", "1"]
    assert "--mode" not in suggested_plan(invoke, 1)


def test_the_offline_plan_shows_the_side_requests_a_live_interview_sends(invoke, monkeypatch):
    ask = ("plan", "--ids", "5,22,24", "--mode", "interview")
    offline = invoke(*ask, env={"COLUMNS": "100"})
    assert offline.exit_code == 0, offline.stderr
    rows = {line.split("│")[1].strip() for line in offline.stdout.splitlines() if "│" in line}
    assert {"main (asks)", "grading", "probe"} <= rows
    assert "offline: the probe and grading rows are what a live run sends" in " ".join(
        offline.stdout.split()
    )
    counts = json.loads(invoke(*ask, "--json").stdout)["kinds"]
    monkeypatch.setenv("TAOTOKEN_API_KEY", "sk-plan-0123456789abcdef")
    live = json.loads(invoke(*ask, "--json").stdout)["kinds"]
    assert {k: v["requests"] for k, v in counts.items()} == {
        k: v["requests"] for k, v in live.items()
    }


def test_plan_takes_the_selections_run_takes(invoke):
    by_ids = json.loads(invoke("plan", "--ids", "5,22,24", "--json").stdout)
    assert by_ids["questions"] == [5, 22, 24]
    assert [r["question"] for r in by_ids["strategies"]["single"]["requests"]] == [5, 22, 24]
    shown = invoke("plan", "--ids", "5,22,24", env={"COLUMNS": "200"}).stdout
    assert shown.startswith("Plan Q5, Q22, Q24 · 1 segment ·")
    chapter = json.loads(invoke("plan", "--chapter", "1", "--json").stdout)
    assert chapter["questions"] == list(range(1, 9))
    nothing = invoke("plan")
    assert nothing.exit_code == 2 and "nothing chosen" in nothing.stderr
