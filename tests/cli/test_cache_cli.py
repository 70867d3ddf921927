"""``cache SESSION``, ``cache replay``, the prefix lint, and the offline provider's cached tokens."""

from __future__ import annotations

import json
import sys

import pytest

from studybot import bank
from studybot.channel import config, files, providers
from studybot.storage.store import Store
from studybot.study import session


def cache_json(invoke, *args):
    result = invoke("cache", *args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_every_request_after_the_first_hits_the_cache(invoke):
    assert invoke("run", "--from", "1", "--to", "12").exit_code == 0
    data = cache_json(invoke, "1")
    requests = data["requests"]
    kinds = [r["kind"] for r in requests]
    assert kinds.count("answer") == 12 and kinds.count("summary") == 1
    assert requests[0]["hit"] == 0
    assert all(r["hit"] > 0 for r in requests[1:])
    # within a segment each request extends the previous one, and hits all of it
    for before, after in zip(requests, requests[1:], strict=False):
        if after["diverges_at"] is None:
            assert after["hit"] == before["tokens"]
    # the next segment starts over from the summary: it leaves the previous
    # request right after the shared system prefix
    splits = [r for r in requests if r["diverges_at"] is not None]
    assert len(splits) == 1 and splits[0]["segment"] == 2 and splits[0]["question"] == 7
    assert splits[0]["hit"] == splits[0]["diverges_at"]
    assert "上一段小结" in splits[0]["snippet"]
    total = sum(r["tokens"] for r in requests)
    assert data["hit_rate"] == pytest.approx(sum(r["hit"] for r in requests) / total, abs=1e-6)


def test_the_table_names_the_split_and_the_lint_is_clean_for_studybots_prefix(invoke):
    invoke("run", "--from", "1", "--to", "12")
    result = invoke("cache", "1", "--lint")
    assert result.exit_code == 0, result.stderr
    assert "request 8 leaves request 7 at token" in result.stdout
    assert "Lint: no volatile content" in result.stdout


def test_offline_cached_tokens_follow_the_provider_rule(invoke):
    invoke("run", "--from", "1", "--to", "8")
    turns = json.loads(invoke("show", "1", "--json").stdout)["turns"]
    cached = [t["cached_tokens"] for t in turns]
    simulated = cache_json(invoke, "1", "--mode", "provider")["requests"]
    assert cached == [r["hit"] for r in simulated if r["kind"] == "answer"]
    assert cached == [r["reported_cached"] for r in simulated if r["kind"] == "answer"]
    # nothing under 1024 prompt tokens; above it, whole 128-token steps
    for turn in turns:
        assert turn["cached_tokens"] % 128 == 0
        if turn["prompt_tokens"] < 1024:
            assert turn["cached_tokens"] == 0
    assert any(t["cached_tokens"] >= 1024 for t in turns)


class QuitAfter:
    def __init__(self, question_id):
        self.question_id = question_id

    def __getattr__(self, name):
        return getattr(session.Listener(), name)

    def after_answer(self, question, suggestion):
        return session.QUIT if question.id == self.question_id else session.NEXT


@pytest.mark.parametrize("rule", ["openai", "deepseek"])
def test_cached_tokens_after_resume_match_an_uninterrupted_run(invoke, rule):
    path = files.config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'cache_rule = "{rule}"\n', encoding="utf-8")  # deepseek also keeps outputs
    invoke("run", "--from", "1", "--to", "8")
    whole = [t["cached_tokens"] for t in json.loads(invoke("show", "1", "--json").stdout)["turns"]]

    settings = config.load({"offline": True})
    loaded = bank.load()
    provider, _ = providers.choose(settings, loaded)
    study = session.Study(loaded, provider, settings)
    store = Store.open()
    record = session.start(study, store, loaded.select(1, 8))
    with pytest.raises(session.Stopped):
        session.run(study, store, record, QuitAfter(5))
    resumed = invoke("resume", str(record.id))
    assert resumed.exit_code == 0, resumed.stderr
    again = [
        t["cached_tokens"]
        for t in json.loads(invoke("show", str(record.id), "--json").stdout)["turns"]
    ]
    assert again == whole
    assert again[5] > 0  # the first resumed request hits what was sent before the stop


def plant_timestamps(store, session_id):
    """Give every turn of a session its own prefix, stamped with the time it was sent."""
    record = store.session(session_id)
    for n, turn in enumerate(store.turns(session_id), start=1):
        stamped = f"当前时间：2025-03-0{n} 10:{n:02d}:00\n" + record.prefix
        digest = store.remember_prefix(stamped)
        store.db.execute(
            "update turns set prefix_sha256 = ? where session_id = ? and question_id = ?",
            [digest, session_id, turn.question_id],
        )


