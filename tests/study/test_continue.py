"""The last summary is written when something reads it: a continuing run, or export."""

from __future__ import annotations

import json

from studybot import bank
from studybot.costs import tokens
from studybot.study import prompt


def show(invoke, session_id: int) -> dict:
    result = invoke("show", str(session_id), "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_a_run_that_continues_a_session_starts_from_its_last_summary(invoke):
    assert invoke("run", "--from", "1", "--to", "8").exit_code == 0
    first = show(invoke, 1)
    assert first["status"] == "finished"
    assert first["segments"][-1]["summary_out"] is None  # nothing read it yet
    result = invoke("run", "--from", "9", "--to", "16")
    assert result.exit_code == 0, result.stderr
    assert "Continuing session 1" in result.stderr
    before, after = show(invoke, 1), show(invoke, 2)
    carried = before["segments"][-1]["summary_out"]
    assert carried and before["segments"][-1]["summary_usage"]["prompt_tokens"] > 0
    assert after["segments"][0]["summary_in"] == carried
    # the continuing run's first request opens with it, after the stable prefix
    requests = json.loads(invoke("cache", "2", "--json").stdout)["requests"]
    assert requests[0]["kind"] == "answer" and requests[0]["question"] == 9
    assert "Q1：" in carried and "Q8：" in carried


def test_fresh_starts_without_and_a_gap_carries_nothing(invoke):
    invoke("run", "--from", "1", "--to", "8")
    fresh = invoke("run", "--from", "9", "--to", "12", "--fresh")
    assert fresh.exit_code == 0 and "Continuing" not in fresh.stderr
    assert show(invoke, 2)["segments"][0]["summary_in"] is None
    assert show(invoke, 1)["segments"][-1]["summary_out"] is None  # still unwritten
    gap = invoke("run", "--from", "20", "--to", "24")
    assert gap.exit_code == 0 and "Continuing" not in gap.stderr
    assert show(invoke, 3)["segments"][0]["summary_in"] is None


def test_export_writes_an_offline_sessions_last_summary_for_free(invoke, tmp_path):
    invoke("run", "--from", "1", "--to", "8")
    notes = tmp_path / "notes.md"
    assert invoke("export", "1", "-f", "md", "-o", str(notes)).exit_code == 0
    summary = show(invoke, 1)["segments"][-1]["summary_out"]
    assert summary and summary.splitlines()[0] in notes.read_text(encoding="utf-8")


def test_the_session_kv_peak_includes_summary_requests(invoke):
    invoke("run", "--from", "1", "--to", "19")  # segment 2's summary request is the peak
    data = show(invoke, 1)
    summaries = [s["summary_usage"] for s in data["segments"] if s["summary_usage"]]
    assert summaries
    peak = max(
        [t["context_tokens"] for t in data["turns"]]
        + [s["prompt_tokens"] + s["completion_tokens"] for s in summaries]
    )
    assert data["kv"]["peak_tokens"] == peak
    assert peak > max(t["context_tokens"] for t in data["turns"])


def test_the_short_prefix_setting_is_what_a_run_sends(invoke):
    from studybot.channel import files
    from studybot.storage.store import Store

    path = files.config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('prefix_style = "short"\n', encoding="utf-8")
    assert invoke("run", "--from", "1", "--to", "6").exit_code == 0
    loaded = bank.load()
    assert Store.open().session(1).prefix == prompt.system_prefix(loaded, "short")
    requests = json.loads(invoke("cache", "1", "--json").stdout)["requests"]
    designed = len(tokens.message_ids("system", prompt.system_prefix(loaded)))
    assert requests[0]["tokens"] < designed
    path.write_text('prefix_style = "long"\n', encoding="utf-8")
    bad = invoke("plan", "--from", "1", "--to", "5")
    assert bad.exit_code == 2 and "prefix_style 'long'" in bad.stderr


def test_the_designed_prefix_is_byte_stable_and_lint_clean_across_sessions(invoke):
    invoke("run", "--from", "1", "--to", "8")
    invoke("run", "--from", "100", "--to", "110")
    from studybot.storage.store import Store

    store = Store.open()
    assert store.session(1).prefix.encode() == store.session(2).prefix.encode()
    assert store.session(1).prefix == prompt.system_prefix(bank.load())
    for session_id in ("1", "2"):
        result = invoke("cache", session_id, "--lint")
        assert result.exit_code == 0 and "Lint: no volatile content" in result.stdout
