"""The one place requests are built: a segment's conversation, request by request.

A request for question k of a segment is::

    [system prefix][carried summary + q1][a1][q2][a2] ... [qk]

so each request extends the previous one exactly and the provider's prefix
cache can hit. A side request (a follow-up, a grading, an interviewer's
probe) is the conversation so far plus one message: it shares the cached
prefix, but neither it nor its reply ever joins the history. The summary
request closes the segment.

The live loop steps a ``Conversation`` as answers arrive; ``requests``
steps the same object with answers known in advance (a plan's projected
answers, a recorded session's saved ones), so the three send the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from studybot.bank import Bank, Question
from studybot.study.prompt import (
    SUMMARY_HEADING,
    SUMMARY_LINES,
    interview_text,
    question_text,
    system_prefix,
)
from studybot.types import Messages

FOLLOW_UP = "追问："  # opens a follow-up; the prefix tells the model what it means
_SUMMARY_ASK = "用不超过 {lines} 行总结本段：每行以题号开头（如「Q5：」），只写结论和关键数字。"

History = list[tuple[Question, str]]  # a segment's answered questions, with their answers


class Conversation:
    """One segment's main thread: the prefix, the carried summary, the answered questions."""

    def __init__(
        self,
        prefix: str,
        summary: str | None,
        history: Iterable[tuple[Question, str]] = (),
        *,
        interview: bool = False,
    ):
        self.prefix = prefix
        self.summary = summary  # the previous segment's summary, at the head of the first question
        self.history: History = list(history)
        # An interview's main request asks the model to put the question (its reply is the
        # thread's assistant message); the learner's answers only ever go in side requests.
        self.interview = interview

    def ask(self, question: Question) -> Messages:
        """The request that asks ``question`` after everything answered so far."""
        return [*self._thread(), self._user(question, first=not self.history)]

    def answered(self, question: Question, answer: str) -> None:
        """``answer`` joins the main thread: every later request carries it."""
        self.history.append((question, answer))

    def side(self, text: str) -> Messages:
        """A side request: the thread so far, then ``text``; its reply stays off the thread."""
        return [*self._thread(), {"role": "user", "content": text}]

    def follow_up(self, text: str) -> Messages:
        """A follow-up question (追问) about the question just answered, as a side request."""
        return self.side(f"{FOLLOW_UP}{text}")

    def summary_request(self, lines: int = SUMMARY_LINES) -> Messages:
        """The request for the segment's summary: it extends the segment's last request."""
        return self.side(_SUMMARY_ASK.format(lines=lines))

    def _thread(self) -> Messages:
        out: Messages = [{"role": "system", "content": self.prefix}]
        for position, (asked, answer) in enumerate(self.history):
            out.append(self._user(asked, first=position == 0))
            out.append({"role": "assistant", "content": answer})
        return out

    def _user(self, question: Question, first: bool) -> dict[str, str]:
        text = interview_text(question) if self.interview else question_text(question)
        if first and self.summary:
            text = f"{SUMMARY_HEADING}\n{self.summary}\n\n{text}"
        return {"role": "user", "content": text}


@dataclass(frozen=True)
class Asked:
    """One question of a segment as it went: its answer and its follow-up questions."""

    question: Question
    answer: str
    followups: tuple[str, ...] = ()
    prefix: str | None = None  # the system prefix its requests carried; None = the segment's


@dataclass(frozen=True)
class Sent:
    """One request of a segment, in the order it is sent."""

    kind: str  # "answer", "follow-up", "summary", or an interview's "grading" and "probe"
    question_id: int | None  # None for the summary request
    prefix: str  # the system prefix it carries
    messages: Messages


def requests(
    prefix: str,
    summary: str | None,
    asked: Sequence[Asked],
    *,
    summarise: bool,
    interview: bool = False,
    side: Callable[[Question], Sequence[tuple[str, str]]] | None = None,
) -> Iterator[Sent]:
    """Every request a segment sends, with its answers known: each answer, its follow-ups, the summary.

    ``plan`` projects sessions and ``cache SESSION`` rebuilds them with this
    sequence; the run loop steps the same ``Conversation`` one request at a time.
    ``interview``: the main requests are an interview's; ``side``: per
    question, the (kind, text) of the side requests after its answer (an
    interview's gradings and probes, projected by ``plan``).
    """
    conversation = Conversation(prefix, summary, interview=interview)
    for item in asked:
        conversation.prefix = item.prefix or conversation.prefix
        yield Sent("answer", item.question.id, conversation.prefix, conversation.ask(item.question))
        conversation.answered(item.question, item.answer)
        for text in item.followups:
            yield Sent(
                "follow-up", item.question.id, conversation.prefix, conversation.follow_up(text)
            )
        for kind, text in side(item.question) if side else ():
            yield Sent(kind, item.question.id, conversation.prefix, conversation.side(text))
    if summarise and conversation.history:
        yield Sent("summary", None, conversation.prefix, conversation.summary_request())


def asked_question(bank: Bank | None, question_id: int, text: str) -> Question:
    """The question as a turn asked it: the text it sent, the bank's key points if any.

    The history of a resumed segment must re-send what was sent (the provider's
    cache hits only on the same bytes), even when the bank was edited since;
    a question removed from the bank keeps its saved text.
    """
    known = None if bank is None else next((q for q in bank.questions if q.id == question_id), None)
    if known is None:
        return Question(id=question_id, chapter=0, question=text)
    return replace(known, question=text)


def history(bank: Bank | None, turns: Sequence) -> History:
    """The main thread of saved ``turns`` (in the order they were asked)."""
    return [(asked_question(bank, t.question_id, t.question), t.answer) for t in turns]


Asker = Callable[[Sequence[tuple[Question, str]], Question], Messages]


def asker(bank: Bank, prefix_style: str) -> Asker:
    """Requests as a run of ``bank`` would send them: a question after a history (doctor's probes)."""
    prefix = system_prefix(bank, prefix_style)
    return lambda past, question: Conversation(prefix, None, past).ask(question)
