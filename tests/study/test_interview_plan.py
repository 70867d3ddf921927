"""``plan --mode interview`` projects what ``studybot interview`` sends (issue 23.6)."""

from __future__ import annotations

import json

from scripted import ScriptedInterview, interview

from studybot import bank
from studybot.channel import config
from studybot.storage.store import Store
from studybot.study import interview_plan
from studybot.study.recorded import session_requests


def test_the_plan_sends_the_bytes_an_offline_interview_sent():
    record = interview(ScriptedInterview({}), first=20, last=35, followups=2)
    sent = session_requests(Store.open().view(record.id))
    settings = config.load({"offline": True})
    planned = interview_plan.project(bank.load(None), 20, 35, settings, followups=2)
    mains = [r for r in planned.strategy.requests if r.kind == "answer"]
    assert len(mains) == 16 and planned.segments == len(Store.open().segments(record.id))
    recorded = [r for r in sent if r.kind == "answer"]
    assert len(recorded) == 16
    from studybot.costs import tokens

    assert [r.prompt_tokens for r in mains] == [tokens.prompt_tokens(r.messages) for r in recorded]
    # the offline run sent no side request; its plan counts them as a live run sends them
    assert set(planned.by_kind()) == {"answer", "summary", "probe", "grading"}


def test_a_live_plan_counts_probes_and_gradings_as_side_requests(invoke, monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", "sk-plan-0123456789abcdef")
    result = invoke(
        "plan", "--from", "20", "--to", "35", "--mode", "interview", "--followups", "2", "--json"
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    kinds = data["kinds"]
    assert data["live"] and kinds["answer"]["requests"] == 16
    assert kinds["probe"]["requests"] == 32 and kinds["grading"]["requests"] == 48
    assert kinds["probe"]["cached"] > 0  # a side request shares the segment's cached prefix
    fewer = json.loads(
        invoke(
            "plan",
            "--from",
            "20",
            "--to",
            "35",
            "--mode",
            "interview",
            "--followups",
            "0",
            "--json",
        ).stdout
    )
    assert "probe" not in fewer["kinds"] and fewer["kinds"]["grading"]["requests"] == 16


def test_the_commands_default_followups_is_the_interviews():
    """`interview` and `plan --mode interview` show the default the interview uses."""
    from studybot.cli.common import FOLLOWUPS
    from studybot.study.interview import DEFAULT_FOLLOWUPS

    assert FOLLOWUPS == DEFAULT_FOLLOWUPS
