"""What a machine can see wrong in a rubric: warnings for ``bank validate``.

Each is a rubric that grades worse than its writer meant, never a reason
to refuse the bank:

- an alias word of one CJK character: it matches only that character
  standing alone as a word (头 never finds 开头 or 多头);
- a concept whose every alternative the question itself holds: restating
  the question would earn it;
- a ``wrong`` alternative that the point's own text says: the key would
  contradict itself;
- a concept that the point's own text does not hold: its aliases are
  probably spelled unlike the point (a typo, or words jieba cuts
  differently), so correct answers will miss it too.
"""

from __future__ import annotations

from studybot.bank import Bank, Question
from studybot.learn import grading, words
from studybot.learn.aliases import Alias
from studybot.learn.reading import FOUND, Attempt


def lint(bank: Bank) -> list[str]:
    """Every warning of the bank's rubric, as ``Q<id> point <n>: warning: …``."""
    grader = grading.offline(bank)  # words cut as the grader cuts them, rubrics compiled once
    out: list[str] = []
    for question in bank.questions:
        if question.rubric:
            out.extend(_question(question, grader))
    return out


def _question(question: Question, grader: grading.OfflineGrader) -> list[str]:
    out: list[str] = []
    compiled = grader.compiled(question)
    asked = Attempt(question.question, "")  # the question read as an attempt
    for n, point in enumerate(compiled.points, start=1):
        at = f"Q{question.id} point {n}: warning:"
        own = Attempt(point.text, "")
        lone = sorted(
            {w for alias in (*point.needed, *point.wrong) for w in _lone_characters(alias)}
        )
        if lone:
            listed = " ".join(lone)
            out.append(f"{at} alias words of one character ({listed}) match only standing alone")
        for alias in point.concepts:
            if _every_alternative_in(asked, alias):
                out.append(f"{at} concept {_short(alias)!r} is all the question's own words")
            elif own.look(alias).state != FOUND:
                out.append(f"{at} concept {_short(alias)!r} is not found in the point's own text")
        for alias in point.wrong:
            if own.look(alias).state == FOUND:
                out.append(f"{at} wrong {_short(alias)!r} is found in the point's own text")
    return out


def _lone_characters(alias: Alias) -> list[str]:
    lone = {w for part in alias.text.split("|") for w in part.split() if _one_cjk(w)}
    return sorted(lone)


def _one_cjk(word: str) -> bool:
    # A negation or a function character stands alone by nature: 不 变, 只 用.
    return len(word) == 1 and "\u3400" <= word <= "\u9fff" and word not in STANDALONE


STANDALONE = (
    words.NEGATIONS
    | words.AUXILIARIES
    | set(
        [
            "只",
            "和",
            "与",
            "或",
            "及",
            "的",
            "了",
            "在",
            "对",
            "比",
            "更",
            "最",
            "越",
            "每",
            "各",
            "一",
            "两",
            "多",
            "少",
            "大",
            "小",
            "高",
            "低",
            "前",
            "后",
            "上",
            "下",
            "新",
            "旧",
            "长",
            "短",
        ]
    )
)


def _every_alternative_in(asked: Attempt, alias: Alias) -> bool:
    return all(
        asked.look(Alias(alias.text, (alternative,))).state == FOUND
        for alternative in alias.alternatives
    )


def _short(alias: Alias) -> str:
    text = " ".join(alias.text.split())
    return text if len(text) <= 40 else text[:40] + "…"
