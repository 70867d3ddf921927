"""The offline grader against attempts labelled per key point: the figures it is held to.

eval.toml (24 questions × strong / terse / partial / wrong / english,
labelled by someone else before any grader saw them), dev.toml (14 other
questions, written for developing the grader) and blind.toml (54 more
questions × the eight kinds, written in three rounds by interviewers who
never saw the rubric, each round measured once before anything was changed
for it) are graded through ``bench/grading_eval.py``, the bench that prints
these figures. The rubric has been tuned on them since, so these hold the
grader to what it reached, not to what a first sight of new attempts gives
(docs/grading.md has those figures).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "grading"


def _bench():
    spec = importlib.util.spec_from_file_location(
        "grading_eval", ROOT / "bench" / "grading_eval.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


@pytest.fixture(scope="module", params=["eval.toml", "dev.toml", "blind.toml"])
def graded(request):
    rows, _, _ = BENCH.offline_rows(BENCH.load(DATA / request.param))
    return request.param, BENCH.figures(rows)


@pytest.fixture(scope="module")
def blind():
    rows, _, _ = BENCH.offline_rows(BENCH.load(DATA / "blind.toml"))
    return BENCH.figures(rows)


def test_a_plausible_but_wrong_answer_rarely_passes(graded):
    _, found = graded
    assert found.wrong_passed <= 0.05, found.summary()
    assert found.kinds["wrong"][2] <= 0.15, found.kinds


def test_a_strong_or_negated_right_answer_rarely_fails(graded):
    _, found = graded
    assert found.firm_failed <= 0.05, found.summary()
    assert found.kinds["strong"][2] >= 0.85 and found.kinds["terse"][2] >= 0.45, found.kinds


def test_an_english_answer_counts_as_much_as_a_chinese_one(graded):
    _, found = graded
    assert abs(found.english_gap) <= 0.1, found.summary()


def test_scores_rank_attempts_as_the_labels_do_and_points_agree(graded):
    _, found = graded
    assert found.spearman >= 0.85, found.summary()
    assert found.agreement >= 0.80, found.summary()
    assert found.kinds["partial"][2] < found.kinds["terse"][2] < found.kinds["strong"][2] + 0.05


def test_a_correct_point_is_almost_never_contradicted(graded):
    _, found = graded
    assert found.false_alarm <= 0.01, found.summary()
    assert found.false_credit <= 0.05, found.summary()


def test_the_topics_terms_without_a_claim_earn_nothing(blind):
    attempts, _, mean, good = blind.kinds["salad"]
    assert attempts >= 50 and mean <= 0.15 and good == 0, blind.kinds["salad"]


def test_one_confident_error_in_a_good_answer_is_caught(blind):
    assert blind.caught >= 0.6, blind.summary()


def test_the_bench_figures_follow_the_labels():
    # The bench's own arithmetic, on rows made by hand.
    rows = [
        BENCH.Row("strong", 1.0, 0.9, 4, ("covered",), ("covered",)),
        BENCH.Row("wrong", 0.0, 0.6, 2, ("contradicted",), ("covered",)),
        BENCH.Row("wrong", 0.0, 0.1, 3, ("missed",), ("missed",)),
        BENCH.Row("english", 1.0, 0.7, 3, ("covered",), ("partly",)),
    ]
    found = BENCH.figures(rows)
    assert found.wrong_passed == 1.0  # one at 0.6, one suggested Good
    assert found.false_credit == 0.5  # of two unearned points, one marked covered
    assert found.english_gap == pytest.approx(-0.2)
    assert BENCH.spearman([1, 2, 3], [10, 20, 30]) == pytest.approx(1.0)
    assert BENCH.spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert found.summary().startswith("wrong≥0.5 or Good: 100%")


def test_the_dev_set_is_in_step_with_the_bank():
    import tomllib

    from studybot import bank

    shipped = bank.load()
    with (DATA / "dev.toml").open("rb") as handle:
        dev = tomllib.load(handle)
    with (DATA / "eval.toml").open("rb") as handle:
        measured = {q["id"] for q in tomllib.load(handle)["question"]}
    assert not measured & {q["id"] for q in dev["question"]}  # tuned on other questions
    for entry in dev["question"]:
        points = shipped.get(entry["id"]).key_points
        assert len(points) == len(entry["points"]), entry["id"]
        assert all(p.startswith(prefix) for prefix, p in zip(entry["points"], points, strict=True))
    for attempt in dev["attempt"]:
        assert len(attempt["labels"]) == len(shipped.get(attempt["question"]).key_points)
    assert len(dev["attempt"]) >= 70 and {a["kind"] for a in dev["attempt"]} <= set(BENCH.KINDS)


def test_with_a_key_the_bench_grades_through_the_live_grader(monkeypatch):
    # A judge that answers each attempt's labels: the figures must then agree perfectly.
    import json
    import tomllib

    from openai_server import OpenAIServer
    from scripted import learner_text

    with (DATA / "eval.toml").open("rb") as handle:
        attempts = tomllib.load(handle)["attempt"][:10]
    by_text = {a["text"].strip(): a["labels"] for a in attempts}

    def judge(body):
        last = body["messages"][-1]["content"]
        attempt = learner_text(last, "attempt")
        labels = by_text[attempt.strip()]
        points = [{"n": n, "state": s, "evidence": ""} for n, s in enumerate(labels, start=1)]
        return json.dumps({"points": points, "advice": "ok"})

    key = "sk-bench-live-0123456789abcdef"
    with OpenAIServer(key=key, models=["judge"], answer=judge) as server:
        monkeypatch.setenv("TAOTOKEN_API_KEY", key)
        monkeypatch.setenv("STUDYBOT_BASE_URL", server.base_url)
        monkeypatch.setenv("STUDYBOT_MODEL", "judge")
        rows, _, _ = BENCH.live_rows(attempts)
        assert len(server.generations) == len(attempts)  # one side request each
    found = BENCH.figures(rows)
    assert [r.states for r in rows] == [tuple(a["labels"]) for a in attempts]
    assert found.spearman == pytest.approx(1.0) and found.false_credit == 0


@pytest.fixture(
    scope="module",
    params=[
        "blind_round4.toml",
        "blind_round5.toml",
        "blind_round6.toml",
        "blind_round7.toml",
        "blind_round8.toml",
        "blind_round9.toml",
        "blind_round10.toml",
        "blind_round11.toml",
        "blind_round12.toml",
        "blind_round13.toml",
        "blind_round14.toml",
        "blind_round15.toml",
        "blind_round16.toml",
        "blind_round17.toml",
        "blind_round18.toml",
        "blind_round19.toml",
        "blind_round20.toml",
        "blind_round21.toml",
        "blind_round22.toml",
        "blind_round23.toml",
        "blind_round24.toml",
        "blind_round25.toml",
        "blind_round26.toml",
        "blind_round27.toml",
        "blind_round28.toml",
        "blind_round29.toml",
        "blind_round30.toml",
        "blind_round31.toml",
    ],
)
def later_round(request):
    rows, _, _ = BENCH.offline_rows(BENCH.load(DATA / request.param))
    return request.param, BENCH.figures(rows)


# Round 8 met one wrong attempt of 18 at 0.5 at first sight (Q157: "SFT 在 GPT-3.5 上微调",
# every detail wrong but each on the point's topic): 6%, over the 5% the others met.
WRONG_PASSED = {"blind_round8.toml": 1 / 18}
# Round 31 met one salad at Good at first sight (Q42: a string of the topic's phrases, two of
# them verb phrases, "只输出标签名、规范化、…", read as stating two points).
SALAD_GOOD = {"blind_round31.toml": 1}


def test_on_attempts_never_tuned_on_wrong_and_listed_terms_earn_nothing(later_round):
    # What the grader met on rounds 4–31 at first sight; the other targets are not met there.
    name, later_round = later_round
    assert later_round.wrong_passed <= WRONG_PASSED.get(name, 0.05), later_round.summary()
    attempts, _, mean, good = later_round.kinds["salad"]
    # round 10: the last six questions; rounds 14–31: 24 questions
    questions = 6 if name == "blind_round10.toml" else 24 if _round(name) >= 14 else 18
    assert attempts == questions and mean <= 0.15, later_round.kinds["salad"]
    assert good == SALAD_GOOD.get(name, 0), later_round.kinds["salad"]
    assert later_round.spearman >= 0.85, later_round.summary()
    assert abs(later_round.english_gap) <= 0.1, later_round.summary()


def _round(name: str) -> int:
    return int(name.removeprefix("blind_round").removesuffix(".toml"))
