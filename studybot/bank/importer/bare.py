"""Bare questions pasted one a line (an interview write-up): which line is the next question.

Three or more short lines, most of them asking, are a list of questions (``one_a_line``),
a line each (``line_questions``: ``4、…？5、…？`` two, ``…是什么？这个问题要展开来谈。`` one, a
remark after its question mark; any other line that reads as a question, listed); so are the lines under a label that names their kind (``系统设计题：``, ``八股：``:
``kind_label``).

A pasted list of what was asked loses its marks: a number before its dot
(``. deepspeed框架介绍``, ``.adam优化器原理``: ``lost_number``), a keycap digit for a number
(``5️⃣讲一下 Flash Attention?``: ``unkeyed``), a question mark for a full stop
(``lora的实现过程。``, ``…区别在哪里。``: ``said_question``, one short sentence that asks
but for its stop). Under a loose question with nothing under it yet, a short line that reads
as a question is the next question, not its answer (``bare_next``). After five or more bare
questions and none with an answer, a short prompt right under an asking line (``位置嵌入``,
``deepspeed框架介绍``) is a question of its own too (``bare_prompts``), also alone in its
paragraph after such a run in its section (``深拷贝 / 浅拷贝常见坑``: ``bare_prompt``).
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block, link_target, plain
from studybot.bank.importer.draft import Draft
from studybot.bank.importer.markers import field_line, numbered, reads_as_question

STATEMENT = ("。", "：", ":", "！")  # a line that ends so says, it does not ask
_KEYCAP = re.compile(r"^(?P<n>\d)\ufe0f?\u20e3\s*(?=\S)")
# a space or Chinese after the dot: ".java → javac", "...", ".5" and ".NET" are no such line
_LOST_NUMBER = re.compile(
    r"^\.(?:[ \t]+|(?=[A-Za-z]*[\u4e00-\u9fff]))(?![A-Z]{2,}\b)(?P<text>[^\s.\d].{1,79})$"
)
# a line alone that names the kind of the questions under it, one a line: "系统设计题：", "八股："
_KIND_LABEL = re.compile(
    r"(?:(?:(?:系统)?设计|场景|算法|编程|开放|智力|代码|面试|笔试|行为|项目|高频|八股)题|八股文?"
    r"|手撕(?:代码|题)?|system design|coding|behaviou?ral)(?:\s*questions?)?\s*[:：]",
    re.IGNORECASE,
)
_BARE_MOST = 60  # characters of a bare question's line
_PROMPT_MOST = 32  # characters of a bare prompt under an asking line ("位置嵌入")
_RUN_LEAST = 5  # bare questions before it, none with an answer


def unkeyed(text: str) -> str:
    """``3️⃣…`` as ``3. …``."""
    return _KEYCAP.sub(r"\g<n>. ", text, count=1)


def lost_number(text: str) -> str | None:
    """The text of ``. deepspeed框架介绍`` (a numbered line whose number was lost); else None."""
    found = _LOST_NUMBER.match(text)
    return found["text"] if found else None


def bare_next(current: Draft, raw_lines: list[str], drafts: list[Draft]) -> bool:
    """A short line that reads as a question right under a loose question with nothing under it
    yet (``生成复读机如何解决`` under ``ppo的损失函数grpo的原理``): the next bare question; so is
    a short prompt after five or more bare questions of its section, none with an answer
    (``深拷贝 / 浅拷贝常见坑``)."""
    text = plain(raw_lines[0])
    if current.blocks or len(raw_lines) > 1 or len(text) > _BARE_MOST:
        return False
    if said_question(text) or (not text.endswith(STATEMENT) and reads_as_question(text)):
        return True
    return _prompt(raw_lines, drafts, current.path)


def bare_prompt(lines: list[str], block: Block, drafts: list[Draft], path: tuple) -> bool:
    """A paragraph of one short line right under a line that asks, ending no sentence and more
    than a link or an image (``深拷贝 / 浅拷贝常见坑``), after five or more questions of its
    section (``path``), none with an answer: a prompt of its own (a ``<summary>`` title is none)."""
    above = next((line for line in reversed(lines[: block.start]) if line.strip()), "")
    return reads_as_question(plain(above)) and _prompt(block.raw.split("\n"), drafts, path)


def _prompt(raw_lines: list[str], drafts: list[Draft], path: tuple) -> bool:
    text = plain(raw_lines[0]).strip()
    if len(raw_lines) > 1 or not 2 <= len(text) <= _PROMPT_MOST or text.endswith(STATEMENT):
        return False
    image = link_target(raw_lines[0].strip().lstrip("!")) is not None
    titled = "<summary" in raw_lines[0].lower()  # "<b><summary>手撕代码</summary></b>": a section
    return not image and not titled and _bare_run([d for d in drafts if d.path == path])


def said_question(text: str) -> bool:
    """``lora的实现过程。``, ``…区别在哪里。``: one short sentence that asks but for its full stop
    (a line of prose has more than one sentence or clause, or a label: ``场景题：…？我…。``)."""
    said = text[:-1]
    return (
        text.endswith("。")
        and len(text) <= _BARE_MOST
        and not re.search(r"[。！!；;:：]", said)
        and reads_as_question(said)
    )


def bare_before(drafts: list[Draft]) -> bool:
    """The question before has nothing under it: a run of bare questions."""
    last = drafts[-1] if drafts else None
    return last is not None and not (last.blocks or last.reference or last.key_points)


def bare_prompts(drafts: list[Draft], texts: list[str]) -> bool:
    """Whether ``texts`` (two or three lines, the first asking, the rest short prompts that end
    no sentence) are questions a line each, in a file whose questions so far have no answers."""
    if not 2 <= len(texts) <= 3 or not reads_as_question(texts[0]):
        return False
    if not _bare_run(drafts):
        return False
    return all(len(t) <= _PROMPT_MOST and not t.rstrip().endswith(STATEMENT) for t in texts[1:])


def _bare_run(drafts: list[Draft]) -> bool:
    """Five or more questions among ``drafts``, none with an answer."""
    taken = [d for d in drafts if d.question.strip()]
    return len(taken) >= _RUN_LEAST and not any(
        d.blocks or d.reference or d.key_points for d in taken
    )


def one_a_line(texts: list[str]) -> bool:
    """Three or more short lines, two in three of them asking: a list of questions, a line each."""
    if len(texts) < 3 or any(len(t) > 200 for t in texts):
        return False
    asking = [t for t in texts if reads_as_question(t) and not field_line(t)]
    return 3 * len(asking) >= 2 * len(texts)  # "优点：有助于…的理解" is a field, not a question


# "4、…？5、…？": the next number right after a question mark opens the next question
_NEXT = re.compile(r"(?<=[?？])\s*(?=(?P<n>\d{1,3})[、．]\s*\S)")
# "…是什么？这个问题要展开来谈。": a question, then a short remark on how to answer it
_REMARK = re.compile(r"[?？][^?？\n]{2,30}[。！]$")


def line_questions(texts: list[str]) -> list[tuple[int, str, bool]]:
    """(line offset, text, whether a question) of each line that asks or reads as asking."""
    found = []
    for k, text in enumerate(texts):
        for part in _parts(text):
            said = part.rstrip().endswith(STATEMENT) and not _REMARK.search(part.rstrip())
            if not said or reads_as_question(part):
                found.append((k, part, not said))
    return found


def _parts(text: str) -> list[str]:
    """``4、…？5、…？`` → its two numbered questions; any other line alone."""
    label, cuts = numbered(text)[0], [0]
    for found in _NEXT.finditer(text):
        if label and label.isdigit() and int(found["n"]) == int(label) + len(cuts):
            cuts.append(found.end())
    return [text[a:b].strip() for a, b in zip(cuts, [*cuts[1:], len(text)], strict=True)]


def kind_label(line: str) -> bool:
    """``系统设计题：``, ``八股：``, ``手撕：``, ``场景题：`` alone: the lines under it are questions."""
    return bool(_KIND_LABEL.fullmatch(plain(line).strip().strip("*_ ")))
