"""An imported bank's quiz: the reference answer is shown once, as the marked points (issue 31.6)."""

from __future__ import annotations

import re

import pyte
from quizzing import MARKS, RATE, answer, shown
from quizzing import quiz_terminal as spawn
from terminal import finish

COLUMNS, ROWS = 100, 60

BANK = """# 面试题

## 1. 什么是注意力机制？

注意力让每个 token 按相关度加权其他 token。它用 Q 和 K 的点积算权重，再对 V 加权求和。

## 2. 缩放点积注意力怎么写？

先算 Q 与 K 的点积，再除以根号 d_k，最后 softmax 后乘 V。

```python
weights = softmax(q @ k.T / sqrt(d_k))
```
"""


def _revealed(studybot_home, invoke, tmp_path, question: str) -> list[str]:
    """The screen from the answer heading to the advice of ``question``'s quiz."""
    source = tmp_path / "imp.md"
    source.write_text(BANK, encoding="utf-8")
    assert invoke("bank", "import", str(source), "--name", "imp").exit_code == 0
    child = spawn(studybot_home, "run", "--quiz", "--bank", "imp", "--ids", question, rows=ROWS)
    answer(child, "用点积算权重")
    child.expect(MARKS)
    child.send("\r")
    child.expect(RATE)
    terminal = pyte.Screen(COLUMNS, ROWS)  # what the terminal shows once redraws settle
    pyte.Stream(terminal).feed(shown(child))
    screen = [line.rstrip() for line in terminal.display]
    child.send("q")
    finish(child)
    start = max(n for n, line in enumerate(screen) if line.startswith("── answer"))
    end = next(n for n in range(start, len(screen)) if screen[n].startswith("advice:"))
    return screen[start:end]  # the advice may quote a point again: it names what to start with


def test_the_reference_shows_once_as_the_marked_sentences(studybot_home, invoke, tmp_path):
    reveal = _revealed(studybot_home, invoke, tmp_path, "1")
    flat = "".join("".join(reveal).split())
    for sentence in (
        "注意力让每个token按相关度加权其他token。",
        "它用Q和K的点积算权重，再对V加权求和。",
    ):
        assert flat.count(sentence) == 1, reveal
    marked = [line for line in reveal if re.match("[✓½✗⚠] ", line)]
    assert [line[2] for line in marked] == ["1", "2"]
    assert reveal[1].startswith("grade ")  # no second copy between the heading and the grade


def test_a_reference_with_code_shows_its_prose_marked_and_its_code_once(
    studybot_home, invoke, tmp_path
):
    reveal = _revealed(studybot_home, invoke, tmp_path, "2")
    text = "\n".join(reveal)
    assert "".join(text.split()).count("先算Q与K的点积") == 1, reveal
    assert text.count("weights = softmax(q @ k.T / sqrt(d_k))") == 1, reveal
    marks = max(n for n, line in enumerate(reveal) if re.match("[✓½✗⚠] ", line))
    code = next(n for n, line in enumerate(reveal) if "weights = softmax" in line)
    assert code > marks  # the code the points do not hold follows them
