"""``<details><summary>Q？</summary> answer </details>``: GitHub's collapsible answers.

Under a question, ``<details><summary>Answer</summary> … </details>`` only
hides its answer: the blocks inside are the answer (``unwrapped``).

The tags are found in the source of the HTML and Markdown blocks they span
(markdown-it-py sees ``<details>`` as an HTML block that ends at a blank
line), nested ``<details>`` (a "Show example") staying inside the answer. A list whose
items are only such boxes (``1. `` over an indented ``<details>``) is read as the boxes
(``boxes_listed``).
A ``<details>`` never closed holds no more than its own tags: what follows
it is read as if the tags were not there, so it cannot take the rest of
the file with it. A heading inside a closed answer box (``#### 答案：D``, even
``#### 2. How closures work:``) is a line of its answer, not a section nor a
question, unless it carries a question marker (``demoted``).
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block, plain, source
from studybot.bank.importer.decorations import bold_line
from studybot.bank.importer.htmltext import markdown_of
from studybot.bank.importer.markers import PARAGRAPH_NUMBER, clean, marker
from studybot.bank.importer.notes import CALLOUT

DETAILS_TAG = re.compile(r"<(/?)details\b[^>]{0,500}>", re.I)  # "<details open>", "</details>"
_DETAILS = re.compile(
    rf"{DETAILS_TAG.pattern}|<summary\b[^>]{{0,500}}>(.{{0,2000}}?)</summary>", re.I | re.S
)

# what an answer box's summary says: "答案", "<b>查看答案</b>", "点击查看参考答案", "Show answer"
_ANSWER_LABEL = (
    r"\s*(?:<[^>]{1,20}>\s*)*(?:(?:点击|查看|显示|展开)\s*){0,2}(?:参考)?"
    r"(?:答案|解析|解答|answers?|solutions?|show answer)"
    r"(?:\s*(?:[+&/、与和及]|and)\s*(?:解析|解释|explanations?|hints?))?\s*(?:<[^>]{1,20}>\s*)*"
)
# the tags around a hidden answer: "<details><summary><b>答案</b></summary>", "<p>", "</details>"
_BOX_TAGS = re.compile(
    rf"</?details\b[^>]{{0,500}}>|</?(?:p|br|b|strong|div)\s*/?>|<summary\b[^>]{{0,500}}>{_ANSWER_LABEL}"
    r"</summary>",
    re.I,
)
ANSWER_SUMMARY = re.compile(_ANSWER_LABEL, re.I)
_WRAPPER = re.compile(r"</?(?:p|br|b|strong|div)\s*/?>", re.I)  # "<p>", "<div>": no text

# prose in a ```text (``md``, ``plain``) box: an answer's text, not code
TEXT_FENCE = re.compile(
    r"(?P<fence>`{3,}|~{3,})[ \t]*(?:text|txt|plain|plaintext|markdown|md)[ \t]*\n(?P<body>.*)\n(?P=fence)",
    re.DOTALL | re.IGNORECASE,
)


def collapsible(lines: list[str], blocks: list[Block], index: int):
    """(index past the blocks, [(line, summary, answer)], closed) of the top-level
    ``<details>``; one never closed (``closed`` False) ends after its summary's block."""
    found: list[tuple[int, str, str]] = []
    depth, summary, opened, body_from = 0, None, 0, (0, 0)
    summary_block = index  # the block that holds the open tag's summary
    j = index
    while j < len(blocks):
        block = blocks[j]
        text = "\n".join(lines[block.start : block.end])
        for match in _DETAILS.finditer(text):
            line = block.start + text.count("\n", 0, match.start())
            if match[1] is not None:
                depth += -1 if match[1] == "/" else 1
                if depth == 1 and match[1] == "":
                    summary, opened = None, line
                if depth == 0:
                    answer = _between(lines, body_from, (line, _col(text, match.start())))
                    if summary is not None:
                        found.append((opened, summary, answer))
            elif depth == 1 and summary is None:  # the question's line is its summary's
                summary, summary_block, opened = match[2], j, line
                body_from = (
                    block.start + text.count("\n", 0, match.end()),
                    _col(text, match.end()),
                )
        j += 1
        if depth <= 0:
            break
    if depth > 0:  # never closed: its tags, and a summary as a question with no answer yet
        return summary_block + 1, found + ([(opened, summary, "")] if summary else []), False
    return j, found, True


def _col(text: str, at: int) -> int:
    return at - (text.rfind("\n", 0, at) + 1)


