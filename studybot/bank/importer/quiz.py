"""A quiz item's own material: the code shown under a question, and its lettered options.

``###### 3. 输出是什么？`` over a fenced block and ``- A: …``/``- B: …``
asks about that code: the code is part of the question (a hundred items may
share the heading's words, never the code), and so are the options: a learner
needs them to answer. Options are lettered (``A: …``, ``B. …`` in turn) or
follow a question that says so (``以下哪个…``, ``which of…``); code counts
only when options follow it, so a question's worked example stays in its
answer. Lettered options are never key points.
"""

from __future__ import annotations

import re

from studybot.bank.importer.blocks import Block, source
from studybot.bank.importer.markers import OPTIONS, items, joined

_FENCE_INFO = re.compile(r"^(`{3,}|~{3,})[^\n`]*$", re.MULTILINE)  # "```javascript" shown as "```"
_LETTERED = re.compile(r"([A-Ha-h])\s*[:：.、)）]\s*\S")


def lettered(block: Block) -> bool:
    """A list of two or more items that open with the letters A, B, C… in turn: ``- A: …``."""
    found = [i.first_paragraph() for i in items(block)] if block.is_list else []
    letters = [(_LETTERED.match(joined(p.raw)) if p else None) for p in found]
    return len(found) >= 2 and all(
        m is not None and m[1].upper() == "ABCDEFGH"[k] for k, m in enumerate(letters)
    )


def shown(lines: list[str], question: str, blocks: list[Block]) -> tuple[str, list[Block]]:
    """``question`` with the code and options under it, and the blocks left for its answer."""
    code = 0
    while code < len(blocks) and blocks[code].kind == "fence":
        code += 1
    listed = blocks[code] if code < len(blocks) else None
    if listed is None or not (lettered(listed) or (not code and OPTIONS.search(question))):
        return question, blocks
    if code:
        question += "\n\n" + _FENCE_INFO.sub(r"\1", source(lines, blocks[:code]))
    options = [joined(p.raw) for i in items(listed) if (p := i.first_paragraph())]
    return question + "".join(f"\n- {option}" for option in options), blocks[code + 1 :]
