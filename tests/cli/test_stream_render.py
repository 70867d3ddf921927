"""A streamed answer drawn block by block ends as the whole answer rendered at once.

``MarkdownStream`` prints each settled block once and keeps only the open
block live; what it leaves printed must be, line for line and style for
style, what rendering the whole answer in one go gives: the same blank
lines between blocks, list numbers, tables and code blocks. The answers
are fed in random chunk sizes and, for the short ones, cut in two at every
position.
"""

from __future__ import annotations

import io
import random

import pytest

from studybot.cli import markdown_stream, render
from studybot.output.markup import readable_math

ORDERED = (
    "步骤如下：\n\n" + "".join(f"{n}. 第 {n} 步，做一件事\n" for n in range(1, 13)) + "\n完。\n"
)
LOOSE = "要点：\n\n1. 第一点\n\n2. 第二点，\n   分两行\n\n3. 第三点\n\n   它的第二段\n\n结论。\n"
NESTED = (
    "## 列表\n\n- 外层一\n  - 内层 a\n  - 内层 b\n\n    内层 b 的第二段\n- 外层二\n\n"
    "* 另一个列表\n* 第二项\n\n+ 第三种\n"
)
CODE = (
    "代码：\n\n```python\ndef f(x):\n    y = x * 2\n\n\n    return y\n```\n\n"
    "~~~\nplain\n\n~~~\n\n    indented code\n\n    still code\n\n后文。\n"
)
TABLE = (
    "| 上下文 | KV cache | 注意力 |\n|---|---:|:---:|\n| 8K | 1× | 1× |\n| 32K | 4× | 16× |\n\n"
    "表后的一段。\n\n| a |\n|---|\n| 1 |\n"
)
MATH = (
    "注意力是 $O(n^2)$，缩放 $\\frac{1}{\\sqrt{d_k}}$。\n\n$$\nA = QK^T\n\n"
    "B = \\mathrm{softmax}(A)\n$$\n\n\\[\nx\n\n= y\n\\]\n\n价格 $5 和 $10 不是公式。\n"
)
MIXED = (
    "# 为什么长上下文会变慢\n\n每一轮都把**整个历史**重新发送，prefill 随 $n$ 增长。\n"
    "Setext heading\n---\n\n> 引用一段\n> 第二行\n\n> 另一段引用\n\n---\n\n"
    "***\n\n段落 `code span` 与 [链接](https://example.com)。\n\n<think>\n不是 HTML\n</think>\n\n"
    "### 小结\n文字紧跟标题。\n\n1) 括号编号\n2) 第二\n\n10. 从十开始\n11. 十一\n"
)
SPAN = "一个 `跨\n\n段` 的反引号，和一个未闭合的 ` 反引号。\n\n下一段 $x$。\n"
FENCE_IN_LIST = (
    "1. 第一步\n\n   ```bash\n   pip install x\n\n   run x\n   ```\n\n2. 第二步\n\n收尾。\n"
)
ANSWERS = [ORDERED, LOOSE, NESTED, CODE, TABLE, MATH, MIXED, SPAN, FENCE_IN_LIST]


def console(width: int):
    """A console as a pipe sees it, with colours, so styles are compared too."""
    return render._printable_console()(
        file=io.StringIO(), width=width, height=30, color_system="standard", force_terminal=False
    )


def whole(text: str, width: int) -> str:
    """The answer rendered at once, as the stream used to print it at its end."""
    from rich.markdown import Markdown

    target = console(width)
    markdown = Markdown(readable_math(render.printable(text)), hyperlinks=False)
    lines = target.render_lines(markdown, target.options, pad=False)
    target.print(
        markdown_stream._Lines(markdown_stream._without_leading_blanks(lines)), soft_wrap=False
    )
    return target.file.getvalue()


def streamed(chunks: list[str], width: int) -> str:
    target = console(width)
    stream = markdown_stream.MarkdownStream(target)
    for chunk in chunks:
        stream.feed(chunk)
    stream.close()
    return target.file.getvalue()