def _between(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    (a, ca), (b, cb) = start, end
    if a == b:
        return lines[a][ca:cb].strip()
    part = [lines[a][ca:], *lines[a + 1 : b], lines[b][:cb]]
    return "\n".join(part).strip()


def boxes_listed(lines: list[str], blocks: list[Block]) -> list[Block]:
    """``blocks`` with each list whose items are only ``<details>`` boxes (``1. `` over an
    indented ``<details><summary>Q？</summary> … </details>``) read as those boxes: its
    items' blocks in its place, each box a question as if written without the list."""
    out: list[Block] = []
    for block in blocks:
        items = block.children if block.is_list else []
        boxed = bool(items) and all(_box_item(lines, item) for item in items)
        out.extend([b for item in items for b in item.children] if boxed else [block])
    return out


def _box_item(lines: list[str], item: Block) -> bool:
    """An item that holds nothing but a ``<details>`` box (its marker's line bare)."""
    first = item.children[0] if item.children else None
    return (
        first is not None
        and first.kind == "html"
        and first.start > item.start
        and not _LIST_MARKER.sub("", lines[item.start]).strip()
        and lines[first.start].lstrip().lower().startswith("<details")
    )


_LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])")


def unwrapped(lines: list[str], blocks: list[Block]) -> list[Block] | None:
    """The blocks inside ``<details><summary>Answer</summary> … </details>`` without the
    tags' own blocks; None when a tag shares its block with text."""
    inside = []
    for block in blocks:
        if block.kind != "html":
            inside.append(block)
            continue
        text = "\n".join(lines[block.start : block.end])
        if _WRAPPER.sub("", _DETAILS.sub("", text)).strip():
            return None
    return inside


def answer_box(lines: list[str], block: Block) -> bool:
    """``block`` opens ``<details>`` whose summary says ``答案``/``Answer``: an answer box."""
    text = "\n".join(lines[block.start : block.end]) if block.kind == "html" else ""
    opened = _DETAILS.search(text)
    summary = _DETAILS.search(text, opened.end()) if opened and opened[1] == "" else None
    return summary is not None and summary[1] is None and bool(ANSWER_SUMMARY.fullmatch(summary[2]))


def boxed_bold(lines: list[str], blocks: list[Block]) -> list[int]:
    """The lines of the numbered bold lines alone (``**3. …？**``) with an answer box right
    under them (``<details><summary>答案</summary>``): questions marked plain to see."""
    found = []
    for block, after in zip(blocks, blocks[1:], strict=False):
        text = bold_line(block.raw) if block.kind == "paragraph" else None
        if text and PARAGRAPH_NUMBER.match(text) and answer_box(lines, after):
            found.append(block.start)
    return found


def demoted(lines: list[str], blocks: list[Block]) -> list[Block]:
    """``blocks`` with each heading inside a closed answer box (``<details>`` whose summary
    says ``答案``/``Answer``) read as a paragraph: ``#### 答案：D`` or ``#### 2. How closures
    work:`` in it neither ends a question, asks one nor opens a chapter; only a heading with a
    question marker (``#### Q2：…``) stays one."""
    inside: list[tuple[int, int]] = []  # (first, last) block of each closed top-level box
    depth, opened, answer = 0, 0, False
    for j, block in enumerate(blocks):
        if block.kind not in ("html", "paragraph"):
            continue
        text = "\n".join(lines[block.start : block.end])
        if "details" not in text.lower():
            continue
        for match in _DETAILS.finditer(text):
            if match[1] is None:  # a summary
                answer = answer or (depth == 1 and bool(ANSWER_SUMMARY.fullmatch(match[2])))
            elif match[1] == "":
                opened, answer = (j, False) if depth == 0 else (opened, answer)
                depth += 1
            elif depth > 0:
                depth -= 1
                if depth == 0 and answer:
                    inside.append((opened, j))
    if not inside:
        return blocks
    out = list(blocks)
    for first, last in inside:
        for j in range(first + 1, last):
            block = out[j]
            if block.kind == "heading" and not marker(block.raw, heading=True):
                out[j] = Block("paragraph", block.start, block.end, raw=block.raw)
    return out


def kept_source(lines: list[str], blocks: list[Block]) -> str:
    """The source of ``blocks`` as written, less the lines between them that were left out
    (the tags of an answer box, a comment, a section taken out as a question of its own): each
    run of adjacent blocks, a blank line apart."""
    runs: list[list[Block]] = []
    for block in blocks:
        last = runs[-1][-1] if runs else None
        gap = "\n".join(lines[last.end : block.start]) if last is not None else ""
        if last is None or (gap.strip() and not _BOX_TAGS.sub("", gap).strip()):
            runs.append([block])  # the tags of an answer box
        elif gap.strip() and all(_titles(ln) for ln in gap.split("\n")):
            runs.append([block])  # "> [!explanation]-": the title of an answer callout
        elif any(ln.startswith("#") for ln in gap.split("\n")):  # a section taken out of it
            runs.append([block])
        elif gap.strip():
            runs[-1].extend([Block("html", last.end, block.start), block])  # as written
        else:
            runs[-1].append(block)
    return _unboxed("\n\n".join(source(lines, run) for run in runs))


