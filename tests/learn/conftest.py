"""What the grading tests share: the offline grader over the shipped bank."""

from __future__ import annotations

import pytest

from studybot.learn import grading


@pytest.fixture(scope="module")
def grader(shipped):
    return grading.offline(shipped)