def random_chunks(text: str, rng: random.Random) -> list[str]:
    chunks, at = [], 0
    while at < len(text):
        size = rng.choice([1, 1, 2, 3, 5, 8, 13, 40])
        chunks.append(text[at : at + size])
        at += size
    return chunks


@pytest.mark.parametrize("width", [60, 100])
@pytest.mark.parametrize("text", ANSWERS, ids=lambda t: t[:8])
def test_random_chunks_end_as_the_whole_answer(text, width):
    rng = random.Random(hash(text) % 1000 + width)
    expected = whole(text, width)
    for _ in range(15):
        assert streamed(random_chunks(text, rng), width) == expected


def test_all_answers_in_one_stream():
    text = "\n".join(ANSWERS)
    rng = random.Random(7)
    assert streamed(random_chunks(text, rng), 80) == whole(text, 80)


@pytest.mark.parametrize("text", [ORDERED, LOOSE, FENCE_IN_LIST, MATH], ids=lambda t: t[:8])
def test_split_in_two_at_every_position(text):
    expected = whole(text, 60)
    for at in range(len(text) + 1):
        assert streamed([text[:at], text[at:]], 60) == expected, at


def test_blocks_settle_once_and_lists_wait_for_their_end():
    blocks = markdown_stream.Blocks()
    assert blocks.feed("# 标题\n\n段") == []  # the line after the blank is not whole yet
    assert blocks.feed("落一\n\n") == ["# 标题\n\n"]
    assert blocks.feed("1. 一\n\n2. 二\n\n") == []  # a list item may belong to what is before
    assert blocks.feed("```\na\n\nb\n```\n\n完\n") == [
        "段落一\n\n1. 一\n\n2. 二\n\n",
        "```\na\n\nb\n```\n\n",
    ]
    assert blocks.close() == "完\n"


def test_an_open_formula_or_fence_keeps_its_block_open():
    blocks = markdown_stream.Blocks()
    assert blocks.feed("$$\na\n\nb\n$$\n\nc\n") == ["$$\na\n\nb\n$$\n\n"]
    assert blocks.feed("```\nx\n\ny\n") == []
    assert blocks.close() == "c\n```\nx\n\ny\n"


def test_escape_codes_split_across_chunks_are_removed():
    text = "标题\x1b]0;pwned\x07后文\n\n\x1b[31m红\x1b[0m字\n"
    expected = whole(text, 60)
    for at in range(len(text) + 1):
        out = streamed([text[:at], text[at:]], 60)
        assert out == expected and "pwned" not in out


def test_a_table_still_arriving_is_not_shown_as_its_raw_text():
    before = "表如下：\n\n"
    table = "| n | KV |\n|---|---|\n| 8K | 1× |\n"
    for at in range(len(table) + 1):
        shown = markdown_stream.drawable(before + table[:at])
        head_done = at >= len("| n | KV |\n|---|---|\n")
        assert shown == (before + table[:at] if head_done else before)
    assert markdown_stream.drawable("| a |\n|---|\n") == "| a |\n|---|\n"
    assert markdown_stream.drawable("a | b 不是表\n") == "a | b 不是表\n"  # no leading bar


def test_the_live_area_never_draws_a_half_arrived_table():
    target = console(60)
    stream = markdown_stream.MarkdownStream(target)
    shown = []
    for chunk in ["表：\n\n| n | KV |\n", "|---", "|---|\n| 8K | 1× |\n"]:
        stream.feed(chunk)
        lines, _ = stream.render(markdown_stream.drawable(stream.blocks.open))
        shown.append("".join(s.text for line in lines for s in line))
    stream.close()
    assert not any("| n |" in s for s in shown)
    assert shown[:2] == ["", ""] and "8K" in shown[-1]  # nothing until the head is whole
    assert "表" in target.file.getvalue() and "| n |" not in target.file.getvalue()
