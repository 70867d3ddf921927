"""Exercises: ``## 练习 2：给端点加断线重连`` over its task and a ``<details>`` answer.

A heading labelled as an exercise (``练习 N：``, ``习题 N：``, ``Exercise N:``) whose section
holds a ``<details>`` answer (``答案``, ``参考答案``, ``Solution``) or hint (``提示``,
``Hint``), no sub-heading and no marked question line of its own (``题目：…`` under ``### 练习1：
概念理解`` is the question there), is one question, whether its title asks or only sets a
task: the title without its label is the question, the answer inside ``<details>`` its answer,
and the task written above it (with a hidden hint after it) the question's hint; a sentence
of the task that asks (``…会发生什么？``) is part of the task, never a question of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from studybot.bank.importer.blocks import Block, plain, source
from studybot.bank.importer.collapsible import ANSWER_SUMMARY, collapsible
from studybot.bank.importer.markers import clean, marker

_EXERCISE = re.compile(
    r"(?:练习|习题|作业|exercise|ex\.)\s*(?P<n>\d{1,3})\s*[:：.、]\s*(?P<text>\S.*)", re.IGNORECASE
)
_HINT_SUMMARY = re.compile(r"\s*(?:提示|hints?)\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Exercise:
    """What an exercise's section gives: its number, its question, hint and answer."""

    label: str
    question: str
    hint: str | None
    answer: str | None


def exercise(title: str, inner: list[Block], lines: list[str]) -> Exercise | None:
    """The exercise a heading titled ``title`` over ``inner`` is, or None."""
    found = _EXERCISE.fullmatch(title)
    if found is None or any(b.kind == "heading" for b in inner):
        return None
    if any(b.kind == "paragraph" and marker(b.raw.split("\n")[0]) for b in inner):
        return None  # "题目：…" under "### 练习1：概念理解": the marked line asks
    task: list[Block] = []
    answer, hints = None, []
    index = 0
    while index < len(inner):
        block = inner[index]
        if block.kind != "html" or not source(lines, [block]).lower().startswith("<details"):
            task.append(block)
            index += 1
            continue
        index, boxes, _ = collapsible(lines, inner, index)
        for _, summary, body in boxes:
            said = clean(plain(summary.replace("\n", " ")))
            if ANSWER_SUMMARY.fullmatch(said) and body.strip():
                answer = body.strip()
            elif _HINT_SUMMARY.fullmatch(said) and body.strip():
                hints.append(body.strip())
    if answer is None and not hints:
        return None
    hint = "\n\n".join(filter(None, [source(lines, task).strip(), *hints])) or None
    return Exercise(found["n"], found["text"].strip(), hint, answer)
