"""The shipped rubric graded against itself, point by point: every case must get its mark.

``studybot.learn.selftest`` makes the cases from each claim (its own text,
the whole reference, each claim in Chinese and English, negated, reversed,
and as a bare list of its terms); `studybot bank validate --self-test`
prints the same counts. A chapter per test, so a failure names where it is.
"""

from __future__ import annotations

import pytest

from studybot import bank
from studybot.learn import grading, selftest

SHIPPED = bank.load()


@pytest.mark.parametrize("chapter", [c.number for c in SHIPPED.chapters])
def test_every_case_of_the_chapters_rubric_gets_its_mark(chapter):
    grader = grading.offline(SHIPPED)
    failed, counted = [], 0
    for question in SHIPPED.questions:
        if question.chapter != chapter:
            continue
        assert question.rubric, f"Q{question.id} has no rubric"
        compiled = grader.compiled(question)
        for case in selftest.cases(question, compiled):
            counted += 1
            problem = selftest.check(case, question, compiled)
            if problem:
                failed.append(
                    f"Q{case.question} p{case.point} c{case.claim} {case.kind}: {problem}"
                )
    assert counted and failed == [], "\n".join(failed[:40])


def test_a_generated_case_fails_when_the_grader_misreads_it():
    """The self-test can fail: a claim whose relation is a word its zh never says."""
    question = SHIPPED.get(22)
    compiled = grading.offline(SHIPPED).compiled(question)
    cases = list(selftest.cases(question, compiled))
    listed = next(c for c in cases if c.kind == "listed")
    stated = next(c for c in cases if c.kind == "zh")
    assert selftest.check(stated, question, compiled) is None
    wrong = selftest.Case(stated.question, stated.point, stated.claim, "zh", "完全无关的一句话")
    assert selftest.check(wrong, question, compiled) is not None
    swapped = selftest.Case(listed.question, listed.point, listed.claim, "listed", stated.text)
    assert selftest.check(swapped, question, compiled) == "stated by a bare list"
