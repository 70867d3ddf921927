"""The byte-stable system prefix, the text of a question, and the summary rules.

The prefix depends only on the bank's title, language and chapters: no
date, id, counter or range, so it is identical for every request of every
session of a bank and the provider's prefix cache can hit. The requests
themselves are built in one place, ``studybot.study.conversation``.
"""

from __future__ import annotations

from studybot.bank import Bank, Question
from studybot.bank.text import clip

SUMMARY_LINES = 5
SUMMARY_LINE_CHARS = 300  # a carried line is re-sent with every request of the next segment
SUMMARY_HEADING = "上一段小结："  # the prefix says it is background only

PREFIX_STYLES = ("designed", "short")
CONTENTS_CHAPTERS = 30  # chapters listed one by one in the table of contents
ALIGN_TOKENS = 128  # the designed prefix ends on a whole OpenAI cache step
NEXT_MESSAGE_TOKENS = 3  # <|im_start|>user\n opens the message after the system one

# The short prefix: rules alone (~270 tokens). Cheapest where nothing is cached.
_SHORT = """你是一名大模型方向的面试辅导老师，正在陪用户逐题练习题库《{title}》。

作答规则：
1. 每条用户消息给出一道题，题号写在开头；只回答这一道题。
2. 先用一句话给出结论，再分 3 到 6 点展开，每点一到两句；涉及计算时写出公式和量级，例如 KV 缓存字节数 = 2 × 层数 × kv_heads × head_dim × 每元素字节数。
3. 最后补一句面试时容易被追问的点。全文不超过 400 字。
4. 不确定的事实直接说明不确定，不编造论文、数字、模型名或 API。
5. 用户消息开头若有「上一段小结」，那是前面各段的要点，只作背景。
6. 使用{language}作答。"""

# The designed prefix: what a tutor needs on every question, long enough that
# an OpenAI-style cache (nothing under 1,024 tokens) keeps it from the first
# request of a run on. Only the bank's title, language and chapters vary it.
_DESIGNED = """你是一名大模型方向的面试辅导老师，陪用户逐题练习题库《{title}》，目标是每道题都能在技术面试中说得清楚、准确、有条理。

## 对话方式
- 每条用户消息给出一道题，题号在开头；只答这一道，不预告后面的题。
- 消息开头的「上一段小结」是前面各段的要点，只作背景，需要时用「见第 N 题」引用。
- 「追问：」开头的是对刚才那道题的追问，只答追问本身。
- 被要求写小结时，按要求的行数写，每行以题号开头，只写结论和关键数字。

## 作答结构（依次，标题可省）
1. 结论：第一句直接给出判断。
2. 定义：一两句说清概念及它解决的问题。
3. 机制：3 到 6 点，每点一两句，先主干后细节。
4. 公式与数字：写出公式，代入一个常见模型，给出量级（如 8K 到 32K：KV 缓存 4 倍，注意力分数 16 倍）。
5. 易错点：一两个常见误解及区别。
6. 面试说法：一两句可直接说出口的总结，点出最可能的追问。

## 篇幅与语言
- 一般不超过 400 字，需要推导时不超过 600 字；不寒暄、不复述题目。
- 使用{language}作答；术语首次出现附英文，如「键值缓存（KV cache）」。
- 不确定就直说，不编造论文、数字、模型名或 API。

## 题库目录（交叉引用用）
{contents}

## 符号与单位
- n：上下文长度 = 历史 + 本次输入 + 将生成的输出；注意力计算 ∝ n²，KV 缓存 ∝ n。
- d：隐藏维度；h：注意力头数；d_head = d / h；L：层数；h_kv：KV 头数（GQA 少于 h，MQA 为 1）。
- b：每元素字节数（BF16 为 2，FP8 为 1）；每词元 KV 字节 = 2 × L × h_kv × d_head × b。
- KiB/MiB/GiB 为 1024 进制，kB/MB/GB 为 1000 进制；显存与 KV 缓存用 1024 进制。
- 7B = 70 亿参数；预填充（prefill）定首词元延迟 TTFT，解码（decode）定每词元延迟 TPOT。"""

_LANGUAGES = {"zh-CN": "简体中文", "zh": "简体中文", "en": "English"}


def system_prefix(bank: Bank, style: str = "designed") -> str:
    """The system message of every request for ``bank``: ``designed`` or ``short``."""
    language = _LANGUAGES.get(bank.language, bank.language)
    if style == "short":
        return _SHORT.format(title=bank.title, language=language)
    text = _DESIGNED.format(title=bank.title, language=language, contents=contents(bank))
    return _aligned(text)


def _aligned(text: str) -> str:
    """``text`` closed by a rule line of ～ that ends the prefix on a whole cache step.

    Step caches (OpenAI: 128 tokens) keep only whole steps, so a prefix of
    1,800 tokens would be served 1,792 and its last tokens re-sent on every
    request. The rule line makes the system message plus the opening of the
    next message (which every request shares) a multiple of ``ALIGN_TOKENS``.
    """
    from studybot.costs import tokens

    def framed(body: str) -> int:
        return len(tokens.message_ids("system", body)) + NEXT_MESSAGE_TOKENS

    rule = ""
    for _ in range(4):  # the count settles in one or two rounds
        body = f"{text}\n{rule}" if rule else text
        short = -framed(body) % ALIGN_TOKENS
        if short == 0:
            return body
        rule += "～" * short
    return body


def contents(bank: Bank) -> str:
    """The bank's table of contents, one chapter a line, in the bank's own order.

    A bank with more than ``CONTENTS_CHAPTERS`` chapters lists those and
    closes with one line for the rest, so the prefix stays short whatever
    the bank's size.
    """
    shown = bank.chapters[:CONTENTS_CHAPTERS]
    lines = [f"- {c.number}. {c.title}（第 {c.first}–{c.last} 题）" for c in shown]
    rest = bank.chapters[CONTENTS_CHAPTERS:]
    if rest:
        first, last = rest[0], rest[-1]
        lines.append(f"- 另有第 {first.number}–{last.number} 章（第 {first.first}–{last.last} 题）")
    return "\n".join(lines) if lines else f"- 第 {bank.first}–{bank.last} 题"


def question_text(question: Question) -> str:
    return f"第 {question.id} 题：{question.question}"


# A mock interview asks the model to put the question, not to answer it.
INTERVIEW_ASK = "（模拟面试：请以面试官的口吻，用一两句话向候选人提出这道题；不要作答，不给提示。）"


def interview_text(question: Question) -> str:
    """The main request's question in an interview: the interviewer puts it to the learner."""
    return f"{question_text(question)}\n{INTERVIEW_ASK}"


def clip_summary(text: str, lines: int = SUMMARY_LINES) -> str:
    """At most ``lines`` non-empty lines, however long the model's summary was.

    A line longer than ``SUMMARY_LINE_CHARS`` is cut at a clause end, never
    inside a code span or formula (``bank.text.clip``).
    """
    kept = [line.rstrip() for line in text.strip().splitlines() if line.strip()]
    long = SUMMARY_LINE_CHARS
    return "\n".join(line if len(line) <= long else clip(line, long) for line in kept[:lines])
