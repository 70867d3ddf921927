"""MkDocs/Material boxes: ``??? question "Why …?"`` with the answer indented below it.

Python-Markdown's admonitions (``!!!``, and the collapsible ``???``/``???+`` of
pymdownx.details) hold their body indented by four columns, which CommonMark
would read as a code block. ``unboxed`` rewrites the lines before parsing,
one for one, so every place still names the file's own line: the box's line
and its body become an Obsidian question callout (``> [!question] …``) when
its kind is a question's (``question``, ``faq``, ``help``, ``quiz``) and its title
is more than a note in brackets (a title that does not ask over a body whose lines do,
``"Mid-senior checkpoint"``, is left out: a label), a bold title over the body for any
other kind (a question only if the title asks); the title may be quoted or not
(``!!! question Why …?``); a box inside a box's body is read the same way,
and a box whose title only labels an answer (``??? success "Show Answer"``)
becomes its body alone: the answer of the question above it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from studybot.bank.importer.draft import FENCE
from studybot.bank.importer.notes import QUESTION_CALLOUTS

_BOX = re.compile(
    r"^(?P<indent>[ \t]*)(?:\?\?\?\+?|!!!)[ \t]+(?P<kind>[\w-]+)"
    r'(?:(?:[ \t]+[\w -]*?)?[ \t]*"(?P<title>[^"\n]*)"?'  # a closing quote missing too
    r'|[ \t]+(?P<bare>[^"\s][^\n]*?))?[ \t]*$'  # "!!! question Why …?": a title unquoted
)
# Material's placement classes ("!!! note inline end"), not an unquoted title
_PLACEMENT = re.compile(r"(?:inline|end|left|right)(?:[ \t]+(?:inline|end|left|right))*")
# a title that labels the answer below it, not a question
ANSWER_TITLE = re.compile(
    r"^(?:show|see|reveal|view|check)?\s*(?:the\s+|one\s+|an\s+)?(?:answer|solution|explanation)s?"
    r"|^(?:查看|显示|点击查看|展开)?(?:答案|解答|解析|参考答案)",
    re.IGNORECASE,
)
_BODY_INDENT = 4
# "(Practical questions about RAG apps)": a title wholly in brackets is a note, not a question
BRACKETED = re.compile(r"[（(][^（）()]*[）)]")
# a line that ends in a question mark (emphasis and line breaks after it aside)
_ASKING = re.compile(r"[?？][*_]*\s*(?:<br\s*/?>\s*)*$")


def unboxed(lines: list[str]) -> list[str]:
    """``lines`` with each question's box as an Obsidian question callout, any other box as
    its title and body, and a box labelled as an answer as its body alone."""
    if not any(line.lstrip().startswith(("???", "!!!")) for line in lines):
        return lines
    out: list[str] = []
    index, fenced = 0, False
    while index < len(lines):
        if lines[index].lstrip().startswith(("```", "~~~")):
            fenced = not fenced  # a box shown as code in a fence stays code
        box = None if fenced else _BOX.match(lines[index])
        if box is None:
            out.append(lines[index])
            index += 1
            continue
        bare = box["bare"] if box["bare"] and not _PLACEMENT.fullmatch(box["bare"]) else ""
        indent, title = box["indent"], (box["title"] or bare).strip()
        inner = indent + " " * _BODY_INDENT
        end = index + 1
        while end < len(lines) and (not lines[end].strip() or lines[end].startswith(inner)):
            end += 1
        while end > index + 1 and not lines[end - 1].strip():
            end -= 1  # the blank lines after the body are no part of it
        body = [line[len(inner) :] if line.strip() else "" for line in lines[index + 1 : end]]
        body = unboxed(body)  # a box inside a box (a tip holding questions) is read the same way
        if ANSWER_TITLE.match(title):  # "Show Answer": the body answers the question above
            out.extend(["", *(indent + line if line else "" for line in body)])
        elif box["kind"].lower() in QUESTION_CALLOUTS and not BRACKETED.fullmatch(title):
            title = "" if _labels(title, body) else title  # "Mid-senior checkpoint": a label
            out.append(f"{indent}> [!{box['kind'].lower()}] {title}".rstrip())
            out.extend(f"{indent}> {line}".rstrip() for line in body)
        else:  # a note, a tip: its title and body as text, a question only if the title asks
            out.extend([f"{indent}**{title}**" if title else "", *(indent + ln for ln in body)])
        index = end
    return out


def answer_boxes(text: str) -> bool:
    """Whether ``text`` holds a box titled as an answer (``??? success "Show Answer"``): its
    questions are asked outside boxes too, each over such a box."""
    if "???" not in text and "!!!" not in text:
        return False
    found = (_BOX.match(line) for line in text.splitlines() if line.lstrip()[:3] in ("???", "!!!"))
    return any(
        b is not None and ANSWER_TITLE.match((b["title"] or b["bare"] or "").strip()) for b in found
    )


def _labels(title: str, body: list[str]) -> bool:
    """Whether a question box's title only labels it (``"Mid-senior checkpoint"``): it does
    not ask, and lines of its body do."""
    asking = any(_ASKING.search(body[n]) for n in unfenced(body))
    return bool(title) and not _ASKING.search(title) and asking


# a kramdown heading or paragraph attribute at the line's end: "## Why? {#why-kv}"
_ANCHOR = re.compile(
    r"[ \t]*\{#(?P<id>[A-Za-z][\w:.-]{0,200})(?:[ \t]+[.#][\w-]{1,100}){0,10}\}[ \t]*$"
)


def _anchor(line: str) -> str | None:
    found = _ANCHOR.search(line) if "{#" in line else None
    return found["id"] if found else None


def spaced_headings(lines: list[str]) -> list[str]:
    """A kramdown anchor (``{#why-kv}``) at a line's end off it (markup, never text), and a
    line outside the headings with a heading's anchor (``**Q1: …？** {#q1}``, a contents
    entry) blank;
    ``###2、 …`` (no space after the hashes, a number next: a heading meant, which
    CommonMark reads as text) as ``### 2、 …``, and an HTML heading alone on its line
    (``<h2 id="x">RoPE</h2>``, which CommonMark reads as an HTML block running to the next
    blank line) as ``## RoPE``; a line that is only ``<br>`` (spacing, which would fold the
    heading under it into an HTML block) as a blank line; lines inside fenced code are left
    as they are."""
    out = list(lines)
    outside = list(unfenced(lines))
    headed = {_anchor(lines[n]) for n in outside if lines[n][:1] == "#"} - {None}
    for index in outside:
        line = lines[index]
        if "{#" in line and (anchored := _ANCHOR.search(line)):
            contents = line[:1] != "#" and anchored["id"] in headed  # "**Q1: …？** {#q1}"
            line = out[index] = "" if contents else line[: anchored.start()]  # never text
        if line[:2] == "##":
            out[index] = _UNSPACED.sub(r"\1 ", line, count=1)
        elif "<h" in line[:4] and (html := _HTML_HEADING.fullmatch(line)):
            out[index] = "#" * int(html["level"]) + " " + html["text"].strip()
        elif "<br" in line[:4] and _LONE_BREAK.fullmatch(line):
            out[index] = ""
    return out


def unfenced(lines: list[str]) -> Iterator[int]:
    """The indices of the lines outside fenced code, the fences' own lines aside."""
    fence = None
    for index, line in enumerate(lines):
        opening = FENCE.match(line)
        if opening and (fence is None or opening[1][0] == fence):
            fence = None if fence else opening[1][0]
        elif fence is None and not opening:
            yield index


_LONE_BREAK = re.compile(r"(?:<br\s*/?>\s*)+", re.IGNORECASE)
_UNSPACED = re.compile(r"^(#{2,6})(?=\d)")
_HTML_HEADING = re.compile(
    r" {0,3}<h(?P<level>[1-6])(?:\s[^<>]*)?>(?P<text>[^<>]*\S[^<>]*)</h(?P=level)>\s*", re.I
)
