"""The answer editor's rows, as a terminal of any width shows a typed attempt."""

from __future__ import annotations

import pytest
from prompt_toolkit.utils import get_cwidth

from studybot.cli.editor_wrap import padding
from studybot.cli.wrap import CLOSING

ATTEMPT = (
    "为了加速而是为了把方差拉回 1，否则 softmax 饱和、梯度消失；除以 d_k 会让分布过于平坦。"
    "layer norm 之后再做 QK^T 的缩放，不是为了省显存。"
)


def rows(line: str, cells: int) -> list[str]:
    """The rows the editor draws: the padding put in, then cut where each row is full."""
    pads = padding(line, cells)
    shown = "".join(" " * pads.get(i, 0) + c for i, c in enumerate(line))
    out, row, used = [], "", 0
    for char in shown:
        if used + get_cwidth(char) > cells:
            out.append(row)
            row, used = "", 0
        row += char
        used += get_cwidth(char)
    return [*out, row]


@pytest.mark.parametrize("cells", range(16, 61))
def test_no_row_opens_with_closing_punctuation_and_no_word_is_split(cells):
    drawn = rows(ATTEMPT, cells)
    assert not any(row[:1] in CLOSING for row in drawn), drawn
    words = {"softmax", "d_k", "layer", "norm", "QK^T"}
    assert all(any(w in row for row in drawn) for w in words), drawn
    assert "".join(drawn).replace(" ", "") == ATTEMPT.replace(" ", "")  # nothing lost