def test_lint_catches_a_planted_timestamp(invoke):
    invoke("run", "--from", "1", "--to", "5")
    store = Store.open()
    plant_timestamps(store, 1)
    result = invoke("cache", "1", "--lint")
    assert result.exit_code == 1
    assert "Lint [date]" in result.stdout and "Lint [time]" in result.stdout
    assert "2025-03-01 10:01:00" in result.stdout
    assert "Lint [changed]" in result.stdout
    data = json.loads(invoke("cache", "1", "--lint", "--json").stdout)
    kinds = {f["kind"]: f for f in data["lint"]}
    assert {"date", "time", "changed"} <= set(kinds)
    assert kinds["changed"]["requests"][:2] == [2, 3]
    # the timestamp sits at the very top: every question's request leaves the
    # previous one within its first few tokens, and hits next to nothing
    answers = [r for r in data["requests"] if r["kind"] == "answer"]
    assert all(r["diverges_at"] < 16 and r["hit"] < 16 for r in answers[1:])


def test_lint_flags_uuids_random_ids_and_reordered_lists_but_not_model_names():
    from studybot.costs.cache.lint import lint

    base = "可用工具：search, calculator, browser\n模型：Qwen2.5-72B-Instruct 与 deepseek-chat"
    assert lint([base, base]) == []
    kinds = {f.kind for f in lint([base + "\n请求 3f2b8c1e-9a4d-4e6f-b2a1-7c5d9e0f1a2b"])}
    assert kinds == {"uuid"}
    assert {f.kind for f in lint([base + "\nreq_8f3a9c2b7d1e4f60a5"])} == {"random-id"}
    reordered = base.replace("search, calculator, browser", "browser, search, calculator")
    findings = lint([base, reordered])
    assert [f.kind for f in findings] == ["reordered"] and findings[0].requests == (2,)
    assert [f.kind for f in lint([base, base.replace("工具", "插件")])] == ["changed"]


def test_a_run_warns_once_about_a_volatile_prefix(invoke, tmp_path):
    folder = tmp_path / "dated"
    folder.mkdir()
    (folder / "bank.toml").write_text(
        'title = "冲刺题单 2025-03-01 版"\nlanguage = "zh-CN"\n\n[[chapters]]\nnumber = 1\n'
        'title = "导论"\nfile = "01.toml"\nfirst = 1\nlast = 2\n',
        encoding="utf-8",
    )
    (folder / "01.toml").write_text(
        "chapter = 1\n\n"
        + "".join(
            f'[[questions]]\nid = {n}\nquestion = "第{n}个问题是什么？"\n'
            f'key_points = ["要点一{n}", "要点二{n}", "要点三{n}"]\n\n'
            for n in (1, 2)
        ),
        encoding="utf-8",
    )
    result = invoke("run", "--from", "1", "--to", "2", "--bank", str(folder))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.count("Warning: the system prefix contains a date") == 1
    clean = invoke("run", "--from", "1", "--to", "2")
    assert "Warning" not in clean.stderr


