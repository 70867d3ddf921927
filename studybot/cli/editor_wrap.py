"""The answer editor's soft wrap at word boundaries (prompt_toolkit wraps at any character).

prompt_toolkit breaks a long line wherever its row is full, so ``layer``
becomes ``la``/``yer`` and ``d_k`` becomes ``d_``/``k``. ``WordWrap`` puts
spaces before a word that would not fit its row, spaces that exist only on
screen, so the word starts the next row: the text typed is unchanged and
the cursor maps through them. A word is a run of narrow characters that are
not spaces (Latin words, figures, ``d_k``, ``KV-cache``); Chinese text may
break between any two characters, as it does in print, and a word longer
than a row breaks where the row ends.

Imported with the editor (it needs prompt_toolkit), never at start-up.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout.processors import Processor, Transformation, TransformationInput
from prompt_toolkit.layout.utils import explode_text_fragments
from prompt_toolkit.utils import get_cwidth

from studybot.cli.wrap import CLOSING


class WordWrap(Processor):
    """Pads each row so that no word is split across two rows of the editor."""

    def __init__(self, prefix: int) -> None:
        self.prefix = prefix  # cells of the prompt (or its continuation) at the start of each row

    def apply_transformation(self, ti: TransformationInput) -> Transformation:
        fragments = explode_text_fragments(ti.fragments)  # one character each
        pads = padding("".join(text for _style, text, *_ in fragments), ti.width - self.prefix)
        if not pads:
            return Transformation(ti.fragments)
        out: StyleAndTextTuples = []
        for index, fragment in enumerate(fragments):
            if index in pads:
                out.append((fragment[0], " " * pads[index]))
            out.append(fragment)
        starts = sorted(pads)

        def to_display(position: int) -> int:
            return position + sum(pads[p] for p in starts if p <= position)

        def to_source(position: int) -> int:
            shift = 0
            for p in starts:
                start = to_display(p)  # where the padded word now begins
                if position >= start:
                    shift += pads[p]
                elif position >= start - pads[p]:
                    return p  # inside the padding: the word's first character
                else:
                    break
            return position - shift

        return Transformation(out, source_to_display=to_display, display_to_source=to_source)


def padding(line: str, cells: int) -> dict[int, int]:
    """Spaces to put before each word of ``line`` that would be split at ``cells`` per row."""
    pads: dict[int, int] = {}
    if cells <= 0:
        return pads
    x = 0  # cells used on the current row
    for index, char in enumerate(line):
        if _in_word(char) and (index == 0 or not _in_word(line[index - 1])):
            end = index
            while end < len(line) and _in_word(line[end]):
                end += 1
            word = sum(get_cwidth(c) for c in line[index:end])
            if 0 < x < cells < x + word and word <= cells:
                pads[index] = cells - x
                x = cells
        width = get_cwidth(char)
        if x + width > cells:  # the row is full: the character starts the next one
            start = index - 1 if index and not line[index - 1].isspace() else index
            while 0 < start < index and _in_word(line[start]) and _in_word(line[start - 1]):
                start -= 1  # "1，": the whole word before it
            before = sum(get_cwidth(c) for c in line[start:index])
            if char in CLOSING and 0 < before < x and start not in pads:
                pads[start] = cells - (x - before)  # "；" never opens a row: what it
                x = before  # closes goes with it, as in print
            else:
                x = 0
        x += width
    return pads


def _in_word(char: str) -> bool:
    return not char.isspace() and get_cwidth(char) == 1
