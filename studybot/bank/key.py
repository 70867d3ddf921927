"""The bank's answer key: what a question's own reference answer and key points say.

The offline provider answers from it, the planner measures it, exports and
notes quote it; none of them needs a provider for that.
"""

from __future__ import annotations

from collections.abc import Sequence

from studybot.bank.format import Question
from studybot.bank.text import clip

NO_KEY_ANSWER = (
    "题库没有这道题的参考答案，离线模式无法作答。"
    "设置 TAOTOKEN_API_KEY（或 config.toml 里 env_key 指定的变量）后用在线模型作答。"
)
# The first line of an offline follow-up's reply: it says the follow-up was kept, not answered.
FOLLOW_UP_NOT_ANSWERED = "离线模式不能回答追问，追问已保存；设置 API Key 后可用在线模型重新提问。"
SUMMARY_POINT_CHARS = 24  # per question: a carried summary is re-sent once per segment


def has_answer(question: Question) -> bool:
    """Whether offline can answer ``question``: it has a reference answer or key points."""
    return bool(question.reference or question.key_points)


def answered_follow_up(answer: str) -> bool:
    """Whether a saved follow-up's reply answers it (the offline one only says it could not)."""
    return not answer.startswith(FOLLOW_UP_NOT_ANSWERED)


def answer_text(question: Question) -> str:
    """The offline answer: the reference answer as written, else the numbered key points."""
    if question.reference:
        return question.reference
    if not question.key_points:
        return NO_KEY_ANSWER
    return "\n".join(f"{n}. {point}" for n, point in enumerate(question.key_points, start=1))


def summary_text(questions: Sequence[Question], *, lines: int) -> str:
    """An extractive summary: each question's first key point, clipped, in ≤ ``lines`` lines.

    Questions without key points contribute their question text instead.
    """
    if not questions:
        return ""
    groups = _even_groups(list(questions), lines)
    out = []
    for group in groups:
        parts = []
        for question in group:
            source = question.key_points[0] if question.key_points else question.question
            parts.append(f"Q{question.id}：{clip(source, SUMMARY_POINT_CHARS)}")
        out.append("；".join(parts))
    return "\n".join(out)


def _even_groups(items: list[Question], count: int) -> list[list[Question]]:
    count = min(count, len(items))
    size, extra = divmod(len(items), count)
    groups, start = [], 0
    for index in range(count):
        end = start + size + (1 if index < extra else 0)
        groups.append(items[start:end])
        start = end
    return groups
