"""A short list alone under a question: its key points.

A few short items of plain text (no link alone), each with its sub-items
after a ``；``, read as the key points of the question above them.
"""

from __future__ import annotations

from studybot.bank.importer.blocks import Block, link_target
from studybot.bank.importer.markers import CHECKBOX, items
from studybot.bank.importer.wrapping import joined

KEY_POINTS_MOST = 6
_POINT_CHARS = 300


def key_points_of(block: Block) -> list[str] | None:
    """The key points of a list that reads as such (a few short items, plain text, no
    links alone), each with its sub-items after a ``；``; None for any other list."""
    listed = items(block)
    if not listed or len(listed) > KEY_POINTS_MOST:
        return None
    points = []
    for item in listed:
        paragraph = item.first_paragraph()
        if paragraph is None or link_target(paragraph.raw) is not None:
            return None
        point = CHECKBOX.sub("", joined(paragraph.raw))  # "- [x] 优点：" is the point "优点："
        if len(point) > _POINT_CHARS:
            return None
        for child in item.children[1:]:
            if not child.is_list or key_points_of(child) is None:
                return None
            for sub in items(child):
                below = sub.first_paragraph()  # there is one: the child reads as key points
                if below is None:
                    return None
                below_text = CHECKBOX.sub("", joined(below.raw))
                point += ("" if point.endswith(("：", ":")) else "；") + below_text
        points.append(point)
    return points