def test_replay_a_trace_file(invoke, tmp_path):
    trace = tmp_path / "trace.jsonl"
    rows = [[1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [1, 2, 9], [7]]
    trace.write_text("\n".join(json.dumps({"tokens": r}) for r in rows) + "\n", encoding="utf-8")
    data = cache_json(invoke, "replay", str(trace))
    assert set(data) == {"requests", "hit_rate", "elapsed_s"}
    assert data["requests"] == [
        {"tokens": 4, "hit": 0},
        {"tokens": 6, "hit": 4},
        {"tokens": 3, "hit": 2},
        {"tokens": 1, "hit": 0},
    ]
    assert data["hit_rate"] == pytest.approx(6 / 14, abs=1e-6)
    paged = cache_json(invoke, "replay", str(trace), "--page-size", "2")
    assert [r["hit"] for r in paged["requests"]] == [0, 4, 2, 0]
    blocks = cache_json(invoke, "replay", str(trace), "--mode", "blocks", "--block-size", "4")
    assert [r["hit"] for r in blocks["requests"]] == [0, 4, 0, 0]
    text = invoke("cache", "replay", str(trace))
    assert "4 requests · 14 tokens · hit 6 (42.9%)" in text.stdout and "tokens/s" in text.stdout


def test_a_bad_trace_or_session_is_a_usage_error(invoke, tmp_path):
    trace = tmp_path / "bad.jsonl"
    trace.write_text('{"tokens": [1, 2]}\n{"tokens": [1, "x"]}\n', encoding="utf-8")
    result = invoke("cache", "replay", str(trace))
    assert result.exit_code == 2 and f"{trace}:2" in result.stderr
    missing = invoke("cache", "replay", str(tmp_path / "none.jsonl"))
    assert missing.exit_code == 2 and "cannot read" in missing.stderr
    unknown = invoke("cache", "42")
    assert unknown.exit_code == 2 and "no session 42" in unknown.stderr


@pytest.mark.parametrize(
    "line",
    [
        '{"tokens": [1, true]}',
        '{"tokens": [1, -2]}',
        '{"tokens": [1, 2.5]}',
        '{"tokens": [1, 4294967296]}',
        '{"tokens": [1,, 2]}',
        '{"ids": [1, 2]}',
        '{"tokens": "1, 2"}',
        '{"source": "true", "tokens": [false]}',
    ],
)
def test_every_malformed_id_is_rejected_with_its_line(tmp_path, line):
    from studybot.costs.cache.replay import load_trace
    from studybot.errors import BadInput

    trace = tmp_path / "bad.jsonl"
    trace.write_text('{"tokens": [1, 2]}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(BadInput, match=":2: expected"):
        load_trace(trace)


def test_a_trace_loads_into_uint32_arrays_whatever_the_line_shape(tmp_path):
    from studybot.costs.cache.replay import load_trace

    trace = tmp_path / "trace.jsonl"
    lines = [
        '{"tokens": [1, 2, 4294967295]}',  # the usual shape
        '{"id": 7, "tokens": [3,4]}',  # another shape: the JSON path
        '{"tokens": []}',
        '  {"tokens": [5]}  ',
    ]
    trace.write_text("\n".join(lines) + "\n\n", encoding="utf-8")
    loaded = load_trace(trace)
    assert [list(ids) for ids in loaded] == [[1, 2, 4294967295], [3, 4], [], [5]]
    assert {ids.itemsize for ids in loaded} == {4}


@pytest.mark.parametrize("numpy_installed", [True, False])
def test_the_bulk_loader_and_its_fallback_agree_and_name_the_bad_line(
    tmp_path, monkeypatch, numpy_installed
):
    from studybot.costs.cache.replay import load_trace
    from studybot.errors import BadInput

    if not numpy_installed:
        monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now fails
    good = [[7, 0, 4294967295], list(range(300)), [12, 13], [99]]
    lines = [json.dumps({"tokens": ids}) for ids in good]
    trace = tmp_path / "trace.jsonl"
    trace.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert [list(ids) for ids in load_trace(trace)] == good
    for bad in (
        '{"tokens": [1, 2,]}',
        '{"tokens": [1 2]}',
        '{"tokens": [+1]}',
        '{"tokens": [0x1]}',
    ):
        trace.write_text("\n".join([*lines[:3], bad, lines[3]]) + "\n", encoding="utf-8")
        with pytest.raises(BadInput, match=r"trace\.jsonl:4: expected"):
            load_trace(trace)


def test_a_packed_trace_replays_exactly_like_its_jsonl(invoke, tmp_path):
    trace = tmp_path / "trace.jsonl"
    good = [[1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [], [1, 2, 9, 4294967295]]
    trace.write_text("".join(json.dumps({"tokens": ids}) + "\n" for ids in good), encoding="utf-8")
    packed = tmp_path / "trace.packed"
    made = invoke("cache", "pack", str(trace), "-o", str(packed))
    assert made.exit_code == 0, made.stderr
    assert "4 requests, 14 tokens" in made.stderr
    for args in ([], ["--mode", "blocks", "--block-size", "2"], ["--page-size", "2"]):
        as_text = cache_json(invoke, "replay", str(trace), *args)
        as_packed = cache_json(invoke, "replay", str(packed), *args)
        assert as_packed["requests"] == as_text["requests"]
    again = invoke("cache", "pack", str(trace), "-o", str(packed))
    assert again.exit_code == 2 and "--force" in again.stderr
    # a packed file cut short or padded is refused, not half-read
    whole = packed.read_bytes()
    for damaged in (whole[:-4], whole + b"\0\0\0\0"):
        packed.write_bytes(damaged)
        refused = invoke("cache", "replay", str(packed))
        assert refused.exit_code == 2 and "cut short" in refused.stderr
        assert "cache pack" in refused.stderr
    # a bad JSONL line still names its line when packing
    trace.write_text('{"tokens": [1]}\n{"tokens": [1, -1]}\n', encoding="utf-8")
    bad = invoke("cache", "pack", str(trace), "-o", str(tmp_path / "other.packed"))
    assert bad.exit_code == 2 and f"{trace}:2" in bad.stderr
