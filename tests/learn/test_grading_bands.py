"""The offline graders on attempts people type, each in the band its key points call for.

tests/data/grading/attempts.toml holds the attempts and the bands, decided
by reading each question's key points. Both offline graders must keep them:
the rubric grader on the shipped bank, and the term estimate on the same
bank with its rubric taken away (as an imported bank has none).
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from studybot import bank
from studybot.learn import grading, terms

ATTEMPTS = tomllib.loads(
    (Path(__file__).resolve().parents[1] / "data" / "grading" / "attempts.toml").read_text(
        encoding="utf-8"
    )
)["attempts"]


@pytest.fixture(scope="module")
def unruled(shipped):
    """The shipped bank without its rubric: what an imported bank looks like to the grader."""
    return replace(shipped, questions=tuple(replace(q, rubric=()) for q in shipped.questions))


def _name(case: dict) -> str:
    return f"Q{case['question']}-{case['kind']}-{case['text'][:10]}"


def _in_band(result, case, *, at_most_only: bool = False) -> None:
    states = {n: p.state for n, p in enumerate(result.points, start=1)}
    seen = {n: f"{p.state} {p.evidence or p.coverage}" for n, p in enumerate(result.points, 1)}
    assert result.score <= case.get("max_score", 1.0), seen
    assert all(states[n] == grading.MISSED for n in case.get("misses", ())), seen
    if not at_most_only:
        assert case.get("min_score", 0.0) <= result.score, seen
        assert all(states[n] != grading.MISSED for n in case.get("touches", ())), seen


@pytest.mark.parametrize("case", ATTEMPTS, ids=_name)
def test_on_the_rubric_no_attempt_earns_more_than_its_band(shipped, case):
    # The rubric asks for what a point claims, so a short attempt in other words
    # may earn less than these bands (set for the term estimate) allow; never more.
    # How much it earns is pinned on the labelled sets (test_grading_eval.py).
    result = grading.offline(shipped).grade(shipped.get(case["question"]), case["text"])
    assert result.grader == grading.RUBRIC
    _in_band(result, case, at_most_only=True)


@pytest.mark.parametrize("case", ATTEMPTS, ids=_name)
def test_the_term_estimate_lands_each_attempt_in_its_band_too(unruled, case):
    result = grading.offline(unruled).grade(unruled.get(case["question"]), case["text"])
    assert result.grader == grading.TERM_ESTIMATE and result.source == grading.OFFLINE
    _in_band(result, case)


def test_the_set_spans_chapters_and_kinds():
    chapters = {bank.load().get(c["question"]).chapter for c in ATTEMPTS}
    assert {1, 5, 23, 34, 76} <= {c["question"] for c in ATTEMPTS}
    assert len({c["question"] for c in ATTEMPTS}) >= 12 and len(chapters) >= 8
    assert {"full", "short", "partial", "off-topic", "question", "empty"} <= {
        c["kind"] for c in ATTEMPTS
    }


def test_the_score_counts_a_partly_covered_point_half(shipped, unruled):
    for which in (shipped, unruled):
        result = grading.offline(which).grade(which.get(23), "只存 K 和 V，Q 每步只用一次")
        credit = result.covered + 0.5 * result.partly
        assert result.partly >= 1 and result.score == round(credit / result.total, 3)
    estimate = grading.offline(unruled).grade(unruled.get(23), "只存 K 和 V，Q 每步只用一次")
    assert all(p.coverage is not None and 0 <= p.coverage <= 1 for p in estimate.points)


def test_restating_the_question_earns_nothing_and_says_so(shipped, unruled):
    for which in (shipped, unruled):
        question = which.get(5)
        result = grading.offline(which).grade(question, question.question)
        assert result.score == 0 and result.partly == 0
        assert "restates the question" in result.advice


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("KV缓存", "kv cache"),
        ("键值缓存", "KV Cache"),
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
    assert "注意力" not in "".join(held)


def test_a_term_bigram_never_spans_two_words():
    assert "则模" not in terms.terms("否则模型会过拟合")
    assert {"否则", "模型"} <= set(terms.terms("否则模型会过拟合"))
