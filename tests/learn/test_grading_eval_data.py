"""The labelled grading eval set (tests/data/grading/eval.toml) stays in step with the bank.

The attempts were written and labelled per key point before any grader saw them;
this test only checks the file's shape: which questions, how many attempts of
each kind, and that every question's labels still line up with the shipped
bank's key points (a bank edit that adds, drops or moves a point fails here).
"""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

import pytest

from studybot import bank

EVAL = Path(__file__).resolve().parents[1] / "data" / "grading" / "eval.toml"

# The 24 questions of the eval set (the held-out ones are kept outside the repository).
QUESTIONS = [
    5,
    9,
    16,
    22,
    23,
    24,
    25,
    34,
    42,
    50,
    60,
    66,
    79,
    90,
    94,
    104,
    121,
    133,
    138,
    146,
    158,
    168,
    185,
    195,
]
KINDS = {"strong", "terse", "partial", "wrong", "english"}
STATES = {"covered", "partly", "missed", "contradicted"}


@pytest.fixture(scope="module")
def data():
    with EVAL.open("rb") as handle:
        return tomllib.load(handle)


def test_questions_and_attempts_counted(data):
    ids = [q["id"] for q in data["question"]]
    assert sorted(ids) == QUESTIONS
    assert len(set(ids)) == 24
    assert len(data["attempt"]) == 120


def test_each_question_has_one_attempt_of_each_kind(data):
    kinds: dict[int, Counter] = {}
    for attempt in data["attempt"]:
        kinds.setdefault(attempt["question"], Counter())[attempt["kind"]] += 1
    assert sorted(kinds) == QUESTIONS
    for question, counted in kinds.items():
        assert set(counted) == KINDS, question
        assert all(n == 1 for n in counted.values()), (question, counted)


def test_points_are_prefixes_of_the_bank_key_points(data, shipped):
    for entry in data["question"]:
        key_points = shipped.get(entry["id"]).key_points
        assert len(entry["points"]) == len(key_points), entry["id"]
        for prefix, point in zip(entry["points"], key_points, strict=True):
            assert prefix, entry["id"]
            assert point.startswith(prefix), (entry["id"], prefix, point[:40])


def test_labels_match_key_points_and_states(data, shipped):
    for attempt in data["attempt"]:
        where = (attempt["question"], attempt["kind"])
        key_points = shipped.get(attempt["question"]).key_points
        assert len(attempt["labels"]) == len(key_points), where
        assert set(attempt["labels"]) <= STATES, where
        assert attempt["text"].strip(), where


BLIND = EVAL.parent / "blind.toml"
BENCH_KINDS = ("strong", "terse", "partial", "wrong", "english", "mixed", "salad", "negated")


def test_the_blind_set_has_every_kind_in_three_rounds_and_lines_up_with_the_bank():
    shipped = bank.load()
    attempts = tomllib.loads(BLIND.read_text(encoding="utf-8"))["attempt"]
    kinds = Counter((a["round"], a["kind"]) for a in attempts)
    assert set(kinds.values()) == {18}  # 18 questions × 8 kinds × 3 rounds
    assert len({a["question"] for a in attempts}) == 54
    for attempt in attempts:
        assert len(attempt["labels"]) == len(shipped.get(attempt["question"]).key_points), attempt
        if attempt["kind"] == "mixed":
            assert attempt["labels"].count("contradicted") == 1, attempt["question"]


def _round(path) -> int:
    return int(path.name.removeprefix("blind_round").removesuffix(".toml"))


# Rounds 11–31 give new attempts for questions earlier rounds used (the rubric most tuned
# on other people's attempts); the others take questions no earlier round used.
REUSED = {11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}
LATER = sorted(EVAL.parent.glob("blind_round*.toml"), key=_round)


@pytest.mark.parametrize("later", LATER, ids=lambda p: p.name)
def test_each_later_round_has_every_kind_and_lines_up_with_the_bank(later):
    shipped = bank.load()
    attempts = tomllib.loads(later.read_text(encoding="utf-8"))["attempt"]
    questions = {a["question"] for a in attempts}
    assert Counter(a["kind"] for a in attempts) == Counter({k: len(questions) for k in BENCH_KINDS})
    earlier = [BLIND] + [p for p in LATER if _round(p) < _round(later)]
    before = [a for p in earlier for a in tomllib.loads(p.read_text("utf-8"))["attempt"]]
    used = {a["question"] for a in before}
    if _round(later) in REUSED:
        # new attempts, for questions an earlier round (or the dev and eval sets) used
        sets = [EVAL, EVAL.parent / "dev.toml", EVAL.parent / "attempts.toml"]
        assert questions <= used | {a["question"] for p in sets for a in _attempts(p)}
        assert not {a["text"] for a in attempts} & {a["text"] for a in before}
    else:
        assert not questions & used  # questions no earlier round used
    for attempt in attempts:
        assert len(attempt["labels"]) == len(shipped.get(attempt["question"]).key_points), attempt


def _attempts(path) -> list[dict]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return data.get("attempt", data.get("attempts", []))