def _titles(line: str) -> bool:
    """Whether ``line`` is blank or a callout's title line (``> [!explanation]-``)."""
    inside = line.strip().lstrip(">").strip()
    return not inside or bool(CALLOUT.match(inside))


# a line that opens an answer box, alone: "<details><summary>Answer + Explanation</summary>"
_BOX_OPENING = re.compile(
    rf"\s*<details\b[^>]{{0,500}}>\s*<summary\b[^>]{{0,500}}>{_ANSWER_LABEL}</summary>\s*", re.I
)
_BOX_CLOSING = re.compile(r"\s*</details\s*>\s*", re.I)
_SPLIT_OPENING = re.compile(r"(<details\b[^>\n]{0,500}>)[ \t]*\n[ \t]*(?=<summary\b)", re.I)
_BREAK_END = re.compile(r"\s*<br\s*/?>\s*$", re.I)


def _unboxed(text: str) -> str:
    """``text`` without the lines of an answer box's own tags, when they stand alone (its
    text on the lines between them): what the box hides is the answer, not the box."""
    if "<details" not in text.lower():
        return text
    text = _SPLIT_OPENING.sub(r"\1", text)  # "<details>" over "  <summary>答案</summary>"
    out: list[str] = []
    depth, boxes = 0, []  # depth of <details>; the depths at which an answer box opened
    for line in text.split("\n"):
        if _BOX_OPENING.fullmatch(line):
            depth += 1
            boxes.append(depth)
            continue
        if _BOX_CLOSING.fullmatch(line) and boxes and boxes[-1] == depth:
            boxes.pop()
            depth -= 1
            continue
        tags = DETAILS_TAG.findall(line)  # "" opens, "/" closes
        depth += tags.count("") - tags.count("/")
        out.append(_BREAK_END.sub("", line) if boxes else line)  # "答案：A<br>": its text
    return "\n".join(out).strip() if len(out) < text.count("\n") + 1 else text


# a blank to fill in: "__", "___", "_1_" between words, never "__init__" nor "snake_case"
_BLANK = re.compile(r"(?<![A-Za-z0-9_])_(?:_+|\d{1,2}_)(?![A-Za-z0-9_])")
_RECALL = re.compile(r"[:：]\s*(?:\.{3}|…+)$")  # "结构型模式有 8 种：...": the list to recall
_KEPT = "\ue000"  # stands for a blank's "_" while the summary's Markdown is read
# "问题？", "Question?", "title": a template's card, written to be copied, no card itself
_TEMPLATE = re.compile(r"(?:问题|题目|question)\s*\d*\s*[？?]|(?:title|标题)\s*\d*", re.IGNORECASE)


def card(summary: str, answer: str) -> tuple[str, bool, str]:
    """A ``<summary>``'s text, whether it is a cloze card, and its answer: a cloze card has
    blanks to fill in (``__``, ``_1_``) or a list to recall (``有 8 种：...``) over an answer,
    and its blanks stay in its text; a template's ``问题？`` (``title``) reads as no text. An answer
    written as HTML lines (``<div>…</div>`` each) reads as their text, a line each."""
    one_line = summary.replace("\n", " ").strip()
    wrapped = one_line.startswith("__") and one_line.endswith("__")  # "__bold__", no blank
    blanks = not wrapped and bool(_BLANK.search(one_line))
    if blanks:
        one_line = _BLANK.sub(lambda m: m[0].replace("_", _KEPT), one_line)
    text = clean(plain(one_line)).replace(_KEPT, "_")
    lines = [line.strip() for line in answer.strip().splitlines()]
    if lines and all(_HTML_LINE.fullmatch(line) for line in lines if line):
        answer = markdown_of(answer)
    if template(text):
        return "", False, answer
    return text, bool(answer.strip()) and (blanks or bool(_RECALL.search(text))), answer


def template(summary: str) -> bool:
    """A template's summary (``问题？``, ``title``), written to be copied: no question."""
    return bool(_TEMPLATE.fullmatch(summary.strip()))


_HTML_LINE = re.compile(r"<(div|p)\b[^>]{0,200}>.*</\1>", re.IGNORECASE)
