"""One attempt graded outside a session: what ``studybot grade QUESTION`` does.

The attempt is graded the way a quiz grades it: live when a model answers
(``--offline`` or no key: the offline grader), through the same side request
a session sends after the question and its key answer, so a live grade
sees the question as the quiz does. Nothing is stored.
"""

from __future__ import annotations

from dataclasses import dataclass

from studybot.bank import Question
from studybot.channel.providers.offline import answer_text
from studybot.errors import BadInput
from studybot.learn import grading, review
from studybot.learn.grading import Grade
from studybot.study.conversation import Conversation
from studybot.study.opening import Options, open_study
from studybot.study.prompt import system_prefix


@dataclass(frozen=True)
class Checked:
    """A graded attempt and what it suggests."""

    question: Question
    grade: Grade
    suggested: int  # the rating the grade suggests, 1-4
    live: bool  # a model was asked (the grade may still have fallen back)


def check(options: Options, question_id: int, attempt: str) -> Checked:
    """Grade ``attempt`` against question ``question_id`` of the bank ``options`` name."""
    study, _ = open_study(options)
    question = study.bank.get(question_id)
    if not attempt.strip():
        raise BadInput(
            "there is no attempt to grade",
            hint=f"pipe one in (studybot grade {question_id} < answer.txt) or pass --attempt TEXT",
        )
    if not grading.reference_points(question):
        raise BadInput(
            f"question {question_id} has no key points or reference answer to grade against",
            hint="grade a question of a bank with key points, e.g. the shipped one",
        )
    grader = grading.offline(study.bank)
    live = study.provider.live
    if live:
        # The quiz's side request: the question and its key answer, then the grading ask.
        prefix = system_prefix(study.bank, study.settings.prefix_style)
        conversation = Conversation(prefix, None, [(question, answer_text(question))])
        messages = conversation.side(grading.grading_request(question, attempt))
        result = grading.judge(study.provider, grader, messages, question, attempt)
    else:
        result = grader.grade(question, attempt)
    suggested = review.suggest_rating(result.score, result.contradicted)
    return Checked(question, result, suggested, live)
