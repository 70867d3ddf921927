"""The byte-stable system prefix and the messages of every request.

A request for question k of a segment is::

    [system prefix][carried summary + q1][a1][q2][a2] ... [qk]

The prefix depends only on the bank's title and language: no date, id,
counter or range, so it is identical for every request of every session
of a bank and the provider's prefix cache can hit. The carried summary
rides at the head of the segment's first user message, so each request
extends the previous one exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

from studybot.bank import Bank, Question

Messages = list[dict[str, str]]

SUMMARY_LINES = 5
SUMMARY_HEADING = "上一段小结（仅作背景，不必复述）："

_PREFIX = """你是一名大模型方向的面试辅导老师，正在陪用户逐题练习题库《{title}》。

作答规则：
1. 每条用户消息给出一道题，题号写在开头；只回答这一道题。
2. 先用一句话给出结论，再分 3 到 6 点展开，每点一到两句；涉及计算时写出公式和量级，例如 KV 缓存字节数 = 2 × 层数 × kv_heads × head_dim × 每元素字节数。
3. 最后补一句面试时容易被追问的点。全文不超过 400 字。
4. 不确定的事实直接说明不确定，不编造论文、数字、模型名或 API。
5. 用户消息开头若有「上一段小结」，那是前面各段的要点，只作背景。
6. 使用{language}作答。"""

_LANGUAGES = {"zh-CN": "简体中文", "zh": "简体中文", "en": "English"}

_SUMMARY_ASK = (
    "请用不超过 {lines} 行总结本段已答各题最重要的结论，每行以题号开头（如「Q5：」），"
    "只写结论和关键数字，不要寒暄。"
)


def system_prefix(bank: Bank) -> str:
    language = _LANGUAGES.get(bank.language, bank.language)
    return _PREFIX.format(title=bank.title, language=language)


def question_text(question: Question) -> str:
    return f"第 {question.id} 题：{question.question}"


def user_message(question: Question, summary: str | None, first_in_segment: bool) -> str:
    text = question_text(question)
    if first_in_segment and summary:
        return f"{SUMMARY_HEADING}\n{summary}\n\n{text}"
    return text


def _conversation(
    prefix: str, summary: str | None, history: Sequence[tuple[Question, str]]
) -> Messages:
    out: Messages = [{"role": "system", "content": prefix}]
    for position, (asked, answer) in enumerate(history):
        out.append({"role": "user", "content": user_message(asked, summary, position == 0)})
        out.append({"role": "assistant", "content": answer})
    return out


def messages(
    prefix: str,
    summary: str | None,
    history: Sequence[tuple[Question, str]],
    question: Question,
) -> Messages:
    """The request for ``question`` after the segment's answered ``history``."""
    out = _conversation(prefix, summary, history)
    out.append({"role": "user", "content": user_message(question, summary, not history)})
    return out


def summary_messages(
    prefix: str, summary: str | None, history: Sequence[tuple[Question, str]]
) -> Messages:
    """The segment's conversation plus the request for a short summary.

    It extends the segment's last request, so a provider's prefix cache
    covers everything but the final instruction.
    """
    out = _conversation(prefix, summary, history)
    out.append({"role": "user", "content": _SUMMARY_ASK.format(lines=SUMMARY_LINES)})
    return out


def follow_up_messages(
    prefix: str,
    summary: str | None,
    history: Sequence[tuple[Question, str]],
    followup: str,
) -> Messages:
    """A side-thread request: the main history so far, then the follow-up.

    It shares the main thread's prefix (so it hits the cache) but neither
    the follow-up nor its answer ever enters the main history.
    """
    return side_messages(prefix, summary, history, f"追问：{followup}")


def side_messages(
    prefix: str,
    summary: str | None,
    history: Sequence[tuple[Question, str]],
    text: str,
) -> Messages:
    """The main history so far, then ``text``: a request whose reply stays off the main thread."""
    out = _conversation(prefix, summary, history)
    out.append({"role": "user", "content": text})
    return out


def clip_summary(text: str, lines: int = SUMMARY_LINES) -> str:
    """At most ``lines`` non-empty lines, however long the model's summary was."""
    kept = [line.rstrip() for line in text.strip().splitlines() if line.strip()]
    return "\n".join(kept[:lines])
