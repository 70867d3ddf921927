"""Attempts graded outside a session: what ``studybot grade QUESTION`` does.

An attempt is graded the way a quiz grades it: live when a model answers
(``--offline`` or no key: the offline grader), through the same side
request a session sends after the question and its key answer, so a live
grade sees the question as the quiz does. Nothing is stored.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from studybot.bank import Question
from studybot.bank.key import answer_text
from studybot.errors import BadInput
from studybot.learn import grading, live_grade
from studybot.learn.grading import Grade
from studybot.learn.marks import suggest_rating
from studybot.study.conversation import Conversation
from studybot.study.opening import Options, open_study
from studybot.study.prompt import system_prefix
from studybot.types import Notify

# The longest attempt read, by `grade` and in the quiz editor: ten typed pages, far more than
# any question's key points need; a whole file pasted or piped in is no attempt.
ATTEMPT_CHARS = 20_000


@dataclass(frozen=True)
class Checked:
    """A graded attempt and what it suggests."""

    question: Question
    grade: Grade
    suggested: int  # the rating the grade suggests, 1-4


class Checker:
    """Grades attempts against one bank's questions, with the channel ``options`` name."""

    def __init__(self, options: Options, notify: Notify | None = None) -> None:
        self.study, _ = open_study(options)
        if notify is not None:  # the provider's notices: a retry, a JSON mode it fell back to
            self.study.provider.notify = notify
        self.grader = grading.offline(self.study.bank)

    @functools.cached_property
    def prefix(self) -> str:
        """The session's system prefix: built (tokenizer and all) only for a live grade."""
        return system_prefix(self.study.bank, self.study.settings.prefix_style)

    @property
    def live(self) -> bool:
        return self.study.provider.live

    def check(self, question_id: int, attempt: str) -> Checked:
        """Grade ``attempt`` against question ``question_id``."""
        question = self.study.bank.get(question_id)
        refuse(attempt, question_id)
        if not grading.reference_points(question):
            raise BadInput(
                f"question {question_id} has no key points or reference answer to grade against",
                hint="grade a question of a bank with key points, e.g. the shipped one",
            )
        if not self.live:  # the answer key grades on the rubric: no request to build
            result = self.grader.grade(question, attempt)
            return Checked(question, result, suggest_rating(result.score, result.contradicted))
        # The quiz's side request: the question and its key answer, then the grading ask.
        conversation = Conversation(self.prefix, None, [(question, answer_text(question))])
        messages = conversation.side(live_grade.grading_request(question, attempt))
        result = live_grade.judge(self.study.provider, self.grader, messages, question, attempt)
        return Checked(question, result, suggest_rating(result.score, result.contradicted))


def refuse(attempt: str, question_id: int) -> None:
    """BadInput when ``attempt`` cannot be graded: empty, longer than ATTEMPT_CHARS, not text."""
    if len(attempt) > ATTEMPT_CHARS:
        raise too_long(question_id, len(attempt))
    if not attempt.strip():
        raise BadInput(
            "there is no attempt to grade",
            hint=f"pipe one in (studybot grade {question_id} < answer.txt) or pass --attempt TEXT",
        )
    found = _NOT_TEXT.search(attempt)
    if found is not None:
        char = found[0]
        what = "a NUL byte" if char == "\0" else f"the byte {ord(char) & 0xFF:#04x}, not UTF-8"
        raise not_text(question_id, f"character {found.start() + 1:,} is {what}")


# a NUL (a binary file), or a byte the command line could not decode (a lone surrogate)
_NOT_TEXT = re.compile("[\0\ud800-\udfff]")


def too_long(question_id: int, length: int | None = None) -> BadInput:
    """The refusal of an attempt over ATTEMPT_CHARS (``length`` when it was read whole)."""
    size = f"{length:,} characters long" if length else f"longer than {ATTEMPT_CHARS:,} characters"
    return BadInput(
        f"the attempt is {size}; an attempt holds at most {ATTEMPT_CHARS:,} (as in the quiz editor)",
        hint=f"grade the answer itself, not a whole file: studybot grade {question_id} < answer.txt",
    )


def not_text(question_id: int, why: str) -> BadInput:
    """The refusal of an attempt that is not text (binary bytes, not UTF-8); ``why`` says where."""
    return BadInput(
        f"the attempt is not text: {why}",
        hint=f"give it as UTF-8 text: studybot grade {question_id} < answer.txt, or --attempt TEXT",
    )


def check(
    options: Options, question_id: int, attempt: str, notify: Notify | None = None
) -> Checked:
    """Grade one ``attempt`` against question ``question_id`` of the bank ``options`` name."""
    return Checker(options, notify).check(question_id, attempt)
