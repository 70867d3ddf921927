"""Lines that break where a reader expects (issue 20.3), the reveal's marks, clipped summaries."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.markdown import Markdown

from studybot import bank
from studybot.bank.text import clip
from studybot.cli import reveal
from studybot.cli.wrap import break_lines_for_rich, wrap
from studybot.learn import grading

NOTICE = (
    "offline: no TAOTOKEN_API_KEY set, so the bank's answer key answers (--offline to say "
    "so); a run that continues starts from the last summary (--fresh to start without)"
)
PROMPT = "Rate recall: 1 Again · 2 Hard · 3 Good · 4 Easy [Enter = 3 Good] · f h ? q:"
WHOLE = ["TAOTOKEN_API_KEY", "(--offline", "(--fresh", "[Enter = 3 Good]", "d_model × d_model"]


@pytest.mark.parametrize("width", [40, 47, 60, 61, 80, 100, 137, 200])
def test_lines_fit_and_never_split_a_word_a_flag_a_key_hint_or_a_formula(width):
    points = bank.load().get(22).key_points
    for text in [NOTICE, PROMPT, *points]:
        lines = wrap(text, width, hang="    ")
        assert all(cell_len(line) <= width for line in lines), lines
        # Nothing lost or added: the lines are the text, cut at breaks.
        rejoined = "".join(line.removeprefix("    ") if n else line for n, line in enumerate(lines))
        assert rejoined.replace(" ", "") == text.replace(" ", "")
        for piece in WHOLE:
            if piece in text and cell_len(piece) <= width - 4:
                assert any(piece in line for line in lines), (piece, lines)


def test_cjk_breaks_between_characters_but_not_before_closing_punctuation():
    lines = wrap("中文" * 30 + "，结束。", 20)
    assert all(cell_len(line) <= 20 for line in lines)
    assert not any(line.startswith(("，", "。")) for line in lines)
    assert wrap("用KV缓存的Transformer模型", 12) == ["用KV缓存的", "Transformer", "模型"]


def test_numbers_keep_their_units_and_flags_their_values():
    assert wrap("prompt 1,197 · answer 390 · KV 86.8 MiB · 0.1 s", 27)[-1].endswith(
        "86.8 MiB · 0.1 s"
    )
    lines = wrap("studybot plan --from 22 --to 23 --price-input 2 --price-cached 0.2", 30)
    assert any("--price-input 2" in line for line in lines) and any(
        "--from 22" in line for line in lines
    )


def test_a_word_wider_than_the_line_is_cut_only_then():
    assert wrap("x" * 50, 20) == ["x" * 20, "x" * 20, "x" * 10]


def test_rich_markdown_answers_break_cjk_without_cutting_latin_words():
    text = (
        "- 设置 TAOTOKEN_API_KEY 环境变量后，用 --fresh 重新开始，KV 缓存与 K/V 头数成正比，"
        "这正是 GQA 与 MQA 减少 K/V 头数的动机。"
    )
    break_lines_for_rich()
    console = Console(width=40, record=True, force_terminal=False, color_system=None)
    console.print(Markdown(text))
    lines = [line for line in console.export_text().splitlines() if line.strip()]
    body = "".join(line.strip() for line in lines)
    for word in ("TAOTOKEN_API_KEY", "--fresh", "GQA", "MQA"):
        assert any(word in line for line in lines), (word, lines)
    assert body.replace(" ", "").startswith("•设置TAOTOKEN_API_KEY")
    assert max(cell_len(line.rstrip()) for line in lines) <= 40
    # A run of CJK fills its line instead of wrapping as one long word.
    assert cell_len(lines[0].rstrip()) >= 30


def test_a_contradicted_point_shows_its_mark_and_both_texts():
    points = (
        grading.PointResult("参数量与头数无关：`W_Q` 仍为 d_model × d_model", grading.COVERED),
        grading.PointResult(
            "KV 缓存与 K/V 头数成正比",
            grading.CONTRADICTED,
            evidence="KV 缓存和头数没有关系",
            key="KV 缓存与 K/V 头数成正比",
        ),
        grading.PointResult("头数并非越多越好", grading.PARTLY, evidence="头数要适中"),
        grading.PointResult("许多头是冗余的", grading.MISSED),
    )
    result = grading.Grade(grading.score(points), points, "先补第 2 点", grading.LIVE)
    console = Console(width=60, record=True, color_system=None)
    for line in reveal.point_lines(result, 60):
        console.print(line, soft_wrap=True)
    text = console.export_text()
    assert (
        text.splitlines()[0] == "✓ 1 参数量与头数无关：W_Q 仍为 d_model × d_model"
    )  # no backticks
    assert "⚠ 2 KV 缓存与 K/V 头数成正比" in text
    # Both texts: on one line where they fit, else one line each.
    assert "    you: KV 缓存和头数没有关系\n    key: KV 缓存与 K/V 头数成正比" in text
    wide = Console(width=80, record=True, color_system=None)
    for line in reveal.point_lines(result, 80):
        wide.print(line, soft_wrap=True)
    assert "    you: KV 缓存和头数没有关系 · key: KV 缓存与 K/V 头数成正比" in wide.export_text()
    assert "½ 3 头数并非越多越好\n    you: 头数要适中" in text and "✗ 4 许多头是冗余的" in text
    assert reveal.heading(result) == "grade 38% · 1 ✓ · 1 ½ · 1 ✗ · 1 ⚠"


def test_marks_cycle_and_the_suggestion_follows_them():
    points = tuple(grading.PointResult(f"p{n}", grading.COVERED) for n in range(4))
    estimate = grading.Grade(1.0, points, "", grading.OFFLINE)
    once = reveal.cycled(estimate, 2)
    assert [p.state for p in once.points] == ["covered", "partly", "covered", "covered"]
    assert reveal.marks_line(once, estimate) == (
        "marks 1✓ 2½ 3✓ 4✓ · grade 88% (estimate 100%) · [suggests 3 Good]"
    )
    around = estimate
    for _ in range(4):
        around = reveal.cycled(around, 1)
    assert around.points == estimate.points  # ✓ → ½ → ✗ → ⚠ → ✓
    wrong = reveal.cycled(reveal.cycled(reveal.cycled(estimate, 1), 1), 1)
    assert wrong.contradicted == 1 and reveal.marks_line(wrong, estimate).endswith("2 Hard]")
    twice = reveal.cycled(reveal.cycled(reveal.cycled(wrong, 2), 2), 2)
    assert twice.contradicted == 2 and reveal.marks_line(twice, estimate).endswith("1 Again]")


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        (
            "`Attention(Q, K, V) = softmax(QKᵀ / √d_k + M) · V`：Q、K、V 由输入 X 得到",
            24,
            "`Attention(Q, K, V) = softmax(QKᵀ / √d_k + M) · V`…",
        ),
        (
            "把 d_model 切成 h 个头，每头维度 d_head = d_model / h，各头独立计算",
            24,
            "把 d_model 切成 h 个头…",
        ),
        (
            "前缀很长很长很长很长的一句话 $O(n^2 \\cdot d)$ 之后还有",
            20,
            "前缀很长很长很长很长的一句话…",
        ),
        ("短句。", 24, "短句。"),
        (
            "a very long English sentence without any clause mark at all here",
            24,
            "a very long English…",
        ),
    ],
)
def test_a_clip_ends_at_a_clause_and_never_inside_code_or_a_formula(text, limit, expected):
    assert clip(text, limit) == expected
