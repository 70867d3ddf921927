"""Formulas, code and HTML-like text through each renderer the answers meet."""

from __future__ import annotations

from markdown_it import MarkdownIt

from studybot.output.markup import escape_html_like, readable_math, to_html


def test_money_is_not_a_formula_and_code_is_never_touched():
    text = "It costs $5 and $10 a month; `a $x$ b` and\n```\n$y$ <think>\n```\n"
    assert to_html(text).count("\\(") == 0
    assert readable_math(text) == text
    assert escape_html_like(text) == text


def test_formulas_become_code_for_the_terminal_and_mathjax_for_anki():
    text = r"比值 $\frac{a_1}{b_1}$ 与 \(x*y*z\)，以及 $$\sum_i w_i$$"
    assert readable_math(text) == r"比值 `$\frac{a_1}{b_1}$` 与 `\(x*y*z\)`，以及 `$$\sum_i w_i$$`"
    rendered = to_html(text)
    assert r"\(\frac{a_1}{b_1}\)" in rendered and r"\(x*y*z\)" in rendered
    assert r"\[\sum_i w_i\]" in rendered and "<em>" not in rendered


def test_html_like_text_is_visible_after_commonmark_rendering():
    text = "模型输出 <think>推理</think> 然后 </s>；公式 $a<b$ 不变"
    escaped = escape_html_like(text)
    assert "$a<b$" in escaped
    rendered = MarkdownIt("commonmark", {"html": True}).render(escaped)
    assert "&lt;think&gt;推理&lt;/think&gt;" in rendered and "&lt;/s&gt;" in rendered


def test_cjk_text_wraps_between_characters_and_keeps_latin_words_whole():
    from rich.cells import cell_len

    from studybot.cli.wrap import wrap

    text = "位置编码只在训练见过的长度范围内可靠，并要求输入与 max_tokens 之和不超过它。"
    lines = wrap(text, 20)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")  # nothing lost
    assert all(cell_len(line) <= 20 for line in lines)
    assert len(lines) > 1 and lines[0] == "位置编码只在训练见过"
    assert any("max_tokens" in line for line in lines)  # never split inside the word
