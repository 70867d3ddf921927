"""The Markdown block structure: read a section at a time, and plain sections without a parser.

``blocks.parse`` must give what markdown-it gives for the whole text. Blocks
are compared by kind, first line, level, text, number and their source text
(a part's last list ends at its last line, where in the whole file it also
takes the blank lines after it: the same source).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from studybot.bank.importer import blocks

DATA = Path(__file__).resolve().parents[1] / "data" / "import"

# lines a plain section is made of, and lines that send a section to markdown-it
PLAIN = [
    "", "", "", "  ", "# 大模型面试题", "## 第二章 微调", "### 1. 什么是 LoRA？", "#### Q2 Why RoPE?",
    "- 低秩分解：W = W0 + BA", "- **秩 r**：通常取 8 或 16", "* 星号的要点", "+ 加号的要点",
    "LoRA 只训练两个小矩阵。", "**Q3：QLoRA 比 LoRA 多了什么？**", "A：4 比特的基座。", "第二行接着写",
    "10.5 倍的显存", "1.5 倍速", "行尾两个空格  ", "- 要点结尾有 #", "</s> 之后的文字", "\\# 不是标题",
    "行尾全角空格\u3000", "- 要点\u3000", "![图](a.png) 图在前", "1. 什么是词元？", "2. 为什么要分词？",
    "01. 补零的编号", "3) 括号编号", "1) 括号编号", "12. **加粗**的问题",
]  # fmt: skip
OTHER = [
    "### C#", "###", "#没有空格", "####### 七级", "### 标题 ###", "-  两个空格", "- `代码` 开头",
    "- [链接](https://example.com)", "- 1. 嵌套", "- > 引用", "  缩进的续行", "    缩进代码", "---", "===",
    "***", "* * *", "- - -", "| a | b |", "|---|---|", "a | b", "--- | ---", ":--", "```", "~~~",
    "<details>", "</details>", "<!-- 注释 -->", "[ref]: https://example.com", "> 引用", "1. 有序",
    "2) 有序", "- ", "**", "** 空格", "\u3000全角空格开头", "_强调_", "<s>", "Setext 标题", "----",
]  # fmt: skip


def shape(found, lines):
    return [
        (
            b.kind,
            b.start,
            b.level,
            b.raw,
            b.number,
            blocks.source(lines, [b]),
            shape(b.children, lines),
        )
        for b in found
    ]


def same_as_markdown_it(text: str) -> None:
    lines = text.split("\n")
    assert shape(blocks.parse(text), lines) == shape(blocks._parse(text, 0), lines), text


def generated(count: int, seed: int, other: int):
    rng = random.Random(seed)
    for _ in range(count):
        pool = PLAIN + rng.sample(OTHER, other)
        text = "\n".join(rng.choice(pool) for _ in range(rng.randint(1, 60)))
        yield text + ("\n" if rng.random() < 0.3 else "")


def test_the_test_files_read_as_markdown_it_reads_them():
    texts = [p.read_text(encoding="utf-8") for p in sorted(DATA.rglob("*.md"))]
    assert len(texts) > 20
    for text in texts:
        same_as_markdown_it("\n".join(text.expandtabs(4).splitlines()))


@pytest.mark.parametrize("other", [0, 3])
def test_generated_files_read_as_markdown_it_reads_them(other):
    taken = 0
    for text in generated(1500, seed=19 + other, other=other):
        lines = text.split("\n")
        taken += sum(blocks._plain(lines, s, e) is not None for s, e in blocks._sections(lines))
        same_as_markdown_it(text)
    assert taken > 150  # the plain path was taken, not only markdown-it's


def test_a_bank_of_headings_and_key_points_needs_no_parser():
    text = "# 题库\n\n## 第一章\n\n### 1. 什么是词元？\n\n- 模型读写的单位\n- 约 0.75 个英文词\n\n"
    text += "### 2. 为什么要分词？\n\n词表有限。\n**未登录词**拆成子词。\n"
    lines = text.split("\n")
    sections = blocks._sections(lines)
    assert len(sections) == 4
    assert all(blocks._plain(lines, s, e) is not None for s, e in sections)
    same_as_markdown_it(text)


@pytest.mark.parametrize(
    "text",
    [
        "### 1. 什么是词元？\n\n- 单位\n  续行\n",  # an item's second line
        "### 1. 什么是词元？\n\n- 单位\n续行\n",  # a lazy line under an item
        "### 1. 什么是词元？\n\n词元\n---\n",  # a setext heading
        "### 1. 什么是词元？\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
        "### 1. 什么是词元？\n\n```\n# 注释\n```\n",
        "### 1. 什么是词元？\n\n[a]: https://example.com\n",
        "### 1. 什么是词元？\n\n> 引用\n",
    ],
)
def test_a_section_that_is_not_plain_goes_to_markdown_it(text):
    lines = text.split("\n")
    assert blocks._plain(lines, 0, len(lines)) is None
    same_as_markdown_it(text)


def test_a_file_parsed_a_part_at_a_time_reads_as_the_whole_file(monkeypatch):
    """Parts end only where nothing before can reach past (``blocks._sections``)."""
    monkeypatch.setattr(blocks, "_plain", lambda *_: None)  # every section to markdown-it
    texts = [p.read_text(encoding="utf-8") for p in sorted(DATA.rglob("*.md"))]
    texts.append("# a\n\n```\n\n# not a heading\n```\n\n# b\n\n<!--\n\n# nor this\n-->\n\n# c\n")
    for text in texts:
        lines = text.split("\n")
        monkeypatch.setattr(blocks, "_PART_LINES", 10**9)
        whole = shape(blocks.parse(text), lines)
        monkeypatch.setattr(blocks, "_PART_LINES", 1)
        assert len(blocks._sections(lines)) > 1 or text.count("\n#") < 2
        assert shape(blocks.parse(text), lines) == whole


def test_the_headings_inside_a_fence_or_a_comment_end_no_section():
    text = "# a\n\n```\n\n# not a heading\n```\n\n# b\n\n<!--\n\n# nor this\n-->\n\n# c\n"
    lines = text.split("\n")
    assert [lines[s] for s, _ in blocks._sections(lines)] == ["# a", "# b", "# c"]
