"""The offline estimate on attempts people type, each in the band its key points call for.

tests/data/grading/attempts.toml holds the attempts and the bands, decided
by reading each question's key points.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from studybot import bank
from studybot.learn import grading as grade
from studybot.learn import terms

ATTEMPTS = tomllib.loads(
    (Path(__file__).resolve().parents[1] / "data" / "grading" / "attempts.toml").read_text(
        encoding="utf-8"
    )
)["attempts"]


@pytest.fixture(scope="module")
def shipped():
    return bank.load()


@pytest.fixture(scope="module")
def grader(shipped):
    return grade.OfflineGrader(shipped)


def _name(case: dict) -> str:
    return f"Q{case['question']}-{case['kind']}-{case['text'][:10]}"


@pytest.mark.parametrize("case", ATTEMPTS, ids=_name)
def test_each_attempt_lands_in_its_band(shipped, grader, case):
    result = grader.grade(shipped.get(case["question"]), case["text"])
    states = {n: p.state for n, p in enumerate(result.points, start=1)}
    seen = {n: f"{p.state} {p.coverage:.0%}" for n, p in enumerate(result.points, start=1)}
    assert case.get("min_score", 0.0) <= result.score <= case.get("max_score", 1.0), seen
    assert all(states[n] != grade.MISSED for n in case.get("touches", ())), seen
    assert all(states[n] == grade.MISSED for n in case.get("misses", ())), seen


def test_the_set_spans_chapters_and_kinds():
    chapters = {bank.load().get(c["question"]).chapter for c in ATTEMPTS}
    assert {1, 5, 23, 34, 76} <= {c["question"] for c in ATTEMPTS}
    assert len({c["question"] for c in ATTEMPTS}) >= 12 and len(chapters) >= 8
    assert {"full", "short", "partial", "off-topic", "question", "empty"} <= {
        c["kind"] for c in ATTEMPTS
    }


def test_the_score_counts_a_partly_covered_point_half(shipped, grader):
    result = grader.grade(shipped.get(23), "只存 K 和 V，Q 每步只用一次")
    credit = result.covered + 0.5 * result.partly
    assert result.partly >= 1 and result.score == round(credit / result.total, 3)
    assert all(p.coverage is not None and 0 <= p.coverage <= 1 for p in result.points)


def test_restating_the_question_earns_nothing_and_says_so(shipped, grader):
    question = shipped.get(5)
    result = grader.grade(question, question.question)
    assert result.score == 0 and result.partly == 0
    assert "restates the question" in result.advice


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("KV缓存", "kv cache"),
        ("词元", "Tokens"),
        ("自注意力", "attention"),
        ("n²", "n^2"),
        ("随 n 平方增长", "随 n^2 增长"),
        ("ＧＰＵ 显存", "gpu VRAM"),
    ],
)
def test_variants_of_one_term_meet(one, other):
    assert set(terms.terms(one)) & set(terms.terms(other)) - {"gpu"}


def test_symbols_stay_terms_and_a_longer_word_is_left_whole():
    held = terms.terms("q_t 乘以 K 和 V，FlashAttention")
    assert {"q", "t", "k", "v", "flashattention"} <= set(held)
    assert "attention" not in held
